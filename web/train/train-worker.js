// The training worker: its own WebAssembly instance, the corpus, one TrainSession, serving the
// task pool's protocol (task-pool.js, task-worker.js: tasks by name, each call's reports and
// result). The page never trains; it runs these tasks on a pool of one or two training workers
// and draws what comes back (train-section.js).
//
// The tasks run one after another on this worker, in the order the calls came (a call that
// comes while `init` still loads waits for it), between the slices of training: steps run in
// slices of at most SLICE_MS, so a call (pause, a sentence to read) waits at most one slice.
//
// init({ corpusUrl, task, preset, seed }), configure({ task, preset, seed }), reset() (the same
//   seed again), import(bytes, name) (the file's seed)
//   → { session: { task, preset, seed, config, words, steps, budget, baselines, corpus, … }, analysis };
// train(referenceLoss) (the reference run's held-out loss, or NaN: run-end.js), a long task:
//   reports { type: 'progress', …, end } | { type: 'steps', steps } | { type: 'analysis', … } |
//   { type: 'ended', steps, reason, target, gap } until the run stops, then resolves to
//   { steps, stopped: 'ended' | 'paused' }; its call cancelled pauses it;
// pause() → { steps, analysis, progress (the last held-out reading) }; sentence(words, layer, head) → its panels;
// export(format) → { format, name, bytes | text }; extrapolate(schemes, settings, corpusUrl), a
//   long task reporting each row; shardPeer(port) (this worker trains; a second one computes half
//   of each step's gradients over the port) | serveShards(port), a long task on that second
//   worker (shardGradients for each request; docs/training.md, "A step in shards").
import { BaseRelPos } from '../api/relpos.js';
import { serveTasks } from '../api/task-worker.js';
import { loadGivenCore } from '../api/load-given-core.js';
import { corpusShortfall, decodeCorpus } from './corpus-format.js';
import { MAX_CORPUS_BYTES, gunzipBounded } from './read-gzip.js';
import { modelToNpz, readModelFile } from './model-files.js';
import { DEFAULT_RUN, LIVE_SHARDS, READINGS, TrainSession, sessionFromExport } from './train-session.js';
import { lengthExtrapolation } from './length-extrapolation.js';
import { runEnd } from './run-end.js';
import { serveShards } from './shard-server.js';

const SLICE_MS = 40;
/** A step's half not back from the second worker in this time is computed here (and that worker is let go). */
const PEER_TIMEOUT_MS = 10_000;
const { loss: EVALUATE_EVERY, heads: ANALYSE_EVERY } = READINGS;

/** What to do when the corpus cannot be read: where the file comes from and how to point to it. */
const corpusHelp = (url, why) =>
  `could not load the corpus ${url} (${why}). It is dist/training-corpus.bin of the relpos-wasm package ` +
  '(dist/relpos-train.js and dist/relpos.html carry it inside); give its address in the corpus attribute, ' +
  '<relpos-train corpus="training-corpus.bin">, or build it from a clone with npm run build. ' +
  'The copy task needs no corpus.';

async function loadCorpus(url) {
  let response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw new Error(corpusHelp(url, error.message), { cause: error });
  }
  if (!response.ok) throw new Error(corpusHelp(url, `HTTP ${response.status} ${response.statusText}`.trim()));
  let loaded;
  try {
    // Expanded with a bound (read-gzip.js): a small file that expands to gigabytes stops there.
    loaded = decodeCorpus(await gunzipBounded(response.body, MAX_CORPUS_BYTES));
  } catch (error) {
    throw new Error(corpusHelp(url, `not a relpos corpus file: ${error.message}`), { cause: error });
  }
  const shortfall = corpusShortfall(loaded);
  if (shortfall) throw new Error(corpusHelp(url, `too small to train on: ${shortfall}`));
  return loaded;
}

/** The corpus, loaded on first need: the copy task trains without it. */
async function corpusFor(c, task) {
  if (task !== 'copy') c.corpus ??= await loadCorpus(c.corpusUrl);
}

// The full core (with the training engine) as a file beside the worker, compiled here (streaming
// where served as application/wasm): the raw .wasm gzips to 30 % less than a base64 copy, and
// this worker loads only what it is given (load-given-core.js), so its bundle carries none. The
// API's class without the checkpoint reader (relpos.js), which training never uses.
const loadTrainingCore = async () =>
  new BaseRelPos(
    await loadGivenCore('the training worker', { wasmUrl: new URL('../../dist/relpos-core.wasm', import.meta.url) }),
  );

/** The core, loaded on first need (the pool starts the worker; its first task loads it). */
async function coreOf(c) {
  c.core ??= loadTrainingCore();
  c.rp = await c.core;
  return c.rp;
}

/**
 * Where this session's training time went, in ms (the steps, the held-out readings, the heads'
 * readings while training): kept on the worker's global scope for npm run bench:train-page.
 */
const emptyTiming = () => ({ steps: 0, stepMs: 0, heldOutReadings: 0, heldOutMs: 0, headReadings: 0, headMs: 0 });
self.trainTiming = emptyTiming();

/** fn()'s result, its time added to self.trainTiming[ms] and one to [count]. */
async function timed(count, ms, fn) {
  const start = performance.now();
  const result = await fn();
  self.trainTiming[ms] += performance.now() - start;
  self.trainTiming[count] += 1;
  return result;
}

/** What the page shows of the session (with its first reading: { session, analysis }). */
function described(c, extra = {}) {
  const { session, corpus } = c;
  return {
    session: {
      task: session.task,
      preset: session.preset,
      seed: session.seed,
      config: { ...session.config },
      words: session.task === 'copy' ? session.words : null,
      steps: session.steps,
      budget: session.budget,
      handbookProfile: Array.from(c.rp.localityProfile().profile), // the handbook's own settings (k = 5)
      baselines: session.lossBaselines(),
      corpus: corpus && {
        source: corpus.header.source,
        terms: corpus.header.terms,
        tagger: corpus.header.tagger ?? null,
        train: corpus.train.length,
        heldOut: corpus.heldOut.length,
      },
      ...extra,
    },
    analysis: session.analyse(),
  };
}

function newSession(c) {
  self.trainTiming = emptyTiming();
  c.session?.dispose();
  c.session = new TrainSession(c.rp, c.corpus, { ...c.run, shards: LIVE_SHARDS });
  c.recentLosses = [];
  c.ended = null;
}

/** `fn` after every task and slice before it, on this worker (the tasks' and slices' one order). */
function inTurn(c, fn) {
  const done = c.turn.then(fn);
  c.turn = done.catch(() => {});
  return done;
}

/** Ends the run in progress (its train call resolves with how it stopped). */
function stopRun(c, stopped) {
  const run = c.training;
  if (!run) return;
  c.training = null;
  run.resolve({ steps: c.session.steps, stopped });
}

/** Reports the held-out loss (its last part from the second worker, if any); returns the run's end (run-end.js). */
async function evaluateAndReport(c, run, trainLoss) {
  const { session, peer } = c;
  const heldOut = peer && session.shards === 2 ? await session.heldOutWith(peer.evaluate) : session.heldOut();
  const end = runEnd({
    steps: session.steps,
    budget: session.budget,
    heldOut: heldOut.loss,
    referenceLoss: c.referenceLoss,
  });
  const progress = {
    type: 'progress',
    steps: session.steps,
    trainLoss,
    heldOutLoss: heldOut.loss,
    heldOutAccuracy: heldOut.accuracy,
    stepsPerSecond: rate(c),
    end,
  };
  // Kept for pause(): a reading made in the slice a pause ends reaches the page with the pause.
  c.lastProgress = { session, progress };
  run.report(progress);
  return end;
}

function rate(c) {
  const now = performance.now();
  const { steps } = c.session;
  const { lastRate } = c;
  const r = lastRate.time && now > lastRate.time ? ((steps - lastRate.steps) * 1000) / (now - lastRate.time) : 0;
  c.lastRate = { steps, time: now };
  return r;
}

/**
 * The trainer's side of a step in shards: asks the second worker, over `port`, for shard 1's
 * gradients (gradients(batch, stepTargets)) or the held-out batch's last part's loss
 * (evaluate(part)) from this session's parameters (sent with the request; the one buffer goes back
 * and forth, transferred). A request not answered in PEER_TIMEOUT_MS, or refused, rejects: the
 * step computes that part here, and the second worker is let go.
 */
function shardPeer(c, port) {
  const pending = new Map();
  let next = 0;
  let vector = null;
  const dropAll = (why) => {
    c.peer = null;
    port.close();
    for (const { reject } of pending.values()) reject(new Error(why));
    pending.clear();
  };
  port.onmessage = ({ data }) => {
    const waiting = pending.get(data.id);
    if (!waiting) return;
    pending.delete(data.id);
    clearTimeout(waiting.timer);
    if (data.error) {
      waiting.reject(new Error(data.error));
      dropAll(data.error);
      return;
    }
    vector = data.vector;
    waiting.resolve(data.result);
  };
  const ask = (request) => {
    const parameters = c.session.model.parameterVector(vector ? { out: vector } : undefined);
    vector = null;
    next += 1;
    const id = next;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => dropAll('the second training worker did not answer'), PEER_TIMEOUT_MS);
      pending.set(id, { resolve, reject, timer });
      port.postMessage({ id, config: c.session.config, parameters, ...request }, [parameters.buffer]);
    });
  };
  return {
    gradients: (batch, stepTargets) => ask({ batch, stepTargets }),
    evaluate: (batch) => ask({ batch, evaluate: true }),
  };
}

const readHeads = (c, run, extra = {}) =>
  timed('headReadings', 'headMs', () => run.report({ type: 'analysis', ...c.session.analyse(), ...extra }));

/** One slice of the run `number` (steps for at most SLICE_MS, or to the next held-out reading). */
async function slice(c, number) {
  const run = c.training;
  if (!run || run.number !== number) return;
  const { session } = c;
  const start = performance.now();
  do {
    c.recentLosses.push(
      await timed('steps', 'stepMs', () =>
        c.peer && session.shards === 2 ? session.stepWith(c.peer.gradients) : session.step(),
      ),
    );
    const steps = session.steps;
    if (steps % EVALUATE_EVERY === 0) {
      const mean = c.recentLosses.reduce((a, b) => a + b, 0) / c.recentLosses.length;
      c.recentLosses = [];
      const end = await timed('heldOutReadings', 'heldOutMs', () => evaluateAndReport(c, run, mean));
      if (end.ended) {
        // The run's end: the last reading of the heads is the verdicts' (train-section.js).
        c.ended = { steps, ...end };
        await readHeads(c, run, { ended: c.ended });
        run.report({ type: 'ended', ...c.ended });
        stopRun(c, 'ended');
        return;
      }
    }
    if (steps % ANALYSE_EVERY === 0) await readHeads(c, run);
  } while (c.training === run && performance.now() - start < SLICE_MS && session.steps % EVALUATE_EVERY !== 0);
  if (c.training !== run) return;
  run.report({ type: 'steps', steps: session.steps });
  c.slices.port2.postMessage(number);
}

/**
 * Stops the run in progress and reads the heads where it stopped; with the last held-out reading
 * of this model (the run's cancelled call no longer reports it).
 */
function pause(c) {
  stopRun(c, 'paused');
  const progress = c.lastProgress?.session === c.session ? c.lastProgress.progress : null;
  return { steps: c.session.steps, analysis: c.session.analyse(), progress };
}

// Each task runs in its turn (inTurn): after the calls and training slices before it.
const TRAIN_TASKS = {
  init(c, { corpusUrl, task = c.run.task, preset = c.run.preset, seed = c.run.seed }) {
    return inTurn(c, async () => {
      await coreOf(c);
      c.corpusUrl = corpusUrl;
      await corpusFor(c, task);
      c.run = { ...c.run, task, preset, seed };
      newSession(c);
      return described(c);
    });
  },
  configure(c, { task, preset, seed = c.run.seed }) {
    return inTurn(c, async () => {
      stopRun(c, 'paused');
      await corpusFor(c, task);
      c.run = { ...c.run, task, preset, seed };
      newSession(c);
      return described(c);
    });
  },
  /**
   * Trains until the run ends (its criterion or budget) or is paused (its call cancelled, pause(),
   * a newer train call or a task that replaces the model).
   */
  async train(c, referenceLoss = NaN) {
    const { report, signal } = this;
    const started = await inTurn(c, () => {
      if (c.ended) {
        report({ type: 'ended', ...c.ended });
        return { done: { steps: c.session.steps, stopped: 'ended' } };
      }
      c.referenceLoss = referenceLoss;
      return {
        done: new Promise((resolve, reject) => {
          stopRun(c, 'paused');
          c.runNumber += 1;
          c.training = { number: c.runNumber, report, resolve, reject };
          c.lastRate = { steps: c.session.steps, time: performance.now() };
          c.slices.port2.postMessage(c.runNumber);
        }),
      };
    });
    // Cancelled: the run stops where it is (pause() reads it).
    const run = c.training;
    const cancelled = () => inTurn(c, () => c.training === run && run?.report === report && stopRun(c, 'paused'));
    if (signal.aborted) cancelled();
    else signal.addEventListener('abort', cancelled, { once: true });
    return started.done;
  },
  pause(c) {
    return inTurn(c, () => pause(c));
  },
  reset(c) {
    return inTurn(c, () => {
      stopRun(c, 'paused');
      newSession(c);
      return described(c, { reset: true });
    });
  },
  sentence(c, words, layer, head) {
    return inTurn(c, () => {
      const { session } = c;
      const r = session.attentionOn(words, { layer, head });
      return {
        layer,
        head,
        words,
        seen: r.seen,
        result: r,
        maxDistance: session.config.maxDistance,
        causal: session.config.causal,
      };
    });
  },
  export(c, format) {
    return inTurn(c, () => {
      const model = c.session.exportModel();
      // The file's name from the model it holds (its task, size and step), not from the menus.
      const name = `relpos-trained-${model.task}-${model.preset}-step${model.steps}`;
      if (format === 'npz') return { format, name, bytes: modelToNpz(model) };
      return { format, name, text: JSON.stringify(model) };
    });
  },
  import(c, bytes, name) {
    return inTurn(c, async () => {
      const data = readModelFile(bytes, name);
      if (data?.task !== 'copy') await corpusFor(c, data?.task);
      let loaded;
      try {
        loaded = sessionFromExport(c.rp, c.corpus, data, { shards: LIVE_SHARDS });
      } catch (error) {
        throw new Error(`${name}: ${error.message}`, { cause: error });
      }
      stopRun(c, 'paused');
      c.session.dispose();
      c.session = loaded;
      c.ended = null;
      c.run = { task: loaded.task, preset: loaded.preset, seed: loaded.seed };
      c.recentLosses = [];
      return described(c, { loaded: name, loadedSteps: loaded.loadedSteps, heldOutLoss: loaded.heldOut().loss });
    });
  },
  shardPeer(c, port) {
    c.peer = shardPeer(c, port);
  },
  /** The second worker's task while the first trains: serves its shards until cancelled. */
  serveShards(c, port) {
    coreOf(c).catch(() => {}); // loaded at once, not at the first request
    const stop = serveShards(() => coreOf(c), port);
    return new Promise((resolve) =>
      this.signal.addEventListener(
        'abort',
        () => {
          stop();
          resolve(null);
        },
        { once: true },
      ),
    );
  },
  /**
   * "Longer than trained" (length-extrapolation.js): reports { row, run } per scheme as it is done
   * (run: the result without its rows), then returns all.
   */
  extrapolate(c, schemes, settings, corpusUrl) {
    const { report } = this;
    return inTurn(c, async () => {
      const rp = await coreOf(c);
      c.corpusUrl ??= corpusUrl;
      await corpusFor(c, 'next');
      return lengthExtrapolation(rp, c.corpus, schemes, settings, (row, run) => report({ row, run }));
    });
  },
};

serveTasks(TRAIN_TASKS, () => {
  const c = {
    core: null,
    rp: null,
    corpusUrl: null,
    corpus: null,
    session: null,
    run: { ...DEFAULT_RUN },
    /** The run in progress ({ number, report, resolve, reject }), or null; runNumber: its slices'. */
    training: null,
    runNumber: 0,
    /** The second worker's half of each step (shardPeer()), or null: every step computed here. */
    peer: null,
    recentLosses: [],
    lastRate: { steps: 0, time: 0 },
    /** The reference's held-out loss the run stops within (NaN: none), and the end once reached. */
    referenceLoss: NaN,
    ended: null,
    turn: Promise.resolve(),
    // The next slice of the run, after the calls already waiting (in turn with them): asked for
    // by a message to itself (a chain of setTimeout(0) is held to 4 ms a link after five).
    slices: new MessageChannel(),
  };
  c.slices.port1.onmessage = ({ data: number }) => {
    inTurn(c, () => slice(c, number)).catch((error) => {
      const run = c.training;
      c.training = null;
      run?.reject(error);
    });
  };
  return c;
});
