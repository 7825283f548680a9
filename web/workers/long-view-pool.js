// The page's long view on a pool of attention workers (attention-worker.js, one WebAssembly
// instance each): each computes a block of query rows (figures/long-view-blocks.js), the page
// puts the blocks together. The latest request wins: an older one's blocks are dropped. The
// pool has one worker per core (at most 8): the page's main thread only waits while they compute.
import { MAX_WORKERS, splitRows } from '../api/worker-pool.js';
import { assembleLongView, buffersOf } from '../figures/long-view-blocks.js';
import { startAttentionWorker } from './start-attention-worker.js';

/** Offset-space cells (n × (2k′ + 1)) above which worker 0, not the page, puts panels together. */
const MERGE_IN_WORKER_CELLS = 1 << 20;

/** Workers for the long view: navigator.hardwareConcurrency, from 1 to MAX_WORKERS. */
export const longViewPoolSize = () =>
  Math.max(1, Math.min(MAX_WORKERS, globalThis.navigator?.hardwareConcurrency ?? 2));

export class LongViewPool {
  #workers;
  #pending = new Map(); // request id -> { blocks, left, resolve, reject }
  #latest = 0;
  #lost = false;

  /**
   * size workers from start() (default: the attention worker beside this file); onLost() when
   * one fails to run (the pool is then stopped).
   */
  constructor({ size = longViewPoolSize(), start = startAttentionWorker, onLost = () => {} } = {}) {
    this.#workers = Array.from({ length: size }, () => start());
    for (const worker of this.#workers) {
      worker.addEventListener('message', ({ data }) => this.#settle(data));
      worker.addEventListener('error', (event) => {
        event.preventDefault?.();
        if (this.#lost) return;
        this.#lost = true;
        this.terminate();
        onLost();
      });
    }
  }

  get size() {
    return this.#workers.length;
  }

  /**
   * The long view for `settings` (ATTENTION_SETTINGS) and its means for `grid`, put together on
   * this thread with `rp` (which computes n × n rows when they are read); `previous`: the view on
   * screen (its offsets panel is kept when n and k stay). Resolves to { view, ranges }, or null
   * when a newer request came first.
   */
  compute(rp, settings, { grid = null, previous = null } = {}) {
    this.#latest += 1;
    const id = this.#latest;
    for (const [old, call] of this.#pending) {
      this.#pending.delete(old);
      call.resolve(null);
    }
    const parts = splitRows(settings.seqLen, this.#workers.length);
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { blocks: [], left: parts.length, resolve, reject, rp, settings, grid, previous });
      parts.forEach((block, index) => this.#workers[index].postMessage({ id, settings, block, grid }));
    });
  }

  terminate() {
    for (const worker of this.#workers) worker.terminate();
    this.#failAll(new Error('long view: the pool was terminated'));
  }

  #settle({ id, block, merged, error }) {
    const call = this.#pending.get(id);
    if (!call) return; // an older request's block
    if (error) {
      this.#pending.delete(id);
      call.reject(new Error(error));
      return;
    }
    if (merged) {
      this.#finish(id, call, merged);
      return;
    }
    call.blocks.push(block);
    call.left -= 1;
    if (call.left > 0) return;
    call.blocks.sort((a, b) => a.first - b.first);
    const { reach, cols } = call.blocks[0].offsetSpace;
    if (call.blocks.length > 1 && call.settings.seqLen * cols > MERGE_IN_WORKER_CELLS) {
      // Wide panels: worker 0 puts them together, and the page's main thread stays free.
      const parts = call.blocks.map(({ first, offsetSpace }) => ({ first, panels: offsetSpace.panels }));
      this.#workers[0].postMessage({ id, merge: { n: call.settings.seqLen, cols, reach, parts } }, buffersOf(parts));
      return;
    }
    this.#finish(id, call, null);
  }

  #finish(id, call, merged) {
    this.#pending.delete(id);
    if (merged) {
      // The blocks' own panels went to worker 0: read each block's rows from the whole.
      const { cols } = call.blocks[0].offsetSpace;
      for (const block of call.blocks) {
        const { first, count } = block;
        block.offsetSpace.panels = Object.fromEntries(
          Object.entries(merged).map(([name, whole]) => [name, whole.subarray(first * cols, (first + count) * cols)]),
        );
      }
    }
    const { rp, settings, blocks, grid, previous } = call;
    try {
      call.resolve(assembleLongView(rp, settings, blocks, { grid, previous, merged }));
    } catch (failure) {
      call.reject(failure);
    }
  }

  #failAll(error) {
    for (const call of this.#pending.values()) call.reject(error);
    this.#pending.clear();
  }
}
