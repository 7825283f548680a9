// The compute path. Up to MAIN_THREAD_POSITIONS (settings.js) positions the view is computed on the main thread, in the
// animation frame after the change (main.js); above, the page's pool of view workers computes it
// (one per core; the long view by blocks of query rows, workers/long-view.js; the latest request
// wins, and a superseded one is not computed once its turn comes) and the page draws the panels
// in tasks of at most ~12 ms each (AttentionFigure.setView), so input never waits long. Without
// workers, all on the main thread.
import { isAbort, Latest } from '../api/task-pool.js';
import { rememberRanges } from '../views/panel-extents.js';
import { computeAttentionView, keepOffsets } from '../views/view.js';
import { ATTENTION_SETTINGS, MAIN_THREAD_POSITIONS } from '../settings/settings.js';
import { computeLongView } from '../workers/long-view.js';
import { pagePool } from '../workers/page-pool.js';

/** The settings computeAttentionView reads, from a page state (and the weight panels' colour rule). */
export function attentionSettings(state) {
  return {
    ...Object.fromEntries(ATTENTION_SETTINGS.map((name) => [name, state[name]])),
    weightScale: state.weightScale,
  };
}

/**
 * Past MAIN_THREAD_POSITIONS positions, or in the long view past MAIN_THREAD_POSITIONS²
 * offset-space cells, n × (2k′ + 1).
 */
function wantsWorker({ long, seqLen, maxDistance }) {
  const offsetCells = long ? seqLen * (2 * Math.min(maxDistance, seqLen - 1) + 1) : 0;
  return seqLen > MAIN_THREAD_POSITIONS || offsetCells > MAIN_THREAD_POSITIONS ** 2;
}

/**
 * The view of the page's state, computed here or in the workers. `view` is the latest view and
 * `computedBy` where it was computed ('main' or 'worker'). The workers' views come to
 * `onWorkerView(view, id)`, their errors to `onError(message)`; `onWorkerLost()` when they fail
 * to start (the page then computes on the main thread).
 */
export class ViewCompute {
  view = null;
  computedBy = 'main';
  #rp;
  #handlers;
  #pool = null;
  #poolFailed = false;
  #latest = new Latest();
  #requestId = 0;

  constructor({ rp, onWorkerView, onError, onWorkerLost }) {
    this.#rp = rp;
    this.#handlers = { onWorkerView, onError, onWorkerLost };
  }

  /** Computes the view of `state` here and returns false, or returns true: then request() it. */
  computeOrDefer(state) {
    if (wantsWorker(state) && this.#getPool()) return true;
    this.#requestId += 1;
    this.#latest.next(); // a worker's answer still on its way is older than this view
    this.view = computeAttentionView(this.#rp, attentionSettings(state), {
      positionsOnly: state.long,
      previous: this.view,
    });
    this.computedBy = 'main';
    return false;
  }

  /**
   * Asks the workers for the view of `state`; `offsetGrid`: the long view's block means, or null.
   * A call a worker lost (it failed or stopped answering, and was replaced) is asked once more;
   * an error of the arguments (TypeError, RangeError) is not.
   */
  request(state, offsetGrid) {
    this.#requestId += 1;
    const id = this.#requestId;
    const signal = this.#latest.next();
    const settings = attentionSettings(state);
    const ask = () => this.#ask(settings, state.long, offsetGrid, signal);
    ask()
      .catch((error) => {
        const again = !(isAbort(error) || error instanceof TypeError || error instanceof RangeError);
        if (!again || !this.isLatest(id) || !this.#pool) throw error;
        return ask();
      })
      .then(
        (result) => this.#onResult({ id, ...result }),
        (error) => !isAbort(error) && this.#onResult({ id, error: error.message }),
      );
  }

  #ask(settings, long, offsetGrid, signal) {
    return long
      ? computeLongView(this.#pool, settings, {
          grid: offsetGrid,
          previous: this.view?.offsetSpace ? this.view : null,
          signal,
        }).then((answer) => ({ ...answer, kept: true }))
      : this.#pool.run('attentionView', [settings, { positionsOnly: false, offsetGrid }], { worker: 0, signal });
  }

  /** Whether request `id` is still the latest. */
  isLatest(id) {
    return id === this.#requestId;
  }

  /** How many of each task the workers have computed (the page's probe). */
  taskCounts() {
    return this.#pool ? this.#pool.taskCounts() : Promise.resolve({});
  }

  /** Where each worker's instance came from: 'wasmModule' (the page's compiled core, the one source). */
  workerModules() {
    return this.#pool ? this.#pool.loadedFrom() : Promise.resolve([]);
  }

  #getPool() {
    if (this.#pool || this.#poolFailed) return this.#pool;
    this.#pool = pagePool({
      onLost: () => {
        this.#poolFailed = true; // no workers here: compute on the main thread instead
        this.#pool = null;
        this.#handlers.onWorkerLost();
      },
    });
    this.#poolFailed = !this.#pool;
    return this.#pool;
  }

  // `kept`: the long view, which kept the offsets itself.
  #onResult({ id, view, ranges, error, kept = false }) {
    if (!this.isLatest(id)) return; // a newer request is on its way
    if (error) {
      this.#handlers.onError(error);
      return;
    }
    this.view = kept ? view : keepOffsets(view, this.view);
    if (!kept) rememberRanges(this.view, ranges); // the long view remembers each when put together
    this.computedBy = 'worker';
    this.#handlers.onWorkerView(this.view, id);
  }
}
