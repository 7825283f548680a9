// The page's one pool of workers: the page's views (the long view by blocks of query rows, a
// whole view above MAIN_THREAD_POSITIONS) and the elements above it run on it, with the package's
// worker API (relpos-wasm/worker's RelPosPool, on task-pool.js) and its protocol. Its workers are
// view workers (view-worker.js: the API's tasks and the views' tasks, one WebAssembly instance
// each, from the page's compiled core), one per core. Started on first use; when one cannot
// start, the pool is lost, and the page and the elements compute on the main thread.
import { compileCore } from '../api/load-core.js';
import { MAX_WORKERS } from '../api/task-pool.js';
import { openPool } from '../api/worker-pool.js';
import { startViewWorker } from './start-view-worker.js';

/**
 * How long a view worker may take over a call before it is taken as lost (plus its work's share,
 * task-pool.js timeoutFor): only a guard against a worker that stopped. A busy machine makes the
 * page slower, never wrong: a long view at n = 2048 takes seconds there, and a lost call is asked
 * once more (compute.js).
 */
export const VIEW_TIMEOUT_MS = 60_000;

/** Workers for the page's views: navigator.hardwareConcurrency, from 1 to MAX_WORKERS. */
export const viewPoolSize = () => Math.max(1, Math.min(MAX_WORKERS, globalThis.navigator?.hardwareConcurrency ?? 2));

let pool = null;
let lost = false;
const onLostListeners = new Set();

/**
 * The page's pool (a RelPosPool), started on first call; null where workers cannot start or the
 * pool was lost. `onLost()`: called once if the pool is lost later (a worker cannot start).
 */
export function pagePool({ onLost } = {}) {
  if (onLost) onLostListeners.add(onLost);
  if (pool || lost) return pool;
  try {
    pool = openPool({
      size: viewPoolSize(),
      createWorker: startViewWorker,
      wasmModule: compileCore(), // the page's compiled core (load-core.js): every worker instantiates it
      where: "the page's workers",
      timeoutMs: VIEW_TIMEOUT_MS,
      onLost: () => {
        lost = true;
        pool = null;
        for (const listener of onLostListeners) listener();
      },
    });
  } catch {
    lost = true;
    pool = null;
  }
  return pool;
}

/** The page's pool once every worker has started, or null (workers cannot start here). */
export async function readyPagePool() {
  const started = pagePool();
  if (!started) return null;
  try {
    await started.ready();
    return started;
  } catch {
    return null;
  }
}
