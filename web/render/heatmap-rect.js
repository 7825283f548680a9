// A rows × cols heatmap on canvas (the long view's offset space: rows are queries i, columns
// offsets c = −k…k). Cells are rectangles, a whole number of device pixels on each axis while
// they are at least a pixel; with more cells than pixels on an axis, each device pixel shows the
// mean of the cells it covers (no-key and masked cells left out). NaN cells ("no key") are left
// blank, masked cells grey. Two steps: rectHeatmapGrid() gives the grid of pixels that will be
// drawn (the cells, or the block means where pixels average several) and a sample of its
// values, from which the caller chooses the colour scale and the note; drawRectHeatmap() draws
// with them. Square n × n matrices keep heatmap.js's drawHeatmap; the margins and the canvas
// height are the same as there.
import { fitCanvas } from './canvas-size.js';
import { fitLabel } from './fit-label.js';
import { drawColourBar } from './colour-bar.js';
import { heatmapHeight, heatmapMargins } from './heatmap.js';
import { MASKED, blockMeans, bounds } from './block-means.js';
import { colourMap, pixelOf, pixelTableOf } from './heatmap-pixels.js';

const LABEL_FONT = 13;
const NICE_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 250, 500, 1000];
const ROW_LABEL_GAP = 13 * 1.8; // CSS px between row labels
const COL_LABEL_GAP = 44; // CSS px between column labels (horizontal text)
const LABEL_SPACE = 62; // positions only (the long view): the narrow label space at any width
const MAX_SAMPLE = 1 << 16; // drawn values in a grid's sample, at most
const NOTE_LINE = 15;
const marginsFor = (width) => heatmapMargins(width, 1, LABEL_SPACE);

// The drawn values that set the colour range: those in the grid columns wholly inside
// spec.rangeCols (cell columns, inclusive), not blank, not masked; at a fixed stride beyond
// MAX_SAMPLE. Also the extent of every drawn value (for the colour bar's pointed ends).
function drawnSample(grid, gRows, gCols, bx, rangeCols, maskFrom) {
  const [first, last] = rangeCols;
  const inRange = new Uint8Array(gCols);
  for (let px = 0; px < gCols; px += 1) inRange[px] = bx[px] >= first && bx[px + 1] - 1 <= last ? 1 : 0;
  const stride = Math.max(1, Math.ceil((gRows * gCols) / MAX_SAMPLE)) | 1;
  const sample = new Float64Array(Math.ceil((gRows * gCols) / stride) + 1);
  let count = 0;
  let min = Infinity;
  let max = -Infinity;
  for (let py = 0; py < gRows; py += 1) {
    const stop = maskFrom ? Math.min(maskFrom(py), gCols) : gCols;
    for (let px = 0; px < stop; px += 1) {
      const index = py * gCols + px;
      const v = grid[index];
      if (v !== v || v === MASKED) continue;
      if (v < min) min = v;
      if (v > max) max = v;
      if (inRange[px] && index % stride === 0) sample[count++] = v;
    }
  }
  return { sample, count, min, max };
}

const imageCache = new WeakMap();
const gridCache = new WeakMap();

/** Drops a canvas's cached grid and image (benchmarks). */
export function forgetRectImage(canvas) {
  imageCache.delete(canvas);
  gridCache.delete(canvas);
}

/**
 * The grid of pixels `spec` (drawRectHeatmap's, without scale and note) is drawn with on
 * `canvas`: { gRows, gCols, grid (the values, or the block means: spec.means when they were
 * computed for this grid, in a worker), drawn } with drawn = { sample, count, min, max }: the
 * drawn values in the columns wholly inside spec.rangeCols (at a stride beyond 65,536; null
 * without rangeCols) and the extent of every drawn value. The same object while the values,
 * the size and the mask stay (kept per canvas).
 */
export function rectHeatmapGrid(canvas, spec) {
  const { across, down } = axesOf(spec);
  const { rows, cols, values } = spec;
  const heightDevice = down.device;
  const widthDevice = across.device;
  const key = `${rows}|${cols}|${widthDevice}|${heightDevice}|${spec.maskKey ?? ''}|${spec.rangeCols ?? ''}`;
  const cached = gridCache.get(canvas);
  if (cached && cached.values === values && cached.means === spec.means && cached.key === key) return cached;
  const gRows = Math.min(rows, heightDevice);
  const gCols = Math.min(cols, widthDevice);
  let grid = values;
  let bx = bounds(cols, gCols);
  let maskFrom = spec.maskFrom ?? null;
  if (gRows !== rows || gCols !== cols) {
    const { means } = spec;
    if (means && means.gRows === gRows && means.gCols === gCols) grid = means.grid;
    else ({ grid, bx } = blockMeans(values, rows, cols, gRows, gCols, maskFrom, spec.rowSpan));
    maskFrom = null; // block means carry MASKED themselves
  }
  const drawn = spec.rangeCols ? drawnSample(grid, gRows, gCols, bx, spec.rangeCols, maskFrom) : null;
  const result = { values, means: spec.means, key, gRows, gCols, grid, maskFrom, drawn };
  gridCache.set(canvas, result);
  return result;
}

// The colour-mapped image (gCols × gRows pixels, stretched to the matrix's device size) of a
// grid (rectHeatmapGrid); cached per canvas until the grid, the scale or the masked colour change.
function matrixImage(canvas, spec, made, widthDevice, heightDevice) {
  const { scale } = spec;
  const { values, gRows, gCols, grid, maskFrom } = made;
  const key = `${scale.kind}|${scale.map}|${scale.min}|${scale.max}|${spec.scaleKey ?? ''}|${spec.colours.masked}`;
  const cached = imageCache.get(canvas);
  if (cached && cached.made === made && cached.key === key) return cached;
  // The offscreen canvases and the ImageData are kept with the canvas while their sizes hold.
  const entry = cached ?? {};
  if (entry.gRows !== gRows || entry.gCols !== gCols) {
    entry.cells = new OffscreenCanvas(gCols, gRows);
    entry.cellsContext = entry.cells.getContext('2d');
    entry.image = new ImageData(gCols, gRows);
  }
  // A no-key cell (NaN) is blank (transparent), a masked one grey.
  const pixels = new Uint32Array(entry.image.data.buffer);
  const grey = pixelOf(spec.colours.masked);
  colourMap(grid, gRows, gCols, scale, pixelTableOf(scale.map), pixels, {
    grey,
    blank: 0,
    maskFrom,
    maskedBlocks: true,
  });
  entry.cellsContext.putImageData(entry.image, 0, 0);
  let picture = entry.cells;
  if (gRows !== heightDevice || gCols !== widthDevice) {
    if (entry.scaled?.width !== widthDevice || entry.scaled?.height !== heightDevice) {
      entry.scaled = new OffscreenCanvas(widthDevice, heightDevice);
      entry.scaledContext = entry.scaled.getContext('2d');
    }
    const g = entry.scaledContext;
    g.imageSmoothingEnabled = false;
    g.clearRect(0, 0, widthDevice, heightDevice);
    g.drawImage(entry.cells, 0, 0, widthDevice, heightDevice);
    picture = entry.scaled;
  }
  Object.assign(entry, { made, values, key, picture, scale, gRows, gCols });
  imageCache.set(canvas, entry);
  return entry;
}

/**
 * The grid of pixels (gRows × gCols) a rows × cols heatmap of this canvas width is drawn with:
 * block means are computed for it (blockMeans), and can be computed ahead, in a worker.
 */
export function rectGrid(rows, cols, width, maxSide, ratio = globalThis.devicePixelRatio || 1) {
  const MARGIN = marginsFor(width);
  const available = Math.min(maxSide ?? Infinity, width - MARGIN.left - MARGIN.right);
  return {
    gRows: Math.min(rows, axis(rows, available, ratio).device),
    gCols: Math.min(cols, axis(cols, available, ratio).device),
  };
}

// The matrix's two axes in device pixels for a spec's width, maxSide and squareCells.
function axesOf(spec) {
  const { rows, cols } = spec;
  const ratio = globalThis.devicePixelRatio || 1;
  const MARGIN = marginsFor(spec.width);
  const available = Math.min(spec.maxSide ?? Infinity, spec.width - MARGIN.left - MARGIN.right);
  const { across, down } = spec.squareCells
    ? squareAxes(rows, cols, available, ratio)
    : { across: axis(cols, available, ratio), down: axis(rows, available, ratio) };
  return { ratio, MARGIN, available, across, down };
}

/** One axis: a whole number of device pixels per cell while cells are a pixel or more. */
function axis(count, available, ratio) {
  const cellDevice = Math.floor((available * ratio) / count);
  const device = cellDevice >= 1 ? cellDevice * count : Math.floor(available * ratio);
  return { device, side: device / ratio, cell: device / ratio / count };
}

// Both axes with square cells (spec.squareCells: a matrix of one's own, n_q × n_k): the same
// whole number of device pixels per cell on both while the longer axis allows a pixel per cell;
// beyond that the longer axis takes the whole side (block means) and the shorter one its share.
// The shorter side is at least 24 CSS px (a whole number of device pixels per cell), so that a
// single query row stays visible: its cells are then taller (or wider) than square.
function squareAxes(rows, cols, available, ratio) {
  const long = Math.max(rows, cols);
  const full = Math.floor(available * ratio);
  const cellDevice = Math.floor(full / long);
  const least = (count) => Math.min(full, count * Math.ceil((24 * ratio) / count));
  const share = (count) =>
    cellDevice >= 1
      ? Math.max(cellDevice * count, least(count))
      : count === long
        ? full
        : Math.min(full, Math.max(Math.round((full * count) / long), Math.round(24 * ratio)));
  const make = (count, device) => ({ device, side: device / ratio, cell: device / ratio / count });
  return { across: make(cols, share(cols)), down: make(rows, share(rows)) };
}

/**
 * Draws `values` (rows × cols, row-major; NaN: no key, blank) into `canvas`.
 * spec: { rows, cols, values, scale (colormaps.makeScale; scaleKey: anything else it depends
 *         on), grid (rectHeatmapGrid's for this spec; default computed here), rangeCols:
 *         [first, last] (the columns whose drawn values the grid's sample holds), rowSpan(i) -> [lo, hi)
 *         (optional: row i's cells outside it are NaN, inside numbers), means: { gRows, gCols,
 *         grid } (optional: blockMeans' grid computed ahead), maskFrom(i) -> the first
 *         masked column of row i | null (maskKey), rowLabel(i), colLabel(j) -> text,
 *         colValue(j) -> number (columns whose value is a multiple of the label step are
 *         labelled, and always those with colLabelAlways(j)), xTitle, yTitle, edgeLines:
 *         boolean (dashed lines inside the first and last column), note (text),
 *         highlight: { i, j, rows: [first, last] (the column's cells to outline) } | null,
 *         squareCells: boolean (cells as wide as tall, the height following the shape),
 *         width, maxSide, colours }
 * Returns the layout in CSS px: { x0, y0, cellW, cellH, rows, cols, width, height, scale, gRows, gCols }.
 */
export function drawRectHeatmap(canvas, spec) {
  const { rows, cols, colours } = spec;
  const { ratio, MARGIN, available, across, down } = axesOf(spec);
  // The height depends only on the width, or with square cells also on the matrix's shape.
  const height = spec.squareCells
    ? MARGIN.top + Math.max(down.side, 40) + MARGIN.bottom + NOTE_LINE
    : heatmapHeight(spec.width, spec.maxSide, 1, LABEL_SPACE) + NOTE_LINE; // room for a two-line note
  const { context: g, width } = fitCanvas(canvas, spec.width, height);
  g.clearRect(0, 0, width, height);
  const font = colours.font || 'sans-serif';

  const cellW = across.cell;
  const cellH = down.cell;
  const x0 = Math.round((MARGIN.left + (available - across.side) / 2) * ratio) / ratio;
  const y0 = Math.round(MARGIN.top * ratio) / ratio;

  const made = spec.grid ?? rectHeatmapGrid(canvas, spec);
  const { picture, scale, gRows, gCols } = matrixImage(canvas, spec, made, across.device, down.device);
  g.drawImage(picture, x0, y0, across.side, down.side);

  // Dashed lines inside the edge columns: the cells beyond them sum or stand for clipped keys.
  // Columns narrower than 6 px would vanish under a line: it is drawn below the matrix instead.
  if (spec.edgeLines && cols >= 3) {
    const [top, bottom] = cellW >= 6 ? [y0, y0 + down.side] : [y0 + down.side + 1, y0 + down.side + 12];
    for (const [lineWidth, colour, dash] of [
      [3, colours.outlineHalo, []],
      [1.5, colours.fg, cellW >= 6 ? [5, 4] : [3, 2]],
    ]) {
      g.lineWidth = lineWidth;
      g.strokeStyle = colour;
      g.setLineDash(dash);
      for (const x of [x0 + cellW, x0 + (cols - 1) * cellW]) {
        g.beginPath();
        g.moveTo(x, top);
        g.lineTo(x, bottom);
        g.stroke();
      }
    }
    g.setLineDash([]);
  }

  // Row labels every few (round) indices; column labels where the value is a multiple of a
  // round step (and the always-labelled columns), horizontal, over the matrix.
  g.font = `${LABEL_FONT}px ${font}`;
  g.fillStyle = colours.fg;
  const everyRow = NICE_STEPS.find((step) => step * cellH >= ROW_LABEL_GAP) ?? rows;
  g.textAlign = 'right';
  g.textBaseline = 'middle';
  for (let i = 0; i < rows; i += everyRow)
    g.fillText(fitLabel(g, spec.rowLabel(i), LABEL_SPACE), x0 - 6, y0 + (i + 0.5) * cellH);
  const everyCol = NICE_STEPS.find((step) => step * cellW >= COL_LABEL_GAP) ?? cols;
  const always = [];
  for (let j = 0; j < cols; j += 1) if (spec.colLabelAlways?.(j)) always.push(j);
  g.textAlign = 'center';
  g.textBaseline = 'bottom';
  const centre = (j) => x0 + (j + 0.5) * cellW;
  for (let j = 0; j < cols; j += 1) {
    const value = spec.colValue ? spec.colValue(j) : j;
    const isAlways = always.includes(j);
    if (!isAlways && (value % everyCol !== 0 || always.some((a) => Math.abs(centre(a) - centre(j)) < COL_LABEL_GAP)))
      continue;
    g.fillText(spec.colLabel(j), centre(j), y0 - 6);
  }
  g.fillStyle = colours.muted;
  g.textAlign = 'center';
  g.textBaseline = 'top';
  g.fillText(spec.xTitle, x0 + across.side / 2, y0 - 44);
  g.save();
  g.translate(4, y0 + down.side / 2);
  g.rotate(-Math.PI / 2);
  g.fillText(spec.yTitle, 0, 0);
  g.restore();

  // The selected cell's column (the cells of its clipped offset): the rest dimmed, the column
  // outlined, the cell marked.
  if (spec.highlight) {
    const { i, j, rows: span } = spec.highlight;
    if (span) {
      const [r0, r1] = span;
      g.save();
      g.beginPath();
      g.rect(x0, y0, across.side, down.side);
      g.rect(x0 + j * cellW, y0 + r0 * cellH, cellW, (r1 - r0 + 1) * cellH);
      g.globalAlpha = 0.66;
      g.fillStyle = colours.panel;
      g.fill('evenodd');
      g.restore();
      // Narrow columns: the outline stands off by 2 px, so that the column itself stays visible.
      const gap = cellW < 6 ? 2 : 0;
      const outlineBox = [x0 + j * cellW - gap, y0 + r0 * cellH, cellW + 2 * gap, (r1 - r0 + 1) * cellH];
      g.lineWidth = 1.5;
      g.strokeStyle = colours.outline;
      g.strokeRect(...outlineBox);
    }
    const pad = cellH >= 6 && cellW >= 6 ? 0 : 3;
    g.lineWidth = 4;
    g.strokeStyle = colours.outlineHalo;
    g.strokeRect(x0 + j * cellW - pad, y0 + i * cellH - pad, cellW + 2 * pad, cellH + 2 * pad);
    g.lineWidth = 2;
    g.strokeStyle = colours.outline;
    g.strokeRect(x0 + j * cellW - pad, y0 + i * cellH - pad, cellW + 2 * pad, cellH + 2 * pad);
  }

  const barWidth = Math.max(across.side, Math.min(160, width - x0 - MARGIN.right));
  const barY = y0 + down.side + 26;
  drawColourBar(g, { x: x0, y: barY, width: barWidth, height: 10, scale, fg: colours.fg, label: scale.label });
  const { note } = spec;
  if (note) {
    g.font = `italic 12px ${font}`;
    g.fillStyle = colours.muted;
    g.textAlign = 'left';
    g.textBaseline = 'top';
    // Two lines at most, wrapped between words.
    const room = width - 8;
    const lines = [''];
    for (const word of note.split(' ')) {
      const line = lines.at(-1) ? `${lines.at(-1)} ${word}` : word;
      if (lines.at(-1) && g.measureText(line).width > room && lines.length < 2) lines.push(word);
      else lines[lines.length - 1] = line;
    }
    lines.slice(0, 2).forEach((line, index) => g.fillText(fitLabel(g, line, room), 4, barY + 30 + index * NOTE_LINE));
  }
  return { x0, y0, cellW, cellH, rows, cols, width, height, scale, gRows, gCols };
}
