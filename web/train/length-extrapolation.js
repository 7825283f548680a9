// "Longer than trained" (docs/schemes.md §7): the experiment of the ALiBi paper (Press, Smith &
// Lewis 2022, "Train Short, Test Long") at toy scale. One small causal model per position scheme
// learns next-word prediction on the training corpus at length L, each with the same batches,
// budget and seed; then each reads the same held-out text cut into windows of L, 2L, 4L and 8L
// words, and its loss per predicted word is measured. The words predicted are the same at every
// length: only how much text comes before them in their window changes. Plain JS on the API's
// training engine (createModel), so the page's worker, the bench and the tests run the same thing.
import { SCHEMES } from '../api/schemes.js';
import { seededRandom } from '../api/seeded-random.js';
import { evenStarts, nextWordBatch } from './batches.js';
import { UNK_ID, corpusName } from './corpus-format.js';

export const EXTRAPOLATION = Object.freeze({
  /** L: the training length, in words. */
  length: 16,
  steps: 600,
  batchSize: 16,
  learningRate: 0.003,
  seed: 1,
  /** The vocabulary: the corpus's most frequent words (plus <mask> and <unk>). */
  words: 500,
  dModel: 32,
  heads: 2,
  layers: 1,
  ffnWidth: 64,
  /** Shaw et al.'s clipping distance k. */
  maxDistance: 8,
  /** T5's one-way buckets (causal), with max distance L: the farthest share the last one (t5LastBucketFrom). */
  numBuckets: 16,
  /** Held-out passages of 8L + 1 words, spread evenly over the held-out text. */
  passages: 24,
});

/** The schemes compared: every position scheme of createModel (their names on the page: web/views/schemes-view.js). */
export const EXTRAPOLATION_SCHEMES = SCHEMES;

/** The evaluation lengths: L, 2L, 4L, 8L. */
export const evaluationLengths = (L) => [L, 2 * L, 4 * L, 8 * L];

/** The model of one scheme; seqLen 8L (the learned absolute table has a row for every position read). */
export function extrapolationModel(rp, scheme, s, vocabSize) {
  const longest = evaluationLengths(s.length).at(-1);
  return rp.createModel({
    vocabSize,
    dModel: s.dModel,
    heads: s.heads,
    layers: s.layers,
    ffnWidth: s.ffnWidth,
    maxDistance: s.maxDistance,
    seqLen: longest,
    maxBatchSize: Math.max(s.batchSize, longest / s.length),
    causal: true,
    seed: s.seed,
    position: { scheme, numBuckets: s.numBuckets, maxDistance: s.length },
  });
}

/** The first distance T5's one-way buckets put in their last bucket: every farther key shares it. */
export function t5LastBucketFrom(rp, s) {
  const reach = evaluationLengths(s.length).at(-1);
  const { data } = rp.t5Buckets(reach, { numBuckets: s.numBuckets, maxDistance: s.length, bidirectional: false });
  let d = reach - 1;
  while (d > 0 && data[(d - 1) * reach] === data[d * reach]) d -= 1; // column 0: offsets 0, −1, −2, …
  return d;
}

/**
 * The held-out text as batches: for each length n, each passage cut into 8L / n windows of n words
 * (one batch per passage), so every length predicts the same words. Also the number of words
 * predicted (targets that are not <unk>) in each passage, to weigh the passages' mean losses.
 */
export function heldOutPassages(corpus, s, vocabSize) {
  const lengths = evaluationLengths(s.length);
  const longest = lengths.at(-1);
  const starts = evenStarts(corpus.heldOut.length, longest, s.passages);
  const batches = lengths.map((n) =>
    Array.from(starts, (start) =>
      nextWordBatch(corpus.heldOut, {
        vocabSize,
        seqLen: n,
        batchSize: longest / n,
        starts: Int32Array.from({ length: longest / n }, (_, w) => start + w * n),
      }),
    ),
  );
  const counts = batches[0].map((b) => b.targets.reduce((c, t) => c + (t >= 0 ? 1 : 0), 0));
  return { lengths, batches, counts };
}

/** A model's mean loss per predicted word (nats) in each passage, at each length: [length][passage] (0 for a passage of no words). */
export const heldOutPassageLosses = (model, { batches, counts }) =>
  batches.map((passages) => passages.map((batch, p) => (counts[p] ? model.evaluate(batch).loss : 0)));

/** The passages' mean losses weighed by their words: the loss per predicted word over all of them. */
export const weighedMean = (passageLosses, counts) =>
  passageLosses.reduce((sum, loss, p) => sum + loss * counts[p], 0) / counts.reduce((a, b) => a + b, 0);

/** A model's loss per predicted word (nats) at each length: the passages' means weighed by their words. */
export const heldOutLosses = (model, heldOut) =>
  heldOutPassageLosses(model, heldOut).map((losses) => weighedMean(losses, heldOut.counts));

/**
 * The mean of per-passage values weighed by the passages' words, and its standard error: how much
 * the mean would move with other passages like these, sqrt(n/(n − 1) · Σ (w_p (v_p − mean))²) / Σ w_p
 * over the n passages with words (for equal weights, the values' standard deviation over √n).
 */
export function weighedSpread(values, counts) {
  const total = counts.reduce((a, b) => a + b, 0);
  const mean = weighedMean(values, counts);
  const n = counts.filter((c) => c > 0).length;
  const squares = values.reduce((sum, v, p) => sum + (counts[p] ? (counts[p] * (v - mean)) ** 2 : 0), 0);
  return { mean, se: n > 1 ? Math.sqrt((n / (n - 1)) * squares) / total : NaN };
}

/** A row's change of loss from the first length to the last in each passage. */
const passageChanges = (row) => row.passageLoss.at(-1).map((v, p) => v - row.passageLoss[0][p]);

/**
 * A model's change of held-out loss from L to 8L (its loss at 8L minus its loss at L) and the
 * standard error of that change over the held-out passages (`counts`: their words).
 */
export function lossChange(row, counts) {
  return { change: row.loss.at(-1) - row.loss[0], se: weighedSpread(passageChanges(row), counts).se };
}

/**
 * How much more model a's loss changed from L to 8L than model b's, and the standard error of that
 * difference over the passages, each passage's difference taken on the same words (paired).
 */
export function changeDifference(a, b, counts) {
  const pb = passageChanges(b);
  return {
    difference: lossChange(a, counts).change - lossChange(b, counts).change,
    se: weighedSpread(
      passageChanges(a).map((v, p) => v - pb[p]),
      counts,
    ).se,
  };
}

/**
 * What a model that knows only how often each word is scores: the cross-entropy of `ids` (a
 * sequence of word ids; <unk>, −1 and ids past the vocabulary skipped) under the training text's
 * word frequencies (add-one smoothed), in nats.
 */
function unigramCrossEntropy(corpus, vocabSize, ids) {
  const counts = new Float64Array(vocabSize).fill(1);
  let total = vocabSize;
  for (const id of corpus.train) {
    if (id >= vocabSize || id === UNK_ID) continue;
    counts[id] += 1;
    total += 1;
  }
  let sum = 0;
  let words = 0;
  for (const id of ids) {
    if (id < 0 || id >= vocabSize || id === UNK_ID) continue;
    sum -= Math.log(counts[id] / total);
    words += 1;
  }
  return sum / words;
}

/** The word-frequency model on the held-out words predicted here (the targets at length L). */
export const unigramLoss = (corpus, { batches }, vocabSize) =>
  unigramCrossEntropy(
    corpus,
    vocabSize,
    batches[0].flatMap((batch) => [...batch.targets]),
  );

/**
 * The same model on the training text itself: what the training section's "unigram entropy" line
 * measures (the entropy of those frequencies, unsmoothed); it differs from unigramLoss as the
 * held-out words differ from the training text's.
 */
export const unigramTrainLoss = (corpus, vocabSize) => unigramCrossEntropy(corpus, vocabSize, corpus.train);

/**
 * rp: a createRelPos() instance with the training engine; corpus: decodeCorpus()'s result;
 * schemes: ids of createModel's position schemes. onScheme(row, run) is called after each scheme,
 * run being the result without its rows (known before the first model is trained).
 * Returns { settings, corpus, vocabSize, lengths, words, passageWords, unigram, unigramTrain,
 * t5LastBucketFrom, rows: [{ scheme, loss: number[], passageLoss: number[][], trainLoss, seconds }] }
 * (corpus: its name; loss: one entry per length; passageLoss: per length, each passage's loss per
 * word; words: the held-out words predicted, the same at every length, passageWords: each
 * passage's; unigram, unigramTrain: unigramLoss and unigramTrainLoss).
 */
export function lengthExtrapolation(rp, corpus, schemes, settings = {}, onScheme = () => {}) {
  const s = { ...EXTRAPOLATION, ...settings };
  const vocabSize = Math.min(s.words, corpus.header.words.length - 2) + 2;
  const heldOut = heldOutPassages(corpus, s, vocabSize);
  const run = {
    settings: s,
    corpus: corpusName(corpus.header),
    vocabSize,
    lengths: heldOut.lengths,
    words: heldOut.counts.reduce((a, b) => a + b, 0),
    passageWords: heldOut.counts,
    t5LastBucketFrom: t5LastBucketFrom(rp, s),
    unigram: unigramLoss(corpus, heldOut, vocabSize),
    unigramTrain: unigramTrainLoss(corpus, vocabSize),
  };
  const rows = [];
  for (const scheme of schemes) {
    const started = performance.now();
    const model = extrapolationModel(rp, scheme, s, vocabSize);
    try {
      // The same stream of windows for every scheme: one generator, seeded alike.
      const random = seededRandom(s.seed);
      let recent = 0;
      const tail = Math.max(1, Math.floor(s.steps / 10));
      for (let step = 0; step < s.steps; step += 1) {
        const batch = nextWordBatch(corpus.train, { vocabSize, seqLen: s.length, batchSize: s.batchSize, random });
        const { loss } = model.trainStep(batch, { learningRate: s.learningRate, maxGradNorm: 1 });
        if (step >= s.steps - tail) recent += loss / tail;
      }
      const passageLoss = heldOutPassageLosses(model, heldOut);
      const row = {
        scheme,
        loss: passageLoss.map((losses) => weighedMean(losses, heldOut.counts)),
        passageLoss,
        trainLoss: recent,
        seconds: (performance.now() - started) / 1000,
      };
      rows.push(row);
      onScheme(row, run);
    } finally {
      model.dispose();
    }
  }
  return { ...run, rows };
}
