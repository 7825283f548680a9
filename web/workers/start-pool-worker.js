// Starts one worker of relpos-wasm/worker's pool: a module worker loaded from the API's folder.
// The single-file bundles (the self-contained page, the elements bundle) are built with
// start-pool-worker-inline.js in its place.
export const startPoolWorker = () => new Worker(new URL('../api/worker-entry.js', import.meta.url), { type: 'module' });
