// Every position scheme through attention()'s one core call (docs/schemes.md, docs/kernels.md):
// heads, masks, outputs, queryOffset and float32 work alike for each; the bound function checks
// every region it is handed against its request before it touches memory.
import { beforeAll, describe, expect, test } from 'vitest';
import { createRelPos } from 'relpos-wasm';
import createRelPosCore from '../../dist/relpos-core.mjs';
import { wasmBase64 } from '../../dist/relpos-core-wasm.mjs';
import { coreRequest, region } from './core-request.js';
import { relativeError } from './helpers.js';

let rp;
beforeAll(async () => {
  rp = await createRelPos();
});

const PANELS = ['contentScores', 'positionBiases', 'combinedScores', 'contentWeights', 'combinedWeights'];
const n = 37; // more than one 32-row block
const dK = 6;
const dV = 4;
const dModel = 8;

const matrix = (rows, cols, seed, ArrayType) => ({ rows, cols, data: ArrayType.from(rp.randn(seed, rows * cols)) });
// Columns [first, first + cols) of m.
const columns = (m, first, cols) => ({
  rows: m.rows,
  cols,
  data: m.data.constructor.from(
    { length: m.rows * cols },
    (_, i) => m.data[Math.floor(i / cols) * m.cols + first + (i % cols)],
  ),
});
// Whether two typed arrays hold the same bits.
const bits = (a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
const sameBits = (a, b) => a.length === b.length && bits(a).equals(bits(b));
// Rows [first, first + rows) of m.
const rowsOf = (m, first, rows) => ({
  rows,
  cols: m.cols,
  data: m.data.slice(first * m.cols, (first + rows) * m.cols),
});

// One head's inputs of a scheme (heads = 1), or `heads` heads side by side; head h of a
// multi-head set equals the one-head set of seed offset h.
function inputsOf(scheme, ArrayType, heads = 1, extra = {}) {
  const headInputs = (h) => {
    const seed = 100 + 10 * h;
    const base =
      scheme === 'sinusoidal'
        ? {
            x: matrix(n, dModel, 7, ArrayType),
            wQ: matrix(dModel, dK, seed, ArrayType),
            wK: matrix(dModel, dK, seed + 1, ArrayType),
            wV: matrix(dModel, dV, seed + 2, ArrayType),
          }
        : {
            q: matrix(n, dK, seed, ArrayType),
            k: matrix(n, dK, seed + 1, ArrayType),
            v: matrix(n, dV, seed + 2, ArrayType),
          };
    if (scheme === 'shaw')
      Object.assign(base, {
        relKeys: matrix(7, dK, seed + 3, ArrayType),
        relValues: matrix(7, dV, seed + 4, ArrayType),
      });
    const position = {
      shaw: undefined,
      t5: { scheme: 't5', biases: Array.from(rp.randn(seed + 5, 32)) },
      alibi: { scheme: 'alibi', slope: 1 / 2 ** (h + 1) },
      rope: { scheme: 'rope' },
      ropeHalf: { scheme: 'rope', layout: 'half', base: 300 },
      sinusoidal: { scheme: 'sinusoidal' },
      none: { scheme: 'none' },
    }[scheme];
    return position ? { ...base, position } : base;
  };
  if (heads === 1) return { ...headInputs(0), ...extra };
  const parts = Array.from({ length: heads }, (_, h) => headInputs(h));
  const sideBySide = (name) => {
    const ms = parts.map((p) => p[name]);
    const cols = ms.reduce((sum, m) => sum + m.cols, 0);
    const data = new ArrayType(ms[0].rows * cols);
    for (let r = 0; r < ms[0].rows; r += 1) {
      let at = r * cols;
      for (const m of ms) {
        data.set(m.data.subarray(r * m.cols, (r + 1) * m.cols), at);
        at += m.cols;
      }
    }
    return { rows: ms[0].rows, cols, data };
  };
  const all = { heads, ...extra };
  for (const name of ['q', 'k', 'v', 'relKeys', 'relValues', 'wQ', 'wK', 'wV'])
    if (parts[0][name]) all[name] = sideBySide(name);
  if (parts[0].x) all.x = parts[0].x;
  if (parts[0].position) {
    all.position = { ...parts[0].position };
    if (scheme === 't5') all.position.biases = parts.flatMap((p) => p.position.biases);
    if (scheme === 'alibi') all.position.slope = parts.map((p) => p.position.slope);
  }
  return all;
}

const SCHEMES = ['shaw', 't5', 'alibi', 'rope', 'ropeHalf', 'sinusoidal', 'none'];
const PRECISIONS = [Float64Array, Float32Array];

describe.each(SCHEMES)('position %s', (scheme) => {
  test.each(PRECISIONS)('two heads are two one-head calls, bit for bit (%o)', (ArrayType) => {
    const heads = 2;
    const both = rp.attention(inputsOf(scheme, ArrayType, heads, { causal: true }));
    const single = (h) => {
      const one = inputsOf(scheme, ArrayType, heads, { causal: true });
      const part = { causal: true, position: one.position };
      for (const name of ['q', 'k', 'wQ', 'wK', 'relKeys']) if (one[name]) part[name] = columns(one[name], h * dK, dK);
      for (const name of ['v', 'wV', 'relValues']) if (one[name]) part[name] = columns(one[name], h * dV, dV);
      if (one.x) part.x = one.x;
      if (scheme === 't5') part.position = { ...one.position, biases: one.position.biases.slice(h * 32, (h + 1) * 32) };
      if (scheme === 'alibi') part.position = { ...one.position, slope: one.position.slope[h] };
      return rp.attention(part);
    };
    for (let h = 0; h < heads; h += 1) {
      const one = single(h);
      for (const name of PANELS) {
        expect(
          sameBits(both[name].data.subarray(h * n * n, (h + 1) * n * n), one[name].data),
          `${name} head ${h}`,
        ).toBe(true);
      }
      expect(sameBits(columns(both.output, h * dV, dV).data, one.output.data), `output head ${h}`).toBe(true);
    }
  });

  test('masks: a masked key weighs +0, the others renormalise; outputs computes the same cells', () => {
    const inputs = inputsOf(scheme, Float64Array);
    const keyPadding = Array.from({ length: n }, (_, j) => j % 5 === 2);
    const allowedRow = (i) => Array.from({ length: n }, (_, j) => (i + 2 * j) % 7 !== 0);
    const allowed = Array.from({ length: n }, (_, i) => allowedRow(i));
    const plain = rp.attention(inputs);
    const masked = rp.attention({ ...inputs, keyPadding, allowed });
    for (let i = 0; i < n; i += 1) {
      const kept = [];
      for (let j = 0; j < n; j += 1) if (!keyPadding[j] && allowed[i][j]) kept.push(j);
      const scores = kept.map((j) => plain.combinedScores.data[i * n + j]);
      const top = Math.max(...scores);
      const sum = scores.reduce((s, x) => s + Math.exp(x - top), 0);
      for (let j = 0; j < n; j += 1) {
        const w = masked.combinedWeights.data[i * n + j];
        if (!kept.includes(j)) expect(Object.is(w, 0), `(${i}, ${j})`).toBe(true);
        else expect(Math.abs(w - Math.exp(plain.combinedScores.data[i * n + j] - top) / sum)).toBeLessThan(1e-12);
      }
    }
    expect(sameBits(masked.combinedScores.data, plain.combinedScores.data)).toBe(true); // scores stay unmasked
    const some = rp.attention(inputs, { outputs: ['positionBiases', 'output'] });
    expect(Object.keys(some).filter((name) => some[name]?.data)).toEqual(['positionBiases', 'output']);
    expect(sameBits(some.positionBiases.data, plain.positionBiases.data)).toBe(true);
    expect(sameBits(some.output.data, plain.output.data)).toBe(true);
  });

  test('float32 is computed in float32, within float32 rounding of float64', () => {
    const wide = rp.attention(inputsOf(scheme, Float64Array, 1, { causal: true }));
    const narrow32 = inputsOf(scheme, Float32Array, 1, { causal: true });
    const narrow = rp.attention(narrow32);
    // The same float32 inputs widened: what the float64 path gives for them.
    const widened = Object.fromEntries(
      Object.entries(narrow32).map(([name, m]) => [name, m?.data ? { ...m, data: Float64Array.from(m.data) } : m]),
    );
    const reference = rp.attention(widened);
    for (const name of [...PANELS, 'output']) {
      expect(narrow[name].data, name).toBeInstanceOf(Float32Array);
      expect(relativeError(narrow[name].data, reference[name].data), name).toBeLessThan(1e-5);
      // not a float64 result rounded to float32: float32 arithmetic differs from it somewhere
      if (name === 'combinedScores') expect(narrow[name].data).not.toEqual(Float32Array.from(reference[name].data));
    }
    expect(wide.combinedWeights.data).toBeInstanceOf(Float64Array);
  });

  if (scheme !== 'sinusoidal') {
    test('queryOffset: a block of query rows is those rows of the whole call, bit for bit', () => {
      const inputs = inputsOf(scheme, Float64Array, 1, { causal: true });
      const whole = rp.attention(inputs);
      const block = rp.attention({ ...inputs, q: rowsOf(inputs.q, 32, 5) }, { queryOffset: 32 });
      for (const name of PANELS) expect(sameBits(block[name].data, rowsOf(whole[name], 32, 5).data), name).toBe(true);
      expect(sameBits(block.output.data, rowsOf(whole.output, 32, 5).data)).toBe(true);
    });
  }
});

describe('the bound attention function checks its request', () => {
  test('a mismatched region is refused with its name, and nothing is written', async () => {
    const core = await createRelPosCore({ wasmBinary: Buffer.from(wasmBase64, 'base64') });
    const m = 4;
    const at = core._malloc(8 * 1024);
    const heap = () => new Float64Array(core.HEAPU8.buffer, at, 1024);
    heap().fill(7);
    const base = coreRequest(core, {
      queryRows: m,
      queries: region(at, m, 2, m * 2 * 8),
      keys: region(at + 64, m, 2, m * 2 * 8),
      combinedWeights: region(at + 128, m, m, m * m * 8),
    });
    expect(core.attentionIntoFloat64(base)).toBe('');
    expect(heap()[16]).not.toBe(7); // written: the weights of a good request
    heap().fill(7);
    const bad = [
      [{ combinedWeights: region(at + 128, m, m + 1, 40 * 8) }, /^combinedWeights is 4 x 5, the request needs 4 x 4$/],
      [{ combinedWeights: region(at + 128, m, m, 8) }, /^combinedWeights needs 128 bytes, 8 reserved$/],
      [{ keys: region(at + 64, m, 3, 96) }, /^keys is 4 x 3, the request needs 4 x 2$/],
      [{ queryRows: 3 }, /^queries is 4 x 2, the request needs 3 x any$/],
      [{ combinedWeights: region(core.HEAPU8.length - 64, m, m, 128) }, /^combinedWeights lies outside WASM memory/],
      [{ relativeKeys: region(at, 3, 2, 48) }, /^relativeKeys must be 0 x 0: only Shaw's scheme reads it$/],
      [{ scheme: core.PositionScheme.t5 }, /^bucketBiases must have 1 or heads rows$/],
      [{ bucketBiases: region(at, 1, 8, 64) }, /^bucketBiases must be 0 x 0: only T5 reads it$/],
      [{ scheme: core.PositionScheme.t5, slopes: region(at, 1, 1, 8) }, /^slopes must be 0 x 0: only ALiBi reads it$/],
      [{ scheme: core.PositionScheme.alibi }, /^slopes must be 1 or heads wide$/],
      [{ heads: 2, queries: region(at, m, 3, 96), keys: region(at + 64, m, 3, 96) }, /multiples of heads/],
    ];
    for (const [change, message] of bad) {
      expect(core.attentionIntoFloat64({ ...base, ...change })).toMatch(message);
      expect(heap().every((x) => x === 7)).toBe(true);
    }
    core._free(at);
  });

  test('the JS list of schemes is the core enum, in its order', async () => {
    const core = await createRelPosCore({ wasmBinary: Buffer.from(wasmBase64, 'base64') });
    const { MODEL_POSITION_SCHEMES, POSITION_SCHEMES } = await import('relpos-wasm');
    expect(MODEL_POSITION_SCHEMES.map((name) => core.PositionScheme[name].value)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(POSITION_SCHEMES).toEqual(MODEL_POSITION_SCHEMES.filter((name) => name !== 'absolute'));
  });
});
