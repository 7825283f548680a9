// The worker of relpos-wasm/worker: one WebAssembly instance (createRelPos) that runs the calls
// the pool (worker-pool.js) sends, { id, method, args }, and transfers the result's arrays back.
import { createRelPos } from './index.js';

const ready = createRelPos();

/** Every ArrayBuffer under `value` (a result's typed arrays), for the transfer list. */
function buffersOf(value, found = new Set()) {
  if (ArrayBuffer.isView(value)) found.add(value.buffer);
  else if (value && typeof value === 'object') for (const child of Object.values(value)) buffersOf(child, found);
  return [...found];
}

const METHODS = new Set([
  'attention',
  'example',
  'randn',
  'relativeOffsets',
  'localityProfile',
  'syntheticBatch',
  'lastTimings',
  'memory',
]);

self.addEventListener('message', async ({ data }) => {
  const { id, method, args } = data;
  try {
    const rp = await ready;
    if (!METHODS.has(method)) throw new TypeError(`relpos-wasm/worker: no method ${JSON.stringify(method)}`);
    const result = rp[method](...args);
    self.postMessage({ id, result }, buffersOf(result));
  } catch (error) {
    self.postMessage({ id, error: { name: error?.name ?? 'Error', message: error?.message ?? String(error) } });
  }
});
