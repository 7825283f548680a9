// The API's tasks for a pool worker (task-worker.js): the RelPos methods relpos-wasm/worker
// runs, by name, and the instance they run on, made from the module the pool posts.
import { createRelPos } from './index.js';

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
 * The worker's instance from the pool's { wasmModule }; a module that does not fit this
 * worker's own code (another build of the core) gives way to the worker's inlined binary.
 * Resolves to { rp, loadedFrom: 'wasmModule' | 'inlined' }.
 */
export async function startInstance({ wasmModule } = {}) {
  if (wasmModule) {
    try {
      return { rp: await createRelPos({ wasmModule }), loadedFrom: 'wasmModule' };
    } catch {
      // fall through: this worker's own copy
    }
  }
  return { rp: await createRelPos(), loadedFrom: 'inlined' };
}

/** Where the worker's instance came from: the pool's module, or the worker's own binary. */
API_TASKS.loadedFrom = ({ loadedFrom }) => loadedFrom;
