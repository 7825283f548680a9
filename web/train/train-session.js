// One training run of the "Learned position patterns" section (README.md): a relative-attention
// model (the API's createModel) trained on a task (masked words, next word, copy-offset), its
// held-out loss, and what it learned about offsets, read on held-out text (docs/corpus.md):
// each head's position profile, its left/right attention mass and its profiles by the query's part
// of speech. Runs in the training worker; plain JS on the API, so Node tests run it as it is.
import { POS_NAMES, UNK_ID } from './corpus-format.js';
import { seededRandom } from '../api/seeded-random.js';
import { MAX_SEED } from '../api/limits.js';
import { numberArray } from '../api/validate.js';
import { evenStarts, maskedBatch, nextWordBatch } from './batches.js';
import { claimTally, headVerdicts, quantileOfUnsorted } from './pos-verdicts.js';

export { CLAIMS } from './pos-verdicts.js';

export const TASKS = Object.freeze({
  masked: { label: 'masked words (bidirectional)', causal: false },
  next: { label: 'next word (causal)', causal: true },
  copy: { label: 'copy-offset (synthetic)', causal: false },
});

/**
 * Model sizes: words in the vocabulary (plus <mask>, <unk>), width, heads, layers, batch, and the
 * step budget of a run (the learning-rate schedule's length: a run ends there at the latest).
 */
export const PRESETS = Object.freeze({
  tiny: {
    label: 'tiny: d 32, 2 heads, 1 layer',
    words: 500,
    dModel: 32,
    heads: 2,
    layers: 1,
    ffnWidth: 64,
    batchSize: 16,
    steps: 600,
  },
  small: {
    label: 'small: d 64, 4 heads, 2 layers',
    words: 3000,
    dModel: 64,
    heads: 4,
    layers: 2,
    ffnWidth: 128,
    batchSize: 32,
    // About 2 minutes in headless Chromium here, quiet (docs/training.md, bench:train-page).
    steps: 4800,
    // Measured (docs/training.md): at 2700 steps, peak 0.004 ends 5.9 % lower than 0.002 (seed 1;
    // 0.003 4.7 %, 0.005 5.7 % lower; 0.008 7.4 % higher).
    peak: 0.004,
  },
  large: {
    label: 'large: d 128, 4 heads, 2 layers',
    words: 3000,
    dModel: 128,
    heads: 4,
    layers: 2,
    ffnWidth: 256,
    batchSize: 32,
    steps: 1200,
  },
});
export const DEFAULT_RUN = Object.freeze({ task: 'masked', preset: 'small', seed: 1 });
/** Window length and clipping distance of every run. */
export const SEQ_LEN = 32;
export const MAX_DISTANCE = 8;
/** Copy-offset: tokens from 16 symbols, the target at i is the token at i + COPY_OFFSET. */
export const COPY = Object.freeze({ vocabSize: 16, offset: -2 });
/** Adam's settings; learningRate is the schedule's peak where the preset names none. */
export const ADAM = Object.freeze({ learningRate: 2e-3, maxGradNorm: 1 });
/**
 * The learning-rate schedule: a linear warm-up over `warmup` steps to the peak, then half a cosine
 * down to `floor` × the peak at the run's step budget, and the floor after it.
 */
export const SCHEDULE = Object.freeze({ warmup: 100, floor: 0.05 });

/** The learning rate of the step that follows `steps` steps, in a run of `budget` steps. */
export function learningRateAt(
  steps,
  budget,
  { peak = ADAM.learningRate, warmup = SCHEDULE.warmup, floor = SCHEDULE.floor } = {},
) {
  if (steps < warmup) return (peak * (steps + 1)) / warmup;
  const done = Math.min(1, (steps - warmup) / Math.max(1, budget - warmup));
  return peak * (floor + ((1 - floor) * (1 + Math.cos(Math.PI * done))) / 2);
}
/**
 * The live run's step in shards (docs/training.md, "A step in shards"): its batch split in this
 * many equal parts whose gradients are computed apart (in two workers, or one after the other)
 * and summed in shard order, so a run gives the same numbers with one worker or two.
 */
export const LIVE_SHARDS = 2;
/** While training: the held-out loss (and whether the run has ended) every `loss` steps, what the heads learned every `heads` steps. */
export const READINGS = Object.freeze({ loss: 25, heads: 300 });
/** Held-out windows: for the loss, and ANALYSIS_WINDOWS for what the heads learned and the verdicts. */
export const HELD_OUT_WINDOWS = 64;
export const ANALYSIS_WINDOWS = 96;
/** The parts of speech the section draws profiles for (POS_NAMES indices). */
export const PROFILE_POS = Object.freeze([0, 1, 2, 3, 5]);
export const MODEL_FORMAT = 'relpos-train-model';
/** The most Adam steps a saved model may say it was trained for. */
export const MAX_STEPS = 2 ** 31 - 1;

export class TrainSession {
  /** rp: a createRelPos() instance; corpus: decodeCorpus()'s result (not needed for copy). */
  /** budget: the run's step budget (default: the preset's); peak: the schedule's peak learning rate. */
  constructor(
    rp,
    corpus,
    {
      task = DEFAULT_RUN.task,
      preset = DEFAULT_RUN.preset,
      seed = DEFAULT_RUN.seed,
      budget = PRESETS[preset]?.steps,
      peak = PRESETS[preset]?.peak ?? ADAM.learningRate,
      shards = 1,
    } = {},
  ) {
    if (!Object.hasOwn(TASKS, task)) throw new RangeError(`TrainSession: unknown task ${JSON.stringify(task)}`);
    if (!Object.hasOwn(PRESETS, preset)) throw new RangeError(`TrainSession: unknown preset ${JSON.stringify(preset)}`);
    if (task !== 'copy' && !corpus) throw new TypeError('TrainSession: the corpus is needed for this task');
    this.rp = rp;
    this.corpus = corpus;
    this.task = task;
    this.preset = preset;
    this.seed = seed;
    this.budget = budget;
    this.peak = peak;
    if (!Number.isInteger(shards) || shards < 1 || PRESETS[preset].batchSize % shards !== 0)
      throw new RangeError(`TrainSession: shards must divide the batch (${PRESETS[preset].batchSize}), got ${shards}`);
    this.shards = shards;
    this.#vectors = [];
    const p = PRESETS[preset];
    this.vocabSize = task === 'copy' ? COPY.vocabSize : Math.min(p.words, corpus.header.words.length - 2) + 2;
    this.batchSize = p.batchSize;
    this.model = rp.createModel({
      vocabSize: this.vocabSize,
      dModel: p.dModel,
      heads: p.heads,
      layers: p.layers,
      ffnWidth: p.ffnWidth,
      maxDistance: MAX_DISTANCE,
      seqLen: SEQ_LEN,
      maxBatchSize: p.batchSize,
      causal: TASKS[task].causal,
      seed,
    });
    this.random = seededRandom(seed);
    this.heldOutBatch = this.#makeHeldOut();
    this.analysisWindows = this.#analysisWindows();
  }

  get config() {
    return this.model.config;
  }

  get steps() {
    return this.model.steps;
  }

  /** The vocabulary's words by id (copy-offset: the symbols s0 … s15). */
  get words() {
    if (this.task === 'copy') return Array.from({ length: COPY.vocabSize }, (_, i) => `s${i}`);
    return this.corpus.header.words.slice(0, this.vocabSize);
  }

  /** A training batch of the task. */
  batch() {
    const o = { vocabSize: this.vocabSize, seqLen: SEQ_LEN, batchSize: this.batchSize, random: this.random };
    if (this.task === 'masked') return maskedBatch(this.corpus.train, o);
    if (this.task === 'next') return nextWordBatch(this.corpus.train, o);
    return this.rp.syntheticBatch({
      task: 'copy-offset',
      offset: COPY.offset,
      vocabSize: COPY.vocabSize,
      seqLen: SEQ_LEN,
      batchSize: this.batchSize,
      seed: 1000 + this.model.steps,
    });
  }

  /** The learning rate of the next step (SCHEDULE). */
  get learningRate() {
    return learningRateAt(this.model.steps, this.budget, { peak: this.peak });
  }

  /** One Adam step at the schedule's rate; returns the training loss (before the step). */
  step() {
    const options = { ...ADAM, learningRate: this.learningRate };
    const batch = this.batch();
    if (this.shards === 1) return this.model.trainStep(batch, options).loss;
    const { parts, stepTargets } = this.#split(batch);
    return this.#apply(
      parts.map((part, i) => this.#shard(part, stepTargets, i)),
      options,
    );
  }

  /**
   * step() in two shards with shard 1 computed by peer(batch, stepTargets): a promise of
   * model.shardGradients()'s result for it from a model holding this one's parameters (another
   * worker's), asked for before this one computes shard 0. Where the peer fails, shard 1 is
   * computed here: the step's numbers are the same either way.
   */
  async stepWith(peer) {
    if (this.shards !== 2) throw new RangeError('TrainSession.stepWith: takes a session of 2 shards');
    const options = { ...ADAM, learningRate: this.learningRate };
    const { parts, stepTargets } = this.#split(this.batch());
    let remote;
    try {
      remote = Promise.resolve(peer(parts[1], stepTargets)).catch(() => null);
    } catch {
      remote = null;
    }
    const own = this.#shard(parts[0], stepTargets, 0);
    const other = (await remote) ?? this.#shard(parts[1], stepTargets, 1);
    return this.#apply([own, other], options);
  }

  #vectors;

  // One shard's gradients, into this session's vector i (kept from step to step).
  #shard(part, stepTargets, i) {
    const done = this.model.shardGradients(part, { stepTargets, out: this.#vectors[i] });
    this.#vectors[i] = done.gradients;
    return done;
  }

  // The step's batch in this.shards equal parts (windows in order) and its count of targets.
  #split(batch) {
    const size = batch.batchSize / this.shards;
    const length = size * batch.seqLen;
    let stepTargets = 0;
    for (const target of batch.targets) if (target >= 0) stepTargets += 1;
    const parts = Array.from({ length: this.shards }, (_, i) => ({
      tokens: batch.tokens.subarray(i * length, (i + 1) * length),
      targets: batch.targets.subarray(i * length, (i + 1) * length),
      batchSize: size,
      seqLen: batch.seqLen,
    }));
    return { parts, stepTargets: Math.max(1, stepTargets) };
  }

  // The shards' gradients summed in shard order and one Adam step; the step's loss.
  #apply(done, options) {
    this.model.applyGradients(
      done.map((d) => d.gradients),
      options,
    );
    return done.reduce((sum, d) => sum + d.loss, 0);
  }

  /**
   * What the held-out loss is read against: ln V (a model that knows nothing: every id equally
   * likely) and the unigram entropy −Σ p ln p of the targets' words in the training text (a model
   * that knows only how often each word is; the targets are never <unk>), in nats.
   */
  lossBaselines() {
    const V = this.vocabSize;
    if (this.task === 'copy') return { uniform: Math.log(V), unigram: Math.log(V) };
    const counts = new Float64Array(V);
    let total = 0;
    for (const id of this.corpus.train) {
      if (id >= V || id === UNK_ID) continue;
      counts[id] += 1;
      total += 1;
    }
    let entropy = 0;
    for (const c of counts) if (c > 0) entropy -= (c / total) * Math.log(c / total);
    return { uniform: Math.log(V), unigram: entropy };
  }

  /**
   * Loss and accuracy on the fixed held-out batch: in one piece, or in a session of shards in as
   * many equal parts (windows in order), each part's mean weighted by its count of targets and the
   * parts added in order, so that heldOutWith() (a part in another worker) gives the same numbers.
   */
  heldOut() {
    if (this.shards === 1) return this.model.evaluate(this.heldOutBatch);
    const parts = this.#heldOutParts();
    return combineEvaluations(parts.map((part) => [this.model.evaluate(part), part]));
  }

  /**
   * heldOut() with its last part evaluated by peer(part): a promise of model.evaluate()'s result
   * for it from a model holding this one's parameters (another worker's), asked for before this
   * one evaluates the rest. Where the peer fails, that part is evaluated here.
   */
  async heldOutWith(peer) {
    if (this.shards === 1) return this.heldOut();
    const parts = this.#heldOutParts();
    const last = parts.at(-1);
    let remote;
    try {
      remote = Promise.resolve(peer(last)).catch(() => null);
    } catch {
      remote = null;
    }
    const done = parts.slice(0, -1).map((part) => [this.model.evaluate(part), part]);
    done.push([(await remote) ?? this.model.evaluate(last), last]);
    return combineEvaluations(done);
  }

  #heldOutParts() {
    return this.#split(this.heldOutBatch).parts;
  }

  #makeHeldOut() {
    const o = { vocabSize: this.vocabSize, seqLen: SEQ_LEN, batchSize: HELD_OUT_WINDOWS, random: seededRandom(7) };
    if (this.task === 'copy') {
      return this.rp.syntheticBatch({
        task: 'copy-offset',
        offset: COPY.offset,
        vocabSize: COPY.vocabSize,
        seqLen: SEQ_LEN,
        batchSize: HELD_OUT_WINDOWS,
        seed: 7,
      });
    }
    const starts = evenStarts(this.corpus.heldOut.length, SEQ_LEN, HELD_OUT_WINDOWS);
    return this.task === 'masked'
      ? maskedBatch(this.corpus.heldOut, { ...o, starts })
      : nextWordBatch(this.corpus.heldOut, { ...o, starts });
  }

  // Held-out windows for reading the heads: unmasked text, each token's part of speech.
  #analysisWindows() {
    if (this.task === 'copy') {
      const b = this.rp.syntheticBatch({
        task: 'copy-offset',
        offset: 0,
        vocabSize: COPY.vocabSize,
        seqLen: SEQ_LEN,
        batchSize: ANALYSIS_WINDOWS,
        seed: 11,
      });
      return Array.from({ length: ANALYSIS_WINDOWS }, (_, w) => ({
        tokens: b.tokens.slice(w * SEQ_LEN, (w + 1) * SEQ_LEN),
        pos: null,
      }));
    }
    const { heldOut, heldOutPos } = this.corpus;
    const starts = evenStarts(heldOut.length, SEQ_LEN, ANALYSIS_WINDOWS);
    return Array.from(starts, (start) => ({
      tokens: Int32Array.from(heldOut.subarray(start, start + SEQ_LEN), (id) => (id < this.vocabSize ? id : UNK_ID)),
      pos: heldOutPos.subarray(start, start + SEQ_LEN),
    }));
  }

  /**
   * What every head learned, read on the held-out windows (`windows` of them):
   * heads[l·H + h] = { layer, head, profile (mean q_i·aᴷ[c]/√d_k at offsets −k…k over queries whose
   * key i + c exists), profileLow, profileHigh (its 10th and 90th percentiles over those queries),
   * offsetWeights (mean combined weight at each offset), offsetUniform (what attention spread evenly
   * over the visible keys puts there, averaged alike), left, self, right (mean attention mass on
   * keys before, at and after the query), near, nearUniform (mass on keys 1 or 2 words away, and
   * what uniform attention over the visible keys puts there), byPos: { [pos name]: { count,
   * weights (mean combined weight at each offset −k…k) } }, verdicts (pos-verdicts.js) }.
   */
  analyse(windows = ANALYSIS_WINDOWS) {
    const { layers, heads: H, maxDistance: k, causal } = this.model.config;
    const rows = 2 * k + 1;
    const posNames = this.corpus?.header?.posNames ?? POS_NAMES;
    const read = this.analysisWindows.slice(0, windows);
    // Each offset's biases, one per query that sees it: at most one per query of every window.
    const queries = read.reduce((sum, window) => sum + window.tokens.length, 0);
    const acc = Array.from({ length: layers * H }, () => ({
      profile: new Float64Array(rows),
      profileCount: new Float64Array(rows),
      biases: Array.from({ length: rows }, () => new Float64Array(queries)),
      offsetWeights: new Float64Array(rows),
      offsetUniform: new Float64Array(rows),
      left: 0,
      self: 0,
      right: 0,
      near: 0,
      nearUniform: 0,
      queries: 0,
      pos: PROFILE_POS.map(() => ({ sums: new Float64Array(rows), counts: new Float64Array(rows), queries: 0 })),
      tallies: [],
    }));
    const scratch = new Map();
    // Each window's heads' inputs written into the arrays of the window before (same length).
    let inputs = null;
    for (const window of read) {
      const n = window.tokens.length;
      inputs = this.model.headInputs(window.tokens, inputs?.[0].q.rows === n ? { out: inputs } : undefined);
      const layersAttention = layerAttention(this.rp, inputs, H, scratch);
      layersAttention.forEach(({ weights, bias }, index) => {
        const a = acc[index];
        for (let i = 0; i < n; i += 1) {
          const p = window.pos ? PROFILE_POS.indexOf(window.pos[i]) : -1;
          if (p >= 0) a.pos[p].queries += 1;
          const visible = causal ? i + 1 : n;
          let nearKeys = 0;
          for (let j = 0; j < n; j += 1) {
            const c = j - i;
            const weight = weights[i * n + j];
            if (c < 0) a.left += weight;
            else if (c > 0) a.right += weight;
            else a.self += weight;
            if (Math.abs(c) >= 1 && Math.abs(c) <= 2 && (!causal || c < 0)) {
              a.near += weight;
              nearKeys += 1;
            }
            if (c < -k || c > k) continue;
            a.profile[c + k] += bias[i * n + j];
            a.biases[c + k][a.profileCount[c + k]] = bias[i * n + j];
            a.profileCount[c + k] += 1;
            a.offsetWeights[c + k] += weight;
            if (!causal || c <= 0) a.offsetUniform[c + k] += 1 / visible;
            if (p >= 0) {
              a.pos[p].sums[c + k] += weight;
              a.pos[p].counts[c + k] += 1;
            }
          }
          a.nearUniform += nearKeys / visible;
          a.queries += 1;
        }
        if (window.pos) a.tallies.push(claimTally(window.pos, weights, n, { causal, posNames }));
      });
    }
    const mean = (sums, counts) => sums.map((sum, c) => (counts[c] ? sum / counts[c] : 0));
    const quantiles = (biases, q) => Float64Array.from(biases, (values) => quantileOfUnsorted(values, q) || 0);
    const heads = acc.map((a, index) => {
      const biases = a.biases.map((values, c) => values.subarray(0, a.profileCount[c]));
      let byPos = null;
      if (this.task !== 'copy') {
        byPos = {};
        PROFILE_POS.forEach((code, p) => {
          byPos[POS_NAMES[code]] = { count: a.pos[p].queries, weights: mean(a.pos[p].sums, a.pos[p].counts) };
        });
      }
      return {
        layer: Math.floor(index / H),
        head: index % H,
        profile: mean(a.profile, a.profileCount),
        profileLow: quantiles(biases, 0.1),
        profileHigh: quantiles(biases, 0.9),
        offsetWeights: mean(a.offsetWeights, a.profileCount),
        offsetUniform: mean(a.offsetUniform, a.profileCount),
        left: a.left / a.queries,
        self: a.self / a.queries,
        right: a.right / a.queries,
        near: a.near / a.queries,
        nearUniform: a.nearUniform / a.queries,
        byPos,
        verdicts: byPos ? headVerdicts(a.tallies, { causal }) : null,
      };
    });
    return { step: this.model.steps, maxDistance: k, causal, heads };
  }

  /** Words of a typed sentence as ids (unknown words are <unk>), at most SEQ_LEN of them. */
  idsOf(words) {
    const index = new Map(this.words.map((word, i) => [word, i]));
    // The copy task's vocabulary is symbols (s0, s1, …): each new word is read as the next symbol
    // in turn, a repeated word as its symbol again. Other tasks read an unknown word as <unk>.
    let next = 0;
    return Int32Array.from(words.slice(0, SEQ_LEN), (word) => {
      const key = word.toLowerCase();
      if (!index.has(key) && this.task === 'copy') index.set(key, next++ % this.words.length);
      return index.get(key) ?? UNK_ID;
    });
  }

  /** rp.attention()'s panels of one head on a typed sentence, with the words the model saw. */
  attentionOn(words, { layer, head }) {
    const ids = this.idsOf(words);
    const vocabulary = this.words;
    return { ...this.model.attention(ids, { layer, head }), seen: Array.from(ids, (id) => vocabulary[id]) };
  }

  /** The model as a plain object (JSON-able): what it is, and every parameter. */
  exportModel() {
    const parameters = {};
    for (const [name, { shape, data }] of Object.entries(this.model.parameters()))
      parameters[name] = { shape, data: Array.from(data) };
    return {
      format: MODEL_FORMAT,
      version: 1,
      task: this.task,
      preset: this.preset,
      seed: this.seed,
      steps: this.model.steps,
      config: { ...this.model.config },
      parameters,
    };
  }

  dispose() {
    this.model.dispose();
  }
}

/**
 * Loss and accuracy of a batch from its parts' ([model.evaluate(part), part], in order): each
 * part's means weighted by its count of targets (target ≥ 0), added in order.
 */
function combineEvaluations(done) {
  let loss = 0;
  let correct = 0;
  let counted = 0;
  for (const [result, part] of done) {
    let count = 0;
    for (const target of part.targets) if (target >= 0) count += 1;
    loss += result.loss * count;
    correct += result.accuracy * count;
    counted += count;
  }
  return counted ? { loss: loss / counted, accuracy: correct / counted } : { loss: 0, accuracy: 0 };
}

/**
 * Every head's combined weights and position biases (n × n each, in headInputs' order) by the
 * core's attention, one call per layer with its heads side by side, in float64 on the heads'
 * inputs (model.headInputs): score = (q_i·k_j + q_i·aᴷ[clip(j − i, −k, k) + k]) / √d_k, keys
 * after the query masked when causal, row softmax (docs/maths.md); the biases unmasked.
 */
export function layerAttention(rp, inputs, heads, scratch = null) {
  const out = [];
  for (let first = 0; first < inputs.length; first += heads) {
    const layer = inputs.slice(first, first + heads);
    // With `scratch` (a Map kept by the caller), each layer's side-by-side inputs and results are
    // written into the arrays of the call before (the same shapes): a new array costs far more in
    // Chromium than in Node (docs/performance.md), and a reading makes hundreds of these calls.
    const n = layer[0].q.rows;
    let kept = scratch?.get(first);
    if (kept?.n !== n) kept = { n, inputs: {}, result: undefined };
    const sideBySide = (name) => {
      const { rows, cols } = layer[0][name];
      const data = kept.inputs[name] ?? new Float64Array(rows * cols * heads);
      layer.forEach((head, h) => {
        for (let r = 0; r < rows; r += 1) {
          for (let c = 0; c < cols; c += 1) data[r * cols * heads + h * cols + c] = head[name].data[r * cols + c];
        }
      });
      kept.inputs[name] = data;
      return { rows, cols: cols * heads, data };
    };
    const r = rp.attention(
      { q: sideBySide('q'), k: sideBySide('k'), relKeys: sideBySide('relKeys'), causal: layer[0].causal, heads },
      { outputs: ['combinedWeights', 'positionBiases'], ...(kept.result ? { out: kept.result } : {}) },
    );
    kept.result = r;
    scratch?.set(first, kept);
    const size = n ** 2;
    for (let h = 0; h < heads; h += 1) {
      out.push({
        weights: r.combinedWeights.data.subarray(h * size, (h + 1) * size),
        bias: r.positionBiases.data.subarray(h * size, (h + 1) * size),
      });
    }
  }
  return out;
}

/**
 * A session from an exported model (exportModel, or a .npz's parts): checks everything before
 * making anything, and throws an Error whose message says what is wrong (the caller keeps its
 * current session then). `shards`: how the session's steps are taken (TrainSession's option).
 */
export function sessionFromExport(rp, corpus, data, { shards = 1 } = {}) {
  const fail = (what) => {
    throw new Error(`This is not a model saved by this page: ${what}.`);
  };
  if (data === null || typeof data !== 'object' || Array.isArray(data)) fail('expected a JSON object');
  if (data.format !== MODEL_FORMAT) fail(`"format" must be "${MODEL_FORMAT}"`);
  if (data.version !== 1) fail(`version ${JSON.stringify(data.version)} is not one this page reads (1)`);
  // Names are looked up as own properties only: "toString" or "__proto__" is no task.
  if (typeof data.task !== 'string' || !Object.hasOwn(TASKS, data.task))
    fail(`unknown task ${JSON.stringify(data.task)}`);
  if (typeof data.preset !== 'string' || !Object.hasOwn(PRESETS, data.preset))
    fail(`unknown model size ${JSON.stringify(data.preset)}`);
  if (!Number.isInteger(data.seed) || data.seed < 0 || data.seed > MAX_SEED)
    fail(`"seed" must be an integer from 0 to ${MAX_SEED}, got ${JSON.stringify(data.seed)}`);
  if (data.steps !== undefined && (!Number.isInteger(data.steps) || data.steps < 0 || data.steps > MAX_STEPS))
    fail(`"steps" must be an integer from 0 to ${MAX_STEPS}, got ${JSON.stringify(data.steps)}`);
  const session = new TrainSession(rp, corpus, { task: data.task, preset: data.preset, seed: data.seed, shards });
  try {
    const expected = session.model.parameters();
    const { parameters } = data;
    if (!parameters || typeof parameters !== 'object' || Array.isArray(parameters)) fail('"parameters" is missing');
    // Every name the file gives must be one the model has (own properties only, "__proto__" too),
    // before any parameter's numbers are read.
    const extra = Object.keys(parameters).filter((name) => !Object.hasOwn(expected, name));
    if (extra.length) fail(`unknown parameter ${JSON.stringify(extra[0])}`);
    const values = {};
    for (const [name, { shape }] of Object.entries(expected)) {
      const given = Object.hasOwn(parameters, name) ? parameters[name] : undefined;
      if (!given || typeof given !== 'object') fail(`parameter "${name}" is missing`);
      if (!Array.isArray(given.shape) || given.shape.join(',') !== shape.join(','))
        fail(`parameter "${name}" has shape [${String(given.shape).slice(0, 80)}], expected [${shape}]`);
      const size = shape.reduce((a, b) => a * b, 1);
      const numbers = given.data; // read once (a .npz parameter parses its bytes on this read)
      if (!(Array.isArray(numbers) || ArrayBuffer.isView(numbers)) || numbers.length !== size)
        fail(`parameter "${name}" must hold ${size} numbers`);
      const array = numberArray(numbers, Float32Array, (i, what) =>
        fail(`parameter "${name}"[${i}] is ${what}, not a number`),
      );
      for (let i = 0; i < size; i += 1)
        if (!Number.isFinite(array[i])) fail(`parameter "${name}"[${i}] is not a finite number`);
      values[name] = array;
    }
    session.model.setParameters(values);
    session.loadedSteps = data.steps ?? 0;
    return session;
  } catch (error) {
    session.dispose();
    throw error;
  }
}
