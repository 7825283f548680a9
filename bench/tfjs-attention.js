// Baseline: relative self-attention (Shaw et al. 2018, docs/maths.md) with TensorFlow.js ops on the
// WebAssembly backend (@tensorflow/tfjs-backend-wasm) in Node. float32 only (TF.js WASM is float32).
//
//   content  = (Q/√d) Kᵀ
//   position = gatherND(flatten((Q/√d) a^Kᵀ), i·(2k+1) + index(i, j))
//   weights  = softmax(content), softmax(content + position)
//   output   = W V + B a^V, B[i, c] = Σ_{j: index(i,j)=c} W[i, j]   (bincount over flat indices)
//
// "tuned" (the default) is chosen for what the WASM backend (4.22.0) does well:
// - matMul(a, transpose(b)), not matMul(a, b, false, true): only untransposed matMuls go to
//   XNNPACK; any transpose flag falls back to a naive blocked loop (~8x slower at n = 1024).
// - gatherND, not gather: the GatherV2 kernel bounds-checks every index in JavaScript
//   (readSync + util.assert per index, ~10x slower for n² indices).
// - Index tensors are built in JavaScript (Int32Array): int32 clipByValue is wrong on this
//   backend (clip([-5], -2, 2) gives -1073741824). They depend only on (n, k), so they are
//   built once per shape and cached, as a TF.js user would keep constants.
// "direct" is the same maths as a TF.js user first writes it: matMul(a, b, false, true) and
// gather (what the issue measured); only the index handling is shared with "tuned".
import path from 'node:path';
import { createRequire } from 'node:module';
import * as tf from '@tensorflow/tfjs-core';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { schemeMatrices } from '../web/api/attention-args.js';

const SHAW_MATRICES = schemeMatrices('shaw'); // q, k, v, relKeys, relValues

const require = createRequire(import.meta.url);

/** The package's dist folder (holds the .wasm files), as a file path with a trailing slash. */
function wasmDistFolder() {
  return path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm')) + path.sep;
}

/** Flat indices i·(2k+1) + index(i, j) into an n × (2k+1) matrix, row-major over (i, j). */
function flatTableIndices(n, k) {
  const tableRows = 2 * k + 1;
  const flat = new Int32Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) flat[i * n + j] = i * tableRows + Math.min(Math.max(j - i, -k), k) + k;
  }
  return flat;
}

/**
 * The six results as TF.js tensors (call inside tf.tidy). index ([n², 1], for gatherND) and
 * bins ([n²], for bincount) both hold the flat table indices i·(2k+1) + index(i, j).
 */
function attentionTensors({ q, k, v, relKeys, relValues, n, d, maxDistance }, { index, bins }, style) {
  const tableRows = 2 * maxDistance + 1;
  const Q = tf.mul(tf.tensor2d(q, [n, d]), 1 / Math.sqrt(d));
  const K = tf.tensor2d(k, [n, d]);
  const V = tf.tensor2d(v, [n, d]);
  const relK = tf.tensor2d(relKeys, [tableRows, d]);
  const relV = tf.tensor2d(relValues, [tableRows, d]);

  const direct = style === 'direct';
  const timesTransposed = (a, b) => (direct ? tf.matMul(a, b, false, true) : tf.matMul(a, tf.transpose(b)));
  const contentScores = timesTransposed(Q, K);
  const P = tf.reshape(timesTransposed(Q, relK), [n * tableRows]); // n × (2k + 1), flat
  const gathered = direct ? tf.gather(P, bins) : tf.gatherND(P, index);
  const positionBiases = tf.reshape(gathered, [n, n]);
  const combinedScores = tf.add(contentScores, positionBiases);
  const contentWeights = tf.softmax(contentScores);
  const combinedWeights = tf.softmax(combinedScores);
  // Bucket each row's weights by table row, then multiply the bucket sums by a^V.
  const bucketSums = tf.bincount(bins, tf.reshape(combinedWeights, [n * n]), n * tableRows);
  const buckets = tf.reshape(bucketSums, [n, tableRows]);
  const output = tf.add(tf.matMul(combinedWeights, V), tf.matMul(buckets, relV));
  return [contentScores, positionBiases, combinedScores, contentWeights, combinedWeights, output];
}

const RESULT_NAMES = [
  'contentScores',
  'positionBiases',
  'combinedScores',
  'contentWeights',
  'combinedWeights',
  'output',
];

/**
 * Sets up TF.js on the WASM backend. attention(inputs, style = 'tuned' | 'direct') takes
 * { q, k, v, relKeys, relValues, n, d, maxDistance } (Float32Array, row-major) and resolves to
 * the six results as Float32Array, read back with .data() so a timing includes the work.
 */
export async function createTfjsAttention() {
  setWasmPaths(wasmDistFolder());
  if (!(await tf.setBackend('wasm'))) throw new Error('TF.js: the wasm backend failed to initialise');
  await tf.ready();

  const indexCache = new Map(); // `${n},${k}` -> { index: [n², 1], bins: [n²] } int32 tensors

  function indexTensors(n, k) {
    const key = `${n},${k}`;
    if (!indexCache.has(key)) {
      const bins = tf.tensor1d(flatTableIndices(n, k), 'int32');
      indexCache.set(key, { bins, index: tf.reshape(bins, [n * n, 1]) });
    }
    return indexCache.get(key);
  }

  async function attention(inputs, style = 'tuned') {
    for (const name of SHAW_MATRICES) {
      if (!(inputs[name] instanceof Float32Array)) throw new TypeError(`tfjsAttention: ${name} must be a Float32Array`);
    }
    const indices = indexTensors(inputs.n, inputs.maxDistance);
    const tensors = tf.tidy(() => attentionTensors(inputs, indices, style));
    try {
      const data = await Promise.all(tensors.map((t) => t.data()));
      return Object.fromEntries(RESULT_NAMES.map((name, r) => [name, data[r]]));
    } finally {
      tf.dispose(tensors);
    }
  }

  function dispose() {
    for (const { index, bins } of indexCache.values()) tf.dispose([index, bins]);
    indexCache.clear();
  }

  return { attention, backend: tf.getBackend(), dispose };
}
