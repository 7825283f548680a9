// A matrix heatmap on canvas, rows × cols; a square matrix (n × n, the page's panels) is one
// with rows = cols = n, drawn by the same function, drawHeatmap. One ImageData pixel per cell,
// stretched with smoothing off onto a whole number of device pixels per cell on each axis (crisp
// at any pixel ratio: spec.pixelRatio, else canvas-size.js's pixelRatio of the canvas's box, read
// at every draw); with more cells than pixels on an axis, each device pixel shows the mean of the
// cells it covers (heatmap-image.js). Around the matrix: row and column labels, axis titles, a
// colour bar with numbers and a note; the margins depend only on the width and the room given
// the row labels (spec.labelSpace). The labels come in two kinds (LABELLINGS):
// - tokens (spec.rowLabels, spec.colLabels: arrays): each row and column its word while the
//   cells are tall enough, column labels slanted (bare numbers upright, every few columns where
//   neighbours would touch: uprightColumnStep), NaN cells grey, the note in math notation, the
//   height depending only on the width, so that changing the data or the labels never moves the
//   page (the page's panels);
// - indices (spec.rowLabel(i), spec.colLabel(j): functions): every few round indices,
//   horizontal (so the margins need no room for slanted labels, and a column label stays inside
//   the canvas), NaN cells ("no key") blank and −∞ grey, the note as plain text wrapped onto as
//   many lines as it needs, the canvas ending under it (the long view's offset space: rows are
//   queries i, columns offsets c = −k…k; a matrix of one's own, with square cells).
// Whatever the labels, a spec may add values printed in the cells, the causal mask (masked) or
// any masked columns (maskFrom), dashed clipping-band edges (bandEdges) or edge columns
// (edgeLines), and a highlight: a group of cells (highlight.group) or a column (highlight.rows).
// Where the colour scale depends on what is drawn, heatmapDrawnGrid() first gives the grid of
// pixels that will be drawn and a sample of its values, the caller chooses the scale and the
// note, and drawHeatmap() draws with them (spec.grid).
import { fitCanvas, pixelRatio } from './canvas-size.js';
import { fitLabel, textWithin } from './fit-label.js';
import { colourTable, luminance } from './colormaps.js';
import { drawColourBar } from './colour-bar.js';
import { forgetHeatmapImage, heatmapGrid, heatmapPicture } from './heatmap-image.js';
import { fillMath, wrapMath } from './math-text.js';
import { fillPlacedText } from './placed-text.js';
import { niceStep } from './ticks.js';

export { forgetHeatmapImage };

/** Type sizes at fontScale 1 (CSS px): labels and colour-bar numbers, the smallest printed cell value, the note. */
export const LABEL_FONT = 13;
export const MIN_VALUE_FONT = 11;
export const NOTE_FONT = 12;
/** The smallest cell (CSS px at fontScale 1) whose row and column each get a label. */
export const MIN_LABELLED_CELL = 13;

/**
 * The least margins (CSS px at fontScale 1) where the column labels are horizontal (by index):
 * on the right the colour bar's pointed end (its height) and a px (the last column's label and
 * the bar's last number are kept inside the canvas); on top the axis title (44 px over the
 * matrix, with the column labels) and 12 px above it.
 */
const HORIZONTAL_RIGHT = 12;
const HORIZONTAL_TOP = 56;

/**
 * The margins around the matrix (CSS px) for a canvas `width` px wide, type `fontScale` times
 * the usual size: the space for row and column labels grows with the width (62 px on a phone,
 * up to 120 px on a wide panel), so a wide screen shows whole words. Depends only on the width
 * and the scale, so a canvas's height never depends on the data or the labels; `labelSpace`
 * overrides it (the present view, where nothing around the panel can move; the long view's
 * positions, which need little). `horizontal`: the column labels are horizontal (labels by
 * index), so nothing slants: HORIZONTAL_TOP and HORIZONTAL_RIGHT at least.
 */
export function heatmapMargins(width, fontScale = 1, labelSpace = null, horizontal = false) {
  const labels = Math.round(labelSpace ?? fontScale * Math.min(120, Math.max(62, (width / fontScale) * 0.2)));
  const slant = { right: Math.round(labels * 0.35), top: Math.round(labels * Math.sin(Math.PI / 3) + 26 * fontScale) };
  const least = (px) => (horizontal ? Math.round(px * fontScale) : 0);
  return {
    labels,
    left: labels + Math.round(30 * fontScale),
    top: Math.max(slant.top, least(HORIZONTAL_TOP)), // the column labels slant up
    right: Math.max(slant.right, least(HORIZONTAL_RIGHT)), // the last column labels slant out to the right
    bottom: Math.round(86 * fontScale), // colour bar, its numbers and a two-line note
  };
}

/** The canvas width (CSS px) for a heatmap in `width` px: no wider than its largest matrix needs. */
export function heatmapWidth(width, maxSide = Infinity, fontScale = 1, labelSpace = null, horizontal = false) {
  const margin = heatmapMargins(width, fontScale, labelSpace, horizontal);
  return Math.min(width, Math.ceil(maxSide + margin.left + margin.right));
}

/** The canvas height (CSS px) that a heatmap of this width takes. */
export function heatmapHeight(width, maxSide = Infinity, fontScale = 1, labelSpace = null) {
  const margin = heatmapMargins(width, fontScale, labelSpace);
  const side = Math.min(maxSide, width - margin.left - margin.right);
  return margin.top + Math.max(side, 40) + margin.bottom;
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

/** One axis of `count` cells in `available` CSS px: a whole number of device pixels per cell while cells are a pixel or more. */
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

const NICE_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 250, 500, 1000];
const ROW_LABEL_GAP = 13 * 1.8; // CSS px between row labels
const COL_LABEL_GAP = 44; // CSS px between column labels (horizontal text)
/** The label space (CSS px) of a heatmap labelled by indices (a matrix of one's own): narrow at any width. */
export const INDEX_LABEL_SPACE = 62;
const NOTE_LINE = 15;
/** CSS px under the last line of a note (its descenders), or under the colour bar's numbers. */
const NOTE_END = 3;

/** Device pixels per CSS px for `spec` on `canvas`: spec.pixelRatio, else pixelRatio (canvas-size.js) of the canvas's box, now. */
export function heatmapRatio(canvas, spec) {
  return spec.pixelRatio ?? pixelRatio(canvas?.parentElement);
}

/**
 * The matrix's place in CSS px, for a heatmap of spec.rows × spec.cols cells (or spec.n × spec.n)
 * `spec.width` px wide drawn at `ratio` device pixels per CSS px: a whole number of device pixels
 * per cell while cells are at least a pixel, the matrix centred and starting on a device pixel.
 * { rows, cols, n (a square's side), margin, width, height, fontScale, ratio, across, down (each
 * { device, side, cell }: the columns' and the rows' axis), x0, y0, side, sideDown, sideDevice,
 * cell, cellW, cellH, edgeMarks }; labelled by index, the height ends under spec.noteLines lines of
 * note. Shared by the canvas and anything else that draws the same figure (an SVG
 * export).
 */
export function heatmapLayout(spec, ratio = 1) {
  const rows = spec.rows ?? spec.n;
  const cols = spec.cols ?? spec.n;
  const labelling = labellingOf(spec);
  const fontScale = spec.fontScale ?? 1;
  const labelSpace = spec.labelSpace ?? labelling.labelSpace;
  const margin = heatmapMargins(spec.width, fontScale, labelSpace, labelling === LABELLINGS.indices);
  const available = Math.min(spec.maxSide ?? Infinity, spec.width - margin.left - margin.right);
  const { across, down } = spec.squareCells
    ? squareAxes(rows, cols, available, ratio)
    : { across: axis(cols, available, ratio), down: axis(rows, available, ratio) };
  const x0 = Math.round((margin.left + (available - across.side) / 2) * ratio) / ratio;
  const y0 = Math.round(margin.top * ratio) / ratio;
  const edgeMarks = edgeMarksOf(spec, cols, across.cell);
  // Labels by token: the height depends only on the width. Labels by index: it ends under what is
  // drawn, the matrix's rows (fewer than the width's square: n = 400 in 560 px is 400 px tall),
  // the colour bar and spec.noteLines lines of note.
  const noteY = colourBarBox({
    x0,
    y0,
    side: across.side,
    sideDown: down.side,
    width: spec.width,
    margin,
    fontScale,
    edgeMarks,
  }).noteY;
  const noteHeight = spec.noteLines ? ((spec.noteLines - 1) * NOTE_LINE + NOTE_FONT) * fontScale : 0;
  const height =
    labelling === LABELLINGS.tokens
      ? heatmapHeight(spec.width, spec.maxSide, fontScale, labelSpace)
      : Math.ceil(noteY + noteHeight + NOTE_END);
  return {
    rows,
    cols,
    n: rows === cols ? rows : undefined,
    margin,
    width: spec.width,
    height,
    fontScale,
    ratio,
    across,
    down,
    x0,
    y0,
    side: across.side,
    sideDown: down.side,
    sideDevice: across.device,
    cell: across.cell,
    cellW: across.cell,
    cellH: down.cell,
    edgeMarks,
  };
}

/**
 * The font size (CSS px) of the values printed in a heatmap's cells, or 0 where they are not
 * printed: 0.3 of a cell and no larger than the labels, shrunk to fit the widest of `texts` in the
 * cell's width less 2 px (measured with the context `g` in `family`; it sets g's font), and not
 * printed below MIN_VALUE_FONT. The canvas and the SVG export print by this one rule.
 */
export function cellValueFont(g, texts, { cellW, cellH, fontScale }, family) {
  const size = Math.min(LABEL_FONT * fontScale, Math.min(cellW, cellH) * 0.3);
  g.font = `100px ${family}`;
  const widest = Math.max(...texts.map((text) => g.measureText(text).width)) / 100;
  const fitted = Math.min(size, (cellW - 2) / widest);
  return fitted >= MIN_VALUE_FONT ? fitted : 0;
}

/**
 * The values printed in the cells, by which the canvas and the SVG export print them: { size
 * (cellValueFont's, measured with g in `family`: 0 where none are printed), texts: each unmasked
 * cell's value as a placed text (placed-text.js) centred in it, with fill (dark on light cells,
 * light on dark) and halo (the cell's own colour, around the text: an outline or a dash passes
 * under a number, never through it) }.
 */
export function cellValueTexts(g, spec, layout, family) {
  const { values, scale, masked } = spec;
  const { rows, cols, cellW, cellH, x0, y0 } = layout;
  if (!spec.showValues) return { size: 0, texts: [] };
  const formatted = Array.from(values, (value) => spec.formatValue(value));
  const size = cellValueFont(g, formatted, layout, family);
  if (!size) return { size: 0, texts: [] };
  const table = colourTable(scale.map);
  const texts = [];
  for (let index = 0; index < rows * cols; index += 1) {
    const i = Math.floor(index / cols);
    const j = index % cols;
    if (masked && masked(i, j)) continue;
    const entry = scale.entry(values[index]);
    texts.push({
      text: formatted[index],
      x: x0 + (j + 0.5) * cellW,
      y: y0 + (i + 0.5) * cellH,
      align: 'center',
      baseline: 'middle',
      fill: luminance(table, entry) > 0.36 ? '#111' : '#fff',
      halo: `rgb(${table[entry * 4]}, ${table[entry * 4 + 1]}, ${table[entry * 4 + 2]})`,
    });
  }
  return { size, texts };
}

// The values printed in the cells (cellValueTexts), each over its halo. Returns their font size
// (CSS px), 0 where none are printed. Leaves the context's state as it was.
function drawCellValues(g, spec, layout, font) {
  g.save();
  try {
    const { size, texts } = cellValueTexts(g, spec, layout, font);
    g.font = `${size}px ${font}`;
    g.lineJoin = 'round';
    g.lineWidth = 3;
    for (const placed of texts) {
      g.strokeStyle = placed.halo;
      g.textAlign = placed.align;
      g.textBaseline = placed.baseline;
      g.strokeText(placed.text, placed.x, placed.y);
      g.fillStyle = placed.fill;
      fillPlacedText(g, placed);
    }
    return size;
  } finally {
    g.restore();
  }
}

// The clipping band's dashed edges, from a layer cached per canvas (bandEdgeLayer). Returns how
// many lines it drew (0 where bandEdgePaths has none).
function drawBandEdgeLayer(canvas, g, spec, layout) {
  if (spec.bandEdges === null || spec.bandEdges === undefined) return 0;
  const lines = bandEdgePaths(layout.rows, spec.bandEdges, spec.bandEdgeSides ?? 'both').length;
  if (!lines) return 0;
  const { x0, y0, cell, sideDevice, ratio } = layout;
  const sides = spec.bandEdgeSides ?? 'both';
  g.save();
  g.setTransform(1, 0, 0, 1, 0, 0);
  const args = [canvas, layout.rows, spec.bandEdges, sides, x0, y0, cell, sideDevice, ratio, spec.colours];
  const { layer, left, top } = bandEdgeLayer(...args);
  g.drawImage(layer, left, top);
  g.restore();
  return lines;
}

/** The length (CSS px) of the edge columns' marks under the matrix, and the gap above and below them. */
const EDGE_MARK = 11;
const EDGE_MARK_GAP = 1;

/**
 * Where the edge columns' dashed lines go (spec.edgeLines): the cells beyond them sum or stand for
 * clipped keys. Down the matrix while the columns are at least 6 px wide; narrower columns would
 * vanish under a line, so it is a short mark under the matrix instead ('below', and the colour bar
 * moves down to make room for it). null without edge lines.
 */
function edgeMarksOf(spec, cols, cellW) {
  if (!spec.edgeLines || cols < 3) return null;
  return cellW >= 6 ? 'inside' : 'below';
}

// The edge columns' dashed lines (edgeMarksOf); returns each as drawn: [{ x, top, bottom }] (CSS px).
function drawEdgeLines(g, spec, layout) {
  const { colours } = spec;
  const { cols, cellW, x0, y0, sideDown, edgeMarks } = layout;
  if (!edgeMarks) return [];
  const below = y0 + sideDown + EDGE_MARK_GAP;
  const [top, bottom] = edgeMarks === 'inside' ? [y0, y0 + sideDown] : [below, below + EDGE_MARK];
  const xs = [x0 + cellW, x0 + (cols - 1) * cellW];
  for (const [lineWidth, colour, dash] of [
    [3, colours.outlineHalo, []],
    [1.5, colours.fg, edgeMarks === 'inside' ? [5, 4] : [3, 2]],
  ]) {
    g.lineWidth = lineWidth;
    g.strokeStyle = colour;
    g.setLineDash(dash);
    for (const x of xs) {
      g.beginPath();
      g.moveTo(x, top);
      g.lineTo(x, bottom);
      g.stroke();
    }
  }
  g.setLineDash([]);
  return xs.map((x) => ({ x, top, bottom }));
}

/**
 * Which rows and columns a layout labels: each with its token while the cells are tall enough
 * (`tokens`), else every `every`-th index (a nice step).
 */
/**
 * Whether the column labels stand upright: when they are indices (cells too small for tokens) or
 * every token is a bare number (a sentence without words), a slanted digit reads badly ("2" as
 * "~"); words slant (at 60°, steeper in narrow cells: columnLabelSlant) to fit their length.
 */
export const uprightColumnLabels = (spec, tokens) =>
  !tokens || spec.colLabels.every((label) => /^\s*\d+\s*$/.test(label));

export function axisLabelStep({ cell, fontScale }) {
  const minLabelled = MIN_LABELLED_CELL * fontScale;
  const tokens = cell >= minLabelled;
  return { tokens, every: tokens ? 1 : niceStep((minLabelled * 1.8) / cell) };
}

/**
 * The slant of column labels by token, in degrees up from the horizontal: 60°, steeper where two
 * neighbours would touch (their lines cellW · sin θ apart; a label's ink, ascenders to
 * descenders, about 1 em, and 1 px between), vertical (90°) in cells of one em and 1 px or less.
 */
export function columnLabelSlant({ cellW, fontScale }) {
  const needed = (LABEL_FONT * fontScale + 1) / cellW;
  return needed >= 1 ? 90 : Math.max(60, (Math.asin(needed) * 180) / Math.PI);
}

/** CSS px kept between two upright column labels (at fontScale 1; the digits' own side bearings add about as much ink-free room). */
const UPRIGHT_LABEL_GAP = 2;

/**
 * The step of upright column labels (label(j): column j's text; every `every`-th column at
 * least): the smallest round multiple of `every` at which each label drawn clears the next by
 * UPRIGHT_LABEL_GAP px, so that numbers never run together ("10111213" in cells of 14 px).
 * `measure(text)`: its width in CSS px in the labels' font.
 */
export function uprightColumnStep({ cols, cellW, fontScale }, label, every, measure) {
  const widths = new Map();
  const widthOf = (j) => {
    if (!widths.has(j)) widths.set(j, measure(label(j)));
    return widths.get(j);
  };
  const clears = (step) => {
    for (let j = 0; j + step < cols; j += step)
      if (step * cellW < (widthOf(j) + widthOf(j + step)) / 2 + UPRIGHT_LABEL_GAP * fontScale) return false;
    return true;
  };
  return NICE_STEPS.find((step) => step % every === 0 && clears(step)) ?? cols;
}

/**
 * The colour bar's box under the matrix (side: its width, sideDown: its height, default side),
 * as wide as the matrix (at least 160 px where the width allows), the room its label and numbers
 * have (labelRoom: the label's width from x; numbersRight: the x no number passes, the canvas's
 * right edge: colourBarShapes), and the top of the note under it; lower by the edge columns'
 * marks where they are drawn under the matrix (edgeMarks: 'below'), so that the bar's label stays
 * clear of them.
 */
export function colourBarBox({ x0, y0, side, sideDown = side, width, margin, fontScale, edgeMarks = null }) {
  const marks = edgeMarks === 'below' ? EDGE_MARK + EDGE_MARK_GAP : 0;
  const y = y0 + sideDown + marks + 26 * fontScale;
  const barWidth = Math.max(side, Math.min(160 * fontScale, width - x0 - margin.right));
  return {
    x: x0,
    y,
    width: barWidth,
    height: 10 * fontScale,
    labelRoom: width - x0 - 4,
    numbersRight: width - 1,
    noteY: y + 30 * fontScale,
  };
}

/**
 * The axis titles as placed texts (placed-text.js) in g's font: x over the column labels (its top
 * at titleY), whole and inside the canvas (textWithin: the long view's "clipped offset c =
 * clip(j − i, ±k) →" over 7 columns in a small frame), and y turned along the rows. Returns
 * { texts: [x title, y title], xTitle: the x title's range, { left, right } (CSS px) }.
 */
export function axisTitleTexts(g, spec, layout, titleY) {
  const { x0, y0, side, sideDown, width } = layout;
  const x = textWithin(g, spec.xTitle, x0 + side / 2, 2, width - 2);
  return {
    texts: [
      { text: spec.xTitle, x: x.x, y: titleY, align: 'center', baseline: 'top', maxWidth: x.maxWidth },
      { text: spec.yTitle, x: 4, y: y0 + sideDown / 2, align: 'center', baseline: 'top', rotate: Math.PI / 2 },
    ],
    xTitle: { left: x.left, right: x.right },
  };
}

// The axis titles (axisTitleTexts) in the muted colour. Returns the x title's range, { left, right }.
function drawAxisTitles(g, spec, layout, titleY) {
  g.fillStyle = spec.colours.muted;
  const { texts, xTitle } = axisTitleTexts(g, spec, layout, titleY);
  for (const placed of texts) fillPlacedText(g, placed);
  return xTitle;
}

/**
 * The labels of a heatmap labelled by token as placed texts (placed-text.js), measured in g's
 * font (the labels'), by which the canvas and the SVG export draw them: each row and column its
 * token while the cells are tall enough, else every few round indices; row labels cut with "…"
 * to their room (fitLabel); column labels upright where they are numbers (every few:
 * uprightColumnStep), else slanted (columnLabelSlant) and cut to the room the margin and the
 * canvas's right edge leave. Returns { texts, labelsCut: how many were shortened with "…",
 * labelSlant: the column labels' slant in degrees, 0 upright }.
 */
export function tokenLabelTexts(g, spec, layout) {
  const { rows, cols, cellW, cellH, x0, y0, margin, width } = layout;
  const { tokens, every } = axisLabelStep(layout);
  const labelOf = (labels, index) => (tokens ? labels[index] : String(index));
  let labelsCut = 0;
  const fit = (text, room) => {
    const shown = fitLabel(g, text, room);
    if (shown !== text) labelsCut += 1;
    return shown;
  };
  const texts = [];
  for (let i = 0; i < rows; i += every) {
    const text = fit(labelOf(spec.rowLabels, i), margin.labels);
    texts.push({ text, x: x0 - 6, y: y0 + (i + 0.5) * cellH, align: 'right', baseline: 'middle' });
  }
  const upright = uprightColumnLabels(spec, tokens);
  const uprightLabel = (j) => labelOf(spec.colLabels, j).trim();
  const colEvery = upright ? uprightColumnStep(layout, uprightLabel, every, (t) => g.measureText(t).width) : every;
  const slant = (columnLabelSlant(layout) * Math.PI) / 180;
  for (let j = 0; j < cols; j += colEvery) {
    const x = x0 + (j + 0.5) * cellW;
    if (upright) {
      texts.push({ text: uprightLabel(j), x, y: y0 - 6, align: 'center', baseline: 'alphabetic' });
      continue;
    }
    // Slanted up and to the right: no higher than the margin made for 60° allows, no longer than
    // the canvas's right edge allows.
    const high = (margin.labels * Math.sin(Math.PI / 3)) / Math.sin(slant);
    const room = Math.min(high, (width - 2 - x) / Math.cos(slant));
    const text = fit(labelOf(spec.colLabels, j), room);
    texts.push({ text, x, y: y0 - 6, align: 'left', baseline: 'middle', rotate: slant });
  }
  return { texts, labelsCut, labelSlant: upright ? 0 : (slant * 180) / Math.PI };
}

// Labels by token (tokenLabelTexts) and the axis titles. Returns { labelsCut, xTitle, labelSlant }.
function drawTokenLabels(g, spec, layout, font) {
  g.font = `${LABEL_FONT * layout.fontScale}px ${font}`;
  g.fillStyle = spec.colours.fg;
  const { texts, labelsCut, labelSlant } = tokenLabelTexts(g, spec, layout);
  for (const placed of texts) fillPlacedText(g, placed);
  const xTitle = drawAxisTitles(g, spec, layout, 2);
  return { labelsCut, xTitle, labelSlant };
}

/** CSS px kept between two column labels by index (and between a label and the canvas's edge: COL_LABEL_EDGE). */
const COL_LABEL_SPACING = 6;
const COL_LABEL_EDGE = 2;

// Labels by index: row labels every few (round) indices; column labels where the value is a
// multiple of a round step (and the always-labelled columns), horizontal, over the matrix,
// each centred over its column but kept inside the canvas (the last column's, where the
// matrix reaches the canvas's right margin), and drawn only where it clears the labels
// already placed (the always-labelled first). The step is the finest round one whose labels
// all clear one another (short labels on wide columns: −1 and 1 beside 0), else the one
// COL_LABEL_GAP asks for. Returns
// { labelsCut: 0, colLabels: each column label's box as drawn, { text, left, right } (CSS px) }.
function drawIndexLabels(g, spec, layout, font) {
  const { rows, cols, cellW, cellH, x0, y0, margin, width, fontScale } = layout;
  g.font = `${LABEL_FONT * fontScale}px ${font}`;
  g.fillStyle = spec.colours.fg;
  const everyRow = NICE_STEPS.find((step) => step * cellH >= ROW_LABEL_GAP * fontScale) ?? rows;
  g.textAlign = 'right';
  g.textBaseline = 'middle';
  for (let i = 0; i < rows; i += everyRow)
    g.fillText(fitLabel(g, spec.rowLabel(i), margin.labels), x0 - 6, y0 + (i + 0.5) * cellH);
  const everyCol = NICE_STEPS.find((step) => step * cellW >= COL_LABEL_GAP * fontScale) ?? cols;
  const spacing = COL_LABEL_SPACING * fontScale;
  // The boxes of columns `list` added to `boxes` where each clears those before it; `strict`:
  // null unless all do.
  const place = (list, boxes, strict) => {
    for (const j of list) {
      const text = spec.colLabel(j);
      const ink = g.measureText(text).width;
      const left = Math.max(COL_LABEL_EDGE, Math.min(x0 + (j + 0.5) * cellW - ink / 2, width - COL_LABEL_EDGE - ink));
      const right = left + ink;
      if (!boxes.some((box) => left < box.right + spacing && right > box.left - spacing))
        boxes.push({ text, left, right });
      else if (strict) return null;
    }
    return boxes;
  };
  const columns = [...Array(cols).keys()];
  const always = place(
    columns.filter((j) => spec.colLabelAlways?.(j)),
    [],
  );
  const stepped = (step) =>
    columns.filter((j) => !spec.colLabelAlways?.(j) && (spec.colValue ? spec.colValue(j) : j) % step === 0);
  // The finest round step whose labels clear one another (else COL_LABEL_GAP's), each drawn where
  // it clears the always-labelled ones.
  const step = NICE_STEPS.find((every) => every < everyCol && place(stepped(every), [], true)) ?? everyCol;
  const placed = place(stepped(step), always);
  g.textAlign = 'left';
  g.textBaseline = 'bottom';
  for (const { text, left } of placed) g.fillText(text, left, y0 - 6);
  const xTitle = drawAxisTitles(g, spec, layout, y0 - 44 * fontScale);
  return { labelsCut: 0, colLabels: placed, xTitle };
}

// A region of cells (highlight.region): one line around it, along every edge between a cell of
// the group and one outside it or the matrix's border, so that every cell keeps its whole colour
// however small the cells, and no cell is marked. Twenty cells of 11 px each boxed leave little
// of their colours (step 3's reveal on a phone); one line around them leaves all of it.
function drawRegionOutline(g, spec, layout) {
  const { colours, highlight } = spec;
  const { rows, cols, cell, x0, y0 } = layout;
  const inside = (i, j) => i >= 0 && j >= 0 && i < rows && j < cols && highlight.group(i, j);
  const edge = (x, y, across) => {
    g.moveTo(x0 + x * cell, y0 + y * cell);
    g.lineTo(x0 + (x + (across ? 1 : 0)) * cell, y0 + (y + (across ? 0 : 1)) * cell);
  };
  g.save();
  g.beginPath();
  for (let i = 0; i < rows; i += 1)
    for (let j = 0; j < cols; j += 1) {
      if (!inside(i, j)) continue;
      if (!inside(i - 1, j)) edge(j, i, true);
      if (!inside(i + 1, j)) edge(j, i + 1, true);
      if (!inside(i, j - 1)) edge(j, i, false);
      if (!inside(i, j + 1)) edge(j + 1, i, false);
    }
  g.lineCap = 'square';
  for (const [width, colour] of [
    [3.5, colours.outlineHalo],
    [1.5, colours.outline],
  ]) {
    g.lineWidth = width;
    g.strokeStyle = colour;
    g.stroke();
  }
  g.restore();
}

// A highlighted group of cells: a region (highlight.region: drawRegionOutline); else outlines
// while the cells are large (or the group has no rowRange: any set of cells, each outlined), else
// everything outside the group dimmed and the group outlined; the hovered cell marked in either case.
function drawGroupHighlight(g, spec, layout) {
  if (spec.highlight.region) {
    drawRegionOutline(g, spec, layout);
    return;
  }
  const { colours } = spec;
  const { i: hi, j: hj, group } = spec.highlight;
  const { rows, cols, cell, x0, y0, side, sideDown } = layout;
  const outline = (i, j, lineWidth) => {
    const inset = lineWidth / 2;
    g.lineWidth = lineWidth + 2;
    g.strokeStyle = colours.outlineHalo;
    g.strokeRect(x0 + j * cell + inset, y0 + i * cell + inset, cell - lineWidth, cell - lineWidth);
    g.lineWidth = lineWidth;
    g.strokeStyle = colours.outline;
    g.strokeRect(x0 + j * cell + inset, y0 + i * cell + inset, cell - lineWidth, cell - lineWidth);
  };
  if (cell >= 12 || !spec.highlight.rowRange) {
    const thin = Math.max(1, Math.min(2, cell / 8));
    for (let i = 0; i < rows; i += 1)
      for (let j = 0; j < cols; j += 1) if (group(i, j) && (i !== hi || j !== hj)) outline(i, j, thin);
  } else {
    const polygon = groupOutline(rows, spec.highlight.rowRange);
    const trace = () =>
      polygon.forEach(([x, y], index) =>
        index ? g.lineTo(x0 + x * cell, y0 + y * cell) : g.moveTo(x0 + x * cell, y0 + y * cell),
      );
    g.save();
    g.beginPath();
    g.rect(x0, y0, side, sideDown);
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

// A highlighted cell and its column's cells highlight.rows [first, last] (the cells of its
// clipped offset), if given: the rest dimmed, the column outlined, the cell marked.
function drawColumnHighlight(g, spec, layout) {
  const { colours } = spec;
  const { i, j, rows: span } = spec.highlight;
  const { cellW, cellH, x0, y0, side, sideDown } = layout;
  if (span) {
    const [r0, r1] = span;
    g.save();
    g.beginPath();
    g.rect(x0, y0, side, sideDown);
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

/**
 * The note of a heatmap labelled by token, by which the canvas and the SVG export draw it: in
 * math notation, NOTE_FONT · fontScale px italic in `family`, on wrapMath's lines (measured with
 * g: at most two in the canvas's width, cut with "…"), the first's top at the colour bar's noteY,
 * 1.25 lines apart. Returns { font: { size, family, style }, lines: [{ text, x, top }] }.
 */
export function mathNoteLines(g, spec, layout, family) {
  const font = { size: NOTE_FONT * layout.fontScale, family, style: 'italic' };
  const { noteY } = colourBarBox(layout);
  const lines = wrapMath(g, spec.note, layout.width - 8, font);
  return { font, lines: lines.map((text, index) => ({ text, x: 4, top: noteY + index * font.size * 1.25 })) };
}

// The note in math notation (mathNoteLines). Returns its lines as drawn.
function drawMathNote(g, spec, layout, font) {
  g.fillStyle = spec.colours.muted;
  const note = mathNoteLines(g, spec, layout, font);
  for (const { text, x, top } of note.lines) fillMath(g, text, x, top, note.font);
  return note.lines.map((line) => line.text);
}

/** A word of a note that is a relation or an operator: kept on one line with the words either side ("|c| < k"). */
const JOINING = /^[<>≤≥=≠×+−–]$/;

/** A note's words, the words either side of a relation or an operator joined to it by spaces. */
function noteWords(note) {
  const words = [];
  let join = false;
  for (const word of note.split(' ')) {
    if (words.length && (join || JOINING.test(word))) words[words.length - 1] += ` ${word}`;
    else words.push(word);
    join = JOINING.test(word);
  }
  return words;
}

// The note as plain text (the long view's, a user's own): wrapped between words onto as many
// lines as it needs, in the canvas's width (a word wider than that is cut with "…").
function plainNoteLines(g, note, width, font, fontScale = 1) {
  g.font = `italic ${NOTE_FONT * fontScale}px ${font}`;
  const room = width - 8;
  const lines = [''];
  for (const word of noteWords(note)) {
    const line = lines.at(-1) ? `${lines.at(-1)} ${word}` : word;
    if (lines.at(-1) && g.measureText(line).width > room) lines.push(word);
    else lines[lines.length - 1] = line;
  }
  return lines.map((line) => fitLabel(g, line, room));
}

// The note's lines (layout.noteText, plainNoteLines'), from noteY. Returns them.
function drawPlainNote(g, spec, layout, font, noteY) {
  const lines = layout.noteText;
  g.font = `italic ${NOTE_FONT * layout.fontScale}px ${font}`;
  g.fillStyle = spec.colours.muted;
  g.textAlign = 'left';
  g.textBaseline = 'top';
  lines.forEach((line, index) => g.fillText(line, 4, noteY + index * NOTE_LINE * layout.fontScale));
  return lines;
}

// The colour bar, as wide as the matrix (at least 160 px: colourBarBox), and the note under it.
// Returns { noteLines: the note's lines as drawn, noteCut: whether one was cut short, barLabel:
// the bar's label's ink, bar: { left, right, top, bottom, ticks: each tick as drawn, [{ value,
// text, x }] } (drawColourBar) }.
function drawScaleAndNote(g, spec, layout, scale, font, labelling) {
  const box = colourBarBox(layout);
  const { label: barLabel, ticks } = drawColourBar(g, { ...box, scale, fg: spec.colours.fg, label: scale.label });
  const noteLines = spec.note ? labelling.drawNote(g, spec, layout, font, box.noteY) : [];
  const noteCut = spec.note ? noteLines.join(' ') !== spec.note : false;
  const bar = { left: box.x, right: box.x + box.width, top: box.y, bottom: box.y + box.height, ticks };
  return { noteLines, noteCut, barLabel, bar };
}

// What goes with each kind of labels (the file's header): the labels' default room, the note's
// own line, how a NaN and −∞ are drawn, the labels and the note.
const LABELLINGS = {
  tokens: {
    labelSpace: null,
    blank: 'masked',
    minusInfinityMasked: false,
    drawLabels: drawTokenLabels,
    drawNote: drawMathNote,
  },
  indices: {
    labelSpace: INDEX_LABEL_SPACE,
    blank: 0,
    minusInfinityMasked: true,
    drawLabels: drawIndexLabels,
    drawNote: drawPlainNote,
  },
};
const labellingOf = (spec) => (typeof spec.rowLabel === 'function' ? LABELLINGS.indices : LABELLINGS.tokens);

// The matrix as heatmap-image.js takes it: the causal mask (masked(i, j): j > i) is every row's
// cells from column i + 1 on; with labels by token, every cell of a row is a number (the span
// [0, cols): −∞ drawn as the lowest colour, but in block means, where it stands for masked cells).
function gridSpecOf(spec, layout) {
  const { rows, cols } = layout;
  const row = [0, cols];
  const rowSpan = spec.rowSpan ?? (labellingOf(spec) === LABELLINGS.tokens ? () => row : undefined);
  const mask = spec.masked ? { maskFrom: (i) => i + 1, maskKey: 'masked' } : {};
  return { ...spec, rows, cols, rowSpan, ...mask };
}

/**
 * The grid of pixels `spec` (drawHeatmap's, without scale and note) is drawn with on `canvas`:
 * { gRows, gCols, grid (the values, or the block means: spec.means when they were computed for
 * this grid, in a worker), drawn } with drawn = { sample, count, min, max }: the drawn values in
 * the columns wholly inside spec.rangeCols (at a stride beyond 65,536; null without rangeCols)
 * and the extent of every drawn value. The same object while the values, the size and the mask
 * stay (kept per canvas: heatmap-image.js).
 */
export function heatmapDrawnGrid(canvas, spec) {
  const layout = heatmapLayout(spec, heatmapRatio(canvas, spec));
  return heatmapGrid(canvas, gridSpecOf(spec, layout), layout.across.device, layout.down.device);
}

/**
 * The grid of pixels (gRows × gCols) a rows × cols heatmap labelled by index with `labelSpace`
 * px for its row labels, `width` CSS px wide at `ratio` device pixels per CSS px (heatmapRatio),
 * is drawn with: block means are computed for it (blockMeans), and can be computed ahead, in a
 * worker.
 */
export function heatmapGridSize(rows, cols, width, maxSide, ratio, labelSpace = INDEX_LABEL_SPACE) {
  const spec = { rows, cols, width, maxSide, labelSpace, rowLabel: String }; // labelled by index
  const { across, down } = heatmapLayout(spec, ratio);
  return { gRows: Math.min(rows, down.device), gCols: Math.min(cols, across.device) };
}

/**
 * Draws `values` (rows × cols, row-major) into `canvas`.
 * spec: { rows, cols (or n: rows = cols = n), values, scale (colormaps.makeScale; scaleKey:
 *         anything else it depends on), colours: { fg, muted, outline, outlineHalo, panel,
 *         masked, font }, xTitle, yTitle, note, width, maxSide, fontScale (type size, 1 =
 *         usual), labelSpace (px, optional), pixelRatio (device pixels per CSS px; default
 *         heatmapRatio's), squareCells (cells as wide as tall, the height following the shape),
 *         the labels, either
 *           rowLabels, colLabels (arrays: tokens), or
 *           rowLabel(i), colLabel(j) -> text, colValue(j) -> number (columns whose value is a
 *           multiple of the label step are labelled, and always those with colLabelAlways(j)),
 *         and optionally
 *         showValues, formatValue (values printed in the cells while legible),
 *         masked(i, j) (the causal mask: j > i) or maskFrom(i) -> the first masked column of row
 *           i | null (maskKey: changes with it), rowSpan(i) -> [lo, hi) (row i's cells outside
 *           it are NaN, inside numbers),
 *         grid (heatmapDrawnGrid's for this spec), means: { gRows, gCols, grid } (blockMeans'
 *           grid computed ahead), rangeCols: [first, last] (the columns whose drawn values the
 *           grid's sample holds),
 *         bandEdges: k | null, bandEdgeSides: 'both' | 'lower' (bandEdgePaths), edgeLines
 *           (dashed lines inside the first and last column),
 *         highlight: { i, j, group(i, j) -> bool, rowRange(i) -> [lo, hi] | null (optional: one
 *           run of the group's cells a row, outlined as one polygon on small cells) } (a group of
 *           cells), { group, region: true } (a region: one line around its cells, none marked) or { i, j, rows: [first, last] | undefined } (a cell, and its column's rows) | null }
 * Returns the layout in CSS px: { x0, y0, cell, cellW, cellH, n, rows, cols, width, height,
 * fontScale, labelsCut, labelSlant (labelled by token: the column labels' slant in degrees, columnLabelSlant,
 * 0 where they stand upright, as by index), valueFont (the values' size in the cells, cellValueFont: 0 where none are
 * printed), colLabels (labelled by index: each column label's box as drawn, { text,
 * left, right }), xTitle (the x axis title's range as drawn, { left, right }), noteCut, scale, gRows, gCols, edgeLines (each edge line or mark as drawn:
 * [{ x, top, bottom }]), bandEdgeLines (how many dashed clipping-band lines it drew), barLabel (the colour bar's label's ink: { left, right, top, bottom } |
 * null), bar (the colour bar's box and its ticks as drawn: { left, right, top, bottom, ticks: [{
 * value, text, x }] }), noteLines (the note's lines as drawn: labelled by index plain text in
 * noteFont, labelled by token in math notation, math-text.js), noteFont }.
 */
export function drawHeatmap(canvas, spec) {
  const ratio = heatmapRatio(canvas, spec);
  const labelling = labellingOf(spec);
  const font = spec.colours.font || 'sans-serif';
  // Labels by index: the canvas is as tall as the note's lines need.
  const noteText =
    labelling === LABELLINGS.indices && spec.note
      ? plainNoteLines(canvas.getContext('2d'), spec.note, spec.width, font, spec.fontScale ?? 1)
      : [];
  const layout = { ...heatmapLayout({ ...spec, noteLines: noteText.length }, ratio), noteText };
  const { x0, y0, across, down, width, height, fontScale, rows, cols } = layout;
  const { context: g } = fitCanvas(canvas, width, height, ratio);
  g.clearRect(0, 0, width, height);
  const made = spec.grid ?? heatmapGrid(canvas, gridSpecOf(spec, layout), across.device, down.device);
  const style = {
    scale: spec.scale,
    scaleKey: spec.scaleKey,
    masked: spec.colours.masked,
    blank: labelling.blank,
    minusInfinityMasked: labelling.minusInfinityMasked,
  };
  const { picture, scale, gRows, gCols } = heatmapPicture(canvas, made, style, across.device, down.device);
  g.drawImage(picture, x0, y0, across.side, down.side);
  const bandEdgeLines = drawBandEdgeLayer(canvas, g, spec, layout);
  const edgeLines = drawEdgeLines(g, spec, layout);
  const { labelsCut, colLabels = null, xTitle, labelSlant = 0 } = labelling.drawLabels(g, spec, layout, font);
  if (spec.highlight?.group) drawGroupHighlight(g, spec, layout);
  // The values over the band's dashed edges and a group's outlines, each haloed in its cell's
  // colour: an outline or a dash passes under a number, never through it.
  const valueFont = drawCellValues(g, spec, layout, font);
  if (spec.highlight && !spec.highlight.group) drawColumnHighlight(g, spec, layout);
  const { noteLines, noteCut, barLabel, bar } = drawScaleAndNote(g, spec, layout, scale, font, labelling);
  const { n, cell, cellW, cellH } = layout;
  return {
    x0,
    y0,
    cell,
    cellW,
    cellH,
    n,
    rows,
    cols,
    width,
    height,
    fontScale,
    labelsCut,
    labelSlant,
    valueFont,
    colLabels,
    xTitle,
    noteCut,
    scale,
    gRows,
    gCols,
    edgeLines,
    bandEdgeLines,
    barLabel,
    bar,
    noteLines,
    noteFont: `italic ${NOTE_FONT * fontScale}px ${font}`,
  };
}
