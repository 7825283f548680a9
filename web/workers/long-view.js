// The page's long view on the pool of view workers (view-worker.js, one WebAssembly instance
// each): each computes a block of query rows (views/long-view-blocks.js), the page puts the
// blocks together. Calls of a request superseded before their turn are never computed (the
// pool's queue, task-pool.js); the pool has one worker per core (at most 8): the page's main
// thread only waits while they compute.
import { buffersOf } from '../api/transfer.js';
import { MAX_WORKERS, TaskPool } from '../api/task-pool.js';
import { splitRows } from '../api/worker-pool.js';
import { assembleLongView } from '../views/long-view-blocks.js';
import { startViewWorker } from './start-view-worker.js';

/** Offset-space cells (n × (2k′ + 1)) above which worker 0, not the page, puts panels together. */
const MERGE_IN_WORKER_CELLS = 1 << 20;

/** Workers for the page's views: navigator.hardwareConcurrency, from 1 to MAX_WORKERS. */
export const viewPoolSize = () => Math.max(1, Math.min(MAX_WORKERS, globalThis.navigator?.hardwareConcurrency ?? 2));

/**
 * The page's pool of view workers, `size` of them from start() (default: the view worker beside
 * this file), each sent `wasmModule` (a WebAssembly.Module or a Promise of one); onLost(error) when one cannot start (the pool is then
 * stopped and the page computes on its own thread).
 */
export function startViewPool({ size = viewPoolSize(), start = startViewWorker, wasmModule, onLost } = {}) {
  const init = Promise.resolve(wasmModule).then((module) => ({ wasmModule: module }));
  return new TaskPool({ size, createWorker: start, init, where: "the page's workers", onLost });
}

// Multiply-adds of a block of the long view (four n-wide panels per row over d_k), for its time limit.
const blockWork = (settings, count) => 8 * count * settings.seqLen * (settings.dK + settings.maxDistance);

/**
 * The long view for `settings` (ATTENTION_SETTINGS) and its means for `grid`, computed by
 * blocks on `pool` and put together on this thread with `rp` (which computes n × n rows when
 * they are read); `previous`: the view on screen (its offsets panel is kept when n and k stay);
 * `signal`: cancels it (a newer request: the blocks not yet started are never computed).
 * Resolves to { view, ranges }; rejects with an AbortError when cancelled.
 */
export async function computeLongView(pool, rp, settings, { grid = null, previous = null, signal } = {}) {
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
    const work = settings.seqLen * cols;
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
  return assembleLongView(rp, settings, blocks, { grid, previous, merged });
}
