// bench:train's TensorFlow.js row: the same model as relpos's training engine (README "Training a
// model") on TF.js's WASM backend in Node, float32, trained with tf.variableGrads and
// tf.train.adam. The relative terms go through a constant one-hot tensor M[i, j, c] = [clip(j - i)
// + k == c] (position biases: P M summed over c; value buckets: W M summed over j), matrix
// products TF.js differentiates on every backend.
// Usage: node bench/train-tfjs.mjs name:V:d:heads:layers:k:n:B:ffn [...]   Prints one JSON line.
import path from 'node:path';
import { createRequire } from 'node:module';
import * as tf from '@tensorflow/tfjs-core';
import { register } from 'node:module';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';

const require = createRequire(import.meta.url);

// tfjs-core's Node bundle registers no gradients; its ES module build does, from files imported
// without extensions, which Node's ESM loader needs spelt out: a resolve hook adds '.js'. The
// registries are global, so the gradients serve the bundle (and the wasm backend) too.
const addJs = `export async function resolve(specifier, context, next) {
  try { return await next(specifier, context); }
  catch (error) { if (/^\\.\\.?\\//.test(specifier) && !specifier.endsWith('.js')) return next(specifier + '.js', context); throw error; }
}`;
register(`data:text/javascript,${encodeURIComponent(addJs)}`);
await import('@tensorflow/tfjs-core/dist/register_all_gradients.js');

function oneHotOffsets(n, k) {
  const rows = 2 * k + 1;
  const data = new Float32Array(n * n * rows);
  for (let i = 0; i < n; i += 1) {
    for (let j = 0; j < n; j += 1) data[(i * n + j) * rows + Math.min(Math.max(j - i, -k), k) + k] = 1;
  }
  return tf.tensor3d(data, [n, n, rows]); // i, j, c
}

function layerNorm(x, gain, bias) {
  const { mean, variance } = tf.moments(x, -1, true);
  return tf.add(tf.mul(tf.div(tf.sub(x, mean), tf.sqrt(tf.add(variance, 1e-5))), gain), bias);
}

function build(spec) {
  const [name, ...numbers] = spec.split(':');
  const [V, d, H, L, k, n, B, f] = numbers.map(Number);
  const dk = d / H;
  const rows = 2 * k + 1;
  const v = (shape, scale) =>
    tf.variable(scale === 0 ? tf.zeros(shape) : tf.mul(tf.randomNormal(shape, 0, 1, 'float32', 1), scale));
  const ones = (shape) => tf.variable(tf.ones(shape));
  const params = { embedding: v([V, d], 1), layers: [], outW: v([d, V], 1 / Math.sqrt(d)), outB: v([V], 0) };
  for (let l = 0; l < L; l += 1) {
    params.layers.push({
      wq: v([d, d], 1 / Math.sqrt(d)),
      wk: v([d, d], 1 / Math.sqrt(d)),
      wv: v([d, d], 1 / Math.sqrt(d)),
      wo: v([d, d], 1 / Math.sqrt(d)),
      ak: v([rows, dk], 1 / Math.sqrt(dk)),
      av: v([rows, dk], 1 / Math.sqrt(dk)),
      g1: ones([d]),
      b1: v([d], 0),
      w1: v([d, f], 1 / Math.sqrt(d)),
      c1: v([f], 0),
      w2: v([f, d], 1 / Math.sqrt(f)),
      c2: v([d], 0),
      g2: ones([d]),
      b2: v([d], 0),
    });
  }
  const M = oneHotOffsets(n, k); // [n, n, rows]
  const Mt = tf.transpose(M, [0, 2, 1]); // [i, c, j]
  const tokensData = new Int32Array(B * n);
  const targetsData = new Int32Array(B * n);
  for (let r = 0; r < B * n; r += 1) tokensData[r] = (r * 7919 + 13) % V;
  for (let r = 0; r < B * n; r += 1) targetsData[r] = r % n === n - 1 ? 0 : tokensData[r + 1];
  const weights = tf.tensor1d(Array.from({ length: B * n }, (_, r) => (r % n === n - 1 ? 0 : 1)));
  const inputs = tf.cast(tf.oneHot(tf.tensor1d(tokensData, 'int32'), V), 'float32');
  const labels = tf.oneHot(tf.tensor1d(targetsData, 'int32'), V);
  const scale = 1 / Math.sqrt(dk);

  function attention(x, p) {
    const split = (t) => tf.transpose(tf.reshape(t, [B, n, H, dk]), [0, 2, 1, 3]); // B H n dk
    const q = split(tf.matMul(x, p.wq));
    const kk = split(tf.matMul(x, p.wk));
    const vv = split(tf.matMul(x, p.wv));
    // Position biases: P[b,h,i,c] = q · a^K[c]; bias[b,h,i,j] = sum_c P[b,h,i,c] M[i,j,c].
    const P = tf.reshape(tf.matMul(tf.reshape(q, [B * H * n, dk]), p.ak, false, true), [B * H, n, rows]);
    const Pi = tf.transpose(P, [1, 0, 2]); // i, BH, c
    const bias = tf.transpose(tf.matMul(Pi, Mt), [1, 0, 2]); // BH, i, j
    const scores = tf.mul(tf.add(tf.reshape(tf.matMul(q, kk, false, true), [B * H, n, n]), bias), scale);
    const w = tf.softmax(scores);
    const buckets = tf.transpose(tf.matMul(tf.transpose(w, [1, 0, 2]), M), [1, 0, 2]); // BH, i, c
    const z = tf.add(
      tf.reshape(tf.matMul(w, tf.reshape(vv, [B * H, n, dk])), [B, H, n, dk]),
      tf.reshape(tf.matMul(tf.reshape(buckets, [B * H * n, rows]), p.av), [B, H, n, dk]),
    );
    return tf.matMul(tf.reshape(tf.transpose(z, [0, 2, 1, 3]), [B * n, d]), p.wo);
  }

  function loss() {
    // The embedding as a one-hot product: gather's gradient (UnsortedSegmentSum) has no WASM kernel.
    let x = tf.matMul(inputs, params.embedding); // B·n × d
    for (const p of params.layers) {
      x = layerNorm(tf.add(x, attention(x, p)), p.g1, p.b1);
      const hidden = tf.relu(tf.add(tf.matMul(x, p.w1), p.c1));
      x = layerNorm(tf.add(x, tf.add(tf.matMul(hidden, p.w2), p.c2)), p.g2, p.b2);
    }
    const logits = tf.add(tf.matMul(x, params.outW), params.outB);
    return tf.losses.softmaxCrossEntropy(labels, logits, weights);
  }

  const optimiser = tf.train.adam(1e-3);
  const step = () => {
    const value = tf.tidy(() => {
      const { value: l, grads } = tf.variableGrads(loss);
      optimiser.applyGradients(grads);
      return l;
    });
    value.dataSync();
    value.dispose();
  };
  return { name, step };
}

async function main() {
  setWasmPaths(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm')) + path.sep);
  if (!(await tf.setBackend('wasm'))) throw new Error('the wasm backend failed to initialise');
  await tf.ready();
  const results = [];
  for (const spec of process.argv.slice(2)) {
    const { name, step } = build(spec);
    step();
    const times = [];
    const cpu = [];
    let spent = 0;
    while (times.length < 3 || (spent < 3000 && times.length < 20)) {
      const cpuStart = process.cpuUsage();
      const start = performance.now();
      step();
      const ms = performance.now() - start;
      const used = process.cpuUsage(cpuStart);
      cpu.push((used.user + used.system) / 1000);
      times.push(ms);
      spent += ms;
    }
    const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    results.push({ name, median_ms: median(times), cpu_ms: median(cpu), steps: times.length });
  }
  console.log(JSON.stringify({ version: tf.version_core, backend: tf.getBackend(), results }));
}

await main();
