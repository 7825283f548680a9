// One pool of workers for everything computed off the main thread: the package's
// relpos-wasm/worker, the page's long view and large views, the elements above their synchronous
// size. Each worker registers its tasks by name (task-worker.js); pool.run('task', args) runs one
// on a worker. In one place:
// - one compiled WebAssembly.Module posted to every worker (each instantiates it, none compiles);
// - one call in flight per worker, the rest queued here, so a call that is cancelled (an
//   AbortSignal, or a newer request of the same key: latest()) before its turn is never computed;
// - transfer lists (the caller's arrays are handed over, not copied);
// - failure: a worker that fails (its `error` event) or does not answer within a time scaled to
//   the work is stopped; its call rejects with an error that says so, a new worker takes its
//   place and its queue, and later calls run there. A worker that cannot start at all loses the
//   pool (every call rejects, onLost is called: the caller computes on its own thread); onReplaced
//   says that a worker was replaced (a worker that holds state between calls lost it);
// - progress: a task may report before its result (options.onProgress);
// - long tasks (options.long: a training run): no time limit, and the worker's next calls are
//   sent beside it (the worker runs them between the long task's pieces).

/** The most workers a pool starts. */
export const MAX_WORKERS = 8;

/** The time every call is given, in ms, before the time its work adds (timeoutFor). */
export const BASE_TIMEOUT_MS = 10_000;

/** How long a worker may take to start (load its script and instantiate the module), in ms. */
export const START_TIMEOUT_MS = 60_000;

/** Work units (multiply-adds) a worker is expected to do per ms, at the least (50 M/s). */
const WORK_PER_MS = 50_000;

/** The longest delay setTimeout takes (2^31 − 1 ms, about 24.8 days); a longer one fires at once. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * The time a call of `work` multiply-adds is given before its worker is taken as lost, at most
 * MAX_TIMEOUT_MS.
 */
export const timeoutFor = (work, base = BASE_TIMEOUT_MS) =>
  Math.min(MAX_TIMEOUT_MS, Math.ceil(base + (Number.isFinite(work) && work > 0 ? work : 0) / WORK_PER_MS));

// run()'s options, each read once and checked: a TypeError or RangeError naming the option.
function readRunOptions(where, task, options) {
  if (options !== undefined && (options === null || typeof options !== 'object'))
    throw new TypeError(`${where}: run(${String(task)}): options must be an object, got ${typeof options}`);
  const { worker, transfer = [], signal, work = 0, name = String(task), long = false, onProgress } = options ?? {};
  if (typeof work !== 'number')
    throw new TypeError(
      `${where}: run(${String(task)}): options.work must be a number of multiply-adds, got ${typeof work}`,
    );
  if (!(work >= 0 && work <= Number.MAX_VALUE))
    throw new RangeError(`${where}: run(${String(task)}): options.work must be a finite number ≥ 0, got ${work}`);
  if (worker !== undefined && !(Number.isSafeInteger(worker) && worker >= 0))
    throw new RangeError(
      `${where}: run(${String(task)}): options.worker must be a worker's index (an integer ≥ 0), got ${String(worker)}`,
    );
  if (!Array.isArray(transfer))
    throw new TypeError(
      `${where}: run(${String(task)}): options.transfer must be an Array of ArrayBuffers, got ${typeof transfer}`,
    );
  if (typeof name !== 'string')
    throw new TypeError(`${where}: run(${String(task)}): options.name must be a string, got ${typeof name}`);
  if (typeof long !== 'boolean')
    throw new TypeError(`${where}: run(${String(task)}): options.long must be a boolean, got ${typeof long}`);
  if (onProgress !== undefined && typeof onProgress !== 'function')
    throw new TypeError(
      `${where}: run(${String(task)}): options.onProgress must be a function, got ${typeof onProgress}`,
    );
  return { worker, transfer: Array.from(transfer), signal, work, name, long, onProgress };
}

const ERRORS = { TypeError, RangeError, Error };

const abortError = (message) => new DOMException(message, 'AbortError');

/** Whether `error` is a cancelled call's (an AbortSignal's, or a superseded request's). */
export const isAbort = (error) => error?.name === 'AbortError';

/**
 * "The latest request wins": next() cancels the signal it gave before and returns a new one.
 * A call run with the old signal rejects with an AbortError at once: still queued, it is never
 * computed; already on a worker, the worker's task sees its own signal abort (it may stop early)
 * and its answer is dropped.
 */
export class Latest {
  #controller = null;

  next() {
    this.#controller?.abort(abortError('superseded by a newer request'));
    this.#controller = new AbortController();
    return this.#controller.signal;
  }
}

export class TaskPool {
  #slots = [];
  #createWorker;
  #init;
  #where;
  #timeoutMs;
  #onLost;
  #onReplaced;
  #latest = new Map();
  #nextId = 0;
  #turn = 0;
  #closed = null; // the error every call rejects with once the pool is stopped or lost

  /**
   * `size` workers from createWorker(), each sent `init` (structured-cloneable: e.g.
   * { wasmModule }; or a Promise of it) first; `where` starts every message; `timeoutMs` is BASE_TIMEOUT_MS by
   * default; onLost(error) once when the pool is lost (a worker cannot start);
   * onReplaced(index, error) each time the worker at `index` failed or did not answer and a new
   * one took its place (started, not yet ready: calls made now wait for it).
   */
  constructor({
    size,
    createWorker,
    init = {},
    where = 'worker pool',
    timeoutMs = BASE_TIMEOUT_MS,
    onLost = () => {},
    onReplaced = () => {},
  }) {
    this.#createWorker = createWorker;
    this.#init = init;
    this.#where = where;
    this.#timeoutMs = timeoutMs;
    this.#onLost = onLost;
    this.#onReplaced = onReplaced;
    for (let index = 0; index < size; index += 1) {
      const slot = {
        worker: null,
        ready: false,
        call: null,
        long: new Set(), // long calls in flight (sent beside the worker's other calls)
        queue: [],
        started: null,
        startTimer: null,
      };
      this.#slots.push(slot);
      this.#start(slot);
    }
  }

  /** How many workers the pool runs. */
  get size() {
    return this.#slots.length;
  }

  /** Resolves once every worker has started; rejects if one cannot. */
  ready() {
    return Promise.all(this.#slots.map((slot) => slot.started));
  }

  /**
   * Runs `task` with `args` on a worker: `worker` (an index; default the least busy), `transfer`
   * (buffers of args handed over), `signal` (an AbortSignal: cancels the call, and a task
   * already running sees its own signal abort), `work` (its multiply-adds, which scale its time
   * limit), `name` (what its errors call it; default the task's), `onProgress` (called with each
   * report the task makes before its result), `long` (true: no time limit, and once sent it does
   * not hold its worker: the worker's next calls are sent beside it and run between its pieces;
   * a task that awaits between pieces, a training run). Resolves to the task's result; a
   * cancelled call rejects with the signal's reason (an AbortError) at once. The arguments are
   * copied (structured clone, the transferred buffers moved) here, on the call: a caller who
   * changes them afterwards, while the call waits for a free worker, changes nothing it computes.
   */
  run(task, args = [], options = undefined) {
    if (this.#closed) return Promise.reject(this.#closed);
    let read;
    try {
      read = readRunOptions(this.#where, task, options);
    } catch (error) {
      return Promise.reject(error);
    }
    const { worker, signal, work, name, long, onProgress } = read;
    if (signal?.aborted) return Promise.reject(signal.reason);
    let sent;
    try {
      // The task and arguments as they are now, the transferred buffers moved into the copy.
      sent = structuredClone({ task, args, transfer: read.transfer }, { transfer: read.transfer });
    } catch (error) {
      return Promise.reject(new TypeError(`${String(task)}: arguments cannot be sent to a worker (${error.message})`));
    }
    const slot = worker === undefined ? this.#leastBusy() : this.#slots[worker % this.#slots.length];
    return new Promise((resolve, reject) => {
      const call = {
        id: this.#nextId,
        task: sent.task,
        name,
        args: sent.args,
        transfer: sent.transfer,
        work,
        long,
        onProgress,
        resolve,
        reject,
        signal,
        done: false,
      };
      this.#nextId += 1;
      if (signal) {
        call.onAbort = () => this.#cancel(slot, call);
        signal.addEventListener('abort', call.onAbort, { once: true });
      }
      slot.queue.push(call);
      this.#pump(slot);
    });
  }

  /** `task` on every worker; resolves to their results in order. */
  each(task, args = []) {
    return Promise.all(this.#slots.map((_, worker) => this.run(task, args, { worker })));
  }

  /** A signal for the newest request of `key` (any value): the key's earlier one is cancelled. */
  latest(key) {
    let latest = this.#latest.get(key);
    if (!latest) {
      latest = new Latest();
      this.#latest.set(key, latest);
    }
    return latest.next();
  }

  /** How many calls of each task the workers have computed (each worker since it started). */
  async taskCounts() {
    const totals = {};
    for (const counts of await this.each('taskCounts'))
      for (const [task, count] of Object.entries(counts)) totals[task] = (totals[task] ?? 0) + count;
    return totals;
  }

  /** Stops every worker; calls queued or running reject. */
  terminate() {
    this.#stop(new Error(`${this.#where}: the pool was terminated`));
  }

  #start(slot) {
    slot.ready = false;
    let worker;
    try {
      worker = this.#createWorker();
    } catch (error) {
      slot.started = Promise.reject(error);
      slot.started.catch(() => {});
      this.#lose(new Error(`${this.#where}: a worker could not start (${error?.message ?? error})`));
      return;
    }
    slot.worker = worker;
    slot.started = new Promise((resolve, reject) => {
      slot.onStarted = resolve;
      slot.onStartFailed = reject;
    });
    slot.started.catch(() => {});
    worker.addEventListener('message', ({ data }) => this.#message(slot, worker, data));
    worker.addEventListener('error', (event) => {
      event.preventDefault?.();
      this.#failed(slot, worker, event.message || 'its script could not be loaded or run');
    });
    worker.addEventListener('messageerror', () => {
      const { call } = slot;
      if (slot.worker !== worker || !call) return;
      this.#end(slot, call);
      this.#settle(call, null, new Error(`${this.#where}: ${call.name}: the worker's answer could not be read`));
    });
    slot.startTimer = setTimeout(
      () => this.#failed(slot, worker, `it did not start within ${START_TIMEOUT_MS} ms`),
      START_TIMEOUT_MS,
    );
    Promise.resolve(this.#init)
      .then((init) => {
        if (slot.worker === worker && !this.#closed) worker.postMessage({ init });
      })
      .catch((error) => this.#failed(slot, worker, `it could not be sent its module (${error?.message ?? error})`));
  }

  #message(slot, worker, data) {
    if (slot.worker !== worker) return; // a stopped worker's late answer
    if (Object.hasOwn(data ?? {}, 'ready')) {
      clearTimeout(slot.startTimer);
      if (!data.ready) {
        this.#failed(slot, worker, data.error?.message ?? 'it could not start');
        return;
      }
      slot.ready = true;
      slot.onStarted();
      this.#pump(slot);
      return;
    }
    const call = slot.call?.id === data.id ? slot.call : [...slot.long].find((c) => c.id === data.id);
    if (!call) return; // a cancelled call's
    if (Object.hasOwn(data, 'progress')) {
      if (!call.done) call.onProgress?.(data.progress);
      return;
    }
    this.#end(slot, call);
    const error = data.error ? new (ERRORS[data.error.name] ?? Error)(data.error.message) : null;
    this.#settle(call, data.result, error);
    this.#pump(slot);
  }

  // A worker failed: before it started, the pool is lost; while running, its call rejects and a
  // new worker takes its place (and its queue).
  #failed(slot, worker, reason) {
    if (slot.worker !== worker || this.#closed) return;
    clearTimeout(slot.startTimer);
    worker.terminate();
    if (!slot.ready) {
      const error = new Error(`${this.#where}: a worker could not start: ${reason}`);
      slot.onStartFailed(error);
      this.#lose(error);
      return;
    }
    for (const call of [slot.call, ...slot.long]) {
      if (!call) continue;
      this.#end(slot, call);
      const doing = `while running ${call.name}`;
      this.#settle(call, null, new Error(`${this.#where}: a worker failed ${doing} (${reason}); it was replaced`));
    }
    this.#replace(slot, new Error(`${this.#where}: a worker failed (${reason}); it was replaced`));
  }

  // A new worker in the place of one that failed or did not answer; onReplaced is told.
  #replace(slot, error) {
    this.#start(slot);
    this.#onReplaced(this.#slots.indexOf(slot), error);
  }

  #pump(slot) {
    if (!slot.ready || slot.call || this.#closed) return;
    while (slot.queue.length > 0) {
      const call = slot.queue.shift();
      slot.call = call;
      try {
        slot.worker.postMessage({ id: call.id, task: call.task, args: call.args }, call.transfer);
      } catch (error) {
        slot.call = null;
        this.#settle(
          call,
          null,
          new TypeError(`${call.name}: arguments cannot be sent to a worker (${error.message})`),
        );
        continue;
      }
      if (call.long) {
        // No time limit, and the worker's next call goes beside it.
        slot.call = null;
        slot.long.add(call);
        continue;
      }
      const ms = timeoutFor(call.work, this.#timeoutMs);
      const { worker } = slot;
      call.timer = setTimeout(() => {
        if (slot.call !== call) return;
        this.#end(slot, call);
        this.#settle(
          call,
          null,
          new Error(
            `${this.#where}: a worker did not answer ${call.name} within ${ms} ms; it was stopped and replaced`,
          ),
        );
        worker.terminate();
        this.#replace(
          slot,
          new Error(`${this.#where}: a worker did not answer ${call.name} within ${ms} ms; it was replaced`),
        );
      }, ms);
      return;
    }
  }

  // A cancelled call: still queued, it leaves the queue (never computed); running, it rejects
  // now, its worker is told ({ cancel: id }: the task's signal aborts) and its answer is dropped
  // when it comes. A running call that is not long keeps its worker until that answer.
  #cancel(slot, call) {
    if (call.done) return;
    const queued = slot.queue.indexOf(call);
    if (queued >= 0) slot.queue.splice(queued, 1);
    else if (slot.call === call || slot.long.has(call)) {
      slot.long.delete(call);
      slot.worker.postMessage({ cancel: call.id });
    }
    this.#settle(call, null, call.signal.reason ?? abortError('cancelled'));
  }

  #end(slot, call) {
    clearTimeout(call.timer);
    if (slot.call === call) slot.call = null;
    slot.long.delete(call);
  }

  #settle(call, result, error) {
    if (call.done) return;
    call.done = true;
    call.signal?.removeEventListener('abort', call.onAbort);
    if (error) call.reject(error);
    else call.resolve(result);
  }

  #leastBusy() {
    let best = null;
    let bestLoad = Infinity;
    for (let step = 0; step < this.#slots.length; step += 1) {
      const slot = this.#slots[(this.#turn + step) % this.#slots.length];
      const load = slot.queue.length + (slot.call ? 1 : 0) + slot.long.size;
      if (load < bestLoad) {
        best = slot;
        bestLoad = load;
      }
    }
    this.#turn = (this.#turn + 1) % this.#slots.length;
    return best;
  }

  #lose(error) {
    if (this.#closed) return;
    this.#stop(error);
    this.#onLost(error);
  }

  #stop(error) {
    if (this.#closed) return;
    this.#closed = error;
    for (const slot of this.#slots) {
      clearTimeout(slot.startTimer);
      slot.worker?.terminate();
      slot.onStartFailed?.(error);
      for (const call of [slot.call, ...slot.long, ...slot.queue]) if (call) this.#settle(call, null, error);
      if (slot.call) clearTimeout(slot.call.timer);
      slot.call = null;
      slot.long.clear();
      slot.queue = [];
    }
  }
}
