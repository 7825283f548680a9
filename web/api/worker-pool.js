// relpos-wasm/worker's pool: the API's tasks (worker-tasks.js) on a task pool (task-pool.js),
// each worker with its own WebAssembly instance from one compiled module; no SharedArrayBuffer,
// so no cross-origin isolation is needed. attention() is split by blocks of query rows (each
// panel row depends only on its own query and all keys; with causal, on the keys up to it),
// whose results the workers transfer, not copy; the pool puts them together. The other calls go
// to one worker. Arguments are read once and checked here first, with the instance's messages
// (attention-args.js), and what the workers are sent is copied from that one reading, on the
// call (task-pool.js copies each part's arguments before any worker is free).
import { checkAttentionArgs, checkReadAttentionArgs, readAttentionArgs } from './attention-args.js';
import { emptyResult } from './attention-options.js';
import { blockSegments, gatherBlocks, writeBlock } from './block-writes.js';
import { ATTENTION_BLOCK_ROWS } from './limits.js';
import { compileCore } from './load-core.js';
import { MAX_WORKERS, TaskPool } from './task-pool.js';
import { checkInteger, describe } from './validate.js';

export { MAX_WORKERS };
/** Rows of a block: the core's (limits.js); the pool splits only at its multiples. */
export const BLOCK_ROWS = ATTENTION_BLOCK_ROWS;

/** hardwareConcurrency − 1 (the page keeps a core), from 1 to MAX_WORKERS. */
export function defaultPoolSize() {
  const cores = globalThis.navigator?.hardwareConcurrency ?? 2;
  return Math.max(1, Math.min(MAX_WORKERS, cores - 1));
}

// A value read by the snapshot (a matrix, flags, the position's fields, the inputs) with each
// array made the whole of its buffer (a clone copies the whole buffer of a view): what a worker
// is sent of it is exactly what was read.
const compact = (value) => {
  if (ArrayBuffer.isView(value)) return value.byteLength === value.buffer.byteLength ? value : value.slice();
  if (Array.isArray(value)) return value.map(compact);
  if (value === null || typeof value !== 'object') return value;
  const copy = {};
  for (const key of Object.keys(value)) copy[key] = compact(value[key]);
  return copy;
};

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
  #tasks;

  /** Use createRelPosWorker(); takes a started TaskPool of API workers. */
  constructor(tasks) {
    this.#tasks = tasks;
  }

  /** How many workers (WebAssembly instances) the pool runs. */
  get size() {
    return this.#tasks.size;
  }

  /** Resolves once every worker has its instance; rejects if one cannot start. */
  ready() {
    return this.#tasks.ready();
  }

  /** `task` on every worker; resolves to their results in order. */
  each(task, args) {
    return this.#tasks.each(task, args);
  }

  /**
   * One method on a worker by name, with the task pool's options: `signal` (cancels it; a call
   * not yet started is never computed), `worker`, `transfer`, `work`, `name`, `onProgress`,
   * `long` (task-pool.js).
   */
  run(method, args, options) {
    return this.#tasks.run(method, args, options);
  }

  /** A signal for the newest request of `key`: the key's earlier request is cancelled. */
  latest(key) {
    return this.#tasks.latest(key);
  }

  /** attention() split across the workers by blocks of query rows; the same result, bit for bit. */
  async attention(inputs, options) {
    const where = 'attention';
    // Read once: every part is sent what this one reading gave, never the caller's objects.
    const read = readAttentionArgs(where, inputs, options);
    const a = checkReadAttentionArgs(where, read);
    const ArrayType = a.q.data.constructor;
    // The sinusoidal scheme's queries are x's rows: one worker computes them all.
    const whole = a.position.scheme === 'sinusoidal';
    const parts = whole ? [{ first: 0, count: a.queryRows }] : splitRows(a.queryRows, this.#tasks.size);
    const outputs = Object.keys(a.shapes);
    const shared = {
      k: compact(a.k),
      ...(a.relKeys ? { relKeys: compact(a.relKeys) } : {}),
      ...(read.inputs.position !== undefined ? { position: compact(read.inputs.position) } : {}),
      causal: a.causal,
      heads: a.heads,
      ...(a.v ? { v: compact(a.v) } : {}),
      ...(a.relValues ? { relValues: compact(a.relValues) } : {}),
      ...(a.scale !== null ? { scale: a.scale } : {}),
      ...(a.keyPadding ? { keyPadding: compact(a.keyPadding) } : {}),
    };
    const maxDistance = a.relKeys ? (a.tableRows - 1) / 2 : null;
    const layout = (name) => ({ queryRows: a.queryRows, cols: a.shapes[name][1], heads: a.heads });
    const segments = parts.map((part) =>
      Object.fromEntries(outputs.map((name) => [name, blockSegments(name, part, layout(name))])),
    );
    // Several blocks and no `out`: the workers write their rows straight into the result's arrays.
    const inPlace = parts.length > 1 && !a.out;
    const channels = inPlace ? parts.map(() => new MessageChannel()) : [];
    const calls = parts.map(({ first, count }, index) => {
      if (whole) {
        const work = 2 * a.queryRows * a.n * (a.dK + (a.dV ?? 0)) + a.x.rows * a.x.cols * (2 * a.dK + a.dV);
        return this.#tasks.run('attention', [compact(read.inputs), { outputs }], { worker: index, work });
      }
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
      // Multiply-adds of the block: scores and weighted sums over every key and table row.
      const work = 2 * count * (a.n + (a.tableRows || 0)) * (a.dK + (a.dV ?? 0));
      return this.#tasks.run(inPlace ? 'attentionBlock' : 'attention', [block, part], {
        worker: index,
        transfer,
        work,
        name: 'attention',
      });
    });
    if (inPlace) {
      // Queued right behind each block, so that no other call on its worker comes between (and
      // detaches the block's views). Each waits for the others' writes: its time limit is the
      // whole call's work, so a worker that stops is found before the ones waiting for it.
      const allWork = 2 * a.queryRows * (a.n + (a.tableRows || 0)) * (a.dK + (a.dV ?? 0));
      const writes = channels.map(({ port2 }, worker) =>
        this.#tasks.run('writeBlocks', [port2], { worker, transfer: [port2], work: allWork, name: 'attention' }),
      );
      const failed = Promise.all([...calls, ...writes]).then(() => new Promise(() => {}));
      failed.catch(() => {});
      const result = emptyResult(ArrayType, a.shapes, maxDistance);
      const arrays = Object.fromEntries(outputs.map((name) => [name, result[name].data]));
      const ports = channels.map((channel) => channel.port1);
      const written = await gatherBlocks(ports, arrays, segments, failed);
      for (const name of outputs) result[name].data = written[name];
      const [first] = await Promise.all(calls);
      await Promise.all(writes);
      if (first.position) result.position = first.position;
      return result;
    }
    const results = await Promise.all(calls);
    // One part (or one worker): its arrays are the result, unless there is an `out` to fill.
    const result = a.outTarget ?? (parts.length === 1 ? results[0] : emptyResult(ArrayType, a.shapes, maxDistance));
    if (a.out) {
      // `out`'s arrays as they were read (views over the caller's memory).
      for (const name of outputs) {
        parts.forEach((_, index) => writeBlock(a.out[name].data, results[index][name].data, segments[index][name]));
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
    return this.#tasks.run('example', [options]);
  }

  randn(seed, count) {
    return this.#tasks.run('randn', [seed, count]);
  }

  relativeOffsets(n, maxDistance) {
    return this.#tasks.run('relativeOffsets', [n, maxDistance]);
  }

  localityProfile(options) {
    return this.#tasks.run('localityProfile', [options]);
  }

  syntheticBatch(options) {
    return this.#tasks.run('syntheticBatch', [options]);
  }

  /** Each worker's stage times of its last attention() call (its part of the rows). */
  lastTimings() {
    return this.each('lastTimings');
  }

  /** Each worker's WebAssembly memory, { wasmBytes, heapInUseBytes }. */
  memory() {
    return this.each('memory');
  }

  /** How many calls of each method the workers have computed. */
  taskCounts() {
    return this.#tasks.taskCounts();
  }

  /** Where each worker's instance came from: 'wasmModule' (the pool's compiled core, the one source). */
  loadedFrom() {
    return this.each('loadedFrom');
  }

  /** Stops every worker; calls still running reject. */
  terminate() {
    this.#tasks.terminate();
  }
}

/**
 * The pool of `size` workers from `createWorker`, at once (the workers start meanwhile; calls
 * wait for them): each is posted the compiled core, `wasmModule` (a WebAssembly.Module or a
 * Promise of one; default the inlined binary, compiled here once). `timeoutMs`: the time any
 * call is given before the time its work adds (task-pool.js); `onLost(error)`: once, if a worker
 * cannot start (every call then rejects); `where`: what the pool's errors call it.
 */
export function openPool({ size, createWorker, wasmModule, timeoutMs, onLost, where = 'relpos-wasm/worker' }) {
  const init = Promise.resolve(wasmModule ?? compileCore()).then((module) => ({ wasmModule: module }));
  return new RelPosPool(new TaskPool({ size, createWorker, init, where, timeoutMs, onLost }));
}

/**
 * Starts `size` workers with `createWorker`, posts each the compiled core (`wasmModule`, or the
 * inlined binary compiled here once) and waits until each has its instance. `timeoutMs`: the
 * time any call is given before the time its work adds (task-pool.js).
 */
export async function startPool({ size = defaultPoolSize(), createWorker, wasmModule, timeoutMs } = {}) {
  const where = 'createRelPosWorker';
  checkInteger(where, 'workers', size, 1, MAX_WORKERS);
  if (typeof createWorker !== 'function') {
    throw new TypeError(`${where}: createWorker must be a function, got ${describe(createWorker)}`);
  }
  if (wasmModule !== undefined && Object.prototype.toString.call(wasmModule) !== '[object WebAssembly.Module]') {
    throw new TypeError(`${where}: wasmModule must be a WebAssembly.Module, got ${describe(wasmModule)}`);
  }
  if (timeoutMs !== undefined) checkInteger(where, 'timeoutMs', timeoutMs, 1, 2 ** 31 - 1);
  const pool = openPool({ size, createWorker, wasmModule: wasmModule ?? (await compileCore()), timeoutMs });
  await pool.ready();
  return pool;
}
