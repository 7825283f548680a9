import { blockMeans } from '../render/block-means.js';
import { PANELS, PANEL_IDS, panelById } from './panels.js';

// The long view's panels in offset space: for each panel an n × (2k′ + 1) matrix indexed by
// (query i, clipped offset c = −k′…k′), one column per row of a^K a query can read, so that
// clipping is visible at any n. k′ = min(k, n − 1): beyond n − 1 there are no keys, and
// clipping at n − 1 clips nothing, exactly as at any larger k.
//
// Cell (i, c) stands for the keys j whose clipped offset clip(j − i, ±k) is c:
//   |c| < k′: the one key j = i + c;  c = k′: j = i + k′ … n − 1;  c = −k′: j = 0 … i − k′
//   (k′ = 0: every key). No such key (j outside 0…n − 1): "no key", NaN, drawn blank.
// Per panel:
//   content scores           the score of the key j = i + c (at the edges, the key at exactly
//                            |j − i| = k′, the nearest of the clipped keys)
//   position biases          q_i·aᴷ[c]/√d_k, exact: every key of the cell has this bias (read
//                            at j = i + c)
//   content-only, combined   the total weight of the cell's keys (the bucketed weights that the
//   weights                  value term multiplies by aⱽ[c]); a row sums to 1
//   what position changes    combined total − content-only total
//   clipped offsets          c itself
// The drawn matrices are float32 (at n = 2048, k = 2047 six of them take 200 MB, not 400);
// reading a cell (offsetValue) computes it in float64 from the view's n × n matrices where the
// page has them, or from rows read from the workers that computed them (the pool's long view).
// Without either it is the drawn cell: what was computed, never computed again.

/** k′: the largest offset the offset-space view shows. */
export const offsetReach = (n, k) => Math.max(0, Math.min(k, n - 1));

/** The keys that cell (i, c) stands for, [first, last] (inclusive), or null ("no key"). */
export function keysOf(i, c, n, k) {
  const reach = offsetReach(n, k);
  if (reach === 0) return n > 0 ? [0, n - 1] : null;
  if (c === reach) return i + reach <= n - 1 ? [i + reach, n - 1] : null;
  if (c === -reach) return i - reach >= 0 ? [0, i - reach] : null;
  const j = i + c;
  return j >= 0 && j < n ? [j, j] : null;
}

/** How a panel's offset-space cell is made from its n × n row: 'key' (j = i + c), 'sum' or 'offset' (panels.js). */
export const cellRule = (panelId) => panelById(panelId).offsetSpace.cell;

/** The panels whose offset space is made from their n × n matrices (all but the offsets themselves). */
const FROM_SQUARES = PANELS.filter((panel) => panel.offsetSpace.cell !== 'offset');

/** Σ values[row + j] for j = lo…hi, in order. */
function sumRange(values, row, lo, hi) {
  let sum = 0;
  for (let j = row + lo, last = row + hi; j <= last; j += 1) sum += values[j];
  return sum;
}

/**
 * Cell (i, c) of a panel in float64, from the view's n × n matrices, or from `rows` (rows of
 * them, { first, contentScores, …: (rows × n) }, as the pool's long view reads them from its
 * workers: view.readRows(i)); the pool's long view without `rows`: the drawn (float32) cell.
 * NaN: no key. The difference is the combined total minus the content-only total.
 */
export function offsetValue(view, panelId, i, c, rows = null) {
  const { n } = view;
  const keys = keysOf(i, c, n, view.maxDistance);
  if (!keys) return NaN;
  const rule = cellRule(panelId);
  if (rule === 'offset') return c;
  if (!rows && view.readRows) {
    const space = view.offsetSpace;
    return space.panels[panelId][i * space.cols + c + space.reach];
  }
  if (rule === 'key') return rowOf(view, panelId, i, rows)[i + c];
  if (panelId === 'difference') {
    return (
      sumRange(rowOf(view, 'combinedWeights', i, rows), 0, keys[0], keys[1]) -
      sumRange(rowOf(view, 'contentWeights', i, rows), 0, keys[0], keys[1])
    );
  }
  return sumRange(rowOf(view, panelId, i, rows), 0, keys[0], keys[1]);
}

/**
 * Row i (n numbers) of a panel's n × n matrix: from `rows` (rows read from the workers, which
 * hold row i) where given, else the view's matrix.
 */
export function rowOf(view, panelId, i, rows = null) {
  if (rows) return rows[panelId].subarray((i - rows.first) * view.n, (i - rows.first + 1) * view.n);
  return panelById(panelId)
    .values(view)
    .subarray(i * view.n, (i + 1) * view.n);
}

/**
 * Every panel in offset space for a view (computeAttentionView's): { reach: k′, cols: 2k′ + 1,
 * panels: { id: Float32Array(n · cols) } }, row-major, NaN where there is no key.
 */
export function computeOffsetSpace(view) {
  const { n } = view;
  const squares = Object.fromEntries(FROM_SQUARES.map((panel) => [panel.id, panel.values(view)]));
  return offsetSpaceRows(squares, n, view.maxDistance, 0, n);
}

/**
 * Rows first … first + count − 1 of every panel in offset space, from those rows of the n × n
 * panels (`squares`: { id: count × n array }; without a difference, combined − content weights
 * cell by cell); the same numbers, bit for bit, as those rows of computeOffsetSpace. Row i's
 * keys j = i + c, c = max(−k′, −i)…min(k′, n − 1 − i), are a contiguous run of the n × n row,
 * converted to float32; the edge columns total their keys, once per row for both weights (the
 * difference's edges are the same two totals subtracted).
 */
export function offsetSpaceRows(squares, n, k, first, count) {
  const reach = offsetReach(n, k);
  const cols = 2 * reach + 1;
  const panels = {};
  const content = squares.contentWeights;
  const combined = squares.combinedWeights;
  // The edge columns (k′ = 0: one column, every key): [c = −k′, c = k′] of each row, where they
  // stand for more than one key (one key: copied with the band).
  const edges = reach === 0 ? [0] : [0 - reach, reach];
  const contentEdge = new Float64Array(count * edges.length);
  const combinedEdge = new Float64Array(count * edges.length);
  const hasEdge = new Uint8Array(count * edges.length);
  const ramp = new Float32Array(cols);
  for (let c = 0 - reach; c <= reach; c += 1) ramp[c + reach] = c; // 0 − reach: never −0
  for (let i = first; i < first + count; i += 1) {
    const row = (i - first) * n;
    for (let e = 0; e < edges.length; e += 1) {
      const keys = keysOf(i, edges[e], n, reach);
      if (!keys || keys[0] === keys[1]) continue;
      const at = (i - first) * edges.length + e;
      hasEdge[at] = 1;
      // Both totals in one pass, each in the order of sumRange (two chains of additions side by side).
      let contentSum = 0;
      let combinedSum = 0;
      for (let j = row + keys[0], last = row + keys[1]; j <= last; j += 1) {
        contentSum += content[j];
        combinedSum += combined[j];
      }
      contentEdge[at] = contentSum;
      combinedEdge[at] = combinedSum;
    }
  }
  for (const id of PANEL_IDS) {
    const out = new Float32Array(count * cols);
    const rule = cellRule(id);
    const square = squares[id];
    for (let i = first; i < first + count; i += 1) {
      const row = (i - first) * n;
      const start = (i - first) * cols;
      // The columns whose key j = i + c exists: c from max(−k′, −i) to min(k′, n − 1 − i).
      const firstCol = Math.max(0 - reach, 0 - i) + reach;
      const lastCol = Math.min(reach, n - 1 - i) + reach;
      if (firstCol > 0) out.fill(NaN, start, start + firstCol);
      if (lastCol < cols - 1) out.fill(NaN, start + lastCol + 1, start + cols);
      const j0 = row + i - reach; // square[j0 + col]: the key of column col
      // Short rows element by element (no subarray views to allocate for a few dozen cells).
      const short = lastCol - firstCol < 64;
      if (rule === 'offset' && short) for (let col = firstCol; col <= lastCol; col += 1) out[start + col] = ramp[col];
      else if (rule === 'offset') out.set(ramp.subarray(firstCol, lastCol + 1), start + firstCol);
      else if (square && short) for (let col = firstCol; col <= lastCol; col += 1) out[start + col] = square[j0 + col];
      else if (square) out.set(square.subarray(j0 + firstCol, j0 + lastCol + 1), start + firstCol);
      else for (let col = firstCol; col <= lastCol; col += 1) out[start + col] = combined[j0 + col] - content[j0 + col];
      if (rule !== 'sum') continue;
      edges.forEach((c, e) => {
        const at = (i - first) * edges.length + e;
        if (!hasEdge[at]) return;
        out[start + c + reach] =
          id === 'difference'
            ? combinedEdge[at] - contentEdge[at]
            : id === 'contentWeights'
              ? contentEdge[at]
              : combinedEdge[at];
      });
    }
    panels[id] = out;
  }
  return { reach, cols, panels };
}

/** Row i's columns that have a key, [lo, hi): the keys j = i + c in 0…n − 1. */
export const offsetRowSpan = (n, reach) => (i) => [
  Math.max(-reach, -i) + reach,
  Math.min(reach, n - 1 - i) + reach + 1,
];

/** The first masked column of every row (causal weight panels: c > 0, keys after the query), or null. */
export const offsetMaskFrom = (panelId, view) =>
  view.causal && cellRule(panelId) === 'sum' ? () => view.offsetSpace.reach + 1 : null;

/**
 * The block means of every panel for a grid of gRows × gCols pixels (render/block-means.js's
 * blockMeans, which the figure would otherwise compute on the main thread): { gRows, gCols,
 * panels: { id: { gRows, gCols, grid } } }.
 */
export function computeOffsetMeans(view, { gRows, gCols }) {
  const { reach, cols, panels } = view.offsetSpace;
  const means = {};
  if (gRows < view.n || gCols < cols) {
    for (const id of PANEL_IDS) {
      means[id] = {
        gRows,
        gCols,
        grid: blockMeans(panels[id], view.n, cols, gRows, gCols, offsetMaskFrom(id, view), offsetRowSpan(view.n, reach))
          .grid,
      };
    }
  }
  return { gRows, gCols, panels: means };
}

/** The range (min, max) of an offset-space panel over the cells it colours (not no-key, not masked). */
export function offsetExtent(values, rows, cols, maskFrom) {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < rows; i += 1) {
    const start = i * cols;
    const stop = start + (maskFrom ? Math.min(maskFrom(i), cols) : cols);
    for (let index = start; index < stop; index += 1) {
      const v = values[index];
      if (v < min) min = v;
      if (v > max) max = v;
    }
  }
  return min <= max ? { min, max } : { min: 0, max: 0 };
}
