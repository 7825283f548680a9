// The compute path. Up to SYNC_LIMIT positions the view is computed on the main thread, in the
// task of the change; above, a worker computes it (the latest request wins) and the page draws
// the panels in tasks of at most ~12 ms each (AttentionFigure.setView), so input never waits long. The long view's workers are a pool, one per
// core, each computing a block of query rows (workers/long-view-pool.js). Without workers, all on
// the main thread.
import { rememberRanges } from '../figures/panel-extents.js';
import { computeAttentionView, keepOffsets } from '../figures/view.js';
import { ATTENTION_SETTINGS } from '../settings/settings.js';
import { LongViewPool } from '../workers/long-view-pool.js';
import { startAttentionWorker } from '../workers/start-attention-worker.js';

/** Above this n, attention is computed in a worker and the panels drawn progressively. */
export const SYNC_LIMIT = 384;

/** The settings computeAttentionView reads, from a page state (and the weight panels' colour rule). */
export function attentionSettings(state) {
  return {
    ...Object.fromEntries(ATTENTION_SETTINGS.map((name) => [name, state[name]])),
    weightScale: state.weightScale,
  };
}

/** Past SYNC_LIMIT positions, or in the long view past SYNC_LIMIT² offset-space cells, n × (2k′ + 1). */
function wantsWorker({ long, seqLen, maxDistance }) {
  const offsetCells = long ? seqLen * (2 * Math.min(maxDistance, seqLen - 1) + 1) : 0;
  return seqLen > SYNC_LIMIT || offsetCells > SYNC_LIMIT * SYNC_LIMIT;
}

/**
 * The view of the page's state, computed here or in the worker. `view` is the latest view and
 * `computedBy` where it was computed ('main' or 'worker'). The worker's views come to
 * `onWorkerView(view, id)`, its errors to `onError(message)`; `onWorkerLost()` when it fails to run.
 */
export class ViewCompute {
  view = null;
  computedBy = 'main';
  #rp;
  #handlers;
  #worker = null;
  #workerFailed = false;
  #pool = null;
  #poolFailed = false;
  #requestId = 0;

  constructor({ rp, onWorkerView, onError, onWorkerLost }) {
    this.#rp = rp;
    this.#handlers = { onWorkerView, onError, onWorkerLost };
  }

  /** Computes the view of `state` here and returns false, or returns true: then request() it. */
  computeOrDefer(state) {
    if (wantsWorker(state) && (state.long ? this.#getPool() : this.#getWorker())) return true;
    this.#requestId += 1; // a worker's answer still on its way is older than this view
    this.view = computeAttentionView(this.#rp, attentionSettings(state), {
      positionsOnly: state.long,
      previous: this.view,
    });
    this.computedBy = 'main';
    return false;
  }

  /** Asks the worker for the view of `state`; `offsetGrid`: the long view's block means, or null. */
  request(state, offsetGrid) {
    this.#requestId += 1;
    const settings = attentionSettings(state);
    if (state.long) {
      const id = this.#requestId;
      const previous = this.view?.offsetSpace ? this.view : null;
      this.#pool.compute(this.#rp, settings, { grid: offsetGrid, previous }).then(
        (answer) => answer && this.#onResult({ id, ...answer, kept: true }),
        (error) => this.#onResult({ id, error: error.message }),
      );
      return;
    }
    this.#worker.postMessage({ id: this.#requestId, settings, positionsOnly: state.long, offsetGrid });
  }

  /** Whether request `id` is still the latest. */
  isLatest(id) {
    return id === this.#requestId;
  }

  #getWorker() {
    if (this.#worker || this.#workerFailed) return this.#worker;
    try {
      this.#worker = startAttentionWorker();
      this.#worker.addEventListener('message', ({ data }) => this.#onResult(data));
      this.#worker.addEventListener('error', () => {
        this.#workerFailed = true; // no worker here: compute on the main thread instead
        this.#worker = null;
        this.#handlers.onWorkerLost();
      });
    } catch {
      this.#workerFailed = true;
    }
    return this.#worker;
  }

  #getPool() {
    if (this.#pool || this.#poolFailed) return this.#pool;
    try {
      this.#pool = new LongViewPool({
        onLost: () => {
          this.#poolFailed = true; // no workers here: compute on the main thread instead
          this.#pool = null;
          this.#handlers.onWorkerLost();
        },
      });
    } catch {
      this.#poolFailed = true;
    }
    return this.#pool;
  }

  // `kept`: the pool's view, which kept the offsets itself.
  #onResult({ id, view, ranges, error, kept = false }) {
    if (!this.isLatest(id)) return; // a newer request is on its way
    if (error) {
      this.#handlers.onError(error);
      return;
    }
    this.view = kept ? view : keepOffsets(view, this.view);
    if (!kept) rememberRanges(this.view, ranges); // the pool's view remembers each when put together
    this.computedBy = 'worker';
    this.#handlers.onWorkerView(this.view, id);
  }
}
