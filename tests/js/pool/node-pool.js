// relpos-wasm/worker's pool (web/api/worker-pool.js) in Node, with real threads: each worker is
// a node:worker_threads Worker running the package's worker tasks (node-worker-entry.mjs),
// given to startPool as a Worker-like object (addEventListener, postMessage, terminate), the
// way a page passes its own createWorker. `delays[i]` (ms) makes worker i's answers slow.
import { Worker } from 'node:worker_threads';
import { startPool } from '../../../web/api/worker-pool.js';

const ENTRY = new URL('./node-worker-entry.mjs', import.meta.url);

/** A Worker-like object over a node:worker_threads Worker. */
export function nodeWorker(delay = 0) {
  const worker = new Worker(ENTRY, { workerData: { delay } });
  return {
    postMessage: (data, transfer) => worker.postMessage(data, transfer),
    addEventListener(type, listener) {
      if (type === 'message') worker.on('message', (data) => listener({ data }));
      else if (type === 'error') worker.on('error', (error) => listener({ message: error.message }));
      else if (type === 'messageerror') worker.on('messageerror', () => listener({}));
    },
    terminate: () => worker.terminate(),
  };
}

/** A started pool of `size` Node workers (worker i answering after delays[i] ms). */
export function startNodePool({ size = 2, delays = [], timeoutMs } = {}) {
  let started = 0;
  return startPool({
    size,
    timeoutMs,
    createWorker: () => {
      const index = started % size;
      started += 1;
      return nodeWorker(delays[index] ?? 0);
    },
  });
}
