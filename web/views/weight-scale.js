// The weight panels' colour rule: viridis from 0 to the panel's own largest weight (over the
// cells it shows: under the causal mask, j ≤ i). A fixed [0, 1] made both panels one dark
// field once n ≥ 12 (weights near 1/n). Each panel has its own top, not one shared by both:
// a shared top would tie the content-only panel's colours to the position term, so changing
// k or the table would re-colour a panel whose numbers did not change (panel 5 compares them).
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
