// The long view's panels in offset space (offset-space.js): what each shows and says, its colour
// rule, its tooltip, and drawing it with render/heatmap.js's drawHeatmap. Used by AttentionFigure when a
// view carries `offsetSpace`.
//
// The colour rule (stated on the page): colours span the 99th percentile of the values drawn
// in the columns |c| < k (of |value|, symmetric around 0, for signed panels; from 0 for weights)
// — the cells themselves, or the block means where a pixel covers several cells. Beyond it they
// saturate (pointed ends on the colour bar): the edge columns, which total every clipped key's
// weight, usually do. With nothing clipped (k ≥ n − 1) or k = 0, every column counts.
import { makeScale } from '../render/colormaps.js';
import { formatSignificant, withMinus as minus } from '../render/number-text.js';
import { drawHeatmap, heatmapDrawnGrid } from '../render/heatmap.js';
import { kthSmallestOf, offsetExtentFor } from '../views/panel-extents.js';
import { keysOf, offsetMaskFrom, offsetRowSpan, offsetValue } from '../views/offset-space.js';

const PERCENTILE = 0.99;

/** Significant digits, not fixed decimals: 4 of them (a weight of 1/2048 reads 0.0004883). */
const significant = (value) => (Number.isNaN(value) ? 'no key' : formatSignificant(value, 4));

/** The first masked column of every row (causal: c > 0, the keys after the query), or null. */
export const maskFromOf = offsetMaskFrom;

/** The columns whose drawn values set the colour range: |c| < k while anything is clipped. */
export function rangeColsOf(view) {
  const { reach, cols } = view.offsetSpace;
  return view.maxDistance < view.n - 1 && reach > 0 ? [1, cols - 2] : [0, cols - 1];
}

/** The rows that have a key at column j (clipped offset j − k′), [first, last]. */
export function rowsWithKey(view, j) {
  const c = j - view.offsetSpace.reach;
  const first = Math.max(0, -c);
  const last = view.offsetSpace.reach === 0 ? view.n - 1 : Math.min(view.n - 1, view.n - 1 - c);
  return first <= last ? [first, last] : null;
}

function quantile(sample, count, f) {
  return kthSmallestOf(sample, count, Math.min(count - 1, Math.floor(PERCENTILE * count)), f);
}

const scales = new WeakMap(); // grid (heatmapDrawnGrid's) -> its scale, while the grid stays

/** The colour scale from the drawn values of a grid (see the rule above). */
function scaleOf(panel, label, { drawn }) {
  const { sample, count } = drawn;
  const extent = drawn.min <= drawn.max ? drawn : { min: 0, max: 0 };
  let fixed;
  if (panel.scale === 'diverging') {
    const m = count ? quantile(sample, count, Math.abs) : NaN;
    if (m > 0 && m < Math.max(-extent.min, extent.max)) fixed = m;
  } else {
    const low = Math.min(0, extent.min);
    const high = count ? quantile(sample, count, null) : NaN;
    fixed = high > low && high < extent.max ? [low, high] : [low, extent.max > low ? extent.max : low + 1];
  }
  const scale = makeScale(panel.scale, extent, fixed);
  scale.beyond = { low: extent.min < scale.min, high: extent.max > scale.max };
  scale.label = label;
  return scale;
}

/** The note under the colour bar: how the pixels and the colours relate to the cells. */
function noteFor(panel, view, gRows, gCols) {
  const { n } = view;
  const { cols, reach } = view.offsetSpace;
  const parts = [];
  const masked = maskFromOf(panel.id, view);
  if (gRows < n || gCols < cols) {
    // A pixel covers a whole number of cells (render/block-means.js's bounds): ⌊count/size⌋ or ⌈count/size⌉;
    // its mean leaves out the cells with no key and the masked ones (blockMeans).
    const per = (count, size) => (count % size ? `${(count / size) | 0}–${Math.ceil(count / size)}` : count / size);
    const across = gCols < cols ? ` × ${per(cols, gCols)} offsets` : '';
    // Cells with no key exist where a column c ≠ 0 runs past the sequence (never at k = 0).
    const left =
      reach > 0
        ? `, cells with ${masked ? 'no key or masked' : 'no key'} left out`
        : masked
          ? ', masked cells left out'
          : '';
    parts.push(`A pixel: mean of ${gRows < n ? `${per(n, gRows)} queries` : '1 query'}${across}${left}.`);
  }
  if (!panel.integer) parts.push(`Colours: 99th pct${rangeColsOf(view)[0] === 1 ? ' of |c| < k' : ''}.`);
  if (view.maxDistance >= n - 1) parts.push('Nothing clipped (k ≥ n − 1).');
  else if (reach === 0)
    parts.push(`One column (k = 0): ${masked ? 'the keys j ≤ i, later keys masked' : 'every key'}.`);
  // Causal, k = 0: no column c > 0 is drawn.
  if (view.causal && reach > 0) parts.push(masked ? 'Grey: c > 0, masked.' : 'Causal: c > 0 never used.');
  return parts.join(' ');
}

/** Draws a panel of a view with `offsetSpace`; returns the layout for reading cells. */
export function drawOffsetPanel(
  canvas,
  panel,
  view,
  { width, colours, labelSpace, maxSide, fontScale = 1, pixelRatio, selection },
) {
  const { n } = view;
  const { reach, cols, panels } = view.offsetSpace;
  const values = panels[panel.id];
  const maskFrom = maskFromOf(panel.id, view);
  const text = panel.offsetSpace;
  const clipping = view.maxDistance < n - 1 && reach > 0;
  let scale = null;
  if (panel.integer) {
    scale = makeScale('diverging', { min: -reach, max: reach }, Math.max(1, reach));
    scale.beyond = { low: false, high: false };
    scale.integer = reach <= 16; // integer ticks while they fit, else round numbers
    scale.label = text.bar;
  }
  const edgeLabel = (j) => (j === 0 ? `≤${minus(-reach)}` : `≥${reach}`);
  const spec = {
    rows: n,
    cols,
    values,
    scaleKey: panel.id,
    rangeCols: rangeColsOf(view),
    maskFrom,
    rowSpan: offsetRowSpan(n, reach),
    means: view.offsetSpace.means?.panels[panel.id],
    maskKey: maskFrom ? 'causal' : '',
    rowLabel: (i) => String(i),
    colLabel: (j) => (clipping && (j === 0 || j === cols - 1) ? edgeLabel(j) : minus(j - reach)),
    colValue: (j) => j - reach,
    colLabelAlways: (j) => j === reach || (clipping && (j === 0 || j === cols - 1)),
    xTitle: 'clipped offset c = clip(j − i, ±k) →',
    yTitle: 'query position i ↓',
    edgeLines: clipping,
    highlight: selection ? { i: selection.i, j: selection.j, rows: rowsWithKey(view, selection.j) } : null,
    width,
    labelSpace, // the row labels' room (positions: label-room.js's positionRoom)
    maxSide,
    fontScale,
    pixelRatio,
    colours,
  };
  // The grid the panel is drawn with; the scale from its drawn values, the note from its size.
  const grid = heatmapDrawnGrid(canvas, spec);
  if (!scale) {
    if (!scales.has(grid)) scales.set(grid, scaleOf(panel, text.bar, grid));
    scale = scales.get(grid);
  }
  const note = noteFor(panel, view, grid.gRows, grid.gCols);
  const layout = drawHeatmap(canvas, { ...spec, grid, scale, note });
  return { ...layout, note, extent: offsetExtentFor(values, n, cols, maskFrom) };
}

/**
 * The keys of cell (i, j) as text; `how` says what the cell makes of several. `unmasked`: the
 * cell's keys after the query are masked and only keys j ≤ i are counted (causal, k = 0: the one
 * column's weights sum keys 0…i).
 */
function keysText(view, i, j, how, unmasked) {
  const c = j - view.offsetSpace.reach;
  const keys = keysOf(i, c, view.n, view.maxDistance);
  if (!keys) return `none (j = ${minus(i + c)} is outside 0…${view.n - 1})`;
  const [lo, last] = keys;
  const hi = unmasked ? Math.min(last, i) : last;
  const later = hi < last ? 'later keys masked' : '';
  if (lo === hi) return `j = ${lo}${later && ` (${later})`}`;
  return `j = ${lo}…${hi} (${hi - lo + 1} keys${how && `, ${how}`}${later && `; ${later}`})`;
}

/**
 * The tooltip's lines and the read-out sentence for cell (i, j) (column j: offset j − k′) of a
 * panel in offset space; value with significant digits, in float64 from the n × n matrices.
 */
export function offsetReading(view, panel, { i, j }) {
  const { reach } = view.offsetSpace;
  const c = j - reach;
  const keys = keysOf(i, c, view.n, view.maxDistance);
  const masked = Boolean(maskFromOf(panel.id, view)) && c > 0 && keys;
  const value = masked ? 'masked (keys j > i)' : significant(offsetValue(view, panel.id, i, c));
  const clipped = view.maxDistance < view.n - 1 && reach > 0 && Math.abs(c) === reach;
  const offsetText = clipped ? `${minus(c)} (every j − i ${c > 0 ? '≥' : '≤'} ${minus(c)})` : minus(c);
  const how = masked
    ? 'masked'
    : ({ contentScores: `shown: j = ${i + c}`, positionBiases: 'one bias', offsets: '' }[panel.id] ?? 'summed');
  const keyText = keysText(view, i, j, how, Boolean(maskFromOf(panel.id, view)) && reach === 0);
  const several = Boolean(keys) && keyText.includes('…');
  const lines = [
    [panel.title, value],
    ['query i', String(i)],
    ['clipped offset c', offsetText],
    [several ? 'keys' : 'key', keyText],
  ];
  const sentence = `${panel.title}, query ${i}, clipped offset ${minus(c)}, ${keys ? `key${several ? 's' : ''} ${keyText}` : 'no key'}: value ${value}.`;
  return { lines, sentence, offset: c };
}

/**
 * A long-view panel's caption for what `layout` (drawOffsetPanel's) draws: its sentence on the
 * cells with no key says how they show at that size (panels.js's blankText).
 */
export function offsetCaption(panel, view, layout) {
  const masked = Boolean(maskFromOf(panel.id, view));
  return panel.offsetSpace.caption(view, layout && { gRows: layout.gRows, cellH: layout.cellH, masked });
}

/** The canvas's accessible name in offset space. */
export function offsetAriaLabel(panel, view, layout) {
  const { extent, scale, note } = layout;
  const { reach, cols } = view.offsetSpace;
  return `${panel.title}: ${view.n} by ${cols} heatmap in offset space, query positions i down, clipped offsets c from ${minus(-reach)} to ${reach} across; values from ${significant(extent.min)} to ${significant(extent.max)}; colour scale ${significant(scale.min)} to ${significant(scale.max)}. ${offsetCaption(panel, view, layout)} ${note}`;
}
