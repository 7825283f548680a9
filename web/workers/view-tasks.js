// The page's tasks for a view worker (view-worker.js), by name: a whole view, one block of the
// long view's query rows, rows of that block as computed (read by the page's probe and exports),
// and the long view's wide panels put together. Each is handed the
// worker's context, { rp, cache }: the long view's content panels of this worker's rows live
// in the cache between calls (long-view-blocks.js).
import { computeLongViewBlock, mergeOffsetPanels, readBlockRows } from '../views/long-view-blocks.js';
import { computeOffsetMeans } from '../views/offset-space.js';
import { panelRanges } from '../views/panel-extents.js';
import { computeAttentionView } from '../views/view.js';

export const VIEW_TASKS = {
  /** The view of `settings` (ATTENTION_SETTINGS) and each panel's ranges (n² values scanned here). */
  attentionView({ rp }, settings, { positionsOnly = false, offsetGrid = null } = {}) {
    const view = computeAttentionView(rp, settings, { positionsOnly });
    // The long view: the block means for the grid the page will draw (offsetGrid), here too.
    if (view.offsetSpace && offsetGrid) view.offsetSpace.means = computeOffsetMeans(view, offsetGrid);
    return { view, ranges: panelRanges(view) };
  },

  /** Rows block.first … block.first + block.count − 1 of the long view, in offset space. */
  longViewBlock({ rp, cache }, settings, block, grid) {
    return computeLongViewBlock(rp, settings, block, { grid, cache }).block;
  },

  /** Rows from … to − 1 of the long view's n × n panels and output, as this worker computed them for `settings`. */
  longViewRows({ cache }, settings, from, to) {
    return readBlockRows(cache, settings, from, to);
  },

  /** The blocks' offset-space panels put together (wide views: a long copy off the page's thread). */
  mergeOffsetPanels(context, n, cols, parts) {
    return mergeOffsetPanels(n, cols, parts);
  },
};
