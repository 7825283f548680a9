// Numerical edge cases through the API: results are finite wherever the maths is defined, and
// README "Edge cases" says what happens where it is not.
import { beforeAll, describe, expect, test } from 'vitest';
import { createRelPos } from 'relpos-wasm';

let rp;
beforeAll(async () => {
  rp = await createRelPos();
});

const filled = (rows, cols, value, ArrayType = Float32Array) => ({
  rows,
  cols,
  data: new ArrayType(rows * cols).fill(value),
});
const allFinite = (m) => m.data.every(Number.isFinite);
const rowSums = (m) =>
  Array.from({ length: m.rows }, (_, i) => m.data.slice(i * m.cols, (i + 1) * m.cols).reduce((a, b) => a + b, 0));

describe('edge cases', () => {
  test('scores beyond float32 (±1e40) overflow to ±inf; the weights take the softmax limit', () => {
    const q = filled(4, 2, 1e20);
    const k = filled(4, 2, 1e20);
    k.data.fill(-1e20, 2, 4); // key 1 points the other way
    const r = rp.attention({ q, k, relKeys: filled(3, 2, 0), v: filled(4, 2, 1), relValues: filled(3, 2, 0) });
    expect(r.contentScores.data[0]).toBe(Infinity); // 2e40 / √2 > 3.4e38
    expect(r.contentScores.data[1]).toBe(-Infinity);
    expect(Array.from(r.contentWeights.data.slice(0, 4))).toEqual([1 / 3, 0, 1 / 3, 1 / 3].map(Math.fround));
    for (const w of [r.contentWeights, r.combinedWeights]) {
      expect(allFinite(w)).toBe(true);
      for (const sum of rowSums(w)) expect(sum).toBeCloseTo(1, 6);
    }
    expect(allFinite(r.output)).toBe(true);
  });

  test('overflowed terms of opposite signs make a NaN score: that row NaN, the others as they would be', () => {
    const m = (rows, cols, values) => ({ rows, cols, data: new Float64Array(values) });
    const q = m(2, 2, [1e200, 1e200, 1, 1]);
    const k = m(2, 2, [1e200, -1e200, 1, 1]); // q0 · k0 = 1e400 − 1e400: inf − inf
    const r = rp.attention({ q, k, relKeys: m(3, 2, [0, 0, 0, 0, 0, 0]), v: m(2, 2, [1, 2, 3, 4]) });
    expect(Number.isNaN(r.contentScores.data[0])).toBe(true);
    expect(Array.from(r.combinedWeights.data.slice(0, 2)).every(Number.isNaN)).toBe(true);
    expect(Array.from(r.output.data.slice(0, 2)).every(Number.isNaN)).toBe(true);
    // Row 1: q1 · k0 = 0, q1 · k1 = 2, over √2: the softmax of (0, √2), the output its mix of v.
    const w = 1 / (1 + Math.exp(Math.SQRT2));
    expect(r.combinedWeights.data[2]).toBeCloseTo(w, 14);
    expect(r.output.data[2]).toBeCloseTo(w + (1 - w) * 3, 13); // w · 1 + (1 − w) · 3
  });

  test('n = 1, k = 0, d_k = 1: one token attends to itself', () => {
    const r = rp.attention({
      q: filled(1, 1, 3, Float64Array),
      k: filled(1, 1, -2, Float64Array),
      relKeys: filled(1, 1, 5, Float64Array),
      v: filled(1, 1, 7, Float64Array),
      relValues: filled(1, 1, 1, Float64Array),
    });
    expect(r.contentScores.data[0]).toBe(-6);
    expect(r.positionBiases.data[0]).toBe(15);
    expect(r.combinedWeights.data[0]).toBe(1);
    expect(r.output.data[0]).toBe(8);
  });

  test('k >= n: no offset is clipped; k = 0: every offset shares one embedding', () => {
    const wide = rp.relativeOffsets(5, 100);
    expect(Math.max(...wide.data)).toBe(4);
    const zero = rp.relativeOffsets(5, 0);
    expect(zero.data.every((x) => x === 0)).toBe(true);
  });

  test('causal: the first row attends only to itself, every row sums to 1', () => {
    const ex = rp.example({ seqLen: 9, causal: true });
    expect(ex.combinedWeights.data[0]).toBe(1);
    for (const sum of rowSums(ex.combinedWeights)) expect(sum).toBeCloseTo(1, 12);
  });

  test('peaked rows: weights far below the row maximum are 0, never subnormal, in both precisions', () => {
    for (const [ArrayType, smallestNormal, flush] of [
      [Float32Array, 2 ** -126, 2 ** -64],
      [Float64Array, 2 ** -1022, 2 ** -200],
    ]) {
      const scores = new ArrayType([0, -30, -50, -140, -800, -1e30, 0, 0]); // one row, as q · k
      const q = { rows: 1, cols: 1, data: new ArrayType([1]) };
      const k = { rows: 8, cols: 1, data: scores };
      const r = rp.attention({
        q: { ...q, rows: 8, data: new ArrayType(8).fill(1) },
        k,
        relKeys: { rows: 1, cols: 1, data: new ArrayType([0]) },
      });
      const row = Array.from(r.combinedWeights.data.slice(0, 8));
      const sum = 3 + Math.exp(-30) + Math.exp(-50) + Math.exp(-140);
      // exp(x - max) is kept down to 2^-64 (float) or 2^-200 (double) of exp(0) = 1, else 0.
      row.forEach((w, j) => {
        const exact = Math.exp(scores[j]) / sum;
        if (Math.exp(scores[j]) < flush) expect(w).toBe(0);
        else expect(Math.abs(w - exact)).toBeLessThanOrEqual(1e-6 * exact);
        expect(w === 0 || w >= smallestNormal).toBe(true);
      });
    }
  });

  test('denormal and huge finite inputs in float64 give finite results', () => {
    const q = filled(3, 2, 1e140, Float64Array);
    const k = filled(3, 2, -1e140, Float64Array);
    k.data[0] = 5e-324;
    const r = rp.attention({
      q,
      k,
      relKeys: filled(3, 2, 1e-310, Float64Array),
      v: filled(3, 2, 1, Float64Array),
      causal: true,
    });
    for (const m of [r.contentScores, r.positionBiases, r.contentWeights, r.combinedWeights, r.output])
      expect(allFinite(m)).toBe(true);
  });
});

describe('what the fuzzers found (regressions)', () => {
  test('relativeOffsets with k = 2^31 - 1 does not overflow in 32-bit WASM', () => {
    expect(Array.from(rp.relativeOffsets(3, 2 ** 31 - 1).data)).toEqual([0, 1, 2, -1, 0, 1, -2, -1, 0]);
  });

  test('a width that underflows sigma to 0 still peaks at 1/√d_k at offset 0', () => {
    const { profile } = rp.localityProfile({ width: 5e-324, asymmetry: 0.999999, noise: 0 });
    expect(profile.every(Number.isFinite)).toBe(true);
    expect(profile[5]).toBe(0.5);
  });
});
