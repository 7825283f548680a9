// The view worker for the self-contained page, which is opened from file:// where no worker
// script can be loaded: the worker's code (no binary: the pool posts it the compiled core) is bundled into the page
// and started from a Blob URL. vite.bundles.config.js puts this module in place of
// start-view-worker.js for that build only.
import ViewWorker from './view-worker.js?worker&inline';

export const startViewWorker = () => new ViewWorker();
