// The training worker for the one-file builds (dist/relpos-train.js, dist/relpos.html), which
// cannot load a worker script from beside themselves: the worker's code, with the training
// engine's WebAssembly module inside, is bundled in and started from a Blob URL (a
// Content-Security-Policy must allow worker-src blob:). vite.bundles.config.js puts this module
// in place of start-train-worker.js for those builds only.
import TrainWorker from './train-worker.js?worker&inline';

export const startTrainWorker = () => new TrainWorker();
