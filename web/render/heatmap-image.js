// A heatmap's matrix as pixels, for any rows × cols (a square matrix is n × n): the grid of
// pixels it is drawn with (the cells, or where a device pixel covers several cells the mean of
// those it covers, masked and no-key cells left out: block-means.js), a sample of the drawn
// values (for a colour scale chosen from what is drawn), and the colour-mapped picture, one
// ImageData pixel per grid cell stretched with smoothing off onto the matrix's device pixels.
// Both are kept per canvas until the values, the size, the mask or the scale change (a hover
// only recomposes the canvas).
import { MASKED, blockMeans, bounds } from './block-means.js';
import { colourMap, pixelOf, pixelTableOf } from './heatmap-pixels.js';

const MAX_SAMPLE = 1 << 16; // drawn values in a grid's sample, at most

// The drawn values that set the colour range: those in the grid columns wholly inside
// rangeCols (cell columns, inclusive), not blank, not masked; at a fixed stride beyond
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

const gridCache = new WeakMap();
const pictureCache = new WeakMap();

/** Drops a canvas's cached grid and picture, so that the next draw colour-maps again (benchmarks). */
export function forgetHeatmapImage(canvas) {
  gridCache.delete(canvas);
  pictureCache.delete(canvas);
}

/**
 * The grid of pixels a rows × cols matrix is drawn with on `canvas` in widthDevice ×
 * heightDevice device pixels: { gRows, gCols, grid (the values, or their block means: spec.means
 * when they were computed for this grid, in a worker), meaned (block means), maskFrom (the
 * values' mask, null for block means: they carry MASKED), drawn }, drawn = { sample, count, min,
 * max }: the drawn values in the columns wholly inside spec.rangeCols (at a stride beyond 65,536;
 * null without rangeCols) and the extent of every drawn value. spec: { rows, cols, values,
 * maskFrom(i) (the first masked column of row i) | null, maskKey (changes with maskFrom),
 * rowSpan(i) -> [lo, hi) (optional: row i's cells that hold numbers), means, rangeCols }. The
 * same object while the values, the size and the mask stay.
 */
export function heatmapGrid(canvas, spec, widthDevice, heightDevice) {
  const { rows, cols, values } = spec;
  const key = `${rows}|${cols}|${widthDevice}|${heightDevice}|${spec.maskKey ?? ''}|${spec.rangeCols ?? ''}`;
  const cached = gridCache.get(canvas);
  if (cached && cached.values === values && cached.means === spec.means && cached.key === key) return cached;
  const gRows = Math.min(rows, heightDevice);
  const gCols = Math.min(cols, widthDevice);
  let grid = values;
  let bx = bounds(cols, gCols);
  let maskFrom = spec.maskFrom ?? null;
  const meaned = gRows !== rows || gCols !== cols;
  if (meaned) {
    const { means } = spec;
    if (means && means.gRows === gRows && means.gCols === gCols) grid = means.grid;
    else ({ grid, bx } = blockMeans(values, rows, cols, gRows, gCols, maskFrom, spec.rowSpan));
    maskFrom = null; // block means carry MASKED themselves
  }
  const drawn = spec.rangeCols ? drawnSample(grid, gRows, gCols, bx, spec.rangeCols, maskFrom) : null;
  const result = { values, means: spec.means, key, gRows, gCols, grid, meaned, maskFrom, drawn };
  gridCache.set(canvas, result);
  return result;
}

/**
 * The colour-mapped picture of a grid (heatmapGrid's) at widthDevice × heightDevice device
 * pixels: { picture (a canvas to draw), scale, gRows, gCols }. style: { scale (colormaps.makeScale),
 * scaleKey (anything else the scale depends on), masked (the masked cells' colour), blank (the
 * pixel of a NaN cell: 0, transparent, or the masked grey), minusInfinityMasked (−∞ values are
 * masked cells, grey; else drawn as the lowest colour, but in block means, where they are MASKED) }.
 */
export function heatmapPicture(canvas, made, style, widthDevice, heightDevice) {
  const { scale } = style;
  const { values, gRows, gCols, grid, maskFrom } = made;
  const key = `${scale.kind}|${scale.map}|${scale.min}|${scale.max}|${style.scaleKey ?? ''}|${style.masked}|${style.blank}`;
  const cached = pictureCache.get(canvas);
  if (cached && cached.made === made && cached.key === key) return cached;
  // The offscreen canvases and the ImageData are kept with the canvas while their sizes hold.
  const entry = cached ?? {};
  if (entry.gRows !== gRows || entry.gCols !== gCols) {
    entry.cells = new OffscreenCanvas(gCols, gRows);
    entry.cellsContext = entry.cells.getContext('2d');
    entry.image = new ImageData(gCols, gRows);
  }
  const pixels = new Uint32Array(entry.image.data.buffer);
  const grey = pixelOf(style.masked);
  colourMap(grid, gRows, gCols, scale, pixelTableOf(scale.map), pixels, {
    grey,
    blank: style.blank === 'masked' ? grey : style.blank,
    maskFrom,
    maskedBlocks: style.minusInfinityMasked || made.meaned,
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
  pictureCache.set(canvas, entry);
  return entry;
}
