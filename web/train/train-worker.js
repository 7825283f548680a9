// The training worker: its own WebAssembly instance, the corpus, one TrainSession. The page
// never trains; it sends commands and draws what comes back (train-section.js). Steps run in
// slices of at most SLICE_MS, so a message (pause, a sentence to read) waits at most one slice.
//
// Messages are handled one after another, in the order sent (a command sent while `init` still
// loads waits for it). A command's `seq` comes back on every reply it causes, so the page can
// tell a reply to its latest command from a late one (train-client.js).
//
// In:  { type: 'init', corpusUrl, task, preset } | { type: 'configure', task, preset } |
//      { type: 'train', referenceLoss } (the reference run's held-out loss, or NaN: run-end.js) |
//      { type: 'pause' } | { type: 'reset' } | { type: 'sentence', words, layer, head } |
//      { type: 'analyse' } | { type: 'export' } | { type: 'import', bytes, name } |
//      { type: 'extrapolate', schemes, settings, corpusUrl }, each with a seq;
//      { type: 'shard-peer', port } (this worker trains; a second one computes half of each
//      step's gradients over the port) | { type: 'serve-shards', port } (this worker is that second
//      one: shardGradients for each request; docs/training.md, "A step in shards")
// Out: { type: 'ready', words, config, baselines, budget, ... } | { type: 'progress', ..., end } |
//      { type: 'ended', steps, reason, target, gap } (the run stopped: criterion or budget) |
//      { type: 'analysis', ... } | { type: 'sentence', ... } | { type: 'exported', model } |
//      { type: 'error', message, during }, each with the seq of the command that caused it
import { RelPos } from '../api/index.js';
import { loadGivenCore } from '../api/load-given-core.js';
import { corpusShortfall, decodeCorpus } from './corpus-format.js';
import { MAX_CORPUS_BYTES, gunzipBounded } from './read-gzip.js';
import { modelToNpz, readModelFile } from './model-files.js';
import { DEFAULT_RUN, LIVE_SHARDS, READINGS, TrainSession, sessionFromExport } from './train-session.js';
import { lengthExtrapolation } from './length-extrapolation.js';
import { runEnd } from './run-end.js';

const SLICE_MS = 40;
/** A step's half not back from the second worker in this time is computed here (and that worker is let go). */
const PEER_TIMEOUT_MS = 10_000;
const { loss: EVALUATE_EVERY, heads: ANALYSE_EVERY } = READINGS;

let rp = null;
let corpus = null;
let session = null;
let run = { ...DEFAULT_RUN };
let running = false;
/** Training slices of the current run (a Pause or a new Train ends the older chain of slices). */
let runNumber = 0;
/** The second worker's half of each step (shardPeer()), or null: every step computed here. */
let peer = null;
let recentLosses = [];
let lastRate = { steps: 0, time: 0 };
/** The reference's held-out loss the run stops within (NaN: none), and the end once reached. */
let referenceLoss = NaN;
let ended = null;
/** The seq of the command being handled (replies carry it); the training slices carry train's. */
let seq = 0;
let trainSeq = 0;

const post = (message, transfer = []) => self.postMessage({ seq, ...message }, transfer);

let corpusUrl = null;

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
async function corpusFor(task) {
  if (task !== 'copy') corpus ??= await loadCorpus(corpusUrl);
}

function describeSession(extra = {}) {
  return {
    type: 'ready',
    task: session.task,
    preset: session.preset,
    config: { ...session.config },
    words: session.task === 'copy' ? session.words : null,
    steps: session.steps,
    budget: session.budget,
    handbookProfile: Array.from(rp.localityProfile().profile), // the handbook's own settings (k = 5)
    baselines: session.lossBaselines(),
    corpus: corpus && {
      source: corpus.header.source,
      terms: corpus.header.terms,
      tagger: corpus.header.tagger ?? null,
      train: corpus.train.length,
      heldOut: corpus.heldOut.length,
    },
    ...extra,
  };
}

function newSession() {
  self.trainTiming = emptyTiming();
  session?.dispose();
  session = new TrainSession(rp, corpus, { ...run, shards: LIVE_SHARDS });
  recentLosses = [];
  ended = null;
}

/** Posts the held-out loss (its last part from the second worker, if there is one); returns the run's end (run-end.js). */
async function evaluateAndPost(trainLoss) {
  const heldOut = peer && session.shards === 2 ? await session.heldOutWith(peer.evaluate) : session.heldOut();
  const end = runEnd({ steps: session.steps, budget: session.budget, heldOut: heldOut.loss, referenceLoss });
  post({
    type: 'progress',
    steps: session.steps,
    trainLoss,
    heldOutLoss: heldOut.loss,
    heldOutAccuracy: heldOut.accuracy,
    stepsPerSecond: rate(),
    end,
  });
  return end;
}

function rate() {
  const now = performance.now();
  const steps = session.steps;
  const r = lastRate.time && now > lastRate.time ? ((steps - lastRate.steps) * 1000) / (now - lastRate.time) : 0;
  lastRate = { steps, time: now };
  return r;
}

/**
 * The trainer's side of a step in shards: asks the second worker, over `port`, for shard 1's
 * gradients (gradients(batch, stepTargets)) or the held-out batch's last part's loss
 * (evaluate(part)) from this session's parameters (sent with the request; the one buffer goes back
 * and forth, transferred). A request not answered in PEER_TIMEOUT_MS, or refused, rejects: the
 * step computes that part here, and the second worker is let go.
 */
function shardPeer(port) {
  const pending = new Map();
  let next = 0;
  let vector = null;
  const dropAll = (why) => {
    peer = null;
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
    const parameters = session.model.parameterVector(vector ? { out: vector } : undefined);
    vector = null;
    next += 1;
    const id = next;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => dropAll('the second training worker did not answer'), PEER_TIMEOUT_MS);
      pending.set(id, { resolve, reject, timer });
      port.postMessage({ id, config: session.config, parameters, ...request }, [parameters.buffer]);
    });
  };
  return {
    gradients: (batch, stepTargets) => ask({ batch, stepTargets }),
    evaluate: (batch) => ask({ batch, evaluate: true }),
  };
}

/** The second worker's side: a model of the trainer's configuration, its parameters from each request. */
function serveShards(port) {
  const core = (async () => {
    rp ??= await loadTrainingCore();
    return rp;
  })();
  let model = null;
  let made = '';
  port.onmessage = async ({ data }) => {
    const { id, config, parameters, batch, stepTargets, evaluate } = data;
    try {
      await core;
      const key = JSON.stringify(config);
      if (key !== made) {
        model?.dispose();
        model = null;
        model = rp.createModel(config);
        made = key;
      }
      model.setParameters(parameters);
      if (evaluate) {
        // The parameters' buffer goes back as it came, for the next request.
        port.postMessage({ id, result: model.evaluate(batch), vector: parameters }, [parameters.buffer]);
        return;
      }
      const result = model.shardGradients(batch, { stepTargets, out: parameters });
      port.postMessage({ id, result, vector: result.gradients }, [result.gradients.buffer]);
    } catch (error) {
      port.postMessage({ id, error: error?.message ?? String(error) });
    }
  };
}

// The next slice of the run, after the messages already waiting (handled in order with them):
// asked for by a message to itself (a chain of setTimeout(0) is held to 4 ms a link after five).
const slices = new MessageChannel();
slices.port1.onmessage = ({ data: current }) => {
  queue = queue
    .then(() => slice(current))
    .catch((error) => {
      running = false;
      seq = trainSeq;
      post({ type: 'error', during: 'train', message: error?.message ?? String(error) });
    });
};
const scheduleSlice = () => slices.port2.postMessage(runNumber);

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

const readHeads = (extra = {}) =>
  timed('headReadings', 'headMs', () => post({ type: 'analysis', ...session.analyse(), ...extra }));

async function slice(current) {
  if (!running || current !== runNumber) return;
  seq = trainSeq;
  const start = performance.now();
  do {
    recentLosses.push(
      await timed('steps', 'stepMs', () =>
        peer && session.shards === 2 ? session.stepWith(peer.gradients) : session.step(),
      ),
    );
    const steps = session.steps;
    if (steps % EVALUATE_EVERY === 0) {
      const mean = recentLosses.reduce((a, b) => a + b, 0) / recentLosses.length;
      recentLosses = [];
      const end = await timed('heldOutReadings', 'heldOutMs', () => evaluateAndPost(mean));
      if (end.ended) {
        // The run's end: the last reading of the heads is the verdicts' (train-section.js).
        running = false;
        ended = { steps, ...end };
        await readHeads({ ended });
        post({ type: 'ended', ...ended });
        return;
      }
    }
    if (steps % ANALYSE_EVERY === 0) await readHeads();
  } while (running && performance.now() - start < SLICE_MS && session.steps % EVALUATE_EVERY !== 0);
  post({ type: 'steps', steps: session.steps });
  scheduleSlice();
}

// The full core (with the training engine) as a file beside the worker, compiled here (streaming
// where served as application/wasm): the raw .wasm gzips to 30 % less than a base64 copy, and
// this worker loads only what it is given (load-given-core.js), so its bundle carries none.
const loadTrainingCore = async () =>
  new RelPos(
    await loadGivenCore('the training worker', { wasmUrl: new URL('../../dist/relpos-core.wasm', import.meta.url) }),
  );

const handlers = {
  async init({ corpusUrl: url, task = run.task, preset = run.preset }) {
    rp = await loadTrainingCore();
    corpusUrl = url;
    await corpusFor(task);
    run = { ...run, task, preset };
    newSession();
    post(describeSession());
    post({ type: 'analysis', ...session.analyse() });
  },
  async configure({ task, preset }) {
    running = false;
    await corpusFor(task);
    run = { ...run, task, preset };
    newSession();
    post(describeSession());
    post({ type: 'analysis', ...session.analyse() });
  },
  train({ referenceLoss: reference = NaN }) {
    trainSeq = seq;
    if (ended) {
      post({ type: 'ended', ...ended });
      return;
    }
    referenceLoss = reference;
    if (running) return;
    running = true;
    runNumber += 1;
    lastRate = { steps: session.steps, time: performance.now() };
    scheduleSlice();
  },
  pause() {
    running = false;
    runNumber += 1;
    post({ type: 'paused', steps: session.steps });
    post({ type: 'analysis', ...session.analyse() });
  },
  reset() {
    handlers.pause();
    newSession();
    post(describeSession({ reset: true }));
    post({ type: 'analysis', ...session.analyse() });
  },
  analyse() {
    post({ type: 'analysis', ...session.analyse() });
  },
  'shard-peer'({ port }) {
    peer = shardPeer(port);
  },
  'serve-shards'({ port }) {
    serveShards(port);
  },
  /** "Longer than trained" (length-extrapolation.js): a row per scheme as it is done, then all. */
  async extrapolate({ schemes, settings, corpusUrl: url }) {
    rp ??= await loadTrainingCore();
    corpusUrl ??= url;
    await corpusFor('next');
    const result = lengthExtrapolation(rp, corpus, schemes, settings, (row) =>
      post({ type: 'extrapolation-row', row }),
    );
    post({ type: 'extrapolation', ...result });
  },
  sentence({ words, layer, head, id }) {
    const r = session.attentionOn(words, { layer, head });
    post({
      type: 'sentence',
      id,
      layer,
      head,
      words,
      seen: r.seen,
      result: r,
      maxDistance: session.config.maxDistance,
      causal: session.config.causal,
    });
  },
  export({ format }) {
    const model = session.exportModel();
    // The file's name from the model it holds (its task, size and step), not from the menus.
    const name = `relpos-trained-${model.task}-${model.preset}-step${model.steps}`;
    if (format === 'npz') {
      const bytes = modelToNpz(model);
      post({ type: 'exported', format, name, bytes: bytes.buffer }, [bytes.buffer]);
    } else {
      post({ type: 'exported', format, name, text: JSON.stringify(model) });
    }
  },
  async import({ bytes, name }) {
    const data = readModelFile(bytes, name);
    if (data?.task !== 'copy') await corpusFor(data?.task);
    let loaded;
    try {
      loaded = sessionFromExport(rp, corpus, data, { shards: LIVE_SHARDS });
    } catch (error) {
      throw new Error(`${name}: ${error.message}`, { cause: error });
    }
    handlers.pause();
    session.dispose();
    session = loaded;
    ended = null;
    run = { task: loaded.task, preset: loaded.preset, seed: loaded.seed };
    recentLosses = [];
    const heldOut = session.heldOut();
    post(describeSession({ loaded: name, loadedSteps: loaded.loadedSteps, heldOutLoss: heldOut.loss }));
    post({ type: 'analysis', ...session.analyse(), loadedSteps: loaded.loadedSteps });
  },
};

/** Commands whose failure stops training (a bad file, a sentence or an export changes nothing). */
const STOPPING = new Set(['init', 'configure', 'train', 'reset']);

async function handle(data) {
  seq = data.seq ?? 0;
  try {
    await handlers[data.type](data);
  } catch (error) {
    if (STOPPING.has(data.type)) running = false;
    post({ type: 'error', during: data.type, message: error?.message ?? String(error) });
  }
}

let queue = Promise.resolve();
self.onmessage = ({ data }) => {
  queue = queue.then(() => handle(data));
};
