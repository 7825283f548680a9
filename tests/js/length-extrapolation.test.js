// "Longer than trained" (web/train/length-extrapolation.js, docs/schemes.md §7) in Node on the real
// WASM module and the shipped corpus: every length predicts the same held-out words; the passages'
// weighed losses equal one evaluation over all of them; the word-frequency baseline and T5's last
// bucket recomputed by hand; what the caption says by construction (the learned absolute table's
// rows past L untouched by training) checked on a trained model; a small run recomputed, each
// passage's loss and the standard errors of the changes and of their differences by hand.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, test } from 'vitest';
import { UNK_ID, corpusName } from '../../web/train/corpus-format.js';
import { seededRandom } from '../../web/api/seeded-random.js';
import { nextWordBatch } from '../../web/train/batches.js';
import { formatSigned } from '../../web/render/number-text.js';
import {
  EXTRAPOLATION,
  evaluationLengths,
  extrapolationModel,
  changeDifference,
  heldOutLosses,
  heldOutPassages,
  lengthExtrapolation,
  lossChange,
  t5LastBucketFrom,
  unigramLoss,
  unigramTrainLoss,
  weighedSpread,
} from '../../web/train/length-extrapolation.js';
import {
  constructionText,
  longerCaption,
  longerLead,
  longerTableKey,
  longerTableRow,
} from '../../web/train/longer-than-trained.js';
import { moduleAndCorpus } from './helpers.js';

let rp;
let corpus;
const s = EXTRAPOLATION;
const V = s.words + 2;
beforeAll(async () => {
  ({ rp, corpus } = await moduleAndCorpus());
});

describe('the held-out words', () => {
  test('every length predicts the same words, in the same order, with the text before them', () => {
    const { lengths, batches, counts } = heldOutPassages(corpus, s, V);
    expect(lengths).toEqual([16, 32, 64, 128]);
    expect(batches.map((b) => b.length)).toEqual([s.passages, s.passages, s.passages, s.passages]);
    const longest = lengths.at(-1);
    for (const [i, n] of lengths.entries()) {
      for (const batch of batches[i]) {
        expect(batch.seqLen).toBe(n);
        expect(batch.batchSize * n).toBe(longest);
      }
      // The same targets as the one window of 8L: only the context in each window differs.
      for (let p = 0; p < s.passages; p += 1) expect(batches[i][p].targets).toEqual(batches[3][p].targets);
    }
    // A passage is the held-out text itself, at starts spread evenly: its tokens, and as targets
    // the next token (−1 for <unk>).
    const clamp = (id) => (id < V ? id : UNK_ID);
    for (const p of [0, 5, s.passages - 1]) {
      const start = Math.floor((p * (corpus.heldOut.length - longest - 1)) / (s.passages - 1));
      const text = Array.from(corpus.heldOut.subarray(start, start + longest + 1), clamp);
      expect(Array.from(batches[3][p].tokens)).toEqual(text.slice(0, -1));
      expect(Array.from(batches[3][p].targets)).toEqual(text.slice(1).map((id) => (id === UNK_ID ? -1 : id)));
      expect(counts[p]).toBe(text.slice(1).filter((id) => id !== UNK_ID).length);
    }
    expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThan(2000);
    // docs/schemes.md §7 states the set-up with these numbers.
    const doc = readFileSync(new URL('../../docs/schemes.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    const words = counts.reduce((a, b) => a + b, 0).toLocaleString('en-US');
    expect(doc).toContain(`${s.passages} passages of ${longest + 1} words`);
    expect(doc).toContain(`the same ${words} words (targets that are not \`<unk>\`)`);
    expect(doc).toContain(`every distance from ${t5LastBucketFrom(rp, s)} on shares the last bucket`);
  });

  test('the passages’ weighed losses equal one evaluation over all of them', () => {
    const held = heldOutPassages(corpus, s, V);
    const model = extrapolationModel(rp, 'shaw', s, V);
    const wide = rp.createModel({ ...model.config, maxBatchSize: s.passages });
    const all = held.batches[3];
    const longest = all[0].seqLen;
    const tokens = new Int32Array(all.length * longest);
    const targets = new Int32Array(all.length * longest);
    all.forEach((b, p) => {
      tokens.set(b.tokens, p * longest);
      targets.set(b.targets, p * longest);
    });
    const once = wide.evaluate({ tokens, targets, batchSize: all.length, seqLen: longest }).loss;
    expect(heldOutLosses(model, held)[3]).toBeCloseTo(once, 5);
    // An untrained model knows nothing: close to ln V at every length.
    for (const loss of heldOutLosses(model, held)) expect(Math.abs(loss - Math.log(V))).toBeLessThan(0.5);
    model.dispose();
    wide.dispose();
  });

  test('the word-frequency baseline: the held-out targets under the training text’s counts', () => {
    const held = heldOutPassages(corpus, s, V);
    const counts = new Map();
    let total = 0;
    for (const id of corpus.train) {
      if (id >= V || id === UNK_ID) continue;
      counts.set(id, (counts.get(id) ?? 0) + 1);
      total += 1;
    }
    let sum = 0;
    let n = 0;
    for (const batch of held.batches[0])
      for (const t of batch.targets) {
        if (t < 0) continue;
        sum -= Math.log(((counts.get(t) ?? 0) + 1) / (total + V));
        n += 1;
      }
    expect(unigramLoss(corpus, held, V)).toBeCloseTo(sum / n, 10);
    // On the training text itself: the entropy −Σ p ln p of its words' frequencies (what the
    // training section's unigram line draws), up to the add-one smoothing, and not the held-out
    // words' 4.76: the two baselines differ because the words scored differ.
    let entropy = 0;
    for (const c of counts.values()) entropy -= (c / total) * Math.log(c / total);
    expect(Math.abs(unigramTrainLoss(corpus, V) - entropy)).toBeLessThan(1e-3);
    expect(unigramTrainLoss(corpus, V).toFixed(2)).toBe('4.79');
    expect(unigramLoss(corpus, held, V).toFixed(2)).toBe('4.76');
  });
});

describe('what the caption says by construction', () => {
  test('T5’s last bucket starts where the one-way bucket formula puts it, before L', () => {
    // T5's one-way buckets (Raffel et al.'s code): exact below numBuckets/2, then logarithmic to maxDistance.
    const bucket = (d, buckets, maxDistance) => {
      const exact = buckets / 2;
      if (d < exact) return d;
      const log = exact + Math.floor((Math.log(d / exact) / Math.log(maxDistance / exact)) * (buckets - exact));
      return Math.min(log, buckets - 1);
    };
    let first = 0;
    while (bucket(first, s.numBuckets, s.length) < s.numBuckets - 1) first += 1;
    expect(t5LastBucketFrom(rp, s)).toBe(first);
    expect(first).toBeLessThan(s.length);
    expect(s.maxDistance).toBeLessThan(s.length);
    const text = constructionText(s, evaluationLengths(s.length), first);
    expect(text).toContain(`T5 buckets (${s.numBuckets} one-way buckets, the last from distance ${first} on)`);
    expect(text).toContain(`clipped at ±${s.maxDistance}`);
    expect(text).toContain(
      'RoPE (rotations for longer distances), Sinusoidal (later positions) and Learned absolute (rows of later positions, never trained) meet values training never showed (dashed lines);',
    );
    expect(text).toContain(
      'and ALiBi (a fixed penalty) give every offset up to 127 a value training used or one that needs none (solid); None reads no position (dotted).',
    );
    // No claim the run's numbers could contradict: what each meets, not how it fares.
    expect(text).not.toMatch(/cannot|extrapolate/);
    // With k ≥ L Shaw's rows past L are unseen, and the text says so.
    expect(constructionText({ ...s, maxDistance: 20 }, [16, 128], first)).toContain(
      'past the trained length 16: Shaw et al. (offsets clipped at ±20), RoPE (rotations for longer distances),',
    );
  });

  test('training moves none of the learned absolute table’s rows past L', () => {
    const model = extrapolationModel(rp, 'absolute', s, V);
    const before = model.parameters()['position.absolute'];
    const random = seededRandom(3);
    for (let step = 0; step < 5; step += 1) {
      const batch = nextWordBatch(corpus.train, { vocabSize: V, seqLen: s.length, batchSize: s.batchSize, random });
      model.trainStep(batch, { learningRate: s.learningRate, maxGradNorm: 1 });
    }
    const after = model.parameters()['position.absolute'];
    const d = s.dModel;
    expect(before.shape).toEqual([8 * s.length, d]);
    const rows = (data, from, to) => data.slice(from * d, to * d);
    expect(rows(after.data, s.length, 8 * s.length)).toEqual(rows(before.data, s.length, 8 * s.length));
    expect(rows(after.data, 0, s.length)).not.toEqual(rows(before.data, 0, s.length));
    model.dispose();
  });
});

describe('a small run', () => {
  test('the same result from the same seed, every scheme the same data; the caption states its numbers', () => {
    const small = { steps: 30, passages: 4 };
    const schemes = ['shaw', 'alibi', 'absolute'];
    const reported = [];
    const a = lengthExtrapolation(rp, corpus, schemes, small, (row, run) => reported.push([row, run]));
    const b = lengthExtrapolation(rp, corpus, schemes, small);
    expect(a.rows.map((r) => r.loss)).toEqual(b.rows.map((r) => r.loss));
    expect(a.corpus).toBe(corpusName(corpus.header));
    expect(a.corpus).toBe('English text derived from the World English Bible');
    // Each row reported as it is done, with the run's set-up (the result without its rows).
    const { rows, ...run } = a;
    expect(reported.map(([row]) => row)).toEqual(rows);
    for (const [, header] of reported) expect(header).toEqual(run);
    // The Shaw row recomputed by hand: the same windows (one generator seeded alike), the same model.
    const model = extrapolationModel(rp, 'shaw', { ...s, ...small }, V);
    const random = seededRandom(s.seed);
    for (let step = 0; step < small.steps; step += 1)
      model.trainStep(nextWordBatch(corpus.train, { vocabSize: V, seqLen: s.length, batchSize: s.batchSize, random }), {
        learningRate: s.learningRate,
        maxGradNorm: 1,
      });
    const held = heldOutPassages(corpus, { ...s, ...small }, V);
    expect(heldOutLosses(model, held)).toEqual(a.rows[0].loss);
    // Each passage's loss: the model's evaluation of that passage's windows alone.
    expect(a.passageWords).toEqual(held.counts);
    held.batches.forEach((passages, i) =>
      passages.forEach((batch, p) => expect(a.rows[0].passageLoss[i][p]).toBe(model.evaluate(batch).loss)),
    );
    model.dispose();
    // The standard error of a change, by hand: the passages' changes c_p weighed by their words
    // w_p, sqrt(n/(n − 1) · Σ w_p² (c_p − c̄)²) / Σ w_p.
    const w = a.passageWords;
    const W = w.reduce((x, y) => x + y, 0);
    const seOf = (values) => {
      const mean = values.reduce((sum, v, p) => sum + w[p] * v, 0) / W;
      let squares = 0;
      for (let p = 0; p < values.length; p += 1) squares += w[p] * w[p] * (values[p] - mean) ** 2;
      return Math.sqrt((values.length / (values.length - 1)) * squares) / W;
    };
    const changesOf = (r) => r.passageLoss[3].map((v, p) => v - r.passageLoss[0][p]);
    for (const r of a.rows) {
      const { change, se } = lossChange(r, w);
      expect(change).toBe(r.loss[3] - r.loss[0]);
      expect(se).toBeCloseTo(seOf(changesOf(r)), 12);
      expect(se).toBeGreaterThan(0);
    }
    const [shaw, alibi] = a.rows;
    const paired = changeDifference(shaw, alibi, w);
    const pa = changesOf(alibi);
    expect(paired.difference).toBeCloseTo(lossChange(shaw, w).change - lossChange(alibi, w).change, 12);
    expect(paired.se).toBeCloseTo(seOf(changesOf(shaw).map((v, p) => v - pa[p])), 12);
    // Equal weights: the textbook standard error of a mean, the sample standard deviation over √n.
    const values = [0.1, 0.4, -0.2, 0.3, 0.05];
    const mean = values.reduce((x, y) => x + y, 0) / values.length;
    const sd = Math.sqrt(values.reduce((x, v) => x + (v - mean) ** 2, 0) / (values.length - 1));
    expect(weighedSpread(values, [7, 7, 7, 7, 7]).se).toBeCloseTo(sd / Math.sqrt(values.length), 12);
    expect(weighedSpread(values, [7, 7, 7, 7, 7]).mean).toBeCloseTo(mean, 12);

    const text = longerCaption(a);
    expect(text).toContain(
      `trained 30 steps on windows of 16 words of ${a.corpus}, each step a batch of ${s.batchSize} windows, the same windows and seed for each;`,
    );
    expect(text).toContain(`(${small.passages} passages) in windows of 16, 32, 64 and 128`);
    expect(a.unigramTrain).toBe(unigramTrainLoss(corpus, V));
    expect(text).toContain(
      `knowing only the training text’s word frequencies gives ${a.unigram.toFixed(2)} on these held-out words (${a.unigramTrain.toFixed(2)} on the training text itself`,
    );
    const best = [...a.rows].sort((x, y) => x.loss[0] - y.loss[0])[0];
    expect(text).toContain(`losses run from ${best.loss[0].toFixed(2)}`);
    // Every change with ± twice its standard error, highest first.
    const said = (r) => {
      const twice = 2 * seOf(changesOf(r));
      return `${{ shaw: 'Shaw et al.', alibi: 'ALiBi', absolute: 'Learned absolute' }[r.scheme]} ${formatSigned(r.loss[3] - r.loss[0], 2)} ± ${twice.toFixed(twice < 0.005 ? 3 : 2)}`;
    };
    const ranked = [...a.rows].sort((x, y) => y.loss[3] - y.loss[0] - (x.loss[3] - x.loss[0]));
    expect(text).toContain(
      `over the ${small.passages} passages (how much the choice of held-out text moves it): ${said(ranked[0])}, ${said(ranked[1])} and ${said(ranked[2])}.`,
    );
    expect(text).not.toContain('..');
    // The lead names the changes of the run's rows: the lowest and the highest at least.
    const lead = longerLead(a);
    expect(lead).toMatch(/^From windows of 16 words, the length trained on, to 128, the held-out loss of /);
    for (const r of [ranked[0], ranked[2]]) {
      const change = r.loss[3] - r.loss[0];
      expect(lead).toContain(Math.abs(change) >= 0.005 ? Math.abs(change).toFixed(2) : formatSigned(change, 2));
    }
  });

  // The training engine keeps its loss finite even at its largest learning rate (10⁶: a loss of
  // about 5 × 10¹³, still a number), so a diverged model is forced here: a real run, one row's
  // losses made NaN as a model whose training broke down reports them.
  test('a model whose loss is NaN is said to have diverged, in the table, its key and the caption, and ranked nowhere', () => {
    const small = { steps: 30, passages: 4 };
    const run = lengthExtrapolation(rp, corpus, ['shaw', 'alibi', 'absolute'], small);
    const [shaw, alibi, absolute] = run.rows;
    const forced = { ...run, rows: [shaw, { ...alibi, loss: alibi.loss.map(() => NaN) }, absolute] };
    // The table: the diverged row's cells say so; the others keep their numbers (3 decimals; ppl exp(loss at 8L)).
    expect(longerTableRow(forced.rows[1])).toEqual([
      'ALiBi',
      'diverged',
      'diverged',
      'diverged',
      'diverged',
      'diverged',
    ]);
    const fixed = (v, d) => v.toFixed(d).replace('-', '−');
    expect(longerTableRow(shaw)).toEqual([
      'Shaw et al.',
      ...shaw.loss.map((v) => fixed(v, 3)),
      fixed(Math.exp(shaw.loss[3]), 0),
    ]);
    expect(longerTableKey(run.lengths, forced.rows)).toBe(
      'The table: held-out loss per word (nats) at each window length; ppl, the perplexity exp(loss) at 128. Diverged: the model’s training broke down, its held-out loss is NaN (not a number).',
    );
    expect(longerTableKey(run.lengths, run.rows)).not.toContain('iverged');
    const text = longerCaption(forced);
    expect(text).toContain(
      'ALiBi diverged: its training broke down and its held-out loss is NaN (not a number) at every length, so it is left out of the comparisons below.',
    );
    expect(longerLead(forced)).toMatch(/; ALiBi diverged \(no loss to compare\)\.$/);
    expect(longerLead(forced)).not.toMatch(/ALiBi[^;]*\d|\(ALiBi\)/);
    // Ranked only among the two with numbers: the range's ends are theirs.
    const [low, high] = [shaw, absolute].sort((x, y) => x.loss[0] - y.loss[0]);
    expect(text).toContain(
      `losses run from ${low.loss[0].toFixed(2)} (${low === shaw ? 'Shaw et al.' : 'Learned absolute'}) to ${high.loss[0].toFixed(2)}`,
    );
    // ALiBi is named in the sentence that says it diverged and in what it meets by construction, never with a number.
    const after = text.slice(text.indexOf('left out of the comparisons below.'));
    expect(after).not.toMatch(/ALiBi[^;.]*[−+]\d/);
    expect(text).not.toMatch(/NaN \(ALiBi\)|ALiBi [−+]|–/);
    expect(text).not.toMatch(/\bNaN\b(?! \(not a number\))/);
    // Two diverged, one past L only: each with its lengths; the one model left has its loss, not a range.
    const two = { ...run, rows: [shaw, forced.rows[1], { ...absolute, loss: [absolute.loss[0], NaN, NaN, NaN] }] };
    expect(longerCaption(two)).toContain(
      `ALiBi and Learned absolute diverged: their training broke down and their held-out loss is NaN (not a number) at every length (ALiBi) and at 32, 64 and 128 (Learned absolute), so they are left out of the comparisons below. At 16, the trained length, the loss is ${shaw.loss[0].toFixed(2)} (Shaw et al.) nats per word;`,
    );
    // Diverged past L only: the lengths are named.
    const late = { ...run, rows: [shaw, { ...alibi, loss: [alibi.loss[0], alibi.loss[1], NaN, NaN] }, absolute] };
    expect(longerCaption(late)).toContain(
      'ALiBi diverged: its training broke down and its held-out loss is NaN (not a number) at 64 and 128, so it is left out of the comparisons below.',
    );
  });
});
