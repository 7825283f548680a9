// The pool test's page (tests/page/worker-pool.test.js): imports the package's entry points by
// the files package.json exports them as ('.' and './worker'), and compares the pool with one
// instance in the page, bit for bit.
import { OUTPUT_NAMES, createRelPos } from '../../web/api/index.js';
import { createRelPosWorker } from '../../web/api/worker.js';

const random = (rp, seed, rows, cols, ArrayType) => ({ rows, cols, data: ArrayType.from(rp.randn(seed, rows * cols)) });

const sameBits = (a, b) =>
  a.length === b.length &&
  new Uint8Array(a.buffer, a.byteOffset, a.byteLength).every(
    (byte, i) => byte === new Uint8Array(b.buffer, b.byteOffset, b.byteLength)[i],
  );

/** Every panel of pool.attention against rp.attention for each case; returns what differed. */
window.comparePool = async (cases, workers) => {
  const rp = await createRelPos();
  const pool = await createRelPosWorker({ workers });
  const differences = [];
  for (const { n, k, causal, double, outputs } of cases) {
    const ArrayType = double ? Float64Array : Float32Array;
    const inputs = {
      q: random(rp, 1, n, 16, ArrayType),
      k: random(rp, 2, n, 16, ArrayType),
      v: random(rp, 3, n, 8, ArrayType),
      relKeys: random(rp, 4, 2 * k + 1, 16, ArrayType),
      relValues: random(rp, 5, 2 * k + 1, 8, ArrayType),
      causal,
    };
    const options = outputs ? { outputs } : undefined;
    const single = rp.attention(inputs, options);
    const pooled = await pool.attention(inputs, options);
    const names = outputs ?? OUTPUT_NAMES;
    for (const name of names) {
      if (!sameBits(single[name].data, pooled[name].data) || pooled[name].rows !== n)
        differences.push(`${name} n=${n} k=${k} causal=${causal} double=${double}`);
    }
    if (Object.keys(pooled).length !== names.length + 1) differences.push(`keys ${Object.keys(pooled)}`);
  }
  const size = pool.size;
  pool.terminate();
  return { differences, size };
};

/** The pool's errors: the instance's types and messages. */
window.poolErrors = async () => {
  const pool = await createRelPosWorker({ workers: 2 });
  const m = { rows: 2, cols: 2, data: new Float64Array(4) };
  const caught = [];
  for (const call of [
    () => pool.attention({ q: m, k: m, relKeys: { rows: 1, cols: 2, data: new Float64Array(2) } }, { outputs: ['x'] }),
    () => pool.randn(-1, 3),
  ]) {
    try {
      await call();
      caught.push('no error');
    } catch (error) {
      caught.push(`${error.constructor.name}: ${error.message}`);
    }
  }
  const offsets = await pool.relativeOffsets(3, 1);
  pool.terminate();
  return { caught, offsets: Array.from(offsets.data) };
};

document.body.dataset.ready = 'true';
