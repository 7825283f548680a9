// npm run bench: one table, one run. Median time of a full attention (every panel and the
// output) at d_k = 64 for n in {16, 64, 256, 1024, 2048} and k in {16, n - 1}, for this module
// (float32, float64) and what a user would compare it with: plain JS typed arrays, TensorFlow.js
// on its WASM backend, numpy (when /usr/bin/python3 has it), and native builds of the same
// core (-O3 -msse4.2: the same 128-bit vectors as WASM SIMD; -O3 -march=native); at n = 1024,
// k = 16 also onnxruntime-web's WASM backend on a hand-written ONNX graph of the same attention
// (bench/onnx-shaw-attention.mjs). Every ratio is
// the other's time over this module's, from the same run: above 1, this module is faster.
// Options: --quick (n up to 256), --sizes 64:16,1024:16 (any n:k list).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { createRelPos } from '../web/api/index.js';
import { plainJsAttention } from './plain-js-attention.js';
import { createTfjsAttention } from './tfjs-attention.js';
import { createOrtAttention } from './onnx-shaw-attention.mjs';
import { callForms, copyForms } from './call-forms.js';
import { runInChromium } from './call-forms-bench.mjs';
import { blasEnv } from './anchor-process.mjs';
import { interleavedMedians, timeOf, timeOfAsync } from './interleaved.mjs';

const D = 64;
const ROOT = new URL('../', import.meta.url).pathname;
const NATIVE = { sse42: `${ROOT}build/native/relpos_bench_sse42`, native: `${ROOT}build/native/relpos_bench_native` };
const BUDGET_MS = 400;
const DIRECT_TFJS_MAX_N = 1024;

function chosenSizes() {
  const at = process.argv.indexOf('--sizes');
  if (at > 0) return process.argv[at + 1].split(',').map((pair) => pair.split(':').map(Number));
  const ns = process.argv.includes('--quick') ? [16, 64, 256] : [16, 64, 256, 1024, 2048];
  return ns
    .flatMap((n) => [
      [n, 16],
      [n, n - 1],
    ])
    .filter(([n, k], i, all) => all.findIndex(([m, l]) => m === n && l === k) === i);
}

/**
 * Median over calls of `run` (sync or async) after one warm-up: at least 3 calls, at most 20,
 * about BUDGET_MS in all. What is recorded per call is its time in ms, or `reading()` after it.
 */
async function medianMs(run, reading = null) {
  await run();
  const values = [];
  let spent = 0;
  while (values.length < 3 || (spent < BUDGET_MS && values.length < 20)) {
    const start = performance.now();
    await run();
    const ms = performance.now() - start;
    values.push(reading ? reading() : ms);
    spent += ms;
  }
  values.sort((a, b) => a - b);
  return values[Math.floor(values.length / 2)];
}

/** Wall ms of one call of `run` (sync). */
const wallOf = (run) => timeOf(run).wall;

/** The core's own time of the last call: the sum of its stage times (no JS copies). */
const coreMs = (rp) => Object.values(rp.lastTimings()).reduce((a, b) => a + b, 0);

function inputsFor(rp, n, k, ArrayType) {
  const draw = (rows, cols, seed) => ArrayType.from(rp.randn(seed, rows * cols));
  return {
    q: draw(n, D, 1),
    k: draw(n, D, 2),
    v: draw(n, D, 3),
    relKeys: draw(2 * k + 1, D, 4),
    relValues: draw(2 * k + 1, D, 5),
    n,
    d: D,
    maxDistance: k,
    ArrayType,
  };
}

const asMatrices = (x) => {
  const m = (data, rows) => ({ rows, cols: D, data });
  return {
    q: m(x.q, x.n),
    k: m(x.k, x.n),
    v: m(x.v, x.n),
    relKeys: m(x.relKeys, 2 * x.maxDistance + 1),
    relValues: m(x.relValues, 2 * x.maxDistance + 1),
  };
};

// What a first write to new memory costs natively here (bench/first-touch.cpp): the floor under
// any call that returns fresh arrays, in every engine.
function runFirstTouch(mib) {
  const program = `${ROOT}build/native/relpos_first_touch`;
  if (!existsSync(program)) return null;
  return JSON.parse(execFileSync(program, [String(mib)], { encoding: 'utf8' }));
}

function runNative(flavour, sizes) {
  if (!existsSync(NATIVE[flavour])) return { error: `not built (${NATIVE[flavour]}): run scripts/build.sh bench` };
  const output = execFileSync(NATIVE[flavour], [String(D), ...sizes.map(([n, k]) => `${n}:${k}`)], {
    encoding: 'utf8',
  });
  return JSON.parse(output);
}

// numpy on `threads` BLAS threads (OpenBLAS, installed by scripts/bench-setup.sh).
function runNumpy(sizes, threads) {
  if (!existsSync('/usr/bin/python3')) return { error: 'no /usr/bin/python3' };
  const env = blasEnv(threads);
  const config = {
    sizes,
    d: D,
    dtypes: ['float32', 'float64'],
    budget_seconds: BUDGET_MS / 1000,
    max_reps: 20,
    min_reps: 3,
  };
  try {
    const output = execFileSync('/usr/bin/python3', [`${ROOT}bench/numpy_attention.py`, JSON.stringify(config)], {
      encoding: 'utf8',
      maxBuffer: 1 << 24,
      env,
    });
    return JSON.parse(output.trim().split('\n').pop());
  } catch (error) {
    return { error: `numpy run failed: ${error.message.split('\n')[0]}` };
  }
}

const find = (results, n, k, dtype) => results?.find((r) => r.n === n && r.k === k && r.dtype === dtype);
const fmt = (ms) => (ms === undefined ? '—' : ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0));
const cell = (ms, ours) => (ms === undefined ? '—' : `${fmt(ms)} (${(ms / ours).toFixed(ms / ours < 10 ? 2 : 1)}×)`);
const gflops = (n, ms) => (ms > 0 ? ((2 * n * n * D) / (ms * 1e6)).toFixed(1) : '—');

function printTable(title, header, rows) {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => String(r[c]).length)));
  const line = (cells) => `| ${cells.map((v, c) => String(v).padStart(widths[c])).join(' | ')} |`;
  console.log(`\n${title}\n`);
  console.log(line(header));
  console.log(`|${widths.map((w) => `${'-'.repeat(w + 1)}:`).join('|')}|`);
  for (const row of rows) console.log(line(row));
}

async function main() {
  const sizes = chosenSizes();
  // The default kernels (relaxed SIMD where this Node validates it: npm run bench passes
  // --experimental-wasm-relaxed-simd) and the plain build.
  const rp = await createRelPos();
  const rpPlain = await createRelPos({ kernels: 'plain' });
  const tfjs = await createTfjsAttention();
  const cpu = (readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.*)/) ?? [])[1] ?? os.cpus()[0]?.model;
  console.log(
    `relpos benchmark, ${new Date().toISOString().slice(0, 10)}: ${cpu}, ${os.cpus().length} cores (one used), Node ${process.version}, d_k = ${D}`,
  );
  console.log(
    `Median ms of a full attention (all five n × n panels and the output); (×) = that time / relpos time, same run. relpos runs the ${rp.kernels} GEMM kernels; "plain kernels" the plain-SIMD build. The five relpos columns are timed in alternation, call after call (bench/interleaved.mjs); the other columns one after another.`,
  );
  console.log(
    'relpos returns new arrays each call; "out=" writes into an earlier result\'s arrays (attention(inputs, { out })); "views" returns views of WASM memory (attention(inputs, { views: true })); "core" is the WASM core alone (its stage times), without copying inputs in and results out: the like of the native builds.',
  );

  // The target row first, in a Node process of its own (bench/views-target.mjs).
  let target;
  try {
    const out = execFileSync(process.execPath, [...process.execArgv, `${ROOT}bench/views-target.mjs`], {
      encoding: 'utf8',
    });
    target = JSON.parse(out.trim().split('\n').pop());
  } catch (error) {
    target = { error: error.message.split('\n')[0] };
  }
  const numpy = runNumpy(sizes, 1);
  const numpyAll = runNumpy(sizes, os.cpus().length);
  const native = { sse42: runNative('sse42', sizes), native: runNative('native', sizes) };
  const rows32 = [];
  const rows64 = [];
  const flops = [];
  for (const [n, k] of sizes) {
    const x32 = inputsFor(rp, n, k, Float32Array);
    const x64 = inputsFor(rp, n, k, Float64Array);
    const m32 = asMatrices(x32);
    const m64 = asMatrices(x64);
    const reused = rp.attention(m32);
    // The five ways of calling relpos, in alternation (their ratios are the table's point).
    const [ours32, reuse32, views32, core32, plainKernels32] = await interleavedMedians(
      [
        () => wallOf(() => rp.attention(m32)),
        () => wallOf(() => rp.attention(m32, { out: reused })),
        () => wallOf(() => rp.attention(m32, { views: true })),
        () => {
          rp.attention(m32, { out: reused });
          return coreMs(rp);
        },
        () => wallOf(() => rpPlain.attention(m32)),
      ],
      { budgetMs: 5 * BUDGET_MS, maxRounds: 20 },
    );
    rp.attention(m32);
    const stages32 = rp.lastTimings();
    rpPlain.attention(m32);
    const plainStages32 = rpPlain.lastTimings();
    const ours64 = await medianMs(() => rp.attention(m64));
    const stages64 = rp.lastTimings();
    const plain32 = await medianMs(() => plainJsAttention(x32));
    const plain64 = await medianMs(() => plainJsAttention(x64));
    const tf32 = await medianMs(() => tfjs.attention(x32));
    const tfDirect32 = n <= DIRECT_TFJS_MAX_N ? await medianMs(() => tfjs.attention(x32, 'direct')) : undefined;
    const nat = (flavour, dtype) => find(native[flavour].results, n, k, dtype);
    rows32.push([
      n,
      k,
      fmt(ours32),
      cell(reuse32, ours32),
      cell(views32, ours32),
      cell(core32, ours32),
      cell(plainKernels32, ours32),
      cell(plain32, ours32),
      cell(tf32, ours32),
      cell(tfDirect32, ours32),
      cell(find(numpy.results, n, k, 'float32')?.median_ms, ours32),
      cell(find(numpyAll.results, n, k, 'float32')?.median_ms, ours32),
      cell(nat('sse42', 'float32')?.median_ms, ours32),
      cell(nat('native', 'float32')?.median_ms, ours32),
    ]);
    rows64.push([
      n,
      k,
      fmt(ours64),
      cell(plain64, ours64),
      cell(find(numpy.results, n, k, 'float64')?.median_ms, ours64),
      cell(find(numpyAll.results, n, k, 'float64')?.median_ms, ours64),
      cell(nat('sse42', 'float64')?.median_ms, ours64),
      cell(nat('native', 'float64')?.median_ms, ours64),
    ]);
    const s = nat('sse42', 'float32')?.stages;
    flops.push([
      n,
      k,
      gflops(n, stages32.contentScores),
      gflops(n, stages32.valueProduct),
      gflops(n, plainStages32.contentScores),
      gflops(n, plainStages32.valueProduct),
      gflops(n, stages64.contentScores),
      gflops(n, stages64.valueProduct),
      gflops(n, s?.contentScores),
      gflops(n, s?.valueProduct),
    ]);
    process.stderr.write(`  measured n = ${n}, k = ${k}\n`);
  }
  tfjs.dispose();
  rpPlain.dispose();

  printTable(
    'float32',
    [
      'n',
      'k',
      'relpos',
      'relpos, out=',
      'relpos, views',
      'relpos core',
      'relpos, plain kernels',
      'plain JS',
      'TF.js WASM',
      'TF.js WASM, direct',
      'numpy 1 thread',
      `numpy ${os.cpus().length} threads`,
      'native SSE4.2',
      'native -march=native',
    ],
    rows32,
  );
  printTable(
    'float64 (TF.js WASM has no float64)',
    [
      'n',
      'k',
      'relpos',
      'plain JS',
      'numpy 1 thread',
      `numpy ${os.cpus().length} threads`,
      'native SSE4.2',
      'native -march=native',
    ],
    rows64,
  );
  printTable(
    "GFLOP/s of the two matrix products (2·n²·d_k flops each; from the core's stage times)",
    [
      'n',
      'k',
      `QKᵀ f32 ${rp.kernels}`,
      `WV f32 ${rp.kernels}`,
      'QKᵀ f32 plain',
      'WV f32 plain',
      'QKᵀ f64',
      'WV f64',
      'QKᵀ f32 SSE4.2',
      'WV f32 SSE4.2',
    ],
    flops,
  );
  // Where a call's time goes, by call form, in Node and in headless Chromium (float32, the
  // issue's size), and the worker pool in Chromium at n = 1024 and 2048.
  const formSizes = sizes.filter(([m, l]) => m === 1024 && l === 16);
  const poolRuns = sizes.filter(([m, l]) => m >= 1024 && l === 16);
  const poolSizes = [...new Set([1, 2, os.cpus().length])];
  const load = () => os.loadavg()[0].toFixed(1);
  const nodeLoad = load();
  const nodeForms = [];
  for (const [n, k] of formSizes) nodeForms.push(await callForms(rp, n, k));
  const nodeCopies = formSizes.length ? await copyForms({}) : null;
  const chromiumLoad = load();
  const chromium =
    formSizes.length || poolRuns.length
      ? await runInChromium({ sizes: formSizes, poolSizes, poolRuns })
      : { forms: [], copies: null, pools: null };
  const ofCore = (ms, core) => `${fmt(ms)} (${(ms / core).toFixed(2)}×)`;
  for (const [index, node] of nodeForms.entries()) {
    const web = chromium.forms[index];
    const row = (what, key) => [what, ofCore(node[key], node.core), ofCore(web[key], web.core)];
    printTable(
      `Where the time of a call goes, float32, n = ${node.n}, k = ${node.k} (${node.panels} n × n panels = ${node.mib} MiB, and the n × d_k output): Node and headless Chromium (page main thread), each timed in alternation; (×) = that time / the core's, same run; load average ${nodeLoad} / ${chromiumLoad}`,
      ['what', 'Node ms', 'Chromium ms'],
      [
        row('the core alone (its stage times)', 'core'),
        row('attention(inputs, { views: true }): views of WASM memory, no copy out', 'views'),
        row('attention(inputs, { out }): copies in and out, into arrays written before', 'out'),
        row('attention(inputs): fresh result arrays', 'fresh'),
        ['fresh / views (target ≤ 1.5)', (node.fresh / node.views).toFixed(2), (web.fresh / web.views).toFixed(2)],
        row(`no WASM: ${node.panels} new Float32Array(n²), one write to each 4 KiB page`, 'firstTouch'),
        row(`no WASM: ${node.panels} × copying n² floats into arrays written before`, 'warmCopy'),
      ],
    );
    const touch = runFirstTouch(Math.round(node.mib));
    if (touch) {
      const perPage = (ms) => `${fmt(ms)} (${((ms * 1000) / touch.pages).toFixed(2)} µs a page)`;
      printTable(
        `The floor under fresh arrays on this machine: ${node.mib} MiB of new memory (${touch.pages} pages of 4 KiB), natively in C++ with no JavaScript (bench/first-touch.cpp, median of ${touch.rounds}); transparent huge pages: ${touch.transparentHugePages}`,
        ['what', 'ms'],
        [
          [
            'one write to each new 4 KiB page (each faults; the kernel finds and zeroes a page)',
            perPage(touch.firstTouchMs),
          ],
          ['the same in two threads, half the pages each', perPage(touch.twoThreadsMs)],
          ['the same after madvise(MADV_HUGEPAGE): 2 MiB pages', perPage(touch.hugePageMs)],
          ['memset of the same memory once written (memory speed)', fmt(touch.warmMs)],
          ['attention(inputs) fresh − out in Chromium, same size (above)', fmt(web.fresh - web.out)],
        ],
      );
    }
  }
  // onnxruntime-web's WebAssembly backend on the same inputs (the output only, as its graph
  // computes), against relpos asked for the output alone; checked against relpos's output.
  for (const [n, k] of formSizes) {
    const m32 = asMatrices(inputsFor(rp, n, k, Float32Array));
    const outputOnly = () => rp.attention(m32, { outputs: ['output'], views: true });
    const ort = await createOrtAttention({ n, k, dk: D, dv: D });
    if (!ort) {
      console.log('\nonnxruntime-web: not installed (scripts/bench-setup.sh installs it)');
      continue;
    }
    const ortOutput = await ort.run(m32);
    const ourOutput = rp.attention(m32, { outputs: ['output'] }).output.data;
    const differs = ourOutput.reduce((worst, x, i) => Math.max(worst, Math.abs(x - ortOutput[i])), 0);
    // relpos and onnxruntime-web in alternation, wall and CPU time.
    const [relposTime, ortTime] = await interleavedMedians(
      [() => timeOfAsync(outputOnly), () => timeOfAsync(() => ort.run(m32))],
      { budgetMs: 4 * BUDGET_MS, maxRounds: 20 },
    );
    ort.dispose();
    printTable(
      `The output alone, float32, n = ${n}, k = ${k} (Node, in alternation)`,
      ['what', 'ms'],
      [
        [`relpos, outputs: ['output'], views (CPU ms ${fmt(relposTime.cpu)})`, fmt(relposTime.wall)],
        [
          `onnxruntime-web ${ort.version} WASM backend, 1 thread, the output (hand-written ONNX graph; max |difference| from relpos ${differs.toExponential(1)}; CPU ms ${fmt(ortTime.cpu)}, ${(ortTime.cpu / relposTime.cpu).toFixed(2)}× relpos's)`,
          fmt(ortTime.wall),
        ],
      ],
    );
  }
  if (nodeCopies) {
    printTable(
      'Copying 5 × 4 MiB out of a WebAssembly.Memory, by form (ms, medians in alternation): into fresh memory each form costs what its first writes to new pages cost; into arrays written before, a copy at memory speed',
      ['form', 'Node ms', 'Chromium ms'],
      Object.keys(nodeCopies).map((form) => [form, fmt(nodeCopies[form]), fmt(chromium.copies[form])]),
    );
  }
  if (chromium.pools) {
    const most = Math.max(...poolSizes);
    printTable(
      `float32 in headless Chromium (fresh result arrays), timed in alternation: one instance on the page's main thread and relpos-wasm/worker with ${poolSizes.join(', ')} workers (${chromium.pools.cores} cores); (×) = the main thread's time / that time; "blocks copied on the page": 2 workers, each block transferred and copied into new arrays on the page (an \`out\` of new arrays), (×) = that / the workers writing in place; numpy (×) = numpy / 1 worker`,
      [
        'n',
        'k',
        'page main thread',
        ...poolSizes.map((w) => `${w} worker${w > 1 ? 's' : ''}`),
        '2 workers / 1 worker',
        '2 workers, blocks copied on the page',
        'numpy 1 thread',
        `numpy ${os.cpus().length} threads`,
      ],
      chromium.pools.results.map((r) => {
        const np1 = find(numpy.results, r.n, r.k, 'float32')?.median_ms;
        const npAll = find(numpyAll.results, r.n, r.k, 'float32')?.median_ms;
        return [
          r.n,
          r.k,
          fmt(r.single),
          ...poolSizes.map((w) => `${fmt(r.pools[w])} (${(r.single / r.pools[w]).toFixed(2)}×)`),
          (r.pools[2] / r.pools[1]).toFixed(2),
          `${fmt(r.gathered[2])} (${(r.gathered[2] / r.pools[2]).toFixed(2)}× in place)`,
          np1 === undefined ? '—' : `${fmt(np1)} (${(np1 / r.pools[1]).toFixed(2)}×)`,
          npAll === undefined ? '—' : `${fmt(npAll)} (${(npAll / r.pools[most]).toFixed(2)}×)`,
        ];
      }),
    );
  }

  const notes = [];
  if (target.error) notes.push(`target row: not measured (${target.error})`);
  else
    notes.push(
      `target: attention(…, { views: true }) at n = 1024, k = 16, float32 ≥ 1.3× numpy 1 thread (bench/views-target.mjs: a fresh Node process, ${target.kernels} kernels; the two timed in alternation, blocks of 4 calls, the last 3 counted; numpy in a process of its own): wall ${fmt(target.ours.wall)} ms against ${fmt(target.numpy.wall)} ms (${(target.numpy.wall / target.ours.wall).toFixed(2)}×); CPU ${fmt(target.ours.cpu)} ms against ${fmt(target.numpy.cpu)} ms (${(target.numpy.cpu / target.ours.cpu).toFixed(2)}×; a process's CPU time counts all its threads, V8's too).`,
    );
  if (numpy.error) notes.push(`numpy: ${numpy.error}`);
  else
    notes.push(
      `numpy ${numpy.numpy}, BLAS in use (the libraries its process loaded): ${numpy.blas}; OPENBLAS_NUM_THREADS = 1 and ${os.cpus().length}, OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset.`,
    );
  for (const flavour of ['sse42', 'native'])
    if (native[flavour].error) notes.push(`native ${flavour}: ${native[flavour].error}`);
  notes.push(
    `TF.js ${tfjs.backend} backend: "TF.js WASM" uses matMul(a, transpose(b)) and gatherND (its fast paths); "direct" uses matMul(a, b, false, true) and gather, as first written (not run above n = ${DIRECT_TFJS_MAX_N}: seconds per call). Index tensors built once per shape in both.`,
  );
  console.log(`\n${notes.map((note) => `- ${note}`).join('\n')}`);
}

await main();
