// The position schemes (docs/schemes.md) through the real WASM module, each against an independent
// JS reference written from the source papers' reference code (docs/schemes.md).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, test } from 'vitest';
import { createRelPos } from 'relpos-wasm';
import { SCHEME_INFO, T5_STAND_IN_TEXT, T5_VIEW, biasCaption, t5StandInBiases } from '../../web/views/schemes-view.js';
import { bandEdgePaths } from '../../web/render/heatmap.js';
import { POSITION_SCHEMES, SCHEMES } from '../../web/api/schemes.js';

let rp;
beforeAll(async () => {
  rp = await createRelPos();
});

// Hugging Face's T5Attention._relative_position_bucket (after mesh-tensorflow), line by line,
// with its float32 arithmetic (torch.log of a float tensor) emulated by Math.fround.
function hfBucket(relativePosition, bidirectional, numBuckets, maxDistance) {
  const f = Math.fround;
  let relativeBuckets = 0;
  let rel = relativePosition;
  let buckets = numBuckets;
  if (bidirectional) {
    buckets = Math.floor(buckets / 2);
    relativeBuckets += (rel > 0 ? 1 : 0) * buckets;
    rel = Math.abs(rel);
  } else {
    rel = -Math.min(rel, 0);
  }
  const maxExact = Math.floor(buckets / 2);
  const isSmall = rel < maxExact;
  const ifLarge = Math.min(
    maxExact +
      Math.trunc(f(f(f(Math.log(f(f(rel) / maxExact))) / f(Math.log(maxDistance / maxExact))) * (buckets - maxExact))),
    buckets - 1,
  );
  return relativeBuckets + (isSmall ? rel : ifLarge);
}

// ALiBi's rule as the paper states it: 2^(-8h/H) for H a power of two; otherwise the slopes of
// the largest power of two below H, then every other slope of twice that power.
function paperSlopes(heads) {
  const power = 2 ** Math.floor(Math.log2(heads));
  const geometric = (count) => Array.from({ length: count }, (_, h) => 2 ** ((-8 * (h + 1)) / count));
  return [...geometric(power), ...geometric(2 * power).filter((_, i) => i % 2 === 0)].slice(0, heads);
}

// Rotates pair (a, b) of a row by angle: the plain 2-D rotation.
function rotateDirect(row, position, base, layout) {
  const d = row.length;
  const out = Array.from(row);
  for (let t = 0; t < d / 2; t += 1) {
    const angle = position * base ** ((-2 * t) / d);
    const [a, b] = layout === 'half' ? [t, t + d / 2] : [2 * t, 2 * t + 1];
    out[a] = row[a] * Math.cos(angle) - row[b] * Math.sin(angle);
    out[b] = row[a] * Math.sin(angle) + row[b] * Math.cos(angle);
  }
  return out;
}

const randomMatrix = (rows, cols, seed) => ({ rows, cols, data: rp.randn(seed, rows * cols) });
const maxAbsDifference = (a, b) => a.reduce((m, value, i) => Math.max(m, Math.abs(value - b[i])), 0);

describe('t5Buckets', () => {
  const SETTINGS = [
    [32, 128, true],
    [32, 128, false],
    [16, 64, true],
    [64, 512, true],
    [8, 16, false],
    [10, 20, true],
    [128, 1024, false],
  ];
  test.each(SETTINGS)(
    'numBuckets %i, maxDistance %i, bidirectional %s: every offset to ±4096',
    (numBuckets, maxDistance, bidirectional) => {
      const n = 4097;
      const { rows, cols, data } = rp.t5Buckets(n, { numBuckets, maxDistance, bidirectional });
      expect([rows, cols]).toEqual([n, n]);
      let mismatches = 0;
      for (let j = 0; j < n; j += 1) {
        // Row 0 holds the offsets 0 … 4096, column 0 the offsets 0 … −4096 (key minus query).
        if (data[j] !== hfBucket(j, bidirectional, numBuckets, maxDistance)) mismatches += 1;
        if (data[j * n] !== hfBucket(-j, bidirectional, numBuckets, maxDistance)) mismatches += 1;
      }
      expect(mismatches).toBe(0);
      // Toeplitz: every cell is its offset's bucket (a sample of rows).
      for (const i of [1, 100, 2048, 4096]) {
        for (const j of [0, 7, 2000, 4096])
          expect(data[i * n + j]).toBe(hfBucket(j - i, bidirectional, numBuckets, maxDistance));
      }
    },
  );

  test('the defaults and the hand-derived cells', () => {
    const { data } = rp.t5Buckets(20);
    // offsets 0, 1, 8 (first log bucket), 16 (8 + log 2 / log 16 · 8 = 10, upper half + 16)
    expect([data[0], data[1], data[8], data[16]]).toEqual([0, 17, 24, 26]);
    expect([data[20], data[8 * 20], data[16 * 20]]).toEqual([1, 8, 10]); // offsets −1, −8, −16
  });
});

describe("the schemes view's T5 column", () => {
  test('draws a stand-in, 2·exp(−d²/8) at each bucket’s nearest distance, and says so', () => {
    const { numBuckets, maxDistance, bidirectional } = T5_VIEW;
    const nearest = new Array(numBuckets).fill(Infinity);
    for (let d = 0; d <= 2 * maxDistance; d += 1)
      for (const offset of [d, -d]) {
        const b = hfBucket(offset, bidirectional, numBuckets, maxDistance);
        nearest[b] = Math.min(nearest[b], d);
      }
    const want = nearest.map((d) => 2 * Math.exp((-d * d) / 8));
    const got = Array.from(t5StandInBiases(rp));
    expect(got.length).toBe(numBuckets);
    for (let b = 0; b < numBuckets; b += 1) expect(got[b]).toBeCloseTo(want[b], 15);
    expect(SCHEME_INFO.t5.what).toContain(T5_STAND_IN_TEXT);
    expect(T5_STAND_IN_TEXT).toContain(
      'a stand-in, not a trained table: 2·exp(−d²/8) for each bucket, d its nearest distance',
    );
  });
});

describe("the page's one table of the schemes (SCHEME_INFO)", () => {
  test('an entry for every scheme of the core’s table, in its order; attention()’s with all the comparison needs', () => {
    expect(Object.keys(SCHEME_INFO)).toEqual([...SCHEMES]);
    const c = { L: 16, maxDistance: 8, numBuckets: 16, t5LastBucketFrom: 15 };
    for (const id of SCHEMES) {
      const entry = SCHEME_INFO[id];
      expect(typeof entry.name, id).toBe('string');
      const past = typeof entry.pastTrained === 'function' ? entry.pastTrained(c) : entry.pastTrained;
      expect([true, false, null], id).toContain(past.seen);
      expect(past.note.length, id).toBeGreaterThan(0);
    }
    for (const id of POSITION_SCHEMES) {
      const entry = SCHEME_INFO[id];
      for (const field of ['source', 'what', 'bias']) expect(typeof entry[field], `${id}.${field}`).toBe('string');
      for (const field of ['run', 'learned', 'beyond']) expect(typeof entry[field], `${id}.${field}`).toBe('function');
    }
    expect(SCHEME_INFO.absolute.name).toBe('Learned absolute');
  });

  test('a bias caption says what its dashed lines mark, as drawn: from each line outward |j − i| ≥ k', () => {
    // The lines as heatmap.js draws them (n = 6, k = 3): each vertical step of the upper line lies
    // between the cells at offsets k − 1 and k of its row, so the cells outward hold j − i ≥ k
    // (the lower line mirrors it); at k = 0 and k ≥ n − 1 nothing is drawn.
    const [n, k] = [6, 3];
    const [upper, lower] = bandEdgePaths(n, k);
    for (let p = 0; p < upper.length; p += 2) {
      const [[x, top], [x2, bottom]] = [upper[p], upper[p + 1]];
      expect([x2, bottom - top, x - top]).toEqual([x, 1, k]); // column x of row `top`: offset x − top = k
    }
    expect(lower).toEqual(upper.map(([x, y]) => [y, x]));
    const said = biasCaption(SCHEME_INFO.shaw, { n, maxDistance: k, causal: false });
    expect(said).toBe(
      'q_i · a^K[clip(j − i, ±k)]/√d_k. From the dashed lines outward (|j − i| ≥ k) a row reuses one edge embedding, so its values there are equal.',
    );
    expect(said).not.toMatch(/\|j − i\| = k/);
    // A decoder's panel draws the lower line only, and says so.
    expect(bandEdgePaths(n, k, 'lower')).toHaveLength(1);
    expect(biasCaption(SCHEME_INFO.shaw, { n, maxDistance: k, causal: true })).toMatch(
      /only the lower edge is drawn\.$/,
    );
    for (const maxDistance of [0, n - 1]) {
      expect(bandEdgePaths(n, maxDistance)).toEqual([]);
      expect(biasCaption(SCHEME_INFO.shaw, { n, maxDistance, causal: false })).toBe(SCHEME_INFO.shaw.bias);
    }
    // The schemes that draw no band edges never speak of them.
    for (const id of POSITION_SCHEMES.filter((x) => x !== 'shaw'))
      expect(biasCaption(SCHEME_INFO[id], { n, maxDistance: k, causal: false }), id).not.toMatch(/dashed/);
  });

  test('each entry’s run is its scheme’s attention(): T5, ALiBi and none against their per-pair biases', () => {
    const n = 6;
    const d = 4;
    const m = (seed) => ({ rows: n, cols: d, data: rp.randn(seed, n * d) });
    const ex = { inputs: { q: m(1), k: m(2), v: m(3), causal: false } };
    const biases = t5StandInBiases(rp);
    const params = { biases, slope: 0.25, ropeLayout: 'interleaved' };
    const expected = {
      t5: (i, j) => biases[hfBucket(j - i, T5_VIEW.bidirectional, T5_VIEW.numBuckets, T5_VIEW.maxDistance)],
      alibi: (i, j) => -0.25 * Math.abs(j - i),
      none: () => 0,
    };
    for (const [id, bias] of Object.entries(expected)) {
      const got = SCHEME_INFO[id].run(rp, ex, params).positionBiases.data;
      for (let i = 0; i < n; i += 1)
        for (let j = 0; j < n; j += 1) expect(got[i * n + j], `${id} (${i}, ${j})`).toBeCloseTo(bias(i, j), 12);
    }
  });
});

describe('alibiSlopes', () => {
  test('1 to 64 heads follow the paper rule', () => {
    for (let heads = 1; heads <= 64; heads += 1) {
      const slopes = rp.alibiSlopes(heads);
      expect(slopes).toBeInstanceOf(Float64Array);
      expect(slopes.length).toBe(heads);
      const expected = paperSlopes(heads);
      slopes.forEach((slope, h) => expect(Math.abs(slope - expected[h])).toBeLessThanOrEqual(1e-14 * expected[h]));
    }
  });
  test('8 heads are 1/2 … 1/256; 6 heads take 1/2 and 1/8 from 8', () => {
    expect(Array.from(rp.alibiSlopes(8))).toEqual([1 / 2, 1 / 4, 1 / 8, 1 / 16, 1 / 32, 1 / 64, 1 / 128, 1 / 256]);
    expect(Array.from(rp.alibiSlopes(6))).toEqual([1 / 4, 1 / 16, 1 / 64, 1 / 256, 1 / 2, 1 / 8]);
  });
});

describe('rope', () => {
  test.each(['interleaved', 'half'])('%s layout: the direct rotation of each pair', (layout) => {
    const x = randomMatrix(7, 8, 3);
    for (const base of [10000, 500]) {
      const got = rp.rope(x, { layout, base });
      for (let r = 0; r < 7; r += 1) {
        const want = rotateDirect(x.data.subarray(r * 8, r * 8 + 8), r, base, layout);
        expect(maxAbsDifference(got.data.subarray(r * 8, r * 8 + 8), want)).toBeLessThanOrEqual(1e-14);
      }
    }
    const positions = [3, -2.5, 100, 0, 7, 4096, 1];
    const moved = rp.rope(x, { layout, positions });
    const want = rotateDirect(x.data.subarray(5 * 8, 6 * 8), 4096, 10000, layout);
    expect(maxAbsDifference(moved.data.subarray(5 * 8, 6 * 8), want)).toBeLessThanOrEqual(1e-12);
  });

  test.each(['interleaved', 'half'])('%s: <rope(q, i), rope(k, j)> depends only on j − i (1e-12)', (layout) => {
    const q = randomMatrix(1, 16, 5);
    const k = randomMatrix(1, 16, 6);
    const score = (i, j) => {
      const a = rp.rope(q, { layout, positions: [i] }).data;
      const b = rp.rope(k, { layout, positions: [j] }).data;
      return a.reduce((sum, value, c) => sum + value * b[c], 0);
    };
    for (const offset of [-9, 0, 4, 63]) {
      const atZero = score(0, offset);
      for (const i of [1, 31, 500, 2000]) expect(Math.abs(score(i, i + offset) - atZero)).toBeLessThanOrEqual(1e-12);
    }
    // and not only on j − i's size: the two directions differ
    expect(Math.abs(score(0, 4) - score(4, 0))).toBeGreaterThan(1e-6);
  });

  test('float32 stays float32', () => {
    const x = { rows: 2, cols: 4, data: Float32Array.from([1, 2, 3, 4, 5, 6, 7, 8]) };
    expect(rp.rope(x).data).toBeInstanceOf(Float32Array);
  });
});

describe('sinusoidal', () => {
  test('sin on even, cos on odd columns of p / base^(2t/d)', () => {
    const { rows, cols, data } = rp.sinusoidal(9, 5, { base: 100 });
    expect([rows, cols]).toEqual([9, 5]);
    for (let p = 0; p < 9; p += 1) {
      for (let c = 0; c < 5; c += 1) {
        const angle = p / 100 ** ((c - (c % 2)) / 5);
        expect(Math.abs(data[p * 5 + c] - (c % 2 ? Math.cos(angle) : Math.sin(angle)))).toBeLessThanOrEqual(1e-15);
      }
    }
  });
});

describe('attention with position schemes', () => {
  const tokens = ['the', 'cat', 'sat', 'on', 'the', 'mat'];
  const biases = Float64Array.from({ length: 32 }, (_, b) => Math.cos(b));

  test("Shaw's results are unchanged, bit for bit, with position: { scheme: 'shaw' }", () => {
    const ex = rp.example({ seed: 7 });
    const plain = rp.attention(ex.inputs);
    const named = rp.attention({ ...ex.inputs, position: { scheme: 'shaw' } });
    for (const name of [
      'contentScores',
      'positionBiases',
      'combinedScores',
      'contentWeights',
      'combinedWeights',
      'output',
    ]) {
      expect(named[name].data).toEqual(plain[name].data);
    }
  });

  test('t5, alibi, none: the bias of each cell is the per-pair formula; content as for Shaw', () => {
    const ex = rp.example({ draw: 'stable', tokens });
    const { q, k, v } = ex.inputs;
    const shaw = rp.attention(ex.inputs);
    const t5 = rp.attention({ q, k, v, position: { scheme: 't5', biases, numBuckets: 32, maxDistance: 128 } });
    const alibi = rp.attention({ q, k, v, position: { scheme: 'alibi', slope: 0.5 } });
    const none = rp.attention({ q, k, v, position: { scheme: 'none' } });
    for (let i = 0; i < 6; i += 1) {
      for (let j = 0; j < 6; j += 1) {
        expect(t5.positionBiases.data[i * 6 + j]).toBe(biases[hfBucket(j - i, true, 32, 128)]);
        expect(alibi.positionBiases.data[i * 6 + j]).toBe(-0.5 * Math.abs(j - i));
        expect(none.positionBiases.data[i * 6 + j]).toBe(0);
      }
    }
    expect(t5.contentScores.data).toEqual(shaw.contentScores.data);
    expect(none.combinedWeights.data).toEqual(none.contentWeights.data);
    expect(t5.position).toMatchObject({ scheme: 't5', numBuckets: 32, maxDistance: 128, bidirectional: true });
    expect(t5.maxDistance).toBeNull();
    expect(t5.output.rows).toBe(6);
  });

  test('rope: combined scores are rotated products; the bias is combined minus content', () => {
    const ex = rp.example({ draw: 'stable', tokens });
    const { q, k } = ex.inputs;
    for (const layout of ['interleaved', 'half']) {
      const r = rp.attention({ q, k, position: { scheme: 'rope', layout } });
      const rq = rp.rope(q, { layout }).data;
      const rk = rp.rope(k, { layout }).data;
      const d = q.cols;
      for (let i = 0; i < 6; i += 1) {
        for (let j = 0; j < 6; j += 1) {
          let dot = 0;
          for (let c = 0; c < d; c += 1) dot += rq[i * d + c] * rk[j * d + c];
          expect(Math.abs(r.combinedScores.data[i * 6 + j] - dot / Math.sqrt(d))).toBeLessThanOrEqual(1e-12);
          const bias = r.combinedScores.data[i * 6 + j] - r.contentScores.data[i * 6 + j];
          expect(Math.abs(r.positionBiases.data[i * 6 + j] - bias)).toBeLessThanOrEqual(1e-15);
        }
      }
    }
  });

  test('sinusoidal: scores of (X + PE) W against X W', () => {
    const ex = rp.example({ draw: 'stable', tokens });
    const { x, wQ, wK, wV } = ex.weights;
    const r = rp.attention({ x, wQ, wK, wV, position: { scheme: 'sinusoidal' } });
    const { q, k } = ex.inputs;
    expect(r.contentScores.data).toEqual(rp.attention({ q, k, position: { scheme: 'none' } }).contentScores.data);
    const pe = rp.sinusoidal(6, x.cols).data;
    const placed = x.data.map((value, i) => value + pe[i]);
    const project = (w) =>
      Array.from({ length: 6 * w.cols }, (_, index) => {
        const [row, col] = [Math.floor(index / w.cols), index % w.cols];
        let sum = 0;
        for (let c = 0; c < x.cols; c += 1) sum += placed[row * x.cols + c] * w.data[c * w.cols + col];
        return sum;
      });
    const pq = project(wQ);
    const pk = project(wK);
    const d = wQ.cols;
    for (let i = 0; i < 6; i += 1) {
      for (let j = 0; j < 6; j += 1) {
        let dot = 0;
        for (let c = 0; c < d; c += 1) dot += pq[i * d + c] * pk[j * d + c];
        expect(Math.abs(r.combinedScores.data[i * 6 + j] - dot / Math.sqrt(d))).toBeLessThanOrEqual(1e-12);
      }
    }
    expect(r.output.cols).toBe(wV.cols);
  });

  test('shift experiment: m filler tokens change relative schemes by ≤ 1e-12, sinusoidal by > 1e-3', () => {
    const fillers = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    for (const m of [1, 3, 7]) {
      const before = rp.example({ draw: 'stable', tokens });
      const after = rp.example({ draw: 'stable', tokens: [...fillers.slice(0, m), ...tokens] });
      const positions = [
        { scheme: 't5', biases },
        { scheme: 'alibi', slope: 0.25 },
        { scheme: 'rope' },
        { scheme: 'rope', layout: 'half' },
        { scheme: 'none' },
        { scheme: 'sinusoidal' },
      ];
      const shawDifference = () => {
        const a = rp.attention(before.inputs).combinedScores.data;
        const b = rp.attention(after.inputs).combinedScores.data;
        return originalDifference(a, b, m);
      };
      expect(shawDifference()).toBeLessThanOrEqual(1e-12);
      for (const position of positions) {
        const run = (ex) =>
          position.scheme === 'sinusoidal'
            ? rp.attention({ ...ex.weights, position })
            : rp.attention({ q: ex.inputs.q, k: ex.inputs.k, position });
        const difference = originalDifference(run(before).combinedScores.data, run(after).combinedScores.data, m);
        if (position.scheme === 'sinusoidal') expect(difference).toBeGreaterThan(1e-3);
        else expect(difference).toBeLessThanOrEqual(1e-12);
      }
    }
  });

  // The largest change of the 6 original tokens' scores after m tokens are put in front.
  function originalDifference(a, b, m) {
    const n = 6;
    let worst = 0;
    for (let i = 0; i < n; i += 1) {
      for (let j = 0; j < n; j += 1) worst = Math.max(worst, Math.abs(a[i * n + j] - b[(i + m) * (n + m) + j + m]));
    }
    return worst;
  }

  test('float32 inputs give float32 panels; out is reused', () => {
    const q = { rows: 3, cols: 2, data: Float32Array.from([1, 0, 0, 1, 1, 1]) };
    const first = rp.attention({ q, k: q, position: { scheme: 'alibi', slope: 1 } });
    expect(first.combinedWeights.data).toBeInstanceOf(Float32Array);
    const again = rp.attention({ q, k: q, position: { scheme: 'alibi', slope: 2 } }, { out: first });
    expect(again).toBe(first);
    expect(first.positionBiases.data[2]).toBe(-4);
  });

  test('causal masks keys after the query for every scheme', () => {
    const ex = rp.example({ draw: 'stable', tokens });
    const r = rp.attention({
      q: ex.inputs.q,
      k: ex.inputs.k,
      causal: true,
      position: { scheme: 't5', biases, bidirectional: false },
    });
    expect(r.combinedWeights.data[1]).toBe(0);
    expect(r.positionBiases.data[1]).toBe(biases[0]); // every key after the query is bucket 0
  });
});

describe('bad input names the argument', () => {
  const q = { rows: 3, cols: 4, data: new Float64Array(12) };
  const CASES = [
    ['t5Buckets n', () => rp.t5Buckets(0), RangeError, /^t5Buckets: n must be an integer from 1/],
    ['t5Buckets option', () => rp.t5Buckets(4, { buckets: 8 }), TypeError, /^t5Buckets: unknown option "buckets"/],
    [
      't5Buckets too few',
      () => rp.t5Buckets(4, { numBuckets: 3 }),
      RangeError,
      /^t5Buckets: numBuckets must be an integer from 4/,
    ],
    [
      't5Buckets maxDistance',
      () => rp.t5Buckets(4, { maxDistance: 8 }),
      RangeError,
      /^t5Buckets: maxDistance must be an integer from 9/,
    ],
    [
      't5Buckets bidirectional',
      () => rp.t5Buckets(4, { bidirectional: 1 }),
      TypeError,
      /^t5Buckets: bidirectional must be true or false/,
    ],
    [
      'alibiSlopes heads',
      () => rp.alibiSlopes(0),
      RangeError,
      /^alibiSlopes: heads must be an integer from 1 to 4096, got 0$/,
    ],
    ['alibiSlopes string', () => rp.alibiSlopes('8'), TypeError, /^alibiSlopes: heads .* got a string/],
    [
      'rope odd',
      () => rp.rope({ rows: 1, cols: 3, data: new Float64Array(3) }),
      RangeError,
      /^rope: x.cols must be even/,
    ],
    [
      'rope layout',
      () => rp.rope(q, { layout: 'neox' }),
      RangeError,
      /^rope: layout must be one of 'interleaved', 'half'/,
    ],
    [
      'rope positions',
      () => rp.rope(q, { positions: [1, 2] }),
      RangeError,
      /^rope: positions must hold 3 numbers, got 2$/,
    ],
    ['rope positions NaN', () => rp.rope(q, { positions: [1, NaN, 2] }), RangeError, /^rope: positions\[1\] is NaN/],
    ['rope base', () => rp.rope(q, { base: 0 }), RangeError, /^rope: base must be a finite number > 0/],
    ['sinusoidal d', () => rp.sinusoidal(4, 0), RangeError, /^sinusoidal: d must be an integer from 1/],
    [
      'scheme',
      () => rp.attention({ q, k: q, position: { scheme: 'xpos' } }),
      RangeError,
      /^attention: position.scheme must be one of 'shaw', 't5'/,
    ],
    [
      'position type',
      () => rp.attention({ q, k: q, position: 't5' }),
      TypeError,
      /^attention: position must be an object/,
    ],
    [
      't5 biases missing',
      () => rp.attention({ q, k: q, position: { scheme: 't5' } }),
      TypeError,
      /^attention: position.biases is required$/,
    ],
    [
      't5 biases length',
      () => rp.attention({ q, k: q, position: { scheme: 't5', biases: [1, 2] } }),
      RangeError,
      /^attention: position.biases must hold 32 numbers, got 2$/,
    ],
    [
      'alibi slope',
      () => rp.attention({ q, k: q, position: { scheme: 'alibi', slope: -1 } }),
      RangeError,
      /^attention: position.slope must be a finite number ≥ 0/,
    ],
    [
      'alibi with relKeys',
      () => rp.attention({ q, k: q, relKeys: q, position: { scheme: 'alibi', slope: 1 } }),
      TypeError,
      /^attention: relKeys is Shaw's table/,
    ],
    [
      'rope odd dK',
      () =>
        rp.attention({
          q: { rows: 2, cols: 3, data: new Float64Array(6) },
          k: { rows: 2, cols: 3, data: new Float64Array(6) },
          position: { scheme: 'rope' },
        }),
      RangeError,
      /^attention: q.cols must be even/,
    ],
    [
      'sinusoidal with q',
      () => rp.attention({ q, k: q, position: { scheme: 'sinusoidal' } }),
      TypeError,
      /^attention: position.scheme 'sinusoidal' adds the encoding to x/,
    ],
    [
      'sinusoidal wK shape',
      () =>
        rp.attention({
          x: q,
          wQ: { rows: 4, cols: 2, data: new Float64Array(8) },
          wK: q,
          position: { scheme: 'sinusoidal' },
        }),
      RangeError,
      /^attention: wK.rows must equal x.cols \(4\), got 3$/,
    ],
    [
      'shaw option',
      () =>
        rp.attention({
          q,
          k: q,
          relKeys: { rows: 1, cols: 4, data: new Float64Array(4) },
          position: { scheme: 'shaw', slope: 1 },
        }),
      TypeError,
      /^attention: unknown option "slope"/,
    ],
  ];
  test.each(CASES)('%s', (_label, call, ErrorClass, message) => {
    expect(call).toThrow(ErrorClass);
    expect(call).toThrow(message);
    expect(rp.alibiSlopes(2)).toEqual(Float64Array.from([1 / 16, 1 / 256]));
  });
});

test("the README's schemes example runs after its first example, and its comments are true", () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const first = readme.match(/## The API in one screen\s+```js\n([\s\S]*?)```/)[1];
  const api = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
  const schemes = api.match(/\*\*Other position schemes\*\*[\s\S]*?```js[^\n]*\n([\s\S]*?)```/)[1];
  const lines = schemes.trim().split('\n');
  const probe = `
console.log(JSON.stringify({
  buckets: Array.from(rp.t5Buckets(4).data.slice(0, 4)),
  slopes: Array.from(rp.alibiSlopes(6)),
  results: [${lines.filter((line) => line.startsWith('rp.attention')).map((line) => line.replace(/;.*$/, ''))}].map((r) => r.combinedWeights.rows),
}));`;
  const folder = new URL('../artifacts/', import.meta.url);
  mkdirSync(folder, { recursive: true });
  const file = new URL('readme-schemes.mjs', folder);
  writeFileSync(file, first + schemes + probe);
  const printed = JSON.parse(execFileSync(process.execPath, [file.pathname], { encoding: 'utf8' }));
  expect(printed.buckets).toEqual([0, 17, 18, 19]);
  expect(printed.slopes).toEqual([1 / 4, 1 / 16, 1 / 64, 1 / 256, 1 / 2, 1 / 8]);
  expect(printed.results).toEqual([6, 6, 6, 6, 6]);
});
