// A module worker with its own WASM instance: computes attention views off the main thread for
// the page's long-sequence view, and hands the arrays over without copying them, with each
// panel's value and colour ranges (scanning n² values is work the main thread need not do).
import { createRelPos } from '../api/index.js';
import { panelRanges } from '../figures/panel-extents.js';
import { computeOffsetMeans } from '../figures/offset-space.js';
import { computeAttentionView } from '../figures/view.js';
import { buffersOf as blockBuffers, computeLongViewBlock, mergeOffsetPanels } from '../figures/long-view-blocks.js';

const ready = createRelPos();
const cache = {}; // the long view's content panels of this worker's rows (long-view-blocks.js)

/** Every ArrayBuffer under `value` (the typed arrays of a view), for the transfer list. */
function buffersOf(value, found = new Set()) {
  if (ArrayBuffer.isView(value)) found.add(value.buffer);
  else if (value && typeof value === 'object') for (const child of Object.values(value)) buffersOf(child, found);
  return [...found];
}

self.addEventListener('message', async ({ data }) => {
  try {
    const rp = await ready;
    if (data.block) {
      // One block of the long view's rows, for a pool of these workers (long-view-pool.js).
      const { block, transfer } = computeLongViewBlock(rp, data.settings, data.block, { grid: data.grid, cache });
      self.postMessage({ id: data.id, block }, transfer);
      return;
    }
    if (data.merge) {
      // The long view's offset-space panels put together from every block (long-view-pool.js).
      const { n, cols, parts } = data.merge;
      const merged = mergeOffsetPanels(n, cols, parts);
      self.postMessage({ id: data.id, merged }, blockBuffers(merged));
      return;
    }
    const view = computeAttentionView(rp, data.settings, { positionsOnly: data.positionsOnly });
    // The long view: the block means for the grid the page will draw (offsetGrid), here too.
    if (view.offsetSpace && data.offsetGrid) view.offsetSpace.means = computeOffsetMeans(view, data.offsetGrid);
    self.postMessage({ id: data.id, view, ranges: panelRanges(view) }, buffersOf(view));
  } catch (error) {
    self.postMessage({ id: data.id, error: error.message });
  }
});
