// Self-check of the benchmark baselines: plain JS, TF.js (WASM backend) and numpy must compute
// the same six results as the relpos module. Run: cd /work/main && node bench/baselines-check.mjs
//
// Difference = max |baseline - module| / max |module| per result (normwise, so entries near zero
// do not blow up). Limits: 1e-4 in float32, 1e-10 in float64. Exits 1 if any limit is exceeded.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createRelPos } from '../web/api/index.js';
import { plainJsAttention } from './plain-js-attention.js';
import { createTfjsAttention } from './tfjs-attention.js';

const PYTHON = '/usr/bin/python3';
const BENCH_DIR = fileURLToPath(new URL('.', import.meta.url));
const INPUT_NAMES = ['q', 'k', 'v', 'relKeys', 'relValues'];
const RESULTS = ['contentScores', 'positionBiases', 'combinedScores', 'contentWeights', 'combinedWeights', 'output'];
const LIMIT = { Float32Array: 1e-4, Float64Array: 1e-10 };
const CASES = [
  { n: 37, d: 8, maxDistance: 5 }, // n > 2k + 1: clipping on both sides
  { n: 6, d: 8, maxDistance: 10 }, // n < k: no clipping, unused table rows
];

/** Random inputs in the given array type (float32 ones are the float64 ones rounded). */
function makeInputs(rp, { n, d, maxDistance }, ArrayType) {
  const tableRows = 2 * maxDistance + 1;
  const draw = (seed, length) => ArrayType.from(rp.randn(seed, length));
  return {
    q: draw(1, n * d), k: draw(2, n * d), v: draw(3, n * d),
    relKeys: draw(4, tableRows * d), relValues: draw(5, tableRows * d),
    n, d, maxDistance, ArrayType,
  };
}

/** The module's six results as plain arrays. */
function moduleAttention(rp, { q, k, v, relKeys, relValues, n, d, maxDistance }) {
  const m = (rows, data) => ({ rows, cols: d, data });
  const tableRows = 2 * maxDistance + 1;
  const r = rp.attention({
    q: m(n, q), k: m(n, k), v: m(n, v),
    relKeys: m(tableRows, relKeys), relValues: m(tableRows, relValues),
  });
  return Object.fromEntries(RESULTS.map((name) => [name, r[name].data]));
}

/** numpy_attention.attention() on the same inputs, via a Python child process (JSON in, JSON out). */
function numpyAttention(inputs) {
  const dtype = inputs.ArrayType === Float32Array ? 'float32' : 'float64';
  const script = `
import json, sys
import numpy as np
sys.path.insert(0, ${JSON.stringify(BENCH_DIR)})
from numpy_attention import attention, flat_table_indices
a = json.load(sys.stdin)
m = lambda name, rows: np.array(a[name], dtype=np.float64).astype("${dtype}").reshape(rows, a["d"])
t = 2 * a["maxDistance"] + 1
out = attention(m("q", a["n"]), m("k", a["n"]), m("v", a["n"]), m("relKeys", t), m("relValues", t),
                flat_table_indices(a["n"], a["maxDistance"]))
print(json.dumps([x.astype(np.float64).ravel().tolist() for x in out]))
`;
  const { n, d, maxDistance } = inputs;
  const data = Object.fromEntries(INPUT_NAMES.map((name) => [name, Array.from(inputs[name])]));
  const input = JSON.stringify({ n, d, maxDistance, ...data });
  const run = spawnSync(PYTHON, ['-c', script], { input, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`numpy check failed: ${run.stderr}`);
  const arrays = JSON.parse(run.stdout);
  return Object.fromEntries(RESULTS.map((name, r) => [name, arrays[r]]));
}

/** max |a - b| / max |b|. */
function relativeDifference(a, b) {
  let diff = 0;
  let scale = 0;
  for (let t = 0; t < b.length; t++) {
    diff = Math.max(diff, Math.abs(a[t] - b[t]));
    scale = Math.max(scale, Math.abs(b[t]));
  }
  return diff / (scale || 1);
}

/** Prints one line per baseline and returns whether every result is within the limit. */
function report(label, ArrayType, baseline, reference) {
  const limit = LIMIT[ArrayType.name];
  const diffs = RESULTS.map((name) => relativeDifference(baseline[name], reference[name]));
  const ok = diffs.every((x) => x < limit);
  const cells = RESULTS.map((name, r) => `${name} ${diffs[r].toExponential(1)}`).join('  ');
  console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${label.padEnd(18)} ${cells}`);
  return ok;
}

async function checkCase(rp, tfjs, shape) {
  console.log(`n = ${shape.n}, d = ${shape.d}, k = ${shape.maxDistance} (max relative difference vs the module, same precision)`);
  let ok = true;
  for (const ArrayType of [Float64Array, Float32Array]) {
    const inputs = makeInputs(rp, shape, ArrayType);
    const reference = moduleAttention(rp, inputs);
    const bits = ArrayType === Float32Array ? 'float32' : 'float64';
    ok = report(`plain JS ${bits}`, ArrayType, plainJsAttention(inputs), reference) && ok;
    if (ArrayType === Float32Array) {
      ok = report(`TF.js ${tfjs.backend} ${bits}`, ArrayType, await tfjs.attention(inputs), reference) && ok;
      ok = report(`TF.js direct ${bits}`, ArrayType, await tfjs.attention(inputs, 'direct'), reference) && ok;
    }
    ok = report(`numpy ${bits}`, ArrayType, numpyAttention(inputs), reference) && ok;
  }
  return ok;
}

/** Runs the timing script on a tiny config to show it works end to end. */
function runNumpyScript() {
  const config = { sizes: [[16, 2], [37, 5]], d: 8, dtypes: ['float32', 'float64'], budget_seconds: 0.05, max_reps: 5, min_reps: 3 };
  const run = spawnSync(PYTHON, [`${BENCH_DIR}numpy_attention.py`, JSON.stringify(config)], { encoding: 'utf8' });
  console.log(`numpy_attention.py (tiny config): ${run.stdout.trim() || run.stderr.trim()}`);
  if (run.status !== 0) return false;
  return !('error' in JSON.parse(run.stdout));
}

const rp = await createRelPos();
const tfjs = await createTfjsAttention();
let ok = true;
for (const shape of CASES) ok = (await checkCase(rp, tfjs, shape)) && ok;
ok = runNumpyScript() && ok;
tfjs.dispose();
console.log(ok ? 'All baselines agree with the module.' : 'Some baselines disagree with the module.');
process.exitCode = ok ? 0 : 1;
