// Run by tests/js/kernels.test.js in a child Node with --experimental-wasm-relaxed-simd (Node 20
// runs relaxed SIMD only with it): the same problems on a relaxed-kernels and a plain-kernels
// instance; prints their results as JSON for the test to compare.
import { createRelPos } from 'relpos-wasm';
import { plainKernelsBase64, relaxedKernelsBase64 } from '../../../dist/relpos-kernels-wasm.mjs';
import { checkGemmEdges } from './gemm-edges.mjs';

const relaxed = await createRelPos({ kernels: 'relaxed' });
const plain = await createRelPos({ kernels: 'plain' });
const automatic = await createRelPos();

// Small integers: every product and partial sum is exact in float32, fused or not.
const integers = (seed, rows, cols) => {
  let state = seed;
  const data = Float32Array.from({ length: rows * cols }, () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return (state % 9) - 4;
  });
  return { rows, cols, data };
};
const gaussian = (rp, seed, rows, cols) => ({ rows, cols, data: Float32Array.from(rp.randn(seed, rows * cols)) });

function problems(rp) {
  const n = 77; // several 4-row blocks and 8-column panels, and remainders of each
  return {
    exact: {
      q: integers(1, n, 64),
      k: integers(2, n, 64),
      v: integers(3, n, 24),
      relKeys: integers(4, 9, 64),
      relValues: integers(5, 9, 24),
      scale: 1,
    },
    random: {
      q: gaussian(rp, 11, n, 64),
      k: gaussian(rp, 12, n, 64),
      v: gaussian(rp, 13, n, 24),
      relKeys: gaussian(rp, 14, 9, 64),
      relValues: gaussian(rp, 15, 9, 24),
    },
  };
}

function run(rp) {
  const out = {};
  for (const [name, inputs] of Object.entries(problems(rp))) {
    const result = rp.attention(inputs);
    out[name] = Object.fromEntries(
      ['contentScores', 'combinedScores', 'combinedWeights', 'output'].map((panel) => [
        panel,
        Array.from(result[panel].data),
      ]),
    );
  }
  const model = rp.createModel({ vocabSize: 24, dModel: 32, heads: 2, layers: 2, seqLen: 12, maxBatchSize: 8 });
  const batch = rp.syntheticBatch({ task: 'copy-offset', offset: 2, vocabSize: 24, seqLen: 12, batchSize: 8, seed: 3 });
  out.losses = Array.from({ length: 6 }, () => model.trainStep(batch).loss);
  model.dispose();
  return out;
}

// q·k = −(1 + 2⁻¹¹) + (1 + 2⁻¹²)², in this order: rounding the product gives 0, fusing it 2⁻²⁴.
function fusedProbe(rp) {
  const rows = (values) => ({ rows: 8, cols: 2, data: Float32Array.from({ length: 16 }, (_, i) => values[i % 2]) });
  const inputs = {
    q: rows([1, 1 + 2 ** -12]),
    k: rows([-(1 + 2 ** -11), 1 + 2 ** -12]),
    relKeys: { rows: 1, cols: 2, data: new Float32Array(2) },
    scale: 1,
  };
  return rp.attention(inputs, { outputs: ['contentScores'] }).contentScores.data[0];
}

// A call split by rows at multiples of 32 (as the worker pool splits) against the whole call:
// the split call packs other table rows, so its panels' edges fall elsewhere. True if every
// bit agrees.
function splitAgrees(rp) {
  const n = 600;
  const inputs = {
    q: gaussian(rp, 21, n, 16),
    k: gaussian(rp, 22, n, 16),
    v: gaussian(rp, 23, n, 8),
    relKeys: gaussian(rp, 24, 601, 16),
    relValues: gaussian(rp, 25, 601, 8),
  };
  const whole = rp.attention(inputs);
  return [0, 224, 448].every((first) => {
    const rows = Math.min(224, n - first);
    const q = { rows, cols: 16, data: inputs.q.data.subarray(first * 16, (first + rows) * 16) };
    const part = rp.attention({ ...inputs, q }, { queryOffset: first });
    return Object.keys(part).every(
      (name) =>
        name === 'maxDistance' ||
        part[name].data.every((x, i) => Object.is(x, whole[name].data[first * whole[name].cols + i])),
    );
  });
}

process.stdout.write(
  JSON.stringify({
    automatic: automatic.kernels,
    edges: {
      relaxed: checkGemmEdges(Buffer.from(relaxedKernelsBase64, 'base64')),
      plain: checkGemmEdges(Buffer.from(plainKernelsBase64, 'base64')),
    },
    fused: { relaxed: fusedProbe(relaxed), plain: fusedProbe(plain) },
    splitAgrees: { relaxed: splitAgrees(relaxed), plain: splitAgrees(plain) },
    relaxed: run(relaxed),
    plain: run(plain),
    inputs: problems(plain).random,
  }),
);
