// npm run bench:train: median milliseconds per training step (forward + backward + Adam) of the
// training engine (README "Training a model") for three configurations, against the native
// SSE4.2 build of the same core, PyTorch CPU eager (1 thread and all threads, OpenBLAS) and
// TensorFlow.js on its WASM backend, each implementing the same model. One table from one run.
//   node bench/train-bench.mjs [--only tiny,medium] [--skip torch,tfjs]
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { createRelPos } from '../web/api/index.js';
import { runGemmBench } from './gemm-bench.mjs';
import { blasEnv, startAnchor } from './anchor-process.mjs';
import { interleavedMedians, timeOf } from './interleaved.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
// name, V, d, heads, layers, k, n, B, ffn (ffn = 4 d, the API's default)
const CONFIGS = [
  { name: 'tiny', vocabSize: 64, dModel: 32, heads: 2, layers: 1, maxDistance: 4, seqLen: 16, batchSize: 32 },
  { name: 'medium', vocabSize: 2000, dModel: 64, heads: 4, layers: 2, maxDistance: 8, seqLen: 64, batchSize: 32 },
  { name: 'large', vocabSize: 2000, dModel: 128, heads: 4, layers: 2, maxDistance: 16, seqLen: 128, batchSize: 16 },
].map((c) => ({ ...c, ffnWidth: 4 * c.dModel }));
const argValue = (name) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1].split(',') : null;
};
const only = argValue('--only');
const skip = new Set(argValue('--skip') ?? []);
const configs = CONFIGS.filter((c) => !only || only.includes(c.name));
const spec = (c) =>
  [c.name, c.vocabSize, c.dModel, c.heads, c.layers, c.maxDistance, c.seqLen, c.batchSize, c.ffnWidth].join(':');

// Median wall and CPU ms per step of the same model on each engine (the relaxed and the plain
// kernels) and, where `anchor` is given (PyTorch on 1 thread, bench/anchor-process.mjs), of its
// model: all their steps in alternation (bench/interleaved.mjs), after about 300 ms of steps
// each (V8's optimising tier, PyTorch's allocator).
async function runOurs(engines, c, anchor) {
  const { batchSize, ...config } = c;
  delete config.name; // the row's label, not a model option
  const batch = engines[0].syntheticBatch({
    offset: 1,
    vocabSize: c.vocabSize,
    seqLen: c.seqLen,
    batchSize: c.batchSize,
    seed: 1,
  });
  const models = engines.map((rp) => rp.createModel({ ...config, maxBatchSize: batchSize, seed: 1 }));
  const step = (model) => () => {
    const { wall, cpu } = timeOf(() => model.trainStep(batch));
    return { median_ms: wall, cpu_ms: cpu };
  };
  const measures = models.map(step);
  if (anchor) {
    measures.push(async () => {
      const { wall_ms: wall, cpu_ms: cpu } = await anchor.time(1);
      return { median_ms: wall[0], cpu_ms: cpu[0] };
    });
  }
  for (const measure of measures) {
    for (let spent = 0, calls = 0; calls < 2 || spent < 300; calls += 1) spent += (await measure()).median_ms;
  }
  const results = await interleavedMedians(measures, { budgetMs: 8000, maxRounds: 60 });
  for (const model of models) model.dispose();
  return results;
}

function runProcess(label, command, args, env) {
  try {
    const out = execFileSync(command, args, {
      encoding: 'utf8',
      env: env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 2 ** 24,
    });
    return JSON.parse(out.trim().split('\n').pop());
  } catch (error) {
    const reason = (error.stderr || error.message || String(error)).trim().split('\n').pop();
    return { error: `${label}: ${reason}` };
  }
}

function printTable(header, rows) {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => String(r[c]).length)));
  const line = (cells) => `| ${cells.map((v, c) => String(v).padStart(widths[c])).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => `${'-'.repeat(w + 1)}:`).join('|')}|`);
  for (const row of rows) console.log(line(row));
}

const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));

async function main() {
  const cpu = (readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.*)/) ?? [])[1] ?? os.cpus()[0]?.model;
  console.log(
    `relpos training benchmark, ${new Date().toISOString().slice(0, 10)}: ${cpu}, ${os.cpus().length} cores, Node ${process.version}`,
  );
  // The default kernels (relaxed SIMD under --experimental-wasm-relaxed-simd, as npm run
  // bench:train runs it) and the plain build, on the same configurations.
  const rp = await createRelPos();
  const rpPlain = await createRelPos({ kernels: 'plain' });
  const ours = {};
  const oursPlain = {};
  // PyTorch on 1 thread, the targets' anchor, steps in alternation with relpos's.
  const torch1 = { results: [] };
  for (const c of configs) {
    const anchor = skip.has('torch')
      ? { error: 'skipped (--skip torch)' }
      : await startAnchor('/usr/bin/python3', [`${ROOT}bench/train_torch.py`, '--serve', '1', spec(c)], blasEnv(1));
    if (anchor.error) torch1.error ??= `PyTorch: ${anchor.error}`;
    else Object.assign(torch1, anchor.info);
    const [relaxed, plain, torch] = await runOurs([rp, rpPlain], c, anchor.error ? null : anchor);
    [ours[c.name], oursPlain[c.name]] = [relaxed, plain];
    if (torch) torch1.results.push({ name: c.name, ...torch });
    anchor.close?.();
  }
  console.log(
    `relpos kernels: ${rp.kernels} (and plain, for the plain column); relpos's two builds and PyTorch on 1 thread timed in alternation, step after step`,
  );
  const specs = configs.map(spec);
  const native = runProcess('native SSE4.2', `${ROOT}build/native/relpos_train_bench_sse42`, specs);
  const torchAll = skip.has('torch')
    ? { error: 'skipped (--skip torch)' }
    : runProcess('PyTorch', '/usr/bin/python3', [`${ROOT}bench/train_torch.py`, '0', ...specs], blasEnv(0));
  const tfjs = skip.has('tfjs')
    ? { error: 'skipped (--skip tfjs)' }
    : runProcess('TF.js', process.execPath, [`${ROOT}bench/train-tfjs.mjs`, ...specs]);

  const find = (result, name, key) => result.results?.find((r) => r.name === name)?.[key];
  const cell = (ms, base) => (ms === undefined ? '—' : `${fmt(ms)} (${(ms / base).toFixed(2)}×)`);
  const allThreads = `PyTorch ${torchAll.threads ?? 'all'} threads`;
  for (const [key, title] of [
    [
      'median_ms',
      'Median wall-clock ms per training step (forward + backward + Adam), float32; (×) = that time / relpos time, same run.',
    ],
    [
      'cpu_ms',
      "Median CPU ms per step (the process's CPU time: steadier than wall time on a shared machine; PyTorch with several threads: summed over them).",
    ],
  ]) {
    console.log(`\n${title}\n`);
    printTable(
      [
        'config',
        'V',
        'd',
        'heads',
        'layers',
        'k',
        'n',
        'B',
        'ffn',
        `relpos (WASM, Node, ${rp.kernels})`,
        'relpos, plain kernels',
        'native SSE4.2',
        'PyTorch 1 thread',
        allThreads,
        'TF.js WASM',
      ],
      configs.map((c) => {
        const base = ours[c.name][key];
        return [
          c.name,
          c.vocabSize,
          c.dModel,
          c.heads,
          c.layers,
          c.maxDistance,
          c.seqLen,
          c.batchSize,
          c.ffnWidth,
          fmt(base),
          cell(oursPlain[c.name][key], base),
          cell(find(native, c.name, key), base),
          cell(find(torch1, c.name, key), base),
          cell(find(torchAll, c.name, key), base),
          cell(find(tfjs, c.name, key), base),
        ];
      }),
    );
  }
  const gemm = await runGemmBench();
  console.log(
    "\nGFLOP/s of the GEMM micro-kernel per build (bench/gemm-bench.mjs: the kernels modules called wasm to wasm by the core's two product loops; CPU time, the builds in alternation; the packing of B not timed for A·B, the panel copies of each depth pass timed for Aᵀ·B). The ceiling: each build's multiply-add step on 12 accumulators, no memory traffic, the most a 128-bit kernel reaches on this machine.\n",
  );
  const gflop = (x) => (x === undefined ? '— (this engine has no relaxed SIMD)' : x.toFixed(1));
  const share = (x, ceiling) => (x === undefined ? '—' : `${((100 * x) / ceiling).toFixed(0)} %`);
  const { ceiling } = gemm;
  printTable(
    ['product', 'm × depth × n', 'relaxed SIMD', 'of its ceiling', 'plain SIMD', 'of its ceiling', 'relaxed / plain'],
    [
      [
        'ceiling (multiply-add steps only)',
        '—',
        gflop(ceiling.relaxed),
        '100 %',
        gflop(ceiling.plain),
        '100 %',
        ceiling.relaxed === undefined ? '—' : `${(ceiling.relaxed / ceiling.plain).toFixed(2)}×`,
      ],
      ...gemm.rows.map(({ what, shape, relaxed, plain }) => [
        what,
        shape,
        gflop(relaxed),
        share(relaxed, ceiling.relaxed),
        gflop(plain),
        share(plain, ceiling.plain),
        relaxed === undefined ? '—' : `${(relaxed / plain).toFixed(2)}×`,
      ]),
    ],
  );
  const notes = [];
  if (torch1.torch)
    notes.push(
      `PyTorch ${torch1.torch}, BLAS built against: ${torch1.blas_info}; loaded: ${torch1.blas_loaded.join(', ') || 'none found'}; 1 thread = OPENBLAS_NUM_THREADS=1 and torch.set_num_threads(1), OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE unset.`,
    );
  if (tfjs.backend)
    notes.push(`TF.js ${tfjs.version} on the ${tfjs.backend} backend (tf.variableGrads + tf.train.adam).`);
  for (const r of [native, torch1, torchAll, tfjs]) if (r.error) notes.push(`not measured: ${r.error}`);
  if (notes.length) console.log(`\n${notes.map((n) => `- ${n}`).join('\n')}`);
}

await main();
