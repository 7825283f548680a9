// Results belong to the caller, and repeated calls leave WASM memory flat.
import { beforeAll, describe, expect, test } from 'vitest';
import { createRelPos } from 'relpos-wasm';

const random = (rp, seed, rows, cols, ArrayType = Float64Array) => ({
  rows,
  cols,
  data: ArrayType.from(rp.randn(seed, rows * cols)),
});
const problem = (rp, seed, n, d, k, ArrayType) => ({
  q: random(rp, seed, n, d, ArrayType),
  k: random(rp, seed + 1, n, d, ArrayType),
  v: random(rp, seed + 2, n, d, ArrayType),
  relKeys: random(rp, seed + 3, 2 * k + 1, d, ArrayType),
  relValues: random(rp, seed + 4, 2 * k + 1, d, ArrayType),
});

let rp;
beforeAll(async () => {
  rp = await createRelPos();
});

describe('memory', () => {
  test('10 000 calls of every kind leave WASM memory flat', () => {
    const largest = problem(rp, 1, 32, 8, 5, Float64Array);
    const shapes = [problem(rp, 2, 8, 4, 2, Float64Array), problem(rp, 3, 20, 8, 5, Float32Array), largest];
    const round = (i) => {
      rp.attention({ ...shapes[i % 3], causal: i % 2 === 0 });
      rp.localityProfile({ seed: i, maxDistance: 5 + (i % 4) });
      rp.randn(i, 100);
      rp.relativeOffsets(32, i % 7);
      expect(() => rp.attention({ ...largest, q: { ...largest.q, rows: 31 } })).toThrow(RangeError);
    };
    for (let i = 0; i < 3; i += 1) round(i); // warm up: the arena and workspaces reach their size
    const settled = rp.memory();
    for (let i = 0; i < 2000; i += 1) round(i); // 5 calls a round: 10 000 calls
    const after = rp.memory();
    console.log(
      `WASM memory ${settled.wasmBytes} -> ${after.wasmBytes} bytes; malloc in use ${settled.heapInUseBytes} -> ${after.heapInUseBytes} bytes`,
    );
    expect(after.wasmBytes).toBe(settled.wasmBytes);
    expect(after.heapInUseBytes).toBeLessThanOrEqual(settled.heapInUseBytes);
  });

  test('calls with heads, masks and a scale leave WASM memory flat', () => {
    const inputs = problem(rp, 11, 40, 8, 3, Float32Array); // two heads of 4, per-head tables
    const keyPadding = Uint8Array.from({ length: 40 }, (_, j) => (j % 7 === 3 ? 1 : 0));
    const allowed = { rows: 40, cols: 40, data: Uint8Array.from({ length: 1600 }, (_, x) => (x % 5 ? 1 : 0)) };
    const out = rp.allocateAttention({ ...inputs, heads: 2 });
    const round = (i) => {
      rp.attention({ ...inputs, heads: 2, keyPadding, allowed, causal: i % 2 === 0, scale: 0.5 });
      rp.attention({ ...inputs, heads: 2, keyPadding }, { out });
      rp.attention({ ...inputs, allowed: i % 3 ? allowed : undefined });
    };
    for (let i = 0; i < 3; i += 1) round(i);
    const settled = rp.memory();
    for (let i = 0; i < 1000; i += 1) round(i);
    const after = rp.memory();
    expect(after.wasmBytes).toBe(settled.wasmBytes);
    expect(after.heapInUseBytes).toBeLessThanOrEqual(settled.heapInUseBytes);
  });

  test('results stay valid after WASM memory grows, and a huge call is not kept', () => {
    const small = rp.attention(problem(rp, 5, 6, 4, 2, Float64Array));
    const copy = Float64Array.from(small.combinedWeights.data);
    const beforeBig = rp.memory();
    const big = rp.attention(problem(rp, 6, 2000, 16, 4, Float32Array)); // 80 MB of panels: over the 64 MiB kept
    expect(rp.memory().wasmBytes).toBeGreaterThan(beforeBig.wasmBytes); // memory did grow
    expect(big.combinedWeights.data.length).toBe(2000 * 2000);
    expect(small.combinedWeights.data).toEqual(copy); // not a detached view
    rp.attention(problem(rp, 5, 6, 4, 2, Float64Array));
    expect(rp.memory().heapInUseBytes).toBeLessThan(beforeBig.heapInUseBytes + 2 ** 20);
  });

  test('each result owns its arrays', () => {
    const inputs = problem(rp, 7, 5, 3, 1, Float64Array);
    const first = rp.attention(inputs);
    const again = rp.attention(inputs);
    expect(first.combinedWeights.data.buffer).not.toBe(again.combinedWeights.data.buffer);
    first.combinedWeights.data.fill(0);
    expect(rp.attention(inputs).combinedWeights.data).toEqual(again.combinedWeights.data);
    expect(inputs.q.data).toEqual(random(rp, 7, 5, 3).data); // inputs untouched
  });

  test('instances are independent', async () => {
    const other = await createRelPos();
    const inputs = problem(rp, 9, 6, 4, 2, Float64Array);
    expect(other.attention(inputs)).toEqual(rp.attention(inputs));
    expect(other.memory().wasmBytes).toBeLessThanOrEqual(rp.memory().wasmBytes);
  });
});

describe('attention(inputs, { out })', () => {
  test('writes into an earlier result: same numbers, same arrays', () => {
    const inputs = problem(rp, 11, 7, 4, 2, Float32Array);
    const fresh = rp.attention(inputs);
    const out = rp.attention(problem(rp, 12, 7, 4, 2, Float32Array));
    const arrays = [out.combinedWeights.data, out.output.data];
    const returned = rp.attention(inputs, { out });
    expect(returned).toBe(out);
    expect(out.combinedWeights.data).toBe(arrays[0]);
    expect(out.output.data).toBe(arrays[1]);
    expect(out).toEqual(fresh);
  });

  test('refuses a result of another shape or precision', () => {
    const inputs = problem(rp, 13, 6, 4, 2, Float64Array);
    const other = rp.attention(problem(rp, 14, 5, 4, 2, Float64Array));
    expect(() => rp.attention(inputs, { out: other })).toThrow(
      new RangeError('attention: out.contentScores.data must hold 36 numbers for these inputs, got 25'),
    );
    const single = rp.attention(problem(rp, 15, 6, 4, 2, Float32Array));
    expect(() => rp.attention(inputs, { out: single })).toThrow(
      new TypeError('attention: out.contentScores.data must be a Float64Array like the inputs, got a Float32Array'),
    );
    expect(() => rp.attention(inputs, { out: 5 })).toThrow(
      new TypeError('attention: out must be an earlier result of attention(), got 5'),
    );
    // a result as the second argument itself is not options
    expect(() => rp.attention(inputs, other)).toThrow(
      new TypeError(
        'attention: the second argument is options { outputs, out, queryOffset }; pass an earlier result as { out: result }',
      ),
    );
  });
});
