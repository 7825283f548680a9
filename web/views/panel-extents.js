// Each panel's value range (min, max over its unmasked cells) and, in the long-sequence view,
// its colour range, remembered per matrix so that a redraw (hover, resize, theme) does not scan
// n² values again. The worker computes both for its views (panelRanges), off the main thread:
// at n = 2048 one scan takes ~12 ms.
//
// The long view's colour rule: a pixel there averages many cells, and a few extreme cells
// would otherwise stretch the scale until everything else is pale (or, for weights of about
// 1/n on a 0-to-1 scale, dark). So colours span the 99th percentile: of |value| for signed
// panels (symmetric around 0), of the values for weights (from 0); beyond it
// they saturate. The percentile is taken over at most SAMPLES cells at a fixed stride.
import { extentOf } from '../render/colormaps.js';
import { offsetExtent } from './offset-space.js';
import { PANELS } from './panels.js';

const PERCENTILE = 0.99;
const SAMPLES = 1 << 13; // a 99th percentile to within about ±0.2 % in rank

const cache = new WeakMap(); // values -> { extent: [unmasked, masked], colours: [unmasked, masked] }

function entryFor(values) {
  if (!cache.has(values)) cache.set(values, { extent: [], colours: [] });
  return cache.get(values);
}

/** The range of `values` (panel.values(view)) over the cells the panel shows unmasked. */
export function extentFor(values, n, masked) {
  const known = entryFor(values).extent;
  const slot = masked ? 1 : 0;
  known[slot] ??= extentOf(values, n, masked);
  return known[slot];
}

/** The PERCENTILE quantile of f(value) over (a fixed-stride sample of) the unmasked cells. */
function percentileOf(values, n, masked, f) {
  const stride = Math.max(1, Math.floor((n * n) / SAMPLES)) | 1; // odd: no lock-step with rows
  const sample = new Float64Array(Math.ceil((n * n) / stride));
  let count = 0;
  for (let index = 0; index < n * n; index += stride) {
    if (masked && index % n > Math.floor(index / n)) continue; // key j after query i
    const v = values[index];
    if (v === v) sample[count++] = f(v); // NaN is left out
  }
  if (count === 0) return NaN;
  return kthSmallest(sample, count, Math.min(count - 1, Math.floor(PERCENTILE * count)));
}

/**
 * The k-th smallest (0-based) of f(values[i]) (f null: values[i]), i = 0 … count − 1, values left as they are. Near
 * the top (a high percentile: the count − k largest are few) one pass keeps the count − k
 * largest in a min-heap, whose least is the answer; else quickselect on a copy.
 */
export function kthSmallestOf(values, count, k, f = null) {
  const top = count - k; // the answer is the least of the `top` largest
  if (top > 1024 || top < 1) {
    const a = new Float64Array(count);
    for (let index = 0; index < count; index += 1) a[index] = f ? f(values[index]) : values[index];
    return kthSmallest(a, count, k);
  }
  const heap = new Float64Array(top); // heap[0]: the least of the largest seen
  let size = 0;
  const abs = f === Math.abs; // the signed panels' case, without a call per value
  for (let index = 0; index < count; index += 1) {
    const v = abs ? Math.abs(values[index]) : f ? f(values[index]) : values[index];
    if (size < top) {
      let at = size++;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (heap[parent] <= v) break;
        heap[at] = heap[parent];
        at = parent;
      }
      heap[at] = v;
    } else if (v > heap[0]) {
      let at = 0;
      for (;;) {
        let child = 2 * at + 1;
        if (child >= top) break;
        if (child + 1 < top && heap[child + 1] < heap[child]) child += 1;
        if (heap[child] >= v) break;
        heap[at] = heap[child];
        at = child;
      }
      heap[at] = v;
    }
  }
  return heap[0];
}

/** The k-th smallest of a[0 .. count) (0-based), reordering a: quickselect, O(count). */
export function kthSmallest(a, count, k) {
  let lo = 0;
  let hi = count - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const pivot = Math.max(Math.min(a[lo], a[mid]), Math.min(Math.max(a[lo], a[mid]), a[hi])); // median of 3
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i += 1;
      while (a[j] > pivot) j -= 1;
      if (i <= j) {
        const t = a[i];
        a[i] = a[j];
        a[j] = t;
        i += 1;
        j -= 1;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k];
  }
  return a[k];
}

/**
 * The long view's colour range for a panel (see above): [-m, m] as m for signed panels,
 * [low, high] for weights; null where the panel keeps its own (integer offsets) or where the
 * percentile would not narrow the full range.
 */
export function longViewColours(panel, values, n, masked) {
  if (panel.integer) return null;
  const known = entryFor(values).colours;
  const slot = masked ? 1 : 0;
  if (known[slot] === undefined) {
    const { min, max } = extentFor(values, n, masked);
    let range = null;
    if (panel.scale === 'diverging') {
      const m = percentileOf(values, n, masked, Math.abs);
      if (m > 0 && m < Math.max(-min, max)) range = m;
    } else {
      const low = Math.min(0, min); // weights: from 0
      const high = percentileOf(values, n, masked, (v) => v);
      if (high > low && high < max) range = [low, high];
    }
    known[slot] = range;
  }
  return known[slot];
}

/**
 * The range of an offset-space panel (rows × cols, NaN: no key) over the cells it colours:
 * columns from maskFrom(i) on are masked.
 */
export function offsetExtentFor(values, rows, cols, maskFrom) {
  const known = entryFor(values).extent;
  const slot = maskFrom ? 1 : 0;
  known[slot] ??= offsetExtent(values, rows, cols, maskFrom);
  return known[slot];
}

// The offset-space view's first masked column (causal weights: c > 0), as offset-panel.js's.
const offsetMaskFrom = (panel, view) => (panel.masked?.(view) ? () => view.offsetSpace.reach + 1 : null);

/**
 * [panel id, value range, long-view colour range] for every panel of `view`. A view in offset
 * space (the long view): the ranges of its offset-space matrices (their colour ranges are taken
 * from what is drawn, when it is drawn).
 */
export const panelRanges = (view) =>
  view.offsetSpace
    ? PANELS.map((panel) => {
        const { cols, panels } = view.offsetSpace;
        return [panel.id, offsetExtentFor(panels[panel.id], view.n, cols, offsetMaskFrom(panel, view)), undefined];
      })
    : PANELS.map((panel) => {
        const values = panel.values(view);
        const masked = Boolean(panel.masked?.(view));
        return [
          panel.id,
          extentFor(values, view.n, masked),
          view.long ? longViewColours(panel, values, view.n, masked) : undefined,
        ];
      });

/** Takes the ranges panelRanges computed (in a worker) for the matrices of `view`. */
export function rememberRanges(view, ranges) {
  for (const [id, extent, colours] of ranges) {
    const panel = PANELS.find((p) => p.id === id);
    const entry = entryFor(view.offsetSpace ? view.offsetSpace.panels[id] : panel.values(view));
    const slot = panel.masked?.(view) ? 1 : 0;
    entry.extent[slot] = extent;
    if (colours !== undefined) entry.colours[slot] = colours;
  }
}
