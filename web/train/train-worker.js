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
//      { type: 'extrapolate', schemes, settings, corpusUrl }, each with a seq
// Out: { type: 'ready', words, config, baselines, budget, ... } | { type: 'progress', ..., end } |
//      { type: 'ended', steps, reason, target, gap } (the run stopped: criterion or budget) |
//      { type: 'analysis', ... } | { type: 'sentence', ... } | { type: 'exported', model } |
//      { type: 'error', message, during }, each with the seq of the command that caused it
import { RelPos } from '../api/index.js';
import { loadGivenCore } from '../api/load-given-core.js';
import { corpusShortfall, decodeCorpus } from './corpus-format.js';
import { MAX_CORPUS_BYTES, gunzipBounded } from './read-gzip.js';
import { modelToNpz, readModelFile } from './model-files.js';
import { DEFAULT_RUN, READINGS, TrainSession, sessionFromExport } from './train-session.js';
import { lengthExtrapolation } from './length-extrapolation.js';
import { runEnd } from './run-end.js';

const SLICE_MS = 40;
const { loss: EVALUATE_EVERY, heads: ANALYSE_EVERY } = READINGS;

let rp = null;
let corpus = null;
let session = null;
let run = { ...DEFAULT_RUN };
let running = false;
let sliceTimer = 0;
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
  session?.dispose();
  session = new TrainSession(rp, corpus, run);
  recentLosses = [];
  ended = null;
}

/** Posts the held-out loss; returns the run's end (run-end.js). */
function evaluateAndPost(trainLoss) {
  const heldOut = session.heldOut();
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

function slice() {
  sliceTimer = 0;
  if (!running) return;
  seq = trainSeq;
  const start = performance.now();
  do {
    recentLosses.push(session.step());
    const steps = session.steps;
    if (steps % EVALUATE_EVERY === 0) {
      const mean = recentLosses.reduce((a, b) => a + b, 0) / recentLosses.length;
      recentLosses = [];
      const end = evaluateAndPost(mean);
      if (end.ended) {
        // The run's end: the last reading of the heads is the verdicts' (train-section.js).
        running = false;
        ended = { steps, ...end };
        post({ type: 'analysis', ...session.analyse(), ended });
        post({ type: 'ended', ...ended });
        return;
      }
    }
    if (steps % ANALYSE_EVERY === 0) post({ type: 'analysis', ...session.analyse() });
  } while (running && performance.now() - start < SLICE_MS && session.steps % EVALUATE_EVERY !== 0);
  post({ type: 'steps', steps: session.steps });
  sliceTimer = setTimeout(slice, 0);
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
    lastRate = { steps: session.steps, time: performance.now() };
    if (!sliceTimer) sliceTimer = setTimeout(slice, 0);
  },
  pause() {
    running = false;
    clearTimeout(sliceTimer);
    sliceTimer = 0;
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
      loaded = sessionFromExport(rp, corpus, data);
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
