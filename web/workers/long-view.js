// The page's long view on the page's pool (page-pool.js: view workers, one WebAssembly instance
// each): each computes a block of query rows (views/long-view-blocks.js), the page puts the
// blocks together. Calls of a request superseded before their turn are never computed (the
// pool's queue, task-pool.js); the pool has one worker per core (at most 8): the page's main
// thread only waits while they compute.
import { buffersOf } from '../api/transfer.js';
import { splitRows } from '../api/worker-pool.js';
import { assembleLongView } from '../views/long-view-blocks.js';
import { PANEL_IDS } from '../views/panels.js';

/** Offset-space cells (n × (2k′ + 1)) above which worker 0, not the page, puts panels together. */
const MERGE_IN_WORKER_CELLS = 1 << 20;

// Multiply-adds of a block of the long view (four n-wide panels per row over d_k), for its time limit.
const blockWork = (settings, count) => 8 * count * settings.seqLen * (settings.dK + settings.maxDistance);

/**
 * The long view for `settings` (ATTENTION_SETTINGS) and its means for `grid`, computed by
 * blocks on `pool` and put together on this thread (its n × n rows stay in the workers, read
 * from the one that holds them: the longViewRows task); `previous`: the view on screen (its offsets panel is kept when n and k stay);
 * `signal`: cancels it (a newer request: the blocks not yet started are never computed).
 * Resolves to { view, ranges }; rejects with an AbortError when cancelled.
 */
export async function computeLongView(pool, settings, { grid = null, previous = null, signal } = {}) {
  const parts = splitRows(settings.seqLen, pool.size);
  const blocks = await Promise.all(
    parts.map((block, worker) =>
      pool.run('longViewBlock', [settings, block, grid], { worker, signal, work: blockWork(settings, block.count) }),
    ),
  );
  blocks.sort((a, b) => a.first - b.first);
  const { cols } = blocks[0].offsetSpace;
  let merged = null;
  if (blocks.length > 1 && settings.seqLen * cols > MERGE_IN_WORKER_CELLS) {
    // Wide panels: worker 0 puts them together, and the page's main thread stays free.
    const panels = blocks.map(({ first, offsetSpace }) => ({ first, panels: offsetSpace.panels }));
    const work = PANEL_IDS.length * settings.seqLen * cols; // every panel's cells copied once
    const args = [settings.seqLen, cols, panels];
    merged = await pool.run('mergeOffsetPanels', args, { worker: 0, transfer: buffersOf(panels), signal, work });
    // The blocks' own panels went to worker 0: read each block's rows from the whole.
    for (const block of blocks) {
      const { first, count } = block;
      block.offsetSpace.panels = Object.fromEntries(
        Object.entries(merged).map(([name, whole]) => [name, whole.subarray(first * cols, (first + count) * cols)]),
      );
    }
  }
  // Worker w computed parts[w]: rows are read from it, as long as it holds this view's.
  const readRows = (from, to) => {
    const worker = parts.findIndex(({ first, count }) => from >= first && from < first + count);
    return pool.run('longViewRows', [settings, from, to], { worker });
  };
  return assembleLongView(readRows, settings, blocks, { grid, previous, merged });
}
