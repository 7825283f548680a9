// Each panel's value range (min, max over its unmasked cells), remembered per matrix so that a
// redraw (hover, resize, theme) does not scan n² values again. The worker computes the ranges
// of its views too (panelExtents), off the main thread: at n = 2048 one scan takes ~12 ms.
import { extentOf } from '../render/colormaps.js';
import { PANELS } from './panels.js';

const cache = new WeakMap(); // values -> [unmasked extent, masked extent]

/** The range of `values` (panel.values(view)) over the cells the panel shows unmasked. */
export function extentFor(values, n, masked) {
  const known = cache.get(values) ?? [];
  const slot = masked ? 1 : 0;
  known[slot] ??= extentOf(values, n, masked);
  cache.set(values, known);
  return known[slot];
}

/** [panel id, range] for every panel of `view`. */
export const panelExtents = (view) =>
  PANELS.map((panel) => [panel.id, extentFor(panel.values(view), view.n, Boolean(panel.masked?.(view)))]);

/** Takes the ranges panelExtents computed (in a worker) for the matrices of `view`. */
export function rememberExtents(view, extents) {
  for (const [id, extent] of extents) {
    const panel = PANELS.find((p) => p.id === id);
    const values = panel.values(view);
    const known = cache.get(values) ?? [];
    known[panel.masked?.(view) ? 1 : 0] = extent;
    cache.set(values, known);
  }
}
