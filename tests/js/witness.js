// What the boundary tests share: plain inputs for attention(), and a witness that a refused or
// attacked call left the instance as it was: the same bits for a fixed call, and a second model on
// the same instance untouched.
import { expect } from 'vitest';

/** A rows × cols matrix of sines (seeded), of ArrayType. */
export const matrix = (rows, cols, seed = 1, ArrayType = Float64Array) => ({
  rows,
  cols,
  data: ArrayType.from({ length: rows * cols }, (_, i) => Math.sin(seed * 7 + i)),
});

/** attention()'s inputs for n = 6, d_k = 4, k = 2, d_v = 3. */
export const plainInputs = () => ({
  q: matrix(6, 4, 1),
  k: matrix(6, 4, 2),
  relKeys: matrix(5, 4, 3),
  v: matrix(6, 3, 4),
});

/** A typed array's bytes, to compare bit for bit. */
export const bits = (data) => Array.from(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));

/**
 * On instance `rp`: a second model and a fixed call's result, taken now; `expectIntact()` checks
 * later that the same call gives the same bits and that the model's parameters did not change.
 */
export function witnessOf(rp) {
  const model = rp.createModel({ vocabSize: 12, dModel: 8, heads: 2, seqLen: 8, maxBatchSize: 4, seed: 3 });
  const parameters = model.parameters();
  const fixed = rp.attention(plainInputs());
  return {
    model,
    fixed,
    expectIntact() {
      const again = rp.attention(plainInputs());
      for (const name of Object.keys(fixed)) {
        if (name === 'maxDistance') continue;
        expect(bits(again[name].data), name).toEqual(bits(fixed[name].data));
      }
      const now = model.parameters();
      for (const [name, { data }] of Object.entries(parameters)) expect(bits(now[name].data), name).toEqual(bits(data));
    },
  };
}
