// Property-based fuzzing of relpos-wasm/worker's pool (fast-check) on real threads
// (tests/js/pool/node-pool.js: node:worker_threads running the package's worker tasks). Each case
// is a random interleaving of calls on a pool of two workers, one of them slow: attention() with
// inputs whose getters answer differently after their first read and whose arrays the caller
// overwrites right after the call, randn() with a hostile `work` (negative, NaN, huge, a
// string), calls cancelled by an AbortSignal before or after they start, and now and then
// terminate(). The oracle: every promise settles; a call not cancelled, refused or terminated
// equals the same call on one instance in this thread with the inputs as first read, bit for
// bit; a refusal is a TypeError or RangeError naming the option; a cancelled call rejects with
// an AbortError, a terminated pool's calls with "the pool was terminated".
// Run bounded by tests/js/pool-fuzz.test.js, for longer by `npm run fuzz:js`.
import fc from 'fast-check';
import { createRelPos } from '../../../web/api/index.js';
import { startNodePool } from '../pool/node-pool.js';

const wave = (seed) => (_, i) => Math.sin(seed * 13 + i * 0.7) * 2;
const matrix = (rows, cols, seed) => ({ rows, cols, data: Float64Array.from({ length: rows * cols }, wave(seed)) });
const bits = (data) => Buffer.from(data.buffer, data.byteOffset, data.byteLength);

const operation = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('attention'),
      n: fc.integer({ min: 1, max: 80 }),
      d: fc.integer({ min: 1, max: 6 }),
      seed: fc.integer({ min: 1, max: 50 }),
      scheme: fc.constantFrom('shaw', 'alibi', 't5', 'none'),
      getters: fc.boolean(), // matrices and position through getters whose later reads differ
      overwrite: fc.boolean(), // the caller overwrites k and v right after the call
      abort: fc.constantFrom('no', 'no', 'before', 'soon'),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('randn'),
      seed: fc.integer({ min: 0, max: 1000 }),
      count: fc.integer({ min: 1, max: 64 }),
      work: fc.oneof(
        fc.constant(undefined),
        fc.double({ min: 0, max: 1e20, noNaN: true }),
        fc.constantFrom(-1, NaN, Infinity, 1.5e14, 2 ** 60, '100', null),
      ),
      worker: fc.option(fc.constantFrom(0, 1, 5, -1, 0.5), { freq: 3 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('wait'), ms: fc.integer({ min: 0, max: 40 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('terminate') }) },
);

const caseArbitrary = fc.array(operation, { minLength: 1, maxLength: 8 });

// The inputs of an attention operation: { given (what the pool gets), plain (the first read) }.
function attentionInputs(op) {
  const { n, d, seed, scheme } = op;
  const plain = { q: matrix(n, d, seed), k: matrix(n, d, seed + 1), v: matrix(n, 2, seed + 2) };
  if (scheme === 'shaw') plain.relKeys = matrix(5, d, seed + 3);
  if (scheme === 'alibi') plain.position = { scheme: 'alibi', slope: 0.25 };
  if (scheme === 't5') plain.position = { scheme: 't5', biases: Array.from({ length: 32 }, (_, i) => i / 40) };
  if (scheme === 'none') plain.position = { scheme: 'none' };
  const copy = structuredClone(plain);
  if (!op.getters) return { given: copy, plain };
  // Every field through a getter: the first read gives the value, later reads something else.
  const later = {
    q: matrix(n, d, seed + 9),
    k: matrix(n, d, seed + 9),
    v: matrix(n, 2, seed + 9),
    relKeys: matrix(5, d, seed + 9),
    position: { scheme: 'alibi', slope: 3 },
  };
  const given = {};
  for (const [key, value] of Object.entries(copy)) {
    let reads = 0;
    const first = key === 'position' ? withLaterReads(value, { slope: 3, biases: new Array(32).fill(9) }) : value;
    Object.defineProperty(given, key, {
      enumerable: true,
      get: () => (reads++ === 0 ? first : later[key]),
    });
  }
  return { given, plain };
}

// An object whose own fields answer `later[key]` from their second read on.
function withLaterReads(value, later) {
  const out = {};
  for (const [key, first] of Object.entries(value)) {
    let reads = 0;
    Object.defineProperty(out, key, {
      enumerable: true,
      get: () => (reads++ === 0 || !(key in later) ? first : later[key]),
    });
  }
  return out;
}

function sameResult(got, want, where) {
  for (const name of Object.keys(want)) {
    if (name === 'maxDistance' || name === 'position') {
      if (JSON.stringify(got[name]) !== JSON.stringify(want[name])) throw new Error(`${where}: ${name} differs`);
      continue;
    }
    if (!bits(got[name].data).equals(bits(want[name].data))) throw new Error(`${where}: ${name} differs, bit for bit`);
  }
}

/** The fuzzing environment: a pool of two workers (the second slow) and one instance here. */
export async function poolEnvironment() {
  return {
    rp: await createRelPos(),
    pool: null,
    counts: { cases: 0, equal: 0, refused: 0, aborted: 0, terminated: 0 },
  };
}

/** The property: one interleaving against the oracle. */
export function poolProperty(env) {
  return fc.asyncProperty(caseArbitrary, async (ops) => {
    env.counts.cases += 1;
    env.pool ??= await startNodePool({ size: 2, delays: [0, 25] });
    const { pool, rp } = env;
    let terminated = false;
    const settled = [];
    for (const [index, op] of ops.entries()) {
      const where = `operation ${index} (${op.kind})`;
      if (op.kind === 'wait') {
        await new Promise((done) => setTimeout(done, op.ms));
        continue;
      }
      if (op.kind === 'terminate') {
        pool.terminate();
        terminated = true;
        env.pool = null;
        continue;
      }
      let promise;
      let expect;
      if (op.kind === 'attention') {
        const { given, plain } = attentionInputs(op);
        const controller = new AbortController();
        if (op.abort === 'before') controller.abort(new DOMException('cancelled', 'AbortError'));
        const want = rp.attention(plain);
        // The pool's attention takes no signal: a cancelled call is the task pool's, by run().
        promise =
          op.abort === 'no'
            ? pool.attention(given)
            : pool.run('attention', [plain], { signal: controller.signal, worker: index % 2 });
        if (op.overwrite && !op.getters) {
          given.k.data.fill(5);
          given.v.data.fill(-5);
        }
        if (op.abort === 'soon') setTimeout(() => controller.abort(new DOMException('cancelled', 'AbortError')), 1);
        expect = { want, abortable: op.abort !== 'no' };
      } else {
        const options = {};
        if (op.work !== undefined) options.work = op.work;
        if (op.worker !== null) options.worker = op.worker;
        const validWork =
          op.work === undefined || (typeof op.work === 'number' && op.work >= 0 && op.work <= Number.MAX_VALUE);
        const validWorker = op.worker === null || (Number.isSafeInteger(op.worker) && op.worker >= 0);
        promise = pool.run('randn', [op.seed, op.count], options);
        expect = { want: rp.randn(op.seed, op.count), refused: !(validWork && validWorker) };
      }
      const wasTerminated = terminated;
      settled.push(
        promise.then(
          (value) => ({ value, expect, where, wasTerminated }),
          (error) => ({ error, expect, where, wasTerminated }),
        ),
      );
    }
    // Every promise settles (a hang fails the test by its time limit).
    for (const { value, error, expect, where, wasTerminated } of await Promise.all(settled)) {
      if (error) {
        if (error.name === 'AbortError' && expect.abortable) env.counts.aborted += 1;
        else if (/the pool was terminated/.test(error.message) && (terminated || wasTerminated))
          env.counts.terminated += 1;
        else if (
          expect.refused &&
          (error instanceof RangeError || error instanceof TypeError) &&
          /options\.(work|worker) must be/.test(error.message)
        )
          env.counts.refused += 1;
        else throw new Error(`${where} rejected: ${error.name}: ${error.message}`);
        continue;
      }
      if (wasTerminated) throw new Error(`${where} resolved on a terminated pool`);
      if (expect.refused) throw new Error(`${where}: a hostile work or worker was not refused`);
      if (ArrayBuffer.isView(expect.want)) {
        if (!bits(value).equals(bits(expect.want))) throw new Error(`${where}: randn differs, bit for bit`);
      } else sameResult(value, expect.want, where);
      env.counts.equal += 1;
    }
  });
}

/** Runs `numRuns` interleavings (seed: fast-check's, or `seed`); returns the counts. */
export async function fuzzPool({ numRuns, seed } = {}) {
  const env = await poolEnvironment();
  try {
    await fc.assert(poolProperty(env), { numRuns, ...(seed === undefined ? {} : { seed }) });
  } finally {
    env.pool?.terminate();
    env.rp.dispose();
  }
  return env.counts;
}
