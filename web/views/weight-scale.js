// The weight panels' colour rule: viridis from 0 to a top taken over the cells a panel shows
// (under the causal mask, j ≤ i). A fixed [0, 1] made both panels one dark field once n ≥ 12
// (weights near 1/n). By default the content-only and combined panels share one top, the larger
// of their largest weights, so one colour means one weight in both (panel 5 compares them); the
// view's weightScale 'panel' gives each its own top instead (then changing k or the table leaves
// the content-only panel's colours alone). The long view has its own rule (panel-extents.js).
import { extentOf } from '../render/colormaps.js';

const tops = new WeakMap(); // weights' data -> { unmasked, masked } largest weight

/** The largest of `values` (an n × n weight matrix of view) over the cells the panel shows. */
export function weightMax(values, view) {
  const slot = view.causal ? 'masked' : 'unmasked';
  if (!tops.has(values)) tops.set(values, {});
  const known = tops.get(values);
  known[slot] ??= extentOf(values, view.n, view.causal).max;
  return known[slot];
}

/** Whether the two weight panels of `view` share one colour top (the default; not in the long view). */
export function sharedWeightScale(view) {
  return Boolean(view) && !view.long && view.weightScale !== 'panel' && Boolean(view.result?.contentWeights);
}

/** The colour top of weight panel `matrix` ('contentWeights' or 'combinedWeights') of `view`. */
export function weightTop(view, matrix) {
  if (!sharedWeightScale(view)) return weightMax(view.result[matrix].data, view);
  return Math.max(weightMax(view.result.contentWeights.data, view), weightMax(view.result.combinedWeights.data, view));
}
