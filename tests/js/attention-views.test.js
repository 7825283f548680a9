// attention(inputs, { views: true }) and example({ views: true }): the panels are views of the
// instance's WASM memory, equal to the copies bit for bit; the next call on the instance (any
// call) and dispose() detach them, so a stale view reads as empty and never as the next call's
// numbers, which land at the same addresses.
import { beforeAll, describe, expect, test } from 'vitest';
import { OUTPUT_NAMES, createRelPos } from 'relpos-wasm';

const random = (rp, seed, rows, cols, ArrayType) => ({ rows, cols, data: ArrayType.from(rp.randn(seed, rows * cols)) });
const problem = (rp, { n, d = 16, k, ArrayType = Float32Array, seed = 1 }) => ({
  q: random(rp, seed, n, d, ArrayType),
  k: random(rp, seed + 1, n, d, ArrayType),
  v: random(rp, seed + 2, n, 8, ArrayType),
  relKeys: random(rp, seed + 3, 2 * k + 1, d, ArrayType),
  relValues: random(rp, seed + 4, 2 * k + 1, 8, ArrayType),
});

// A detached typed array: no elements, no bytes, reads give undefined, and copying it throws.
function expectDetached(data) {
  expect(data.length).toBe(0);
  expect(data.byteLength).toBe(0);
  expect(data[0]).toBeUndefined();
  expect(() => Array.from(data)).toThrow(TypeError);
  expect(() => data.slice()).toThrow(TypeError);
  expect(() => new Float64Array(data)).toThrow(TypeError);
}

let rp;
beforeAll(async () => {
  rp = await createRelPos();
});

describe('attention views', () => {
  test('views equal the copies bit for bit and live in WASM memory (f32, f64, chosen outputs)', () => {
    for (const ArrayType of [Float32Array, Float64Array]) {
      const inputs = problem(rp, { n: 37, k: 3, ArrayType });
      for (const outputs of [undefined, ['output'], ['contentWeights', 'combinedScores']]) {
        const copies = rp.attention(inputs, outputs && { outputs });
        const views = rp.attention(inputs, { views: true, ...(outputs && { outputs }) });
        expect(Object.keys(views).sort()).toEqual(Object.keys(copies).sort());
        const wasmBytes = rp.memory().wasmBytes; // a call that reads no memory: the views stay
        for (const name of outputs ?? OUTPUT_NAMES) {
          const view = views[name].data;
          expect(view).toBeInstanceOf(ArrayType);
          expect(view.buffer.byteLength).toBe(wasmBytes); // the whole memory, not a copy
          expect([views[name].rows, views[name].cols]).toEqual([copies[name].rows, copies[name].cols]);
          expect(view).toEqual(copies[name].data);
        }
      }
    }
  });

  test('the next call detaches the views: a stale one reads as empty, not as the new numbers at its address', () => {
    const firstInputs = problem(rp, { n: 40, k: 4, seed: 10 });
    const secondInputs = problem(rp, { n: 40, k: 4, seed: 20 });
    const secondCopy = rp.attention(secondInputs).output.data;
    const first = rp.attention(firstInputs, { views: true });
    const stale = first.output.data;
    const offset = stale.byteOffset;
    const before = Float32Array.from(stale);
    const second = rp.attention(secondInputs, { views: true });
    // The second call's output sits where the first one's did: without detaching, `stale` would
    // now silently read the second call's numbers.
    expect(second.output.data.byteOffset).toBe(offset);
    expect(second.output.data).toEqual(secondCopy);
    expect(secondCopy).not.toEqual(before);
    for (const name of OUTPUT_NAMES) expectDetached(first[name].data);
  });

  test('every kind of later call detaches them, and dispose() does; calls after a detach are correct', async () => {
    const own = await createRelPos();
    const inputs = problem(own, { n: 24, k: 2, ArrayType: Float64Array });
    const want = own.attention(inputs);
    const later = [
      () => own.randn(7, 5),
      () => own.relativeOffsets(6, 2),
      () => own.example({ seqLen: 5, outputs: [] }),
      () => own.attention(inputs, { outputs: ['contentScores'] }),
    ];
    for (const call of later) {
      const views = own.attention(inputs, { views: true });
      expect(views.combinedWeights.data).toEqual(want.combinedWeights.data);
      call();
      expectDetached(views.combinedWeights.data);
    }
    // The module's own views were renewed: the next calls read and write memory correctly.
    expect(own.randn(3, 4)).toEqual(rp.randn(3, 4));
    expect(own.attention(inputs).output.data).toEqual(want.output.data);
    const model = own.createModel({ vocabSize: 8, dModel: 8, heads: 2, layers: 1, seqLen: 6, maxBatchSize: 2 });
    const twin = rp.createModel({ vocabSize: 8, dModel: 8, heads: 2, layers: 1, seqLen: 6, maxBatchSize: 2 });
    const batch = {
      tokens: Int32Array.of(1, 2, 3, 4, 5, 6),
      targets: Int32Array.of(2, 3, 4, 5, 6, 7),
      batchSize: 1,
      seqLen: 6,
    };
    own.attention(inputs, { views: true });
    expect(model.trainStep(batch).loss).toBe(twin.trainStep(batch).loss);
    model.dispose();
    twin.dispose();
    const last = own.attention(inputs, { views: true });
    own.dispose();
    expectDetached(last.output.data);
  });

  test('example({ views: true }): the panels are views, the draw is copied', () => {
    const copies = rp.example({ seqLen: 12, maxDistance: 3 });
    const views = rp.example({ seqLen: 12, maxDistance: 3, views: true });
    for (const name of OUTPUT_NAMES) expect(views[name].data).toEqual(copies[name].data);
    expect(views.inputs.q.data).toEqual(copies.inputs.q.data);
    rp.randn(1, 1);
    expectDetached(views.output.data);
    expect(views.inputs.q.data).toEqual(copies.inputs.q.data);
    expect(views.params).toEqual(copies.params);
  });

  test('bad views options are refused by name', () => {
    const inputs = problem(rp, { n: 8, k: 1 });
    expect(() => rp.attention(inputs, { views: 1 })).toThrow(/attention: views must be true or false, got 1/);
    const out = rp.allocateAttention(inputs);
    expect(() => rp.attention(inputs, { views: true, out })).toThrow(TypeError);
    expect(() => rp.attention(inputs, { views: true, out })).toThrow(/give views or out, not both/);
    expect(() => rp.example({ views: 'yes' })).toThrow(/example: views must be true or false/);
  });

  test('every scheme returns views through the one operator, equal to its copies bit for bit', () => {
    const inputs = problem(rp, { n: 8, k: 1 });
    const alibi = { q: inputs.q, k: inputs.k, v: inputs.v, position: { scheme: 'alibi', slope: 0.5 } };
    const copied = rp.attention(alibi);
    const viewed = rp.attention(alibi, { views: true });
    for (const name of Object.keys(copied).filter((key) => copied[key]?.data)) {
      expect(viewed[name].data.buffer, name).not.toBe(copied[name].data.buffer);
      expect(Array.from(viewed[name].data), name).toEqual(Array.from(copied[name].data));
    }
    rp.randn(1, 1); // the next call detaches them
    expect(viewed.combinedWeights.data.length).toBe(0);
  });
});
