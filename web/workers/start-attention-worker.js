// Starts the attention worker: a module worker loaded from beside this file. The self-contained
// page (dist/relpos.html) is built with start-attention-worker-inline.js in its place.
export const startAttentionWorker = () =>
  new Worker(new URL('./attention-worker.js', import.meta.url), { type: 'module' });
