// The API's tasks for a pool worker (task-worker.js): the RelPos methods relpos-wasm/worker
// runs, by name, and the instance they run on, made from the module the pool posts. A worker
// loads only what it is given (load-given-core.js), so its bundle carries no copy of the binary,
// and runs relpos.js's class, without the checkpoint reader (no task reads a checkpoint).
import { BaseRelPos } from './relpos.js';
import { loadGivenCore } from './load-given-core.js';
import { serveBlockWrites } from './block-writes.js';

const METHODS = [
  'attention',
  'example',
  'randn',
  'relativeOffsets',
  'localityProfile',
  'syntheticBatch',
  'lastTimings',
  'memory',
];

/** { method: (context, ...args) => context.rp[method](...args) } for every method above. */
export const API_TASKS = Object.fromEntries(
  METHODS.map((method) => [method, ({ rp }, ...args) => rp[method](...args)]),
);

/**
 * attention() of a block of query rows, kept in this worker's memory (views) for the
 * writeBlocks call the pool queues right after it; answers the result's other fields.
 */
API_TASKS.attentionBlock = (context, inputs, options) => {
  context.block = null;
  const { maxDistance, position, ...panels } = context.rp.attention(inputs, { ...options, views: true });
  context.block = panels;
  return position === undefined ? { maxDistance } : { maxDistance, position };
};

/**
 * The block's rows written into the arrays the pool sends on `port` (block-writes.js), until it
 * says done; refused when the attentionBlock call before it failed.
 */
API_TASKS.writeBlocks = (context, port) => {
  const { block } = context;
  context.block = null;
  if (!block) {
    port.close();
    throw new Error('a pool worker: writeBlocks: no block of rows computed before it');
  }
  return serveBlockWrites(port, block);
};

/**
 * The worker's instance from the pool's { wasmModule } (a WebAssembly.Module of the core this
 * worker's code was built with). Resolves to { rp, loadedFrom: 'wasmModule' }; rejects with the
 * reason if the module is missing or does not fit (the pool then reports the worker lost).
 */
export async function startInstance({ wasmModule } = {}) {
  if (wasmModule === undefined) {
    throw new TypeError("a pool worker: the pool posted no compiled core (init's wasmModule); it must post one");
  }
  return { rp: new BaseRelPos(await loadGivenCore('a pool worker', { wasmModule })), loadedFrom: 'wasmModule' };
}

/** Where the worker's instance came from: the pool's module (the one source there is). */
API_TASKS.loadedFrom = ({ loadedFrom }) => loadedFrom;
