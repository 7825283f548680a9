// The pool test's page (tests/page/worker-pool.test.js): imports the package's entry points by
// the files package.json exports them as ('.' and './worker'), and compares the pool with one
// instance in the page, bit for bit.
import { OUTPUT_NAMES, createRelPos } from '../../web/api/index.js';
import { createRelPosWorker, startRelPosWorker } from '../../web/api/worker.js';

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
  for (const { n, k, causal, double, outputs, heads = 1, shared = false, scale, padding, mask } of cases) {
    const ArrayType = double ? Float64Array : Float32Array;
    const tableWidth = (cols) => (shared ? cols / heads : cols);
    // Masks from the seeded stream: keyPadding about 1 key in 6, allowed about 4 pairs in 5.
    const flags = (seed, length, below) => Uint8Array.from(rp.randn(seed, length), (x) => (x < below ? 1 : 0));
    const inputs = {
      q: random(rp, 1, n, 16, ArrayType),
      k: random(rp, 2, n, 16, ArrayType),
      v: random(rp, 3, n, 8, ArrayType),
      relKeys: random(rp, 4, 2 * k + 1, tableWidth(16), ArrayType),
      relValues: random(rp, 5, 2 * k + 1, tableWidth(8), ArrayType),
      causal,
      ...(heads > 1 ? { heads } : {}),
      ...(scale ? { scale } : {}),
      ...(padding ? { keyPadding: flags(6, n, -1) } : {}),
      ...(mask ? { allowed: { rows: n, cols: n, data: flags(7, n * n, 0.85) } } : {}),
    };
    const options = outputs ? { outputs } : undefined;
    const single = rp.attention(inputs, options);
    const pooled = await pool.attention(inputs, options);
    const names = outputs ?? OUTPUT_NAMES;
    for (const name of names) {
      const rows = name === 'output' ? n : heads * n;
      if (!sameBits(single[name].data, pooled[name].data) || pooled[name].rows !== rows)
        differences.push(`${name} n=${n} k=${k} causal=${causal} double=${double} heads=${heads} mask=${mask}`);
    }
    if (Object.keys(pooled).length !== names.length + 1) differences.push(`keys ${Object.keys(pooled)}`);
    if (heads > 1) {
      // An `out` made by the pool, filled block by block, head by head.
      const out = await pool.allocateAttention(inputs, options);
      const filled = await pool.attention(inputs, { ...options, out });
      for (const name of names) {
        if (filled !== out || !sameBits(single[name].data, out[name].data))
          differences.push(`out ${name} n=${n} heads=${heads}`);
      }
    }
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

/**
 * A worker stopped while it computes (terminate(): no event), then one whose `error` event
 * fires: each call in flight rejects, and the next split attention() and randn() work.
 */
window.poolFailures = async () => {
  const rp = await createRelPos();
  const made = [];
  const createWorker = () => {
    const worker = startRelPosWorker();
    made.push(worker);
    return worker;
  };
  const pool = await createRelPosWorker({ workers: 3, createWorker, timeoutMs: 1000 });
  const loadedFrom = await pool.loadedFrom();
  const n = 1024;
  const inputs = {
    q: random(rp, 1, n, 32, Float32Array),
    k: random(rp, 2, n, 32, Float32Array),
    v: random(rp, 3, n, 16, Float32Array),
    relKeys: random(rp, 4, 33, 32, Float32Array),
    relValues: random(rp, 5, 33, 16, Float32Array),
    causal: true,
  };
  const want = rp.attention(inputs, { outputs: ['output'] }).output.data;
  const outcome = async (call) => {
    const started = performance.now();
    try {
      await call();
      return { message: 'no error', ms: performance.now() - started };
    } catch (error) {
      return { message: error.message, ms: performance.now() - started };
    }
  };
  const next = async () => {
    const split = await pool.attention(inputs, { outputs: ['output'] });
    const drawn = await pool.randn(7, 4);
    return { same: sameBits(split.output.data, want), randn: sameBits(drawn, rp.randn(7, 4)), size: pool.size };
  };
  // Worker 1 stopped right after its block was posted: it never answers.
  const running = pool.attention(inputs, { outputs: ['output'] });
  made[1].terminate();
  const stopped = await outcome(() => running);
  const afterStopped = await next();
  // Worker 0's `error` event (what a crashed worker fires) while it computes.
  const failing = pool.attention(inputs, { outputs: ['output'] });
  made[0].dispatchEvent(new ErrorEvent('error', { message: 'out of memory' }));
  const failed = await outcome(() => failing);
  const afterFailed = await next();
  const started = made.length;
  const counts = await pool.taskCounts();
  pool.terminate();
  return { loadedFrom, stopped, afterStopped, failed, afterFailed, started, counts };
};

document.body.dataset.ready = 'true';
