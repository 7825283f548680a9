// example()'s two draws against numpy (tests/fixtures/make_fixtures.py, independent of cpp/), and
// the stable draw's promises: a change re-draws only what it concerns.
import { beforeAll, describe, expect, test } from 'vitest';
import { createRelPos } from 'relpos-wasm';
import { loadFixture, relativeError } from './helpers.js';

const PANELS = ['contentScores', 'positionBiases', 'combinedScores', 'contentWeights', 'combinedWeights', 'output'];
const SENTENCE = 'the cat sat on the mat'.split(' ');

let rp;
beforeAll(async () => {
  rp = await createRelPos();
});

const row = (m, i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols));
/** The top-left rows × cols block of an n × n matrix, row-major. */
const block = (m, size) =>
  Array.from({ length: size * size }, (_, index) => m.data[Math.floor(index / size) * m.cols + (index % size)]);

describe('the handbook draw is numpy’s stream, bit for bit', () => {
  for (const { params, weights, inputs } of loadFixture('example.json').cases) {
    test(JSON.stringify(params), () => {
      const got = rp.example({ ...params, draw: 'handbook' });
      for (const [name, want] of Object.entries(weights))
        expect(Array.from(got.weights[name].data), name).toEqual(want.data);
      for (const name of ['relKeys', 'relValues'])
        expect(Array.from(got.inputs[name].data), name).toEqual(inputs[name].data);
    });
  }

  test('draw defaults to the handbook for the API', () => {
    expect(rp.example().inputs.q.data).toEqual(rp.example({ draw: 'handbook' }).inputs.q.data);
  });

  test('with the locality table, a^K is the handbook’s simulated table and the profile its uniform query', () => {
    for (const { params, relKeys, profile } of loadFixture('example_stable.json').handbookLocality) {
      const got = rp.example(params);
      // (np.exp and the C library's exp may differ in the last bit.)
      expect(relativeError(got.inputs.relKeys.data, relKeys.data)).toBeLessThanOrEqual(1e-15);
      expect(relativeError(got.profile.values, profile)).toBeLessThanOrEqual(1e-15);
      // At strength 1 it is exactly the table of localityProfile() (the handbook's figure).
      if (!params.locality) {
        const handbook = rp.localityProfile({ seed: params.seed, dK: params.dK, maxDistance: params.maxDistance });
        expect(got.inputs.relKeys.data).toEqual(handbook.embeddings.data);
      }
    }
  });
});

describe('the stable draw against numpy', () => {
  for (const { params, weights, inputs, profile, expected } of loadFixture('example_stable.json').cases) {
    test(JSON.stringify(params), () => {
      const got = rp.example(params);
      for (const [name, want] of Object.entries(weights))
        expect(Array.from(got.weights[name].data), name).toEqual(want.data);
      for (const [name, want] of Object.entries(inputs)) {
        expect([got.inputs[name].rows, got.inputs[name].cols]).toEqual([want.rows, want.cols]);
        expect(relativeError(got.inputs[name].data, want.data), name).toBeLessThanOrEqual(1e-15);
      }
      expect(relativeError(got.profile.values, profile)).toBeLessThanOrEqual(1e-15);
      for (const panel of PANELS)
        expect(relativeError(got[panel].data, expected[panel].data), panel).toBeLessThanOrEqual(1e-10);
      expect(got.tokens).toEqual(params.tokens);
    });
  }
});

describe('the stable draw re-draws only what a change concerns', () => {
  const stable = (options) => rp.example({ draw: 'stable', tokens: SENTENCE, dK: 4, ...options });

  for (const [k1, k2] of [
    [2, 3],
    [3, 1],
    [0, 5],
    [1, 8],
  ]) {
    test(`k ${k1} → ${k2}: q, k, v, content scores unchanged; biases unchanged where |j − i| ≤ ${Math.min(k1, k2)}`, () => {
      for (const table of ['random', 'locality']) {
        const a = stable({ maxDistance: k1, table });
        const b = stable({ maxDistance: k2, table });
        for (const name of ['q', 'k', 'v']) expect(b.inputs[name].data).toEqual(a.inputs[name].data);
        expect(b.contentScores.data).toEqual(a.contentScores.data);
        expect(b.contentWeights.data).toEqual(a.contentWeights.data);
        const n = SENTENCE.length;
        let changedBeyond = 0;
        for (let i = 0; i < n; i += 1) {
          for (let j = 0; j < n; j += 1) {
            const index = i * n + j;
            if (Math.abs(j - i) <= Math.min(k1, k2)) {
              expect(b.positionBiases.data[index]).toBe(a.positionBiases.data[index]);
              expect(b.combinedScores.data[index]).toBe(a.combinedScores.data[index]);
            } else if (b.positionBiases.data[index] !== a.positionBiases.data[index]) changedBeyond += 1;
          }
        }
        expect(changedBeyond, 'the cells beyond min(k1, k2) read other rows').toBeGreaterThan(0);
        // The table rows themselves: offset o is the same row at any k that includes it.
        const small = Math.min(k1, k2);
        const [narrow, wide] = k1 < k2 ? [a, b] : [b, a];
        for (let o = -small; o <= small; o += 1) {
          expect(row(wide.inputs.relKeys, o + Math.max(k1, k2))).toEqual(row(narrow.inputs.relKeys, o + small));
        }
      }
    });
  }

  test('appending a word leaves the existing content scores unchanged', () => {
    const a = stable({ maxDistance: 2 });
    const b = rp.example({ draw: 'stable', tokens: [...SENTENCE, 'again'], dK: 4, maxDistance: 2 });
    expect(block(b.contentScores, SENTENCE.length)).toEqual(Array.from(a.contentScores.data));
    expect(block(b.positionBiases, SENTENCE.length)).toEqual(Array.from(a.positionBiases.data));
  });

  test('a repeated word has identical rows of X and of the content scores', () => {
    const got = stable({ maxDistance: 2 });
    expect(SENTENCE[0]).toBe(SENTENCE[4]);
    expect(row(got.weights.x, 4)).toEqual(row(got.weights.x, 0));
    expect(row(got.contentScores, 4)).toEqual(row(got.contentScores, 0));
    // …and the same column: as a key, "the" is matched the same wherever it stands.
    const n = SENTENCE.length;
    for (let i = 0; i < n; i += 1) expect(got.contentScores.data[i * n + 4]).toBe(got.contentScores.data[i * n]);
  });

  test('without tokens, position i is the word "#i", so a longer sequence keeps the shorter one', () => {
    const a = rp.example({ draw: 'stable', seqLen: 5 });
    const b = rp.example({ draw: 'stable', seqLen: 9 });
    expect(a.tokens).toEqual(['#0', '#1', '#2', '#3', '#4']);
    expect(block(b.contentScores, 5)).toEqual(Array.from(a.contentScores.data));
  });

  test('the seed changes everything; d_model and d_k draw other weights', () => {
    const a = stable({ seed: 1 });
    const b = stable({ seed: 2 });
    expect(row(a.weights.x, 0)).not.toEqual(row(b.weights.x, 0));
  });
});

describe('sameQuery: the position biases are a Toeplitz matrix equal to the profile', () => {
  for (const draw of ['stable', 'handbook']) {
    test(draw, () => {
      const k = 2;
      const got = rp.example({
        draw,
        tokens: SENTENCE,
        maxDistance: k,
        table: 'locality',
        sameQuery: true,
        locality: { strength: 6 },
      });
      const n = SENTENCE.length;
      for (let i = 0; i < n; i += 1) {
        for (let j = 0; j < n; j += 1) {
          const c = Math.min(k, Math.max(-k, j - i)) + k;
          expect(Math.abs(got.positionBiases.data[i * n + j] - got.profile.values[c])).toBeLessThanOrEqual(1e-15);
        }
      }
      expect(new Set(Array.from(got.inputs.q.data)).size).toBe(1);
    });
  }
});

test('the locality table gives the combined weights a diagonal band', () => {
  const words = 'the quick brown fox jumps over the lazy dog while the cat sat on the warm mat'.split(' ');
  const n = words.length;
  const got = rp.example({
    draw: 'stable',
    tokens: words,
    dK: 4,
    maxDistance: 4,
    table: 'locality',
    sameQuery: true,
    locality: { strength: 8 },
  });
  const near = (m) => {
    let mass = 0;
    for (let i = 0; i < n; i += 1)
      for (let j = Math.max(0, i - 1); j <= Math.min(n - 1, i + 1); j += 1) mass += m.data[i * n + j];
    return mass / n;
  };
  // The keys within one position of the query hold a multiple of their content-only share.
  expect(near(got.combinedWeights)).toBeGreaterThan(2 * near(got.contentWeights));
  // In most rows the heaviest key is at most one position away (content still decides some).
  let local = 0;
  for (let i = 0; i < n; i += 1) {
    const rowWeights = row(got.combinedWeights, i);
    if (Math.abs(rowWeights.indexOf(Math.max(...rowWeights)) - i) <= 1) local += 1;
  }
  expect(local / n).toBeGreaterThanOrEqual(0.8);
});

describe('the output split the tables figure shows', () => {
  test('Σ w·v is the output without aⱽ, and the two parts add up to the output', async () => {
    const { computeAttentionView, outputParts } = await import('../../web/views/view.js');
    const settings = {
      draw: 'stable',
      table: 'locality',
      sameQuery: false,
      seqLen: 7,
      dK: 4,
      maxDistance: 2,
      seed: 3,
      causal: true,
      tokens: 'a b c a d e f',
      strength: 8,
      noise: 0.1,
      width: 1,
      asymmetry: 0,
    };
    const view = computeAttentionView(rp, settings);
    const { q, k, v, relKeys } = view.result.inputs;
    const valuesOnly = rp.attention({ q, k, v, relKeys, causal: true }).output;
    for (let i = 0; i < 7; i += 1) {
      const parts = outputParts(view, i);
      for (let d = 0; d < 4; d += 1) {
        expect(Math.abs(parts.fromValues[d] - valuesOnly.data[i * 4 + d])).toBeLessThanOrEqual(1e-14);
        expect(Math.abs(parts.fromValues[d] + parts.fromPositions[d] - parts.output[d])).toBeLessThanOrEqual(1e-14);
      }
    }
  });
});
