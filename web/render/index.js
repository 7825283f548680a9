// relpos-wasm/render: the package's canvas renderers, for drawing your own numbers (a model's
// attention weights, anything rows × cols) the way the page draws its panels. A thin, checked
// face over heatmap.js (drawHeatmap), colour-bar.js and line-plot.js; it knows nothing of the API.
// Colours come from the canvas's CSS custom properties (--relpos-fg, --relpos-muted, …) unless
// given. Browser only (canvas, OffscreenCanvas); importing it anywhere is safe.
import { fitCanvas } from './canvas-size.js';
import { SCALE_MAPS, colourTable, entryFor, makeScale } from './colormaps.js';
import { drawColourBar } from './colour-bar.js';
import { drawHeatmap } from './heatmap.js';
import { drawLinePlot } from './line-plot.js';

const FALLBACK = {
  fg: '#222',
  muted: '#666',
  panel: '#fff',
  masked: '#bbb',
  outline: '#d33',
  outlineHalo: '#fff',
};

/** The narrowest heatmap() draws, in CSS px: its labels and margins take 114, the matrix at least 46. */
export const MIN_HEATMAP_WIDTH = 160;

/** The most cells heatmap() draws (rows × cols): 2^22, 2048 × 2048. */
export const MAX_HEATMAP_CELLS = 2 ** 22;

const typeName = (value) =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'an Array'
      : ArrayBuffer.isView(value)
        ? 'a typed array'
        : typeof value;

/**
 * A matrix in any of the shapes libraries use, as { rows, cols, data }: { rows, cols, data }
 * (relpos-wasm's), { data, dims: [rows, cols] } (onnxruntime-web's Tensor), or { data, shape:
 * [rows, cols] } (tfjs's dataSync() with its shape, numpy-like objects); data any array-like of
 * rows × cols numbers, row-major.
 */
export function toMatrix(value, where = 'toMatrix', name = 'matrix') {
  if (value === null || typeof value !== 'object') {
    throw new TypeError(
      `${where}: ${name} must be { rows, cols, data }, { data, dims } or { data, shape }, got ${typeName(value)}`,
    );
  }
  // Each field read once (a getter runs once): the sides copied, data's length read once.
  const given = value.dims ?? value.shape;
  const sideCount = given ? given.length : 0;
  if (given && sideCount !== 2) {
    const listed = Number.isInteger(sideCount) && sideCount >= 0 && sideCount <= 8;
    throw new RangeError(
      `${where}: ${name} must have 2 dimensions, got ${listed ? `${sideCount} ([${Array.from(given).join(', ')}])` : String(sideCount)}`,
    );
  }
  const sides = given ? [Number(given[0]), Number(given[1])] : null;
  const [rows, cols] = sides ?? [value.rows, value.cols];
  for (const [side, size] of [
    ['rows', rows],
    ['cols', cols],
  ]) {
    if (!Number.isInteger(size) || size < 1)
      throw new RangeError(`${where}: ${name}.${side} must be a positive integer, got ${size}`);
  }
  if (rows * cols > MAX_HEATMAP_CELLS) {
    throw new RangeError(
      `${where}: ${name} is ${rows} × ${cols} = ${rows * cols} cells; a heatmap draws at most ${MAX_HEATMAP_CELLS} (2048 × 2048: more cells than a screen has pixels)`,
    );
  }
  const { data } = value;
  const length = data?.length;
  if (!data || typeof length !== 'number') {
    throw new TypeError(`${where}: ${name}.data must be an array or typed array of numbers, got ${typeName(data)}`);
  }
  checkCount(where, name, rows, cols, length);
  return { rows, cols, data };
}

function checkCount(where, name, rows, cols, length) {
  if (length !== rows * cols) {
    throw new RangeError(
      `${where}: ${name}.data must hold rows × cols = ${rows} × ${cols} = ${rows * cols} numbers, got ${length}`,
    );
  }
}

function themeOf(canvas, given = {}) {
  const style = canvas.isConnected ? getComputedStyle(canvas) : null;
  const read = (name) => style?.getPropertyValue(name).trim() || '';
  return {
    fg: given.fg ?? (read('--relpos-fg') || FALLBACK.fg),
    muted: given.muted ?? (read('--relpos-muted') || FALLBACK.muted),
    panel: given.panel ?? (read('--relpos-panel') || FALLBACK.panel),
    masked: given.masked ?? (read('--relpos-masked') || FALLBACK.masked),
    outline: given.outline ?? (read('--relpos-outline') || FALLBACK.outline),
    outlineHalo: given.outlineHalo ?? (read('--relpos-outline-halo') || FALLBACK.outlineHalo),
    font: given.font ?? (style?.fontFamily || 'sans-serif'),
  };
}

function checkCanvas(where, canvas) {
  if (!canvas || typeof canvas.getContext !== 'function') {
    throw new TypeError(`${where}: canvas must be an HTMLCanvasElement or OffscreenCanvas, got ${typeName(canvas)}`);
  }
}

/** The colour scale of a heatmap or colour bar: { scale: 'sequential' | 'diverging', min, max }. */
function scaleOf(where, values, { scale = 'sequential', min, max, label = '', integer = false }) {
  if (!Object.hasOwn(SCALE_MAPS, scale)) {
    throw new RangeError(`${where}: scale must be 'sequential' or 'diverging', got ${JSON.stringify(scale)}`);
  }
  let low = Infinity;
  let high = -Infinity;
  for (const v of values) {
    if (Number.isFinite(v)) {
      if (v < low) low = v;
      if (v > high) high = v;
    }
  }
  if (low > high) [low, high] = [0, 0];
  for (const [name, v] of [
    ['min', min],
    ['max', max],
  ]) {
    if (v !== undefined && !Number.isFinite(v))
      throw new RangeError(`${where}: ${name} must be a finite number, got ${v}`);
  }
  let fixed;
  if (scale === 'sequential' && (min !== undefined || max !== undefined)) {
    fixed = [min ?? low, max ?? high];
    if (!(fixed[1] > fixed[0]))
      throw new RangeError(`${where}: max (${fixed[1]}) must be greater than min (${fixed[0]})`);
  }
  if (scale === 'diverging' && (min !== undefined || max !== undefined)) {
    fixed = Math.max(Math.abs(min ?? 0), Math.abs(max ?? 0));
  }
  return makeScale(scale, { min: low, max: high }, fixed, { label, integer });
}

/**
 * Draws a rows × cols matrix as a heatmap with labels and a colour bar, on `canvas` at `width`
 * CSS px (default: its parent's width). Options: scale ('sequential', viridis, default; or
 * 'diverging', red-blue symmetric around 0), min, max (the values that get the end colours;
 * default the data's range), label (the colour bar's), rowLabels, colLabels (arrays of text;
 * default the indices), xTitle, yTitle, note, maskFrom(i) → the first column of row i drawn grey
 * (or null; causal: (i) => i + 1), colours
 * ({ fg, muted, panel, masked, outline, outlineHalo, font }). NaN cells are blank. Returns the
 * layout in CSS px: { x0, y0, cellW, cellH, width, height } (cell (i, j) is at x0 + j·cellW,
 * y0 + i·cellH).
 */
export function heatmap(canvas, matrix, options = {}) {
  const where = 'heatmap';
  checkCanvas(where, canvas);
  const { rows, cols, data } = toMatrix(matrix, where);
  // The numbers drawn are one copy, checked again: an array whose length or iterator lies
  // cannot make the copy differ from the shape.
  const values = Float64Array.from(data);
  checkCount(where, 'matrix', rows, cols, values.length);
  const scale = scaleOf(where, values, options);
  const label = (labels, name) => {
    if (labels === undefined) return (index) => String(index);
    if (!Array.isArray(labels))
      throw new TypeError(`${where}: ${name} must be an array of text, got ${typeName(labels)}`);
    return (index) => String(labels[index] ?? index);
  };
  const { maskFrom } = options;
  if (maskFrom !== undefined && typeof maskFrom !== 'function') {
    throw new TypeError(`${where}: maskFrom must be a function (i) → column | null, got ${typeName(maskFrom)}`);
  }
  // Row i's cells from column maskFrom(i) on are drawn grey (causal: (i) => i + 1).
  const firstMasked = maskFrom ? Array.from({ length: rows }, (_, i) => maskFrom(i) ?? null) : null;
  const width = options.width ?? canvas.parentElement?.clientWidth ?? 480;
  if (!(width >= MIN_HEATMAP_WIDTH) || !Number.isFinite(width))
    throw new RangeError(
      `${where}: width must be a number of CSS px from ${MIN_HEATMAP_WIDTH} (the labels and margins take ${MIN_HEATMAP_WIDTH - 46}), got ${width}`,
    );
  const { x0, y0, cellW, cellH, height } = drawHeatmap(canvas, {
    rows,
    cols,
    values,
    scale,
    maskFrom: firstMasked ? (i) => firstMasked[i] : null,
    maskKey: firstMasked ? firstMasked.join(',') : '',
    rowLabel: label(options.rowLabels, 'rowLabels'),
    colLabel: label(options.colLabels, 'colLabels'),
    colValue: (j) => j,
    xTitle: options.xTitle ?? '',
    yTitle: options.yTitle ?? '',
    note: options.note ?? '',
    width,
    colours: themeOf(canvas, options.colours),
  });
  return { x0, y0, cellW, cellH, width, height };
}

/**
 * Draws a colour bar alone: options { scale, min, max (required), label, width (CSS px,
 * default 240), height (10) }, with its ticks under it. Returns { width, height }.
 */
export function colourBar(canvas, options = {}) {
  const where = 'colourBar';
  checkCanvas(where, canvas);
  const { min, max, width = 240, height = 10 } = options;
  if (!Number.isFinite(min) || !Number.isFinite(max) || !(max > min)) {
    throw new RangeError(`${where}: min and max must be finite numbers with max > min, got ${min} and ${max}`);
  }
  const scale = scaleOf(where, [min, max], options);
  const total = height + 34;
  const { context: g } = fitCanvas(canvas, width, total);
  g.clearRect(0, 0, width, total);
  const colours = themeOf(canvas, options.colours);
  g.font = `12px ${colours.font}`;
  drawColourBar(g, { x: 8, y: 2, width: width - 16, height, scale, fg: colours.fg, label: options.label ?? '' });
  return { width, height: total };
}

/**
 * Draws y over x (numbers, e.g. offsets −k…k and a profile) with a zero line and labelled axes,
 * at the canvas's parent's width. Options: xLabel, yLabel, height (CSS px, 260), highlight (the
 * index of a point drawn larger). Returns { px, py } mapping data to CSS px.
 */
export function linePlot(canvas, { x, y, xLabel = '', yLabel = '', height = 260, highlight = -1 } = {}) {
  const where = 'linePlot';
  checkCanvas(where, canvas);
  for (const [name, values] of [
    ['x', x],
    ['y', y],
  ]) {
    if (!values || typeof values.length !== 'number' || values.length === 0) {
      throw new TypeError(`${where}: ${name} must be a non-empty array of numbers, got ${typeName(values)}`);
    }
  }
  if (x.length !== y.length)
    throw new RangeError(`${where}: x and y must have the same length, got ${x.length} and ${y.length}`);
  if (!canvas.parentElement)
    throw new TypeError(`${where}: the canvas must be in the document (it takes its parent's width)`);
  return drawLinePlot(canvas, { x: Array.from(x), y: Array.from(y), xLabel, yLabel, height, highlight });
}

/** The colour [r, g, b] (0–255) a heatmap gives `value` on { scale, min, max } (as heatmap()'s options). */
export function colourOf(value, options) {
  const scale = scaleOf('colourOf', [options.min, options.max], options);
  const entry = entryFor(scale, value);
  return Array.from(colourTable(scale.map).slice(entry * 4, entry * 4 + 3));
}
