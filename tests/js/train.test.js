// The training engine through the JS API (README "Training a model"): gradients of every
// parameter against central differences in float64, Adam by hand, repeatability, learning
// copy-offset with relative positions and not without, the views of a trained head, errors that
// leave the instance usable, and dispose() returning the heap.
import { beforeAll, describe, expect, test } from 'vitest';
import { createRelPos } from 'relpos-wasm';

let rp;
beforeAll(async () => {
  rp = await createRelPos();
});

const SMALL = {
  vocabSize: 7,
  dModel: 4,
  heads: 2,
  layers: 1,
  ffnWidth: 6,
  maxDistance: 2,
  seqLen: 5,
  maxBatchSize: 3,
  seed: 3,
  precision: 'float64',
};

function randomBatch(vocabSize, batchSize, seqLen, seed) {
  const b = rp.syntheticBatch({ task: 'copy-offset', offset: 0, vocabSize, seqLen, batchSize, seed });
  const targets = b.targets.map((t, r) => (r % 4 === 3 ? -1 : (t * 3 + r) % vocabSize));
  return { ...b, targets };
}

describe('gradients', () => {
  const CASES = [
    ['plain', {}, 3, 5],
    ['causal', { causal: true }, 2, 5],
    ['per-head tables', { perHeadTables: true }, 2, 5],
    ['k = 0', { maxDistance: 0 }, 2, 5],
    ['k >= seqLen, causal, per head', { maxDistance: 7, causal: true, perHeadTables: true }, 2, 5],
    ['two layers, chunked, short sequences', { layers: 2, maxBatchSize: 2 }, 5, 3],
  ];
  test.each(CASES)('every parameter against central differences: %s', (name, change, batchSize, seqLen) => {
    const model = rp.createModel({ ...SMALL, ...change });
    const batch = randomBatch(SMALL.vocabSize, batchSize, seqLen, 5);
    const { loss, gradients } = model.lossAndGradients(batch);
    expect(loss).toBeCloseTo(model.evaluate(batch).loss, 12);
    const params = model.parameters();
    const h = 1e-5;
    let checked = 0;
    for (const [pname, { data, shape }] of Object.entries(params)) {
      expect(gradients[pname]).toBeInstanceOf(Float64Array);
      expect(gradients[pname].length).toBe(shape.reduce((a, b) => a * b, 1));
      for (let i = 0; i < data.length; i += 1) {
        const saved = data[i];
        data[i] = saved + h;
        model.setParameters({ [pname]: data });
        const up = model.evaluate(batch).loss;
        data[i] = saved - h;
        model.setParameters({ [pname]: data });
        const down = model.evaluate(batch).loss;
        data[i] = saved;
        model.setParameters({ [pname]: data });
        const numeric = (up - down) / (2 * h);
        const error = Math.abs(numeric - gradients[pname][i]) / Math.max(1e-3, Math.abs(numeric));
        if (error > 1e-5)
          throw new Error(`${name}: ${pname}[${i}] analytic ${gradients[pname][i]}, numeric ${numeric}`);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(100);
    model.dispose();
  });
});

describe('training', () => {
  test('one Adam step matches a hand computation', () => {
    const model = rp.createModel(SMALL);
    const batch = randomBatch(7, 2, 5, 9);
    const before = model.parameters();
    const { gradients } = model.lossAndGradients(batch);
    const o = { learningRate: 0.01, beta1: 0.8, beta2: 0.99, epsilon: 1e-6, weightDecay: 0.1, maxGradNorm: 0 };
    model.trainStep(batch, o);
    expect(model.steps).toBe(1);
    const after = model.parameters();
    for (const name of Object.keys(before)) {
      const p = before[name].data;
      const g = gradients[name];
      for (let i = 0; i < p.length; i += 1) {
        // t = 1: m̂ = g, v̂ = g².
        const want =
          p[i] - o.learningRate * o.weightDecay * p[i] - (o.learningRate * g[i]) / (Math.abs(g[i]) + o.epsilon);
        expect(Math.abs(after[name].data[i] - want)).toBeLessThan(1e-12);
      }
    }
    model.dispose();
  });

  test('the same seed gives the same losses bit for bit', () => {
    const run = (seed) => {
      const model = rp.createModel({
        vocabSize: 16,
        dModel: 16,
        heads: 2,
        layers: 2,
        seqLen: 8,
        maxBatchSize: 3,
        seed,
      });
      const losses = [];
      for (let s = 0; s < 5; s += 1) {
        losses.push(
          model.trainStep(rp.syntheticBatch({ offset: 1, vocabSize: 16, seqLen: 8, batchSize: 4, seed: s }), {
            learningRate: 0.01,
          }).loss,
        );
      }
      model.dispose();
      return losses;
    };
    const first = run(1);
    expect(run(1)).toEqual(first);
    expect(run(2)).not.toEqual(first);
  });

  const trainCopyOffset = (maxDistance, offset) => {
    const config = { vocabSize: 16, dModel: 32, heads: 1, layers: 1, ffnWidth: 64, maxDistance, seqLen: 12, seed: 1 };
    const model = rp.createModel(config);
    for (let step = 0; step < 150; step += 1) {
      model.trainStep(rp.syntheticBatch({ offset, vocabSize: 16, seqLen: 12, batchSize: 32, seed: 1000 + step }), {
        learningRate: 0.01,
      });
    }
    const heldOut = rp.syntheticBatch({ offset, vocabSize: 16, seqLen: 12, batchSize: 64, seed: 7 });
    return { model, heldOut, ...model.evaluate(heldOut) };
  };

  test('copy-offset: solved with k >= |offset|, and the head attends to that offset', () => {
    const offset = 2;
    const { model, heldOut, accuracy } = trainCopyOffset(3, offset);
    expect(accuracy).toBeGreaterThanOrEqual(0.99);
    // Mean combined weight by offset j - i over several held-out sequences: peaks at `offset`.
    const n = 12;
    const byOffset = new Map();
    for (let s = 0; s < 8; s += 1) {
      const result = model.attention(heldOut.tokens.subarray(s * n, (s + 1) * n), { layer: 0, head: 0 });
      for (let i = 0; i < n; i += 1) {
        for (let j = 0; j < n; j += 1) {
          const entry = byOffset.get(j - i) ?? { sum: 0, count: 0 };
          entry.sum += result.combinedWeights.data[i * n + j];
          entry.count += 1;
          byOffset.set(j - i, entry);
        }
      }
    }
    const peak = [...byOffset].reduce((best, next) =>
      next[1].sum / next[1].count > best[1].sum / best[1].count ? next : best,
    );
    expect(peak[0]).toBe(offset);
    // The learned profile (mean query · a^K / sqrt(d_k)) peaks there too.
    const { offsets, profile } = model.positionProfile(heldOut, { layer: 0, head: 0 });
    expect(Array.from(offsets)).toEqual([-3, -2, -1, 0, 1, 2, 3]);
    expect(offsets[profile.indexOf(Math.max(...profile))]).toBe(offset);
    model.dispose();
  });

  test('copy-offset with k = 0 stays near chance: order is invisible', () => {
    const { model, accuracy } = trainCopyOffset(0, 2);
    expect(accuracy).toBeLessThan(0.3);
    model.dispose();
  });
});

describe('views of a head', () => {
  test('model.headInputs gives every head the inputs model.attention uses, from one pass', () => {
    const model = rp.createModel({ ...SMALL, perHeadTables: true, causal: true, layers: 2 });
    const tokens = Int32Array.from([1, 4, 2, 6, 0]);
    const all = model.headInputs(tokens);
    expect(all.map((h) => [h.layer, h.head])).toEqual([
      [0, 0],
      [0, 1],
      [1, 0],
      [1, 1],
    ]);
    for (const inputs of all) {
      const fromHead = model.attention(tokens, { layer: inputs.layer, head: inputs.head });
      const again = rp.attention({
        q: inputs.q,
        k: inputs.k,
        v: inputs.v,
        relKeys: inputs.relKeys,
        relValues: inputs.relValues,
        causal: inputs.causal,
      });
      expect(Array.from(again.combinedWeights.data)).toEqual(Array.from(fromHead.combinedWeights.data));
      expect(Array.from(again.output.data)).toEqual(Array.from(fromHead.output.data));
    }
    expect(() => model.headInputs([1, 2])).toThrow(TypeError);
    expect(() => model.headInputs(Int32Array.from([99]))).toThrow(/model.headInputs: tokens\[0\] is 99/);
    model.dispose();
  });

  test('model.headInputs with out writes into the arrays of an earlier result: the same numbers, no new arrays; a wrong out changes nothing', () => {
    const model = rp.createModel({ ...SMALL, perHeadTables: true, causal: true, layers: 2 });
    const first = Int32Array.from([1, 4, 2, 6, 0]);
    const second = Int32Array.from([3, 3, 5, 1, 2]);
    const out = model.headInputs(first);
    const arrays = out.map((h) => ['q', 'k', 'v', 'relKeys', 'relValues'].map((name) => h[name].data));
    const fresh = model.headInputs(second);
    const written = model.headInputs(second, { out });
    expect(written).not.toBe(out);
    written.forEach((h, index) => {
      expect([h.layer, h.head, h.causal]).toEqual([fresh[index].layer, fresh[index].head, fresh[index].causal]);
      ['q', 'k', 'v', 'relKeys', 'relValues'].forEach((name, m) => {
        expect(h[name].data).toBe(arrays[index][m]); // the caller's array, written
        expect([h[name].rows, h[name].cols]).toEqual([fresh[index][name].rows, fresh[index][name].cols]);
        expect(Array.from(h[name].data)).toEqual(Array.from(fresh[index][name].data));
      });
    });
    // A query row differs between the two sequences, so the arrays were rewritten.
    expect(Array.from(out[0].q.data)).not.toEqual(Array.from(model.headInputs(first)[0].q.data));
    const before = arrays.map((list) => list.map((a) => Array.from(a)));
    const unchanged = () => expect(arrays.map((list) => list.map((a) => Array.from(a)))).toEqual(before);
    // Refused before anything is written: a shorter sequence, a wrong type, too few entries, a bad option.
    expect(() => model.headInputs(Int32Array.from([1, 2, 3, 4]), { out })).toThrow(
      /model.headInputs: options.out\[0\].q.data must hold 8 numbers \(4 × 2\) for this sequence, got 10/,
    );
    const wrongType = out.map((h, index) => (index === 3 ? { ...h, v: { ...h.v, data: new Float32Array(10) } } : h));
    expect(() => model.headInputs(second, { out: wrongType })).toThrow(
      /options.out\[3\].v.data must be a Float64Array like this model's, got a Float32Array/,
    );
    expect(() => model.headInputs(second, { out: out.slice(1) })).toThrow(RangeError);
    expect(() => model.headInputs(second, { out: {} })).toThrow(
      /options.out must be an earlier result of headInputs\(\) \(an Array\)/,
    );
    expect(() => model.headInputs(second, { into: out })).toThrow(/unknown option "into"/);
    unchanged();
    model.dispose();
  });

  test("model.attention is rp.attention on the head's queries, keys, values and tables", () => {
    const model = rp.createModel({ ...SMALL, perHeadTables: true, causal: true, layers: 2 });
    const tokens = Int32Array.from([1, 4, 2, 6, 0]);
    const result = model.attention(tokens, { layer: 1, head: 1 });
    expect(result.layer).toBe(1);
    expect(result.head).toBe(1);
    expect(result.maxDistance).toBe(2);
    expect(result.combinedWeights.rows).toBe(5);
    expect(result.combinedWeights.data).toBeInstanceOf(Float64Array);
    expect(result.combinedWeights.data[1]).toBe(0); // causal: key 1 is after query 0
    const table = model.parameters()['layers.1.attention.relativeKeys'];
    expect(table.shape).toEqual([2, 5, 2]);
    const profile = model.positionProfile(tokens, { layer: 1, head: 1 });
    expect(profile.profile.length).toBe(5);
    // Without sequences: 32 random ones of seqLen (syntheticBatch, seed 0).
    const random = rp.syntheticBatch({
      task: 'copy-offset',
      offset: 0,
      vocabSize: SMALL.vocabSize,
      seqLen: SMALL.seqLen,
      batchSize: 32,
      seed: 0,
    });
    const byDefault = model.positionProfile({ layer: 1, head: 1 });
    expect(byDefault.profile).toEqual(model.positionProfile(random, { layer: 1, head: 1 }).profile);
    expect(byDefault.offsets).toEqual(Int32Array.from([-2, -1, 0, 1, 2]));
    expect(model.positionProfile().layer).toBe(0);
    model.dispose();
  });

  test('positionProfile is the mean over every position of q_i · aᴷ[c] / √d_k, q_i read by headInputs', () => {
    const model = rp.createModel({ ...SMALL, perHeadTables: true, layers: 2 });
    const batch = rp.syntheticBatch({
      task: 'copy-offset',
      offset: 0,
      vocabSize: SMALL.vocabSize,
      seqLen: SMALL.seqLen,
      batchSize: 3,
      seed: 4,
    });
    const n = SMALL.seqLen;
    const dk = SMALL.dModel / SMALL.heads;
    const rows = 2 * SMALL.maxDistance + 1;
    const expected = new Float64Array(rows);
    for (let s = 0; s < 3; s += 1) {
      const sequence = batch.tokens.subarray(s * n, (s + 1) * n);
      const { q, relKeys } = model.headInputs(sequence).find((h) => h.layer === 1 && h.head === 1);
      for (let i = 0; i < n; i += 1)
        for (let c = 0; c < rows; c += 1) {
          let dot = 0;
          for (let x = 0; x < dk; x += 1) dot += q.data[i * dk + x] * relKeys.data[c * dk + x];
          expected[c] += dot / (3 * n * Math.sqrt(dk));
        }
    }
    const { profile, offsets } = model.positionProfile(batch, { layer: 1, head: 1 });
    expect(Array.from(offsets)).toEqual(Array.from({ length: rows }, (_, c) => c - SMALL.maxDistance));
    for (let c = 0; c < rows; c += 1) expect(profile[c]).toBeCloseTo(expected[c], 12);
    // One sequence is a batch of one.
    const one = batch.tokens.subarray(0, n);
    expect(model.positionProfile(one, { layer: 1, head: 1 }).profile).toEqual(
      model.positionProfile({ tokens: one, batchSize: 1, seqLen: n }, { layer: 1, head: 1 }).profile,
    );
    model.dispose();
  });

  test('parameters: documented names and shapes, copies, setParameters round trip', () => {
    const model = rp.createModel({
      vocabSize: 10,
      dModel: 8,
      heads: 2,
      layers: 1,
      ffnWidth: 12,
      maxDistance: 3,
      seqLen: 6,
    });
    const params = model.parameters();
    const shapes = Object.fromEntries(Object.entries(params).map(([name, p]) => [name, p.shape]));
    expect(shapes).toEqual({
      embedding: [10, 8],
      'layers.0.attention.query': [8, 8],
      'layers.0.attention.key': [8, 8],
      'layers.0.attention.value': [8, 8],
      'layers.0.attention.output': [8, 8],
      'layers.0.attention.relativeKeys': [7, 4],
      'layers.0.attention.relativeValues': [7, 4],
      'layers.0.norm1.gain': [8],
      'layers.0.norm1.bias': [8],
      'layers.0.ffn.weight1': [8, 12],
      'layers.0.ffn.bias1': [12],
      'layers.0.ffn.weight2': [12, 8],
      'layers.0.ffn.bias2': [8],
      'layers.0.norm2.gain': [8],
      'layers.0.norm2.bias': [8],
      'output.weight': [8, 10],
      'output.bias': [10],
    });
    expect(params.embedding.data).toBeInstanceOf(Float32Array);
    params.embedding.data.fill(0);
    expect(model.parameters().embedding.data.some((x) => x !== 0)).toBe(true); // a copy
    model.setParameters({ 'output.bias': new Float32Array(10).fill(0.5) });
    expect(Array.from(model.parameters()['output.bias'].data)).toEqual(Array(10).fill(0.5));
    expect(model.config).toMatchObject({
      ffnWidth: 12,
      maxBatchSize: 32,
      causal: false,
      precision: 'float32',
      seed: 0,
    });
    expect(Object.isFrozen(model.config)).toBe(true);
    model.dispose();
  });
});

describe('synthetic batches', () => {
  test('copy-offset and sum-offset targets', () => {
    const copy = rp.syntheticBatch({ task: 'copy-offset', offset: -2, vocabSize: 5, seqLen: 6, batchSize: 3, seed: 4 });
    const sum = rp.syntheticBatch({ task: 'sum-offset', offset: 1, vocabSize: 5, seqLen: 6, batchSize: 3, seed: 4 });
    expect(sum.tokens).toEqual(copy.tokens); // same seed, same tokens
    for (let b = 0; b < 3; b += 1) {
      for (let i = 0; i < 6; i += 1) {
        const t = (j) => copy.tokens[b * 6 + j];
        expect(copy.targets[b * 6 + i]).toBe(i - 2 >= 0 ? t(i - 2) : -1);
        expect(sum.targets[b * 6 + i]).toBe(i + 1 < 6 ? (t(i) + t(i + 1)) % 5 : -1);
      }
    }
    expect(Math.max(...copy.tokens)).toBeLessThan(5);
    expect(Math.min(...copy.tokens)).toBeGreaterThanOrEqual(0);
  });
});

describe('errors and memory', () => {
  const model = () => rp.createModel({ vocabSize: 8, dModel: 8, heads: 2, seqLen: 4, maxBatchSize: 2 });
  const batch = () => ({ tokens: new Int32Array(8), targets: new Int32Array(8).fill(1), batchSize: 2, seqLen: 4 });
  const CASES = [
    ['no vocabSize', () => rp.createModel({}), TypeError, /^createModel: config\.vocabSize is required$/],
    [
      'unknown option',
      () => rp.createModel({ vocabSize: 4, width: 3 }),
      TypeError,
      /^createModel: unknown option "width"/,
    ],
    [
      'heads not dividing dModel',
      () => rp.createModel({ vocabSize: 4, dModel: 10, heads: 3 }),
      RangeError,
      /^createModel: dModel \(10\) must be a multiple of heads \(3\)$/,
    ],
    [
      '5 layers',
      () => rp.createModel({ vocabSize: 4, layers: 5 }),
      RangeError,
      /^createModel: layers must be an integer from 1 to 4, got 5$/,
    ],
    [
      'bad precision',
      () => rp.createModel({ vocabSize: 4, precision: 'float16' }),
      RangeError,
      /^createModel: precision must be 'float32' or 'float64', got "float16"$/,
    ],
    [
      'too large',
      () => rp.createModel({ vocabSize: 2 ** 20, dModel: 4096, heads: 1 }),
      RangeError,
      /^createModel: this configuration needs .* the limit is 1\.00 GiB per call$/,
    ],
    ['negative k', () => rp.createModel({ vocabSize: 4, maxDistance: -1 }), RangeError, /^createModel: maxDistance/],
    [
      'token id >= vocabSize',
      (m) => m.trainStep({ ...batch(), tokens: Int32Array.from([0, 1, 2, 8, 0, 0, 0, 0]) }),
      RangeError,
      /^model\.trainStep: batch\.tokens\[3\] is 8; ids must be from 0 to 7$/,
    ],
    [
      'target -2',
      (m) => m.evaluate({ ...batch(), targets: new Int32Array(8).fill(-2) }),
      RangeError,
      /^model\.evaluate: batch\.targets\[0\] is -2; ids must be from -1 to 7$/,
    ],
    [
      'wrong length',
      (m) => m.lossAndGradients({ ...batch(), tokens: new Int32Array(7) }),
      RangeError,
      /^model\.lossAndGradients: batch\.tokens must hold batchSize × seqLen = 2 × 4 = 8 ids, got 7$/,
    ],
    [
      'seqLen beyond config',
      (m) => m.trainStep({ ...batch(), seqLen: 8, batchSize: 1 }),
      RangeError,
      /^model\.trainStep: batch\.seqLen must be an integer from 1 to 4, got 8$/,
    ],
    [
      'tokens as an Array',
      (m) => m.trainStep({ ...batch(), tokens: [0, 0, 0, 0, 0, 0, 0, 0] }),
      TypeError,
      /^model\.trainStep: batch\.tokens must be an Int32Array, got an Array$/,
    ],
    [
      'NaN learning rate',
      (m) => m.trainStep(batch(), { learningRate: NaN }),
      RangeError,
      /^model\.trainStep: learningRate must be a finite number ≥ 0 and ≤ 1000000, got NaN$/,
    ],
    [
      'unknown Adam option',
      (m) => m.trainStep(batch(), { lr: 0.1 }),
      TypeError,
      /^model\.trainStep: unknown option "lr"/,
    ],
    [
      'layer out of range',
      (m) => m.attention(new Int32Array(4), { layer: 1, head: 0 }),
      RangeError,
      /^model\.attention: layer must be an integer from 0 to 0, got 1$/,
    ],
    [
      'head out of range',
      (m) => m.positionProfile(new Int32Array(4), { layer: 0, head: 2 }),
      RangeError,
      /^model\.positionProfile: head must be an integer from 0 to 1, got 2$/,
    ],
    [
      'unknown parameter',
      (m) => m.setParameters({ embeddings: new Float32Array(64) }),
      TypeError,
      /^model\.setParameters: unknown parameter "embeddings"/,
    ],
    [
      'wrong parameter length',
      (m) => m.setParameters({ embedding: new Float32Array(3) }),
      RangeError,
      /^model\.setParameters: embedding must hold 64 numbers \(shape \[8, 8\]\), got 3$/,
    ],
    [
      'NaN parameter',
      (m) => m.setParameters({ 'output.bias': new Float32Array(8).fill(NaN) }),
      RangeError,
      /^model\.setParameters: output\.bias\[0\] is NaN/,
    ],
    [
      'unknown task',
      () => rp.syntheticBatch({ task: 'reverse' }),
      RangeError,
      /^syntheticBatch: task must be one of copy-offset, sum-offset, got "reverse"$/,
    ],
  ];
  test.each(CASES)('%s', (label, call, ErrorClass, pattern) => {
    const m = model();
    const before = m.parameters();
    expect(() => call(m)).toThrow(ErrorClass);
    expect(() => call(m)).toThrow(pattern);
    expect(m.parameters()).toEqual(before); // nothing changed
    expect(m.trainStep(batch()).loss).toBeGreaterThan(0); // and it still trains
    m.dispose();
  });

  test('a disposed model throws on every call; dispose returns the heap', () => {
    const config = { vocabSize: 500, dModel: 64, heads: 4, layers: 2, seqLen: 32, maxBatchSize: 8 };
    const b = rp.syntheticBatch({ vocabSize: 500, seqLen: 32, batchSize: 8 });
    const use = (m) => {
      m.trainStep(b);
      m.attention(b.tokens.subarray(0, 32), { layer: 1, head: 3 });
    };
    const warm = rp.createModel(config); // the instance's call arena reaches its size
    use(warm);
    warm.dispose();
    const settled = rp.memory().heapInUseBytes;
    const m = rp.createModel(config);
    use(m);
    expect(rp.memory().heapInUseBytes).toBeGreaterThan(settled + 2 ** 20);
    const steady = rp.memory().heapInUseBytes;
    for (let i = 0; i < 5; i += 1) m.trainStep(b);
    expect(rp.memory().heapInUseBytes).toBe(steady); // steps allocate nothing that stays
    m.dispose();
    expect(m.disposed).toBe(true);
    expect(rp.memory().heapInUseBytes).toBeLessThanOrEqual(settled);
    for (const call of [
      () => m.trainStep(b),
      () => m.parameters(),
      () => m.evaluate(b),
      () => m.attention(b.tokens.subarray(0, 4)),
    ]) {
      expect(call).toThrow(/^model\.\w+: this model has been disposed$/);
    }
    m.dispose(); // twice is fine
    expect(rp.randn(42, 1)[0]).toBeCloseTo(0.4967, 4); // the instance works on
  });
});
