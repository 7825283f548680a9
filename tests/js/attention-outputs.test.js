// attention(inputs, { outputs, out, queryOffset }): the chosen outputs and row blocks equal the
// full call bit for bit; allocateAttention() makes an `out` before the first call; bad options
// are refused by name.
import { beforeAll, describe, expect, test } from 'vitest';
import { OUTPUT_NAMES, createRelPos } from 'relpos-wasm';

const random = (rp, seed, rows, cols, ArrayType) => ({ rows, cols, data: ArrayType.from(rp.randn(seed, rows * cols)) });
const problem = (rp, { n, d = 16, k, ArrayType = Float32Array, causal = false }) => ({
  q: random(rp, 1, n, d, ArrayType),
  k: random(rp, 2, n, d, ArrayType),
  v: random(rp, 3, n, 8, ArrayType),
  relKeys: random(rp, 4, 2 * k + 1, d, ArrayType),
  relValues: random(rp, 5, 2 * k + 1, 8, ArrayType),
  causal,
});
const rowsOf = (matrix, first, count) => matrix.data.subarray(first * matrix.cols, (first + count) * matrix.cols);

let rp;
beforeAll(async () => {
  rp = await createRelPos();
});

describe('attention outputs', () => {
  test('each output alone, and pairs, equal the full call bit for bit (f32, f64, causal)', () => {
    for (const ArrayType of [Float32Array, Float64Array]) {
      for (const causal of [false, true]) {
        const inputs = problem(rp, { n: 45, k: 4, ArrayType, causal });
        const full = rp.attention(inputs);
        const choices = [...OUTPUT_NAMES.map((name) => [name]), ['combinedWeights', 'output'], ['contentWeights']];
        for (const outputs of choices) {
          const part = rp.attention(inputs, { outputs });
          expect(Object.keys(part).sort()).toEqual([...outputs, 'maxDistance'].sort());
          for (const name of outputs) {
            expect(part[name].rows).toBe(full[name].rows);
            expect(part[name].cols).toBe(full[name].cols);
            expect(part[name].data).toEqual(full[name].data);
          }
        }
      }
    }
  });

  test('an empty list computes nothing and returns only maxDistance', () => {
    expect(rp.attention(problem(rp, { n: 5, k: 1 }), { outputs: [] })).toEqual({ maxDistance: 1 });
  });

  test('allocateAttention makes an out before the first call; calls write into its arrays', () => {
    const inputs = problem(rp, { n: 40, k: 3 });
    const options = { outputs: ['combinedWeights', 'output'] };
    const out = rp.allocateAttention(inputs, options);
    expect(out.combinedWeights.data).toEqual(new Float32Array(40 * 40));
    expect(out.output.data.length).toBe(40 * 8);
    const arrays = [out.combinedWeights.data, out.output.data];
    const result = rp.attention(inputs, { ...options, out });
    expect(result).toBe(out);
    expect(out.combinedWeights.data).toBe(arrays[0]);
    expect(out.output.data).toBe(arrays[1]);
    const full = rp.attention(inputs);
    expect(out.combinedWeights.data).toEqual(full.combinedWeights.data);
    expect(out.output.data).toEqual(full.output.data);
    // An earlier result as the second argument itself is refused: it goes in { out }.
    const earlier = rp.attention(inputs);
    expect(() => rp.attention(inputs, earlier)).toThrow(TypeError);
  });

  test('blocks of query rows (queryOffset) equal the full call bit for bit, at block edges, causal, k >= n', () => {
    for (const [n, k] of [
      [100, 3],
      [64, 70],
      [33, 0],
    ]) {
      for (const causal of [false, true]) {
        const inputs = problem(rp, { n, k, causal });
        const full = rp.attention(inputs);
        for (let split = 32; split < n; split += 32) {
          for (const [first, count] of [
            [0, split],
            [split, n - split],
          ]) {
            const q = { rows: count, cols: inputs.q.cols, data: rowsOf(inputs.q, first, count).slice() };
            const part = rp.attention({ ...inputs, q }, { queryOffset: first });
            for (const name of OUTPUT_NAMES) {
              expect(part[name].rows).toBe(count);
              expect(part[name].data, `${name} rows ${first}+${count}`).toEqual(rowsOf(full[name], first, count));
            }
          }
        }
      }
    }
  });
});

describe('attention options: bad input', () => {
  const inputs = () => problem(rp, { n: 6, k: 2 });
  test('outputs must be an array of known names; the message lists them', () => {
    const valid = "'contentScores', 'positionBiases', 'combinedScores', 'contentWeights', 'combinedWeights', 'output'";
    expect(() => rp.attention(inputs(), { outputs: ['weights'] })).toThrow(
      new RangeError(`attention: outputs[0] must be one of ${valid}, got "weights"`),
    );
    expect(() => rp.attention(inputs(), { outputs: ['output', 3] })).toThrow(
      new RangeError(`attention: outputs[1] must be one of ${valid}, got 3`),
    );
    expect(() => rp.attention(inputs(), { outputs: 'output' })).toThrow(
      new TypeError(`attention: outputs must be an array of names from ${valid}, got a string ("output")`),
    );
    const { v, relValues, ...noValues } = inputs();
    expect(v && relValues).toBeTruthy();
    expect(() => rp.attention(noValues, { outputs: ['output'] })).toThrow(
      new TypeError("attention: outputs names 'output', which needs v (the values it weighs)"),
    );
  });

  test('unknown options, a bad queryOffset, and an out of the wrong outputs are refused', () => {
    expect(() => rp.attention(inputs(), { output: ['output'] })).toThrow(
      new TypeError('attention: unknown option "output"; expected outputs, out, queryOffset, views'),
    );
    expect(() => rp.attention(inputs(), { queryOffset: 1 })).toThrow(
      new RangeError(
        'attention: queryOffset + q.rows must be at most k.rows (the queries stand among the keys), got 1 + 6 > 6',
      ),
    );
    expect(() => rp.attention(inputs(), { queryOffset: -1 })).toThrow(
      new RangeError('attention: queryOffset must be an integer from 0 to 2147483647, got -1'),
    );
    const out = rp.allocateAttention(inputs(), { outputs: ['output'] });
    expect(() => rp.attention(inputs(), { outputs: ['combinedWeights'], out })).toThrow(
      new TypeError('attention: out.combinedWeights.data must be a Float32Array like the inputs, got undefined'),
    );
  });
});
