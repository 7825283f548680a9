// attention()'s scale, masks and heads (docs/maths.md §3, §4, §9) against an independent plain-JS
// float64 reference written from the maths, not from the core: scores scaled, masked keys −∞
// before the softmax, a query with no key left all zeros, heads side by side with shared or
// per-head tables; the outputs option, `out` reuse and queryOffset with them.
import { beforeAll, describe, expect, test } from 'vitest';
import { OUTPUT_NAMES, createRelPos } from 'relpos-wasm';
import { relativeError } from './helpers.js';

const random = (rp, seed, rows, cols, ArrayType) => ({ rows, cols, data: ArrayType.from(rp.randn(seed, rows * cols)) });

/**
 * The reference: every panel and the output in float64, per the maths. Panels are heads blocks
 * of q.rows rows ([h, n_q, n]); the output n_q × (h d_v).
 */
function reference({ q, k, v, relKeys, relValues, causal = false, scale, heads = 1, keyPadding, allowed }, offset = 0) {
  const nq = q.rows;
  const n = k.rows;
  const dK = q.cols / heads;
  const dV = v ? v.cols / heads : 0;
  const maxDistance = (relKeys.rows - 1) / 2;
  const s = scale ?? 1 / Math.sqrt(dK);
  const at = (m, r, c) => m.data[r * m.cols + c];
  const panels = Object.fromEntries(
    ['contentScores', 'positionBiases', 'combinedScores', 'contentWeights', 'combinedWeights'].map((name) => [
      name,
      new Float64Array(heads * nq * n),
    ]),
  );
  const output = new Float64Array(nq * heads * dV);
  const softmax = (scores, keep) => {
    let max = -Infinity;
    scores.forEach((x, j) => {
      if (keep[j]) max = Math.max(max, x);
    });
    if (max === -Infinity) return scores.map(() => 0); // no key left: all zeros
    const e = scores.map((x, j) => (keep[j] ? Math.exp(x - max) : 0));
    const sum = e.reduce((a, b) => a + b, 0);
    return e.map((x) => x / sum);
  };
  for (let h = 0; h < heads; h += 1) {
    const kCol = relKeys.cols === dK ? 0 : h * dK; // shared table, or head h's columns
    const vCol = relValues && relValues.cols === dV ? 0 : h * dV;
    for (let r = 0; r < nq; r += 1) {
      const i = offset + r;
      const content = [];
      const position = [];
      const keep = [];
      for (let j = 0; j < n; j += 1) {
        const row = Math.min(Math.max(j - i, -maxDistance), maxDistance) + maxDistance;
        let c = 0;
        let p = 0;
        for (let d = 0; d < dK; d += 1) {
          c += at(q, r, h * dK + d) * at(k, j, h * dK + d);
          p += at(q, r, h * dK + d) * at(relKeys, row, kCol + d);
        }
        content.push(s * c);
        position.push(s * p);
        const padded = keyPadding ? Boolean(keyPadding[j]) : false;
        const allowedHere = allowed ? Boolean(allowed[r * n + j]) : true;
        keep.push(!(causal && j > i) && !padded && allowedHere);
      }
      const combined = content.map((x, j) => x + position[j]);
      const base = (h * nq + r) * n;
      panels.contentScores.set(content, base);
      panels.positionBiases.set(position, base);
      panels.combinedScores.set(combined, base);
      panels.contentWeights.set(softmax(content, keep), base);
      const w = softmax(combined, keep);
      panels.combinedWeights.set(w, base);
      for (let c = 0; c < dV; c += 1) {
        let z = 0;
        for (let j = 0; j < n; j += 1) {
          const row = Math.min(Math.max(j - i, -maxDistance), maxDistance) + maxDistance;
          z += w[j] * (at(v, j, h * dV + c) + (relValues ? at(relValues, row, vCol + c) : 0));
        }
        output[r * heads * dV + h * dV + c] = z;
      }
    }
  }
  return { ...panels, output };
}

function problem(rp, { n = 40, nq = n, heads = 1, dK = 6, dV = 5, k = 3, perHead = false, ArrayType = Float64Array }) {
  return {
    q: random(rp, 1, nq, heads * dK, ArrayType),
    k: random(rp, 2, n, heads * dK, ArrayType),
    v: random(rp, 3, n, heads * dV, ArrayType),
    relKeys: random(rp, 4, 2 * k + 1, (perHead ? heads : 1) * dK, ArrayType),
    relValues: random(rp, 5, 2 * k + 1, (perHead ? heads : 1) * dV, ArrayType),
    heads: heads === 1 ? undefined : heads,
  };
}

// A seeded pattern of flags: 1 with probability p.
const flags = (rp, seed, length, p) => Uint8Array.from(rp.randn(seed, length), (x) => (x < p ? 1 : 0));

function expectClose(result, want, tolerance, label) {
  for (const name of OUTPUT_NAMES) {
    if (!result[name]) continue;
    expect(Array.from(result[name].data).some(Number.isNaN), `${label} ${name} NaN`).toBe(false);
    expect(relativeError(result[name].data, want[name]), `${label} ${name}`).toBeLessThan(tolerance);
  }
}

let rp;
beforeAll(async () => {
  rp = await createRelPos();
});

const PRECISIONS = [
  [Float64Array, 1e-12],
  [Float32Array, 2e-5],
];

describe('scale', () => {
  test('multiplies content scores and position biases alike (f32, f64)', () => {
    for (const [ArrayType, tolerance] of PRECISIONS) {
      for (const scale of [0.05, 1, 3.5]) {
        const inputs = { ...problem(rp, { ArrayType }), scale, causal: true };
        expectClose(rp.attention(inputs), reference(inputs), tolerance, `scale ${scale} ${ArrayType.name}`);
      }
    }
  });

  test('scale 1/√d_k given explicitly is the default, bit for bit', () => {
    const inputs = problem(rp, { dK: 16, ArrayType: Float32Array });
    const plain = rp.attention(inputs);
    const explicit = rp.attention({ ...inputs, scale: 0.25 });
    for (const name of OUTPUT_NAMES) expect(explicit[name].data).toEqual(plain[name].data);
  });
});

describe('masks', () => {
  test('keyPadding: padding keys weigh 0 for every query (f32, f64, causal)', () => {
    for (const [ArrayType, tolerance] of PRECISIONS) {
      for (const causal of [false, true]) {
        const keyPadding = flags(rp, 7, 40, -0.8); // about a fifth of the keys
        keyPadding[1] = 1;
        const inputs = { ...problem(rp, { ArrayType }), causal, keyPadding };
        const result = rp.attention(inputs);
        expectClose(result, reference(inputs), tolerance, `padding causal ${causal} ${ArrayType.name}`);
        for (let i = 2; i < 40; i += 1) expect(result.combinedWeights.data[i * 40 + 1]).toBe(0);
      }
    }
  });

  test('keyPadding as booleans equals the same flags as bytes', () => {
    const inputs = problem(rp, {});
    const bytes = flags(rp, 8, 40, -0.5);
    const a = rp.attention({ ...inputs, keyPadding: bytes });
    const b = rp.attention({ ...inputs, keyPadding: Array.from(bytes, (x) => x === 1) });
    for (const name of OUTPUT_NAMES) expect(b[name].data).toEqual(a[name].data);
  });

  test('allowed: a boolean mask, alone and with causal and keyPadding (f32, f64)', () => {
    for (const [ArrayType, tolerance] of PRECISIONS) {
      for (const causal of [false, true]) {
        const allowed = flags(rp, 9, 40 * 40, 0.9); // most pairs allowed
        const inputs = {
          ...problem(rp, { ArrayType }),
          causal,
          allowed: { rows: 40, cols: 40, data: allowed },
          keyPadding: flags(rp, 10, 40, -1.2),
        };
        const want = reference({ ...inputs, allowed });
        expectClose(rp.attention(inputs), want, tolerance, `allowed causal ${causal} ${ArrayType.name}`);
      }
    }
  });

  test('allowed as an array of boolean rows equals the matrix of bytes', () => {
    const inputs = problem(rp, {});
    const allowed = flags(rp, 11, 40 * 40, 0.5);
    const rows = Array.from({ length: 40 }, (_, r) => Array.from(allowed.subarray(r * 40, r * 40 + 40), Boolean));
    const a = rp.attention({ ...inputs, allowed: { rows: 40, cols: 40, data: allowed } });
    const b = rp.attention({ ...inputs, allowed: rows });
    const c = rp.attention({ ...inputs, allowed: { rows: 40, cols: 40, data: Array.from(allowed, Boolean) } });
    for (const name of OUTPUT_NAMES) {
      expect(b[name].data).toEqual(a[name].data);
      expect(c[name].data).toEqual(a[name].data);
    }
  });

  test('a query with every key masked: all-zero weights and a zero output, not NaN', () => {
    for (const ArrayType of [Float32Array, Float64Array]) {
      const allowed = new Uint8Array(40 * 40).fill(1);
      allowed.fill(0, 5 * 40, 6 * 40); // query 5 may attend to nothing
      const keyPadding = new Uint8Array(40);
      keyPadding[0] = 1; // with causal, query 0 sees only key 0, which is padding
      const inputs = {
        ...problem(rp, { ArrayType }),
        causal: true,
        keyPadding,
        allowed: { rows: 40, cols: 40, data: allowed },
      };
      const result = rp.attention(inputs);
      for (const row of [0, 5]) {
        for (const name of ['contentWeights', 'combinedWeights']) {
          expect(Array.from(result[name].data.subarray(row * 40, row * 40 + 40))).toEqual(Array(40).fill(0));
        }
        expect(Array.from(result.output.data.subarray(row * 5, row * 5 + 5))).toEqual(Array(5).fill(0));
        // The scores are returned unmasked, as with causal.
        expect(result.contentScores.data[row * 40]).not.toBe(0);
      }
      expectClose(result, reference({ ...inputs, allowed }), ArrayType === Float64Array ? 1e-12 : 2e-5, 'empty rows');
      // Every other row's weights sum to 1.
      for (let r = 1; r < 40; r += 1) {
        if (r === 5) continue;
        const sum = result.combinedWeights.data.subarray(r * 40, r * 40 + 40).reduce((a, b) => a + b, 0);
        expect(Math.abs(sum - 1)).toBeLessThan(1e-5);
      }
    }
  });

  test('an all-allowed mask and no padding change nothing, bit for bit', () => {
    const inputs = { ...problem(rp, { ArrayType: Float32Array }), causal: true };
    const plain = rp.attention(inputs);
    const masked = rp.attention({
      ...inputs,
      keyPadding: new Uint8Array(40),
      allowed: { rows: 40, cols: 40, data: new Uint8Array(1600).fill(1) },
    });
    for (const name of OUTPUT_NAMES) expect(masked[name].data).toEqual(plain[name].data);
  });

  test('with queryOffset, allowed holds the rows of this call', () => {
    const inputs = { ...problem(rp, { n: 70 }), causal: true };
    const allowed = flags(rp, 12, 70 * 70, 0.7);
    const full = rp.attention({ ...inputs, allowed: { rows: 70, cols: 70, data: allowed } });
    const q = { rows: 32, cols: 6, data: inputs.q.data.slice(32 * 6, 64 * 6) };
    const block = rp.attention(
      { ...inputs, q, allowed: { rows: 32, cols: 70, data: allowed.slice(32 * 70, 64 * 70) } },
      { queryOffset: 32 },
    );
    for (const name of OUTPUT_NAMES) {
      const cols = full[name].cols;
      expect(block[name].data).toEqual(full[name].data.subarray(32 * cols, 64 * cols));
    }
  });
});

describe('heads', () => {
  test('shared and per-head tables, with masks and a scale, against the reference (f32, f64)', () => {
    for (const [ArrayType, tolerance] of PRECISIONS) {
      for (const perHead of [false, true]) {
        const inputs = {
          ...problem(rp, { heads: 3, perHead, ArrayType, n: 45 }),
          causal: true,
          scale: 0.3,
          keyPadding: flags(rp, 13, 45, -1),
        };
        const result = rp.attention(inputs);
        expect([result.combinedWeights.rows, result.combinedWeights.cols]).toEqual([3 * 45, 45]);
        expect([result.output.rows, result.output.cols]).toEqual([45, 15]);
        expectClose(result, reference(inputs), tolerance, `heads perHead ${perHead} ${ArrayType.name}`);
      }
    }
  });

  test('each head equals a one-head call on its columns, bit for bit', () => {
    const inputs = problem(rp, { heads: 2, perHead: true, ArrayType: Float32Array, n: 33 });
    const all = rp.attention(inputs);
    const columns = (m, h, width) => ({
      rows: m.rows,
      cols: width,
      data: Float32Array.from(
        { length: m.rows * width },
        (_, x) => m.data[Math.floor(x / width) * m.cols + h * width + (x % width)],
      ),
    });
    for (let h = 0; h < 2; h += 1) {
      const one = rp.attention({
        q: columns(inputs.q, h, 6),
        k: columns(inputs.k, h, 6),
        v: columns(inputs.v, h, 5),
        relKeys: columns(inputs.relKeys, h, 6),
        relValues: columns(inputs.relValues, h, 5),
      });
      for (const name of OUTPUT_NAMES.filter((x) => x !== 'output')) {
        expect(all[name].data.subarray(h * 33 * 33, (h + 1) * 33 * 33), `${name} head ${h}`).toEqual(one[name].data);
      }
      expect(columns(all.output, h, 5).data).toEqual(one.output.data);
    }
  });

  test('outputs: a subset with heads equals the full call bit for bit', () => {
    const inputs = { ...problem(rp, { heads: 4, ArrayType: Float32Array, n: 50 }), causal: true };
    const full = rp.attention(inputs);
    for (const outputs of [['combinedWeights'], ['output'], ['contentScores', 'output']]) {
      const part = rp.attention(inputs, { outputs });
      expect(Object.keys(part).sort()).toEqual([...outputs, 'maxDistance'].sort());
      for (const name of outputs) {
        expect([part[name].rows, part[name].cols]).toEqual([full[name].rows, full[name].cols]);
        expect(part[name].data).toEqual(full[name].data);
      }
    }
  });

  test('allocateAttention and out: shaped for the heads, written in place (f64)', () => {
    const inputs = problem(rp, { heads: 2, n: 30 });
    const options = { outputs: ['combinedWeights', 'output'] };
    const out = rp.allocateAttention(inputs, options);
    expect([out.combinedWeights.rows, out.combinedWeights.cols, out.combinedWeights.data.length]).toEqual([
      60, 30, 1800,
    ]);
    expect([out.output.rows, out.output.cols]).toEqual([30, 10]);
    const arrays = [out.combinedWeights.data, out.output.data];
    expect(rp.attention(inputs, { ...options, out })).toBe(out);
    expect(out.combinedWeights.data).toBe(arrays[0]);
    const full = rp.attention(inputs);
    expect(out.combinedWeights.data).toEqual(full.combinedWeights.data);
    expect(out.output.data).toEqual(full.output.data);
    expectClose(out, reference(inputs), 1e-12, 'out');
  });
});

describe('README', () => {
  test('the "Scale, masks and heads" example runs and its comments are true', async () => {
    const { readFileSync } = await import('node:fs');
    const readme = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
    const block = readme.match(/\*\*Scale, masks and heads\.\*\*[\s\S]*?```js continues\n([\s\S]*?)```/)[1];
    // The names the README's first example defined.
    const [n, dK, k] = [6, 4, 2];
    const m = (rows, cols, seed) => ({ rows, cols, data: rp.randn(seed, rows * cols) });
    const mh = new Function('rp', 'm', 'n', 'dK', 'k', `${block}\nreturn mh;`)(rp, m, n, dK, k);
    expect([mh.combinedWeights.rows, mh.combinedWeights.cols]).toEqual([12, 6]);
    expect([mh.output.rows, mh.output.cols]).toEqual([6, 8]);
    for (let row = 0; row < 12; row += 1) {
      expect(mh.combinedWeights.data[row * 6 + 4]).toBe(0);
      expect(mh.combinedWeights.data[row * 6 + 5]).toBe(0);
    }
    const inputs = {
      q: m(n, 8, 1),
      k: m(n, 8, 2),
      v: m(n, 8, 4),
      relKeys: m(2 * k + 1, dK, 3),
      heads: 2,
      scale: 0.5,
      keyPadding: Uint8Array.of(0, 0, 0, 0, 1, 1),
      causal: true,
    };
    expectClose(mh, reference(inputs), 1e-12, 'README');
  });
});
