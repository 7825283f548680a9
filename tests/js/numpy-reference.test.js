// The WASM module against numpy: fixtures written by tests/fixtures/make_fixtures.py, an
// implementation that shares nothing with cpp/ (the seed's per-pair loops, numpy's own stream).
import { beforeAll, describe, expect, test } from 'vitest';
import { createRelPos } from 'relpos-wasm';
import { loadFixture, relativeError, toMatrix, ulpDistance } from './helpers.js';

const PANELS = ['contentScores', 'positionBiases', 'combinedScores', 'contentWeights', 'combinedWeights'];

let rp;
beforeAll(async () => {
  rp = await createRelPos();
});

describe('randn reproduces np.random.seed(s); np.random.randn(count)', () => {
  for (const { seed, count, values } of loadFixture('randn.json').cases) {
    test(`seed ${seed}, ${count} values`, () => {
      const got = rp.randn(seed, count);
      expect(got).toBeInstanceOf(Float64Array);
      expect(got.length).toBe(count);
      const worst = Math.max(...values.map((want, i) => ulpDistance(got[i], want)));
      expect(worst).toBeLessThanOrEqual(2);
    });
  }

  test('count 0 gives an empty array', () => {
    expect(rp.randn(1, 0)).toEqual(new Float64Array(0));
  });
});

describe('localityProfile matches the seed code (docs/maths.md §7)', () => {
  for (const { params, expected } of loadFixture('locality_profile.json').cases) {
    test(JSON.stringify(params), () => {
      const got = rp.localityProfile(params);
      expect(Array.from(got.offsets)).toEqual(expected.offsets);
      expect(got.embeddings.rows).toBe(expected.embeddings.rows);
      expect(got.embeddings.cols).toBe(expected.embeddings.cols);
      expect(relativeError(got.embeddings.data, expected.embeddings.data)).toBeLessThanOrEqual(1e-15);
      expect(Array.from(got.query)).toEqual(expected.query);
      got.profile.forEach((value, i) => expect(Math.abs(value - expected.profile[i])).toBeLessThanOrEqual(1e-12));
    });
  }

  test('the defaults are the handbook figure', () => {
    const [handbook] = loadFixture('locality_profile.json').cases;
    expect(handbook.params).toEqual({});
    const got = rp.localityProfile().profile;
    got.forEach((value, i) => expect(Math.abs(value - handbook.expected.profile[i])).toBeLessThanOrEqual(1e-12));
  });
});

describe('attention matches an independent numpy implementation', () => {
  for (const { name, inputs, causal, expected } of loadFixture('attention.json').cases) {
    for (const [ArrayType, tolerance] of [
      [Float64Array, 1e-10],
      [Float32Array, 2e-4],
    ]) {
      test(`${name}, ${ArrayType.name}`, () => {
        const given = Object.fromEntries(Object.entries(inputs).map(([key, m]) => [key, toMatrix(m, ArrayType)]));
        const got = rp.attention({ ...given, causal });
        expect(got.maxDistance).toBe(expected.maxDistance);
        for (const panel of PANELS) {
          expect(got[panel].rows).toBe(expected[panel].rows);
          expect(got[panel].cols).toBe(expected[panel].cols);
          expect(got[panel].data).toBeInstanceOf(ArrayType);
          expect(relativeError(got[panel].data, expected[panel].data), panel).toBeLessThanOrEqual(tolerance);
        }
        if (expected.output === null) {
          expect(got.output).toBeUndefined();
        } else {
          expect(got.output.data).toBeInstanceOf(ArrayType);
          expect([got.output.rows, got.output.cols]).toEqual([expected.output.rows, expected.output.cols]);
          expect(relativeError(got.output.data, expected.output.data)).toBeLessThanOrEqual(tolerance);
        }
      });
    }
  }

  test('causal weights are exactly zero above the diagonal', () => {
    const { inputs } = loadFixture('attention.json').cases.find((c) => c.causal);
    const got = rp.attention({
      ...Object.fromEntries(Object.entries(inputs).map(([k, m]) => [k, toMatrix(m)])),
      causal: true,
    });
    const { rows: n, data } = got.combinedWeights;
    for (let i = 0; i < n; i += 1) for (let j = i + 1; j < n; j += 1) expect(data[i * n + j]).toBe(0);
  });
});

describe('example() builds the documented scenario', () => {
  for (const { params, weights, inputs, expected } of loadFixture('example.json').cases) {
    test(JSON.stringify(params), () => {
      const got = rp.example(params);
      for (const [name, want] of Object.entries(weights)) {
        expect(relativeError(got.weights[name].data, want.data), name).toBeLessThanOrEqual(1e-15);
      }
      for (const [name, want] of Object.entries(inputs)) {
        expect([got.inputs[name].rows, got.inputs[name].cols]).toEqual([want.rows, want.cols]);
        expect(relativeError(got.inputs[name].data, want.data), name).toBeLessThanOrEqual(1e-13);
      }
      for (const panel of [...PANELS, 'output']) {
        expect(relativeError(got[panel].data, expected[panel].data), panel).toBeLessThanOrEqual(1e-10);
      }
    });
  }

  test('the defaults are six positions, d_model 8, d_k 4, k 3, seed 42', () => {
    const got = rp.example();
    expect(got.params).toEqual({
      seed: 42,
      seqLen: 6,
      dModel: 8,
      dK: 4,
      maxDistance: 3,
      causal: false,
      draw: 'handbook',
      tokens: undefined,
      table: 'random',
      locality: { noise: 0.1, width: 1, asymmetry: 0, strength: 1 },
      sameQuery: false,
    });
    expect(got.contentScores.rows).toBe(6);
    expect(got.maxDistance).toBe(3);
  });

  test('its inputs go straight back into attention()', () => {
    const ex = rp.example({ seed: 3 });
    const again = rp.attention(ex.inputs);
    expect(again.combinedWeights.data).toEqual(ex.combinedWeights.data);
  });
});

describe('relativeOffsets', () => {
  test('is clip(j - i, -k, k) for every cell', () => {
    for (const [n, k] of [
      [1, 0],
      [6, 2],
      [9, 3],
      [5, 10],
      [4, 0],
    ]) {
      const got = rp.relativeOffsets(n, k);
      expect(got.data).toBeInstanceOf(Int32Array);
      for (let i = 0; i < n; i += 1) {
        for (let j = 0; j < n; j += 1) {
          expect(got.data[i * n + j]).toBe(Math.min(Math.max(j - i, -k), k) | 0);
        }
      }
    }
  });
});
