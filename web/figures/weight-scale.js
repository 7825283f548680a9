// The weight panels' colour rule: viridis from 0 to the largest weight in either weight panel
// (content-only or combined, over the cells the panel shows: under the causal mask, j ≤ i).
// A fixed [0, 1] made both panels one dark field once n ≥ 12 (weights near 1/n); one range
// for the two keeps them comparable: the same colour is the same weight in both.
import { extentOf } from '../render/colormaps.js';

const tops = new WeakMap(); // combined weights' data -> { unmasked, masked } shared maximum

/** The largest weight of view's content-only and combined weights (unmasked cells). */
export function sharedWeightMax(view) {
  const { contentWeights, combinedWeights } = view.result;
  const slot = view.causal ? 'masked' : 'unmasked';
  let known = tops.get(combinedWeights.data);
  if (!known || known.content !== contentWeights.data) {
    known = { content: contentWeights.data };
    tops.set(combinedWeights.data, known);
  }
  known[slot] ??= Math.max(extentOf(contentWeights.data, view.n, view.causal).max, extentOf(combinedWeights.data, view.n, view.causal).max);
  return known[slot];
}
