// A pool of workers, each with its own WebAssembly instance (worker-entry.js): no
// SharedArrayBuffer, so no cross-origin isolation is needed. attention() is split by blocks of
// query rows (each panel row depends only on its own query and all keys; with causal, on the
// keys up to it), whose results the workers transfer, not copy; the pool puts them together.
// The other calls go to one worker. Arguments are checked here first, with the instance's
// messages (attention-args.js).
import { checkAttentionArgs } from './attention-args.js';
import { emptyResult } from './attention-options.js';
import { checkInteger, describe } from './validate.js';

/** The most workers a pool starts. */
export const MAX_WORKERS = 8;
/** Rows of a block: the core's (kAttentionBlockRows); the pool splits only at its multiples. */
export const BLOCK_ROWS = 32;

/** hardwareConcurrency − 1 (the page keeps a core), from 1 to MAX_WORKERS. */
export function defaultPoolSize() {
  const cores = globalThis.navigator?.hardwareConcurrency ?? 2;
  return Math.max(1, Math.min(MAX_WORKERS, cores - 1));
}

const ERRORS = { TypeError, RangeError, Error };

// A matrix whose array is the whole of its buffer (a clone copies the whole buffer of a view).
const compact = (m) =>
  m.data.byteLength === m.data.buffer.byteLength ? m : { rows: m.rows, cols: m.cols, data: m.data.slice() };
const compactFlags = (flags) => (flags.byteLength === flags.buffer.byteLength ? flags : flags.slice());

/**
 * How n query rows are split among at most `parts` workers: [{ first, count }] in blocks of
 * BLOCK_ROWS rows (the last block may be short), as even as the blocks allow.
 */
export function splitRows(n, parts) {
  const blocks = Math.ceil(n / BLOCK_ROWS);
  const used = Math.max(1, Math.min(parts, blocks));
  const split = [];
  let block = 0;
  for (let part = 0; part < used; part += 1) {
    const take = Math.floor(blocks / used) + (part < blocks % used ? 1 : 0);
    const first = block * BLOCK_ROWS;
    const count = Math.min(n, (block + take) * BLOCK_ROWS) - first;
    if (count > 0) split.push({ first, count });
    block += take;
  }
  return split;
}

export class RelPosPool {
  #workers;
  #pending = new Map();
  #nextId = 0;
  #next = 0;
  #closed = false;

  /** Use createRelPosWorker(); takes started workers. */
  constructor(workers) {
    this.#workers = workers;
    for (const worker of workers) {
      worker.addEventListener('message', ({ data }) => this.#settle(data));
      worker.addEventListener('error', (event) => {
        event.preventDefault?.();
        this.#failAll(new Error(`relpos-wasm/worker: a worker failed: ${event.message ?? 'could not start'}`));
      });
    }
  }

  /** How many workers (WebAssembly instances) the pool runs. */
  get size() {
    return this.#workers.length;
  }

  /** attention() split across the workers by blocks of query rows; the same result, bit for bit. */
  async attention(inputs, options) {
    const where = 'attention';
    const a = checkAttentionArgs(where, inputs, options);
    const ArrayType = a.q.data.constructor;
    // The sinusoidal scheme's queries are x's rows: one worker computes them all.
    const whole = a.position.scheme === 'sinusoidal';
    const parts = whole ? [{ first: 0, count: a.queryRows }] : splitRows(a.queryRows, this.#workers.length);
    const outputs = Object.keys(a.shapes);
    const shared = {
      k: compact(a.k),
      ...(a.relKeys ? { relKeys: compact(a.relKeys) } : {}),
      ...(inputs.position !== undefined ? { position: inputs.position } : {}),
      causal: a.causal,
      heads: a.heads,
      ...(a.v ? { v: compact(a.v) } : {}),
      ...(a.relValues ? { relValues: compact(a.relValues) } : {}),
      ...(a.scale !== null ? { scale: a.scale } : {}),
      ...(a.keyPadding ? { keyPadding: compactFlags(a.keyPadding) } : {}),
    };
    const results = await Promise.all(
      parts.map(({ first, count }, index) => {
        if (whole) return this.#send(this.#workers[index], 'attention', [inputs, { outputs }], []);
        const data = a.q.data.slice(first * a.dK, (first + count) * a.dK);
        const q = { rows: count, cols: a.dK, data };
        const transfer = [data.buffer];
        const block = { ...shared, q };
        if (a.allowed) {
          // The mask's rows of this block of queries.
          block.allowed = { rows: count, cols: a.n, data: a.allowed.slice(first * a.n, (first + count) * a.n) };
          transfer.push(block.allowed.data.buffer);
        }
        const part = { outputs, queryOffset: a.queryOffset + first };
        return this.#send(this.#workers[index], 'attention', [block, part], transfer);
      }),
    );
    // One part (or one worker): its arrays are the result, unless there is an `out` to fill.
    const maxDistance = a.relKeys ? (a.tableRows - 1) / 2 : null;
    const result = a.outTarget ?? (parts.length === 1 ? results[0] : emptyResult(ArrayType, a.shapes, maxDistance));
    // `out`'s arrays as they were read (views over the caller's memory), else the result's own.
    const into = a.out ?? result;
    if (result !== results[0] || a.out) {
      for (const name of outputs) {
        const cols = a.shapes[name][1];
        if (name === 'output' || a.heads === 1) {
          parts.forEach(({ first }, index) => into[name].data.set(results[index][name].data, first * cols));
          continue;
        }
        // A panel with heads: one block of queryRows rows per head; a part's, of its count rows.
        parts.forEach(({ first, count }, index) => {
          const from = results[index][name].data;
          for (let head = 0; head < a.heads; head += 1) {
            const rows = from.subarray(head * count * cols, (head + 1) * count * cols);
            into[name].data.set(rows, (head * a.queryRows + first) * cols);
          }
        });
      }
    }
    result.maxDistance = maxDistance;
    if (results[0].position) result.position = results[0].position;
    return result;
  }

  /** A result of zeros shaped for attention(inputs, options), to pass as `out`. */
  async allocateAttention(inputs, options) {
    const a = checkAttentionArgs('allocateAttention', inputs, options);
    const result = emptyResult(a.q.data.constructor, a.shapes, a.relKeys ? (a.tableRows - 1) / 2 : null);
    return result;
  }

  /** The page's example scenario and its panels (one worker). */
  example(options) {
    return this.#one('example', [options]);
  }

  randn(seed, count) {
    return this.#one('randn', [seed, count]);
  }

  relativeOffsets(n, maxDistance) {
    return this.#one('relativeOffsets', [n, maxDistance]);
  }

  localityProfile(options) {
    return this.#one('localityProfile', [options]);
  }

  syntheticBatch(options) {
    return this.#one('syntheticBatch', [options]);
  }

  /** Each worker's stage times of its last attention() call (its part of the rows). */
  lastTimings() {
    return Promise.all(this.#workers.map((worker) => this.#send(worker, 'lastTimings', [])));
  }

  /** Each worker's WebAssembly memory, { wasmBytes, heapInUseBytes }. */
  memory() {
    return Promise.all(this.#workers.map((worker) => this.#send(worker, 'memory', [])));
  }

  /** Stops every worker; calls still running reject. */
  terminate() {
    if (this.#closed) return;
    this.#closed = true;
    for (const worker of this.#workers) worker.terminate();
    this.#failAll(new Error('relpos-wasm/worker: the pool was terminated'));
  }

  // One call on the next worker in turn.
  #one(method, args) {
    const worker = this.#workers[this.#next];
    this.#next = (this.#next + 1) % this.#workers.length;
    return this.#send(worker, method, args);
  }

  #send(worker, method, args, transfer = []) {
    if (this.#closed) return Promise.reject(new Error('relpos-wasm/worker: the pool was terminated'));
    const id = this.#nextId;
    this.#nextId += 1;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      try {
        worker.postMessage({ id, method, args }, transfer);
      } catch (error) {
        this.#pending.delete(id);
        reject(new TypeError(`${method}: arguments cannot be sent to a worker (${error.message})`));
      }
    });
  }

  #settle({ id, result, error }) {
    const call = this.#pending.get(id);
    if (!call) return;
    this.#pending.delete(id);
    if (error) call.reject(new (ERRORS[error.name] ?? Error)(error.message));
    else call.resolve(result);
  }

  #failAll(error) {
    for (const call of this.#pending.values()) call.reject(error);
    this.#pending.clear();
  }
}

/** Starts `size` workers with `createWorker` and waits until each has its instance. */
export async function startPool({ size = defaultPoolSize(), createWorker } = {}) {
  checkInteger('createRelPosWorker', 'workers', size, 1, MAX_WORKERS);
  if (typeof createWorker !== 'function') {
    throw new TypeError(`createRelPosWorker: createWorker must be a function, got ${describe(createWorker)}`);
  }
  const pool = new RelPosPool(Array.from({ length: size }, () => createWorker()));
  await pool.memory(); // every worker answers once its WebAssembly instance is ready
  return pool;
}
