// Starts the training worker: a module worker loaded from beside this module. The one-file
// builds (dist/relpos-train.js, dist/relpos.html) are built with start-train-worker-inline.js in
// its place.
export const startTrainWorker = () => new Worker(new URL('./train-worker.js', import.meta.url), { type: 'module' });
