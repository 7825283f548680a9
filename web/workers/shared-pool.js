// One pool of workers (relpos-wasm/worker) for every figure on a page that computes off the
// main thread (the elements above the synchronous size): started on first use; null when
// workers cannot start here (the caller then computes on the main thread).
import { startPool } from '../api/worker-pool.js';
import { startPoolWorker } from './start-pool-worker.js';

let pool = null;

export function sharedPool() {
  pool ??= startPool({ createWorker: startPoolWorker }).catch(() => null);
  return pool;
}
