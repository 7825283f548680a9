// A pool worker for the single-file bundles, which cannot load a worker script from beside
// themselves: the worker's code (no binary: the pool posts it the compiled core) is bundled in and started from a
// Blob URL (a Content-Security-Policy must allow worker-src blob:). vite.bundles.config.js puts
// this module in place of start-pool-worker.js for those builds only.
import PoolWorker from '../api/worker-entry.js?worker&inline';

export const startPoolWorker = () => new PoolWorker();
