// relpos-wasm/worker: the API off the main thread. A pool of module workers, each with its own
// WebAssembly instance; the same methods as RelPos, returning Promises; results are transferred,
// not copied; attention() is split across the workers by blocks of query rows. The core is
// compiled once and the one WebAssembly.Module posted to every worker.
import { startPool } from './worker-pool.js';

export { MAX_WORKERS, BLOCK_ROWS, RelPosPool, defaultPoolSize, splitRows } from './worker-pool.js';
export { OUTPUT_NAMES } from './attention-options.js';
export { BASE_TIMEOUT_MS, timeoutFor } from './task-pool.js';

/** A module worker running worker-entry.js, loaded from beside this file. */
export const startRelPosWorker = () => new Worker(new URL('./worker-entry.js', import.meta.url), { type: 'module' });

/**
 * Starts a pool of `workers` workers (default: navigator.hardwareConcurrency − 1, from 1 to 8)
 * and resolves once each has its instance. `createWorker` starts one worker (default: a module
 * worker from beside this file; a page that cannot load one, such as a single-file page, passes
 * its own, e.g. from a Blob URL). `wasmModule`: relpos-wasm/relpos-core.wasm compiled (default:
 * the inlined binary, compiled here once). A worker that fails or does not answer within
 * timeoutFor(its work, `timeoutMs`) ms is stopped and replaced; its call rejects.
 */
export function createRelPosWorker({ workers, createWorker = startRelPosWorker, wasmModule, timeoutMs } = {}) {
  if (createWorker === startRelPosWorker && typeof Worker === 'undefined') {
    // Node.js (and other hosts without Web Workers): say so, rather than a ReferenceError.
    return Promise.reject(
      new Error(
        'createRelPosWorker: this environment has no Web Worker (Node.js has none); the worker pool runs in browsers. ' +
          "In Node, use createRelPos() from 'relpos-wasm' (one instance per thread, node:worker_threads for more), " +
          'or pass createWorker: () => a Worker-like object of your own',
      ),
    );
  }
  return startPool({ size: workers, createWorker, wasmModule, timeoutMs });
}
