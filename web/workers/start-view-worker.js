// Starts one view worker (view-worker.js): a module worker loaded from beside this file. The
// self-contained page (dist/relpos.html) is built with start-view-worker-inline.js in its place.
export const startViewWorker = () => new Worker(new URL('./view-worker.js', import.meta.url), { type: 'module' });
