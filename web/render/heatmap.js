// A matrix heatmap on canvas: one ImageData pixel per cell, stretched with smoothing off onto
// a whole number of device pixels per cell (crisp at any devicePixelRatio); row and column
// labels, axis titles, a colour bar with numbers, values printed in the cells while they are
// legible, masked cells in grey, dashed clipping-band edges, the highlighted cells, and a note.
// The margins are fixed, so the canvas's height depends only on its width: changing the data
// or the labels never moves the page.
import { MASKED, blockMeans } from './block-means.js';
import { fitCanvas } from './canvas-size.js';
import { fitLabel } from './fit-label.js';
import { colourTable, luminance } from './colormaps.js';
import { colourMap, pixelOf, pixelTableOf } from './heatmap-pixels.js';
import { drawColourBar } from './colour-bar.js';
import { fillMath, wrapMath } from './math-text.js';
import { niceStep } from './ticks.js';

/** Type sizes at fontScale 1 (CSS px): labels and colour-bar numbers, the smallest printed cell value, the note. */
export const LABEL_FONT = 13;
export const MIN_VALUE_FONT = 11;
export const NOTE_FONT = 12;
/** The smallest cell (CSS px at fontScale 1) whose row and column each get a label. */
export const MIN_LABELLED_CELL = 13;

/**
 * The margins around the matrix (CSS px) for a canvas `width` px wide, type `fontScale` times
 * the usual size: the space for row and column labels grows with the width (62 px on a phone,
 * up to 120 px on a wide panel), so a wide screen shows whole words. Depends only on the width
 * and the scale, so a canvas's height never depends on the data or the labels; `labelSpace`
 * overrides it (the present view, where nothing around the panel can move).
 */
export function heatmapMargins(width, fontScale = 1, labelSpace = null) {
  const labels = Math.round(labelSpace ?? fontScale * Math.min(120, Math.max(62, (width / fontScale) * 0.2)));
  return {
    labels,
    left: labels + Math.round(30 * fontScale),
    top: Math.round(labels * Math.sin(Math.PI / 3) + 26 * fontScale),
    right: Math.round(labels * 0.35), // the last column labels slant out to the right
    bottom: Math.round(86 * fontScale), // colour bar, its numbers and a two-line note
  };
}

/** The canvas width (CSS px) for a heatmap in `width` px: no wider than its largest matrix needs. */
export function heatmapWidth(width, maxSide = Infinity, fontScale = 1, labelSpace = null) {
  const margin = heatmapMargins(width, fontScale, labelSpace);
  return Math.min(width, Math.ceil(maxSide + margin.left + margin.right));
}

/** The canvas height (CSS px) that a heatmap of this width takes. */
export function heatmapHeight(width, maxSide = Infinity, fontScale = 1, labelSpace = null) {
  const margin = heatmapMargins(width, fontScale, labelSpace);
  const side = Math.min(maxSide, width - margin.left - margin.right);
  return margin.top + Math.max(side, 40) + margin.bottom;
}

// The matrix as the screen shows it, per canvas, cached until the values, the scale or the size
// change (a hover only recomposes the canvas). While a cell is at least a device pixel: one
// ImageData pixel per cell, colour-mapped through a 32-bit view of the table and stretched with
// smoothing off. With more cells than pixels: each device pixel shows the mean of the cells it
// covers (masked cells left out), then is colour-mapped — an honest picture of a long matrix.
const matrixCache = new WeakMap();

/** Drops a canvas's cached matrix image, so that the next draw colour-maps again (benchmarks). */
export function forgetMatrixImage(canvas) {
  matrixCache.delete(canvas);
}

// The square matrix's block means (block-means.js) with the causal mask's cells (j > i) left out,
// a block of masked cells only as NaN, which colourMap draws grey. Every cell of a row counts as
// a number (the span [0, n)): no test per cell.
function squareBlockMeans(values, n, size, masked) {
  const row = [0, n];
  const { grid } = blockMeans(values, n, n, size, size, masked ? (i) => i + 1 : null, () => row);
  for (let p = 0; p < grid.length; p += 1) if (grid[p] === MASKED) grid[p] = NaN;
  return grid;
}

function matrixImage(canvas, spec, sideDevice) {
  const { n, values, scale, masked } = spec;
  const key = `${n}|${scale.map}|${scale.min}|${scale.max}|${masked ? 'masked' : ''}|${sideDevice}|${spec.colours.masked}`;
  let cache = matrixCache.get(canvas);
  if (cache && cache.values === values && cache.key === key)
    return cache.size === sideDevice ? cache.cells : cache.scaled;
  const size = Math.min(n, sideDevice); // pixels per side of the colour-mapped image
  if (!cache || cache.size !== size) {
    const cells = new OffscreenCanvas(size, size);
    cache = { size, cells, cellsContext: cells.getContext('2d'), image: new ImageData(size, size), scaled: null };
    matrixCache.set(canvas, cache);
  }
  const table = pixelTableOf(scale.map);
  // A masked cell (j > i) and a NaN are grey alike; values are drawn as they are (−∞ too).
  const grey = pixelOf(spec.colours.masked);
  const pixels = new Uint32Array(cache.image.data.buffer);
  if (size === n)
    colourMap(values, n, n, scale, table, pixels, {
      grey,
      blank: grey,
      maskFrom: masked ? (i) => i + 1 : null,
      maskedBlocks: false,
    });
  else
    colourMap(squareBlockMeans(values, n, size, masked), size, size, scale, table, pixels, {
      grey,
      blank: grey,
      maskedBlocks: false,
    });
  cache.cellsContext.putImageData(cache.image, 0, 0);
  cache.values = values;
  cache.key = key;
  if (size === sideDevice) return cache.cells; // a device pixel per cell: nothing to stretch
  if (!cache.scaled) {
    cache.scaled = new OffscreenCanvas(sideDevice, sideDevice);
    cache.scaledContext = cache.scaled.getContext('2d');
  }
  if (cache.scaled.width !== sideDevice) {
    cache.scaled.width = sideDevice;
    cache.scaled.height = sideDevice;
  }
  const g = cache.scaledContext;
  g.imageSmoothingEnabled = false;
  g.clearRect(0, 0, sideDevice, sideDevice);
  g.drawImage(cache.cells, 0, 0, sideDevice, sideDevice);
  return cache.scaled;
}

// The cells of a highlighted group as one outline: `rowRange(i)` gives the group's columns
// [lo, hi] in row i (or null); the polygon runs down the right edges and back up the left.
function groupOutline(n, rowRange) {
  const rows = [];
  for (let i = 0; i < n; i += 1) {
    const range = rowRange(i);
    if (range) rows.push({ i, lo: range[0], hi: range[1] });
  }
  const right = rows.flatMap(({ i, hi }) => [
    [hi + 1, i],
    [hi + 1, i + 1],
  ]);
  const left = rows.reverse().flatMap(({ i, lo }) => [
    [lo, i + 1],
    [lo, i],
  ]);
  return [...right, ...left];
}

/**
 * The clipping-band edges as polylines in cell units ([x, y] = [column, row] corners): where a
 * row's shared run begins, between offsets k − 1 and k (the |j − i| = k diagonal already uses
 * the edge row) and its mirror between −k + 1 and −k. Drawn only where a row has a shared run
 * of two or more cells (0 < k < n − 1; at k = 0 every cell uses the one row), and never on the
 * matrix border. `sides`: 'both', or 'lower' (causal: a decoder never uses offsets above 0).
 */
export function bandEdgePaths(n, k, sides = 'both') {
  if (!(k > 0 && k < n - 1)) return [];
  const upper = [];
  for (let i = 0; i + k <= n - 1; i += 1) upper.push([k + i, i], [k + i, i + 1]);
  const lower = upper.map(([x, y]) => [y, x]);
  return sides === 'lower' ? [lower] : [upper, lower];
}

function drawBandEdges(g, paths, x0, y0, cell, colours) {
  for (const [width, colour, dash] of [
    [3, colours.outlineHalo, []],
    [1.5, colours.fg, [5, 4]],
  ]) {
    g.lineWidth = width;
    g.strokeStyle = colour;
    g.setLineDash(dash);
    for (const path of paths) {
      g.beginPath();
      path.forEach(([x, y], index) => {
        if (index === 0) g.moveTo(x0 + x * cell, y0 + y * cell);
        else g.lineTo(x0 + x * cell, y0 + y * cell);
      });
      g.stroke();
    }
  }
  g.setLineDash([]);
}

// The band edges depend on n, k and the geometry only, not on the values: drawn once per canvas
// into a transparent layer in the canvas's device pixels (the same device-space geometry), and
// composited on every draw. Stroking the dashed staircase is the costliest part of a redraw.
const bandEdgeCache = new WeakMap();

function bandEdgeLayer(canvas, n, k, sides, x0, y0, cell, sideDevice, ratio, colours) {
  const pad = Math.ceil(3 * ratio); // the halo reaches 1.5 CSS px past the matrix
  const left = Math.round(x0 * ratio) - pad;
  const top = Math.round(y0 * ratio) - pad;
  const key = `${n}|${k}|${sides}|${x0}|${y0}|${cell}|${sideDevice}|${ratio}|${colours.outlineHalo}|${colours.fg}`;
  const cached = bandEdgeCache.get(canvas);
  if (cached?.key === key) return cached;
  const side = sideDevice + 2 * pad;
  const layer = new OffscreenCanvas(side, side);
  const g = layer.getContext('2d');
  g.setTransform(ratio, 0, 0, ratio, -left, -top);
  drawBandEdges(g, bandEdgePaths(n, k, sides), x0, y0, cell, colours);
  const entry = { key, layer, left, top };
  bandEdgeCache.set(canvas, entry);
  return entry;
}

/**
 * Where everything goes, in CSS px, for a heatmap of n × n cells `spec.width` px wide drawn at
 * `ratio` device pixels per CSS px: a whole number of device pixels per cell while cells are at
 * least a pixel, the matrix centred and starting on a device pixel. Shared by the canvas and
 * anything else that draws the same figure (an SVG export).
 */
export function heatmapLayout(spec, ratio = 1) {
  const { n } = spec;
  const fontScale = spec.fontScale ?? 1;
  const margin = heatmapMargins(spec.width, fontScale, spec.labelSpace);
  const height = heatmapHeight(spec.width, spec.maxSide, fontScale, spec.labelSpace);
  const available = Math.min(spec.maxSide ?? Infinity, spec.width - margin.left - margin.right);
  const cellDevice = Math.floor((available * ratio) / n);
  const sideDevice = cellDevice >= 1 ? cellDevice * n : Math.floor(available * ratio);
  const side = sideDevice / ratio;
  const x0 = Math.round((margin.left + (available - side) / 2) * ratio) / ratio;
  const y0 = Math.round(margin.top * ratio) / ratio;
  return { n, margin, width: spec.width, height, fontScale, ratio, side, sideDevice, cell: side / n, x0, y0 };
}

// The values printed in the cells, while they fit (dark text on light cells, light on dark).
function drawCellValues(g, spec, layout, font) {
  const { n, values, scale, masked } = spec;
  const { cell, x0, y0, fontScale } = layout;
  const valueFont = Math.min(LABEL_FONT * fontScale, cell * 0.3);
  if (!spec.showValues || valueFont < MIN_VALUE_FONT) return;
  g.font = `${valueFont}px ${font}`;
  const texts = Array.from(values, (value) => spec.formatValue(value));
  const widest = Math.max(...texts.map((text) => g.measureText(text).width));
  if (widest > cell - 4) return;
  const table = colourTable(scale.map);
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  for (let index = 0; index < n * n; index += 1) {
    const i = Math.floor(index / n);
    const j = index % n;
    if (masked && masked(i, j)) continue;
    g.fillStyle = luminance(table, scale.entry(values[index])) > 0.36 ? '#111' : '#fff';
    g.fillText(texts[index], x0 + (j + 0.5) * cell, y0 + (i + 0.5) * cell);
  }
}

// The clipping band's dashed edges, from a layer cached per canvas (bandEdgeLayer).
function drawBandEdgeLayer(canvas, g, spec, layout) {
  if (spec.bandEdges === null || spec.bandEdges === undefined) return;
  if (!bandEdgePaths(spec.n, spec.bandEdges).length) return;
  const { x0, y0, cell, sideDevice, ratio } = layout;
  const sides = spec.bandEdgeSides ?? 'both';
  g.save();
  g.setTransform(1, 0, 0, 1, 0, 0);
  const args = [canvas, spec.n, spec.bandEdges, sides, x0, y0, cell, sideDevice, ratio, spec.colours];
  const { layer, left, top } = bandEdgeLayer(...args);
  g.drawImage(layer, left, top);
  g.restore();
}

/**
 * Which rows and columns a layout labels: each with its token while the cells are tall enough
 * (`tokens`), else every `every`-th index (a nice step).
 */
export function axisLabelStep({ cell, fontScale }) {
  const minLabelled = MIN_LABELLED_CELL * fontScale;
  const tokens = cell >= minLabelled;
  return { tokens, every: tokens ? 1 : niceStep((minLabelled * 1.8) / cell) };
}

/**
 * The colour bar's box under the matrix, as wide as the matrix (at least 160 px where the width
 * allows), and the top of the note under it.
 */
export function colourBarBox({ x0, y0, side, width, margin, fontScale }) {
  const y = y0 + side + 26 * fontScale;
  const barWidth = Math.max(side, Math.min(160 * fontScale, width - x0 - margin.right));
  return { x: x0, y, width: barWidth, height: 10 * fontScale, noteY: y + 30 * fontScale };
}

// Row and column labels (tokens while the cells are tall enough, else every few round indices)
// and the axis titles. Returns how many labels were shortened with "…" for want of room.
function drawAxisLabels(g, spec, layout, font) {
  const { n, colours } = spec;
  const { cell, x0, y0, side, margin, width, fontScale } = layout;
  g.font = `${LABEL_FONT * fontScale}px ${font}`;
  g.fillStyle = colours.fg;
  const { tokens, every } = axisLabelStep(layout);
  const labelOf = (labels, index) => (tokens ? labels[index] : String(index));
  const labelled = (index) => index % every === 0;
  let labelsCut = 0;
  const fit = (text, room) => {
    const shown = fitLabel(g, text, room);
    if (shown !== text) labelsCut += 1;
    return shown;
  };
  g.textAlign = 'right';
  g.textBaseline = 'middle';
  for (let i = 0; i < n; i += 1) {
    if (labelled(i)) g.fillText(fit(labelOf(spec.rowLabels, i), margin.labels), x0 - 6, y0 + (i + 0.5) * cell);
  }
  g.textAlign = 'left';
  for (let j = 0; j < n; j += 1) {
    if (!labelled(j)) continue;
    g.save();
    g.translate(x0 + (j + 0.5) * cell, y0 - 6);
    g.rotate(-Math.PI / 3);
    // Slanted up and to the right at 60°: no longer than the canvas's right edge allows.
    const room = Math.min(margin.labels, (width - 2 - (x0 + (j + 0.5) * cell)) / Math.cos(Math.PI / 3));
    g.fillText(fit(labelOf(spec.colLabels, j), room), 0, 0);
    g.restore();
  }
  g.fillStyle = colours.muted;
  g.textAlign = 'center';
  g.textBaseline = 'top';
  g.fillText(spec.xTitle, x0 + side / 2, 2);
  g.save();
  g.translate(4, y0 + side / 2);
  g.rotate(-Math.PI / 2);
  g.textBaseline = 'top';
  g.fillText(spec.yTitle, 0, 0);
  g.restore();
  return labelsCut;
}

// The highlighted cells: outlines while the cells are large, else everything outside the
// group dimmed and the group outlined; the hovered cell marked in either case.
function drawHighlight(g, spec, layout) {
  const { n, colours } = spec;
  const { i: hi, j: hj, group } = spec.highlight;
  const { cell, x0, y0, side } = layout;
  const outline = (i, j, lineWidth) => {
    const inset = lineWidth / 2;
    g.lineWidth = lineWidth + 2;
    g.strokeStyle = colours.outlineHalo;
    g.strokeRect(x0 + j * cell + inset, y0 + i * cell + inset, cell - lineWidth, cell - lineWidth);
    g.lineWidth = lineWidth;
    g.strokeStyle = colours.outline;
    g.strokeRect(x0 + j * cell + inset, y0 + i * cell + inset, cell - lineWidth, cell - lineWidth);
  };
  if (cell >= 12) {
    const thin = Math.max(1, Math.min(2, cell / 8));
    for (let i = 0; i < n; i += 1)
      for (let j = 0; j < n; j += 1) if (group(i, j) && (i !== hi || j !== hj)) outline(i, j, thin);
  } else {
    const polygon = groupOutline(n, spec.highlight.rowRange);
    const trace = () =>
      polygon.forEach(([x, y], index) =>
        index ? g.lineTo(x0 + x * cell, y0 + y * cell) : g.moveTo(x0 + x * cell, y0 + y * cell),
      );
    g.save();
    g.beginPath();
    g.rect(x0, y0, side, side);
    trace();
    g.closePath();
    g.globalAlpha = 0.66;
    g.fillStyle = colours.panel;
    g.fill('evenodd');
    g.restore();
    g.beginPath();
    trace();
    g.closePath();
    g.lineWidth = 1.5;
    g.strokeStyle = colours.outline;
    g.stroke();
  }
  const mark = Math.max(2, Math.min(3, cell / 4));
  if (cell >= 4) outline(hi, hj, mark);
  else {
    g.lineWidth = 2;
    g.strokeStyle = colours.outline;
    g.strokeRect(x0 + hj * cell - 3, y0 + hi * cell - 3, cell + 6, cell + 6); // a visible mark
  }
}

// The colour bar, as wide as the matrix (at least 160 px), and the note under it (math
// notation, up to two lines).
function drawScaleAndNote(g, spec, layout, font) {
  const { scale, colours } = spec;
  const { width, fontScale } = layout;
  const { x, y, width: barWidth, height, noteY } = colourBarBox(layout);
  const labelRoom = width - x - 4; // to the canvas's right edge
  drawColourBar(g, { x, y, width: barWidth, height, scale, fg: colours.fg, label: scale.label, labelRoom });
  if (!spec.note) return false;
  const noteFont = { size: NOTE_FONT * fontScale, family: font, style: 'italic' };
  g.fillStyle = colours.muted;
  const lines = wrapMath(g, spec.note, width - 8, noteFont);
  lines.forEach((line, index) => fillMath(g, line, 4, noteY + index * noteFont.size * 1.25, noteFont));
  return lines.join(' ') !== spec.note; // cut short (ends in "…")
}

/**
 * Draws `values` (n × n, row-major) into `canvas`.
 * spec: { n, values, scale (colormaps.makeScale), rowLabels, colLabels, xTitle, yTitle,
 *         formatValue, masked(i, j) | null (the causal mask: j > i), bandEdges: k | null,
 *         bandEdgeSides: 'both' | 'lower' (bandEdgePaths), note,
 *         highlight: { i, j, group(i, j) -> bool, rowRange(i) -> [lo, hi] | null } | null,
 *         width, maxSide, fontScale (type size, 1 = usual), labelSpace (px, optional),
 *         pixelRatio (device pixels per CSS px; default devicePixelRatio),
 *         colours: { fg, muted, outline, outlineHalo, panel, masked, font } }
 * Returns the layout in CSS px: { x0, y0, cell, n, width, height, fontScale, labelsCut, noteCut }.
 */
export function drawHeatmap(canvas, spec) {
  const ratio = spec.pixelRatio ?? (globalThis.devicePixelRatio || 1);
  const layout = heatmapLayout(spec, ratio);
  const { context: g } = fitCanvas(canvas, spec.width, layout.height, ratio);
  g.clearRect(0, 0, layout.width, layout.height);
  const font = spec.colours.font || 'sans-serif';
  const { x0, y0, side, sideDevice, cell, width, height, fontScale } = layout;
  g.drawImage(matrixImage(canvas, spec, sideDevice), x0, y0, side, side);
  drawCellValues(g, spec, layout, font);
  drawBandEdgeLayer(canvas, g, spec, layout);
  const labelsCut = drawAxisLabels(g, spec, layout, font);
  if (spec.highlight) drawHighlight(g, spec, layout);
  const noteCut = drawScaleAndNote(g, spec, layout, font);
  return { x0, y0, cell, n: spec.n, width, height, fontScale, labelsCut, noteCut };
}
