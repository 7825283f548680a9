// Property-based fuzzing of every entry point's options (fast-check): each case is one call whose
// options object answers through getters that, on their first read, may write a bad value into
// the call's other arguments (NaN into a matrix, an id past the vocabulary into tokens), answer
// something else on every later read, or call the instance again. The oracle is the same call
// on a second instance with the options as first read and the other arguments as the getters
// left them: both are refused with the same error, or both give the same bits; a getter that
// called the instance makes the call an Error saying so. A call never reaches the core with
// something its checks did not see.
// Run bounded by tests/js/options-fuzz.test.js, for longer by `npm run fuzz:js`.
import fc from 'fast-check';
import { createRelPos } from '../../../web/api/index.js';

const MODEL = { vocabSize: 12, dModel: 8, heads: 2, seqLen: 8, maxBatchSize: 4, seed: 3 };
const wave = (seed) => (_, i) => Math.sin(seed * 13 + i * 0.7) * 2;
const matrix = (rows, cols, seed) => ({ rows, cols, data: Float64Array.from({ length: rows * cols }, wave(seed)) });

// Each entry point: its options (valid values and hostile later answers), its other arguments,
// how a getter's first read may spoil them, and the call.
const ENTRIES = {
  rope: {
    options: { base: [10000, 500], layout: ['interleaved', 'half'], positions: [[0, 1.5, 2, 3], null] },
    args: () => ({ x: matrix(4, 6, 1) }),
    spoil: (a) => (a.x.data[3] = NaN),
    call: (rp, a, o) => rp.rope(a.x, o),
  },
  attention: {
    options: { outputs: [['contentScores', 'output'], ['combinedWeights']], queryOffset: [0, 2, 5] },
    args: () => ({ q: matrix(4, 3, 1), k: matrix(4, 3, 2), relKeys: matrix(3, 3, 3), v: matrix(4, 2, 4) }),
    spoil: (a) => (a.k.data[1] = Infinity),
    call: (rp, a, o) => rp.attention(a, o),
  },
  trainStep: {
    options: { learningRate: [0.01, 0.05], beta1: [0.9, 0.5], epsilon: [1e-8, 1e-6] },
    args: () => ({ batch: batchOf() }),
    spoil: (a) => (a.batch.tokens[2] = 99),
    call: (rp, a, o, env) => env.modelOf(rp).trainStep(a.batch, o),
    changesModel: true,
  },
  shardGradients: {
    options: { stepTargets: [14, 30] },
    args: () => ({ batch: batchOf() }),
    spoil: (a) => (a.batch.targets[4] = 12),
    call: (rp, a, o, env) => env.modelOf(rp).shardGradients(a.batch, o),
  },
  applyGradients: {
    options: { learningRate: [0.01, 0.05], maxGradNorm: [1, 0] },
    args: () => ({ shards: [SHARD.slice(), SHARD.slice()] }),
    spoil: (a) => (a.shards[1][5] = NaN),
    call: (rp, a, o, env) => {
      env.modelOf(rp).applyGradients(a.shards, o);
      return env.modelOf(rp).parameterVector();
    },
    changesModel: true,
  },
  modelAttention: {
    options: { layer: [0, 0], head: [0, 1] },
    args: () => ({ tokens: Int32Array.from([1, 2, 3, 4, 5]) }),
    spoil: (a) => (a.tokens[0] = -1),
    call: (rp, a, o, env) => env.modelOf(rp).attention(a.tokens, o),
  },
  positionProfile: {
    options: { layer: [0, 0], head: [1, 0] },
    args: () => ({ tokens: Int32Array.from([1, 2, 3, 4, 5, 6]) }),
    spoil: (a) => (a.tokens[1] = 12),
    call: (rp, a, o, env) => env.modelOf(rp).positionProfile(a.tokens, o),
  },
  localityProfile: {
    options: { width: [2, 3.5], asymmetry: [0.4, -0.2], maxDistance: [5, 3] },
    args: () => ({}),
    spoil: () => {},
    call: (rp, a, o) => rp.localityProfile(o),
  },
  syntheticBatch: {
    options: { task: ['copy-offset', 'copy-offset'], seqLen: [8, 16], batchSize: [2, 4], seed: [1, 2] },
    args: () => ({}),
    spoil: () => {},
    call: (rp, a, o) => rp.syntheticBatch(o),
  },
  t5Buckets: {
    options: { numBuckets: [32, 16], maxDistance: [128, 20], bidirectional: [true, false] },
    args: () => ({}),
    spoil: () => {},
    call: (rp, a, o) => rp.t5Buckets(6, o),
  },
  sinusoidal: {
    options: { base: [10000, 100] },
    args: () => ({}),
    spoil: () => {},
    call: (rp, a, o) => rp.sinusoidal(5, 4, o),
  },
  example: {
    options: { seqLen: [6, 5], maxDistance: [2, 1], draw: ['stable', 'handbook'] },
    args: () => ({}),
    spoil: () => {},
    call: (rp, a, o) => rp.example(o),
  },
  createModel: {
    options: { vocabSize: [12, 10], dModel: [8, 4], heads: [2, 1], seqLen: [8, 6], seed: [3, 4] },
    args: () => ({}),
    spoil: () => {},
    call: (rp, a, o) => {
      const model = rp.createModel(o);
      const parameters = model.parameters();
      model.dispose();
      return parameters;
    },
  },
};

/** A gradient vector of MODEL's size (every parameter's), set when the environment is made. */
let SHARD = null;

function batchOf() {
  return {
    tokens: Int32Array.from({ length: 16 }, (_, i) => (i * 5) % 12),
    targets: Int32Array.from({ length: 16 }, (_, i) => ((i * 7) % 13) - 1),
    batchSize: 2,
    seqLen: 8,
  };
}

// Per option: 'plain', 'later' (later reads answer the other value), 'spoil' (the first read
// spoils the other arguments), 'reenter' (the first read calls the instance), 'absent'.
const behaviour = fc.constantFrom('plain', 'plain', 'later', 'later', 'spoil', 'reenter', 'absent');
const caseArbitrary = fc.constantFrom(...Object.keys(ENTRIES)).chain((entry) =>
  fc.record({
    entry: fc.constant(entry),
    behaviours: fc.array(behaviour, {
      minLength: Object.keys(ENTRIES[entry].options).length,
      maxLength: Object.keys(ENTRIES[entry].options).length,
    }),
    choice: fc.nat(1),
  }),
);

const outcome = (run) => {
  try {
    return { value: run() };
  } catch (error) {
    return { error };
  }
};

function sameValue(a, b, path = 'result') {
  if (ArrayBuffer.isView(a) || ArrayBuffer.isView(b)) {
    const x = Buffer.from(a.buffer, a.byteOffset, a.byteLength);
    const y = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
    if (Object.prototype.toString.call(a) !== Object.prototype.toString.call(b) || !x.equals(y))
      throw new Error(`${path} differs from the plain call's`);
    return;
  }
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    if (!Object.is(a, b)) throw new Error(`${path}: ${String(a)} against the plain call's ${String(b)}`);
    return;
  }
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) sameValue(a[key], b[key], `${path}.${key}`);
}

/** The fuzzing environment: the attacked instance and its model, the reference and its twin. */
export async function optionsEnvironment() {
  const env = { rp: await createRelPos(), ref: await createRelPos(), counts: { cases: 0, returned: 0, refused: 0 } };
  env.model = env.rp.createModel(MODEL);
  env.twin = env.ref.createModel(MODEL);
  env.modelOf = (rp) => (rp === env.rp ? env.model : env.twin);
  SHARD = env.model.shardGradients(batchOf(), { stepTargets: 14 }).gradients;
  return env;
}

/** The property: one call with attacked options against its plain twin. */
export function optionsProperty(env) {
  return fc.property(caseArbitrary, (c) => {
    env.counts.cases += 1;
    const spec = ENTRIES[c.entry];
    const args = spec.args();
    const options = {};
    const firstRead = {};
    let reentered = false;
    Object.keys(spec.options).forEach((key, index) => {
      const how = c.behaviours[index];
      if (how === 'absent') return;
      const [value, other] = c.choice === 0 ? spec.options[key] : [...spec.options[key]].reverse();
      if (value === null) return;
      let reads = 0;
      Object.defineProperty(options, key, {
        enumerable: true,
        get() {
          reads += 1;
          if (reads === 1) {
            firstRead[key] = value;
            if (how === 'spoil') spec.spoil(args);
            if (how === 'reenter') {
              reentered = true;
              env.rp.randn(1, 2);
            }
            return value;
          }
          return how === 'later' ? other : value;
        },
      });
    });
    const attacked = outcome(() => spec.call(env.rp, args, options, env));
    if (reentered) {
      if (!attacked.error || !/called while/.test(attacked.error.message))
        throw new Error(`${c.entry}: a getter that called the instance gave ${attacked.error?.message ?? 'a result'}`);
      env.counts.refused += 1;
      return;
    }
    // The twin: the options as first read, the other arguments as the getters left them.
    const plain = outcome(() => spec.call(env.ref, structuredClone(args), { ...firstRead }, env));
    if (attacked.error) {
      if (!plain.error || plain.error.message !== attacked.error.message)
        throw new Error(
          `${c.entry}: the attacked call threw "${attacked.error.message}", the plain one ${plain.error ? `"${plain.error.message}"` : 'returned'}`,
        );
      env.counts.refused += 1;
    } else {
      if (plain.error)
        throw new Error(`${c.entry}: the attacked call returned, the plain one threw "${plain.error.message}"`);
      sameValue(attacked.value, plain.value);
      env.counts.returned += 1;
    }
    if (spec.changesModel) sameValue(env.model.parameters(), env.twin.parameters(), 'the trained model');
  });
}

/** Runs `numRuns` cases (seed: fast-check's, or `seed`); returns the counts. */
export async function fuzzOptions({ numRuns, seed } = {}) {
  const env = await optionsEnvironment();
  try {
    fc.assert(optionsProperty(env), { numRuns, ...(seed === undefined ? {} : { seed }) });
  } finally {
    env.rp.dispose();
    env.ref.dispose();
  }
  return env.counts;
}
