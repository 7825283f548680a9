// GFLOP/s of the GEMM micro-kernel (cpp/relpos/kernels/) per build, on the training engine's and
// the attention's shapes: bench/gemm-driver.cpp (clang-19, wasm32) runs the core's two product
// loops around the kernel imported from dist/relpos-kernels.wasm and
// dist/relpos-kernels-relaxed.wasm, as the core does. For C = A·B the packing is not timed (the
// core packs each weight once per product); for the weight gradients C += Aᵀ·B the copy of each
// depth pass into panels is. Against each build's ceiling: bench/fma-ceiling.cpp, the kernel's
// own multiply-add step on 12 accumulators with no memory traffic. The two builds and the two
// ceilings are timed in alternation (bench/interleaved.mjs), in CPU time (the machine may be
// shared). Run with --experimental-wasm-relaxed-simd for the relaxed column (npm run bench does).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { interleavedMedians, timeOf } from './interleaved.mjs';

const ROOT = new URL('../', import.meta.url).pathname;

// m × depth × n: the model's products at the bench:train sizes, and attention's Q Kᵀ and W V;
// `transposed`: C += Aᵀ·B with A depth × m (the weight gradients).
export const GEMM_SHAPES = [
  { what: 'vocabulary projection, medium (B·n × d × V)', m: 2048, depth: 64, n: 2000 },
  { what: 'vocabulary projection, large', m: 2048, depth: 128, n: 2000 },
  { what: 'FFN up, large (B·n × d × 4d)', m: 2048, depth: 128, n: 512 },
  { what: 'FFN down, large (B·n × 4d × d)', m: 2048, depth: 512, n: 128 },
  { what: 'weight gradient, vocabulary, medium (d × B·n × V, Aᵀ·B)', m: 64, depth: 2048, n: 2000, transposed: true },
  { what: 'weight gradient, FFN, large (d × B·n × 4d, Aᵀ·B)', m: 128, depth: 2048, n: 512, transposed: true },
  { what: 'attention Q Kᵀ, n = 1024, d_k = 64', m: 1024, depth: 64, n: 1024 },
  { what: 'attention W V, n = 1024', m: 1024, depth: 1024, n: 64 },
];

function buildWasm(dir, name, source, flags, exports, linkFlags = []) {
  const object = `${dir}/${name}.o`;
  execFileSync('clang-19', [
    '--target=wasm32',
    '-nostdlib',
    '-O3',
    '-msimd128',
    ...flags,
    '-fno-exceptions',
    `-I${ROOT}cpp`,
    '-c',
    source,
    '-o',
    object,
  ]);
  const wasm = `${dir}/${name}.wasm`;
  execFileSync('wasm-ld-19', ['--no-entry', ...linkFlags, ...exports.map((e) => `--export=${e}`), '-o', wasm, object]);
  return readFileSync(wasm);
}

const KERNELS = [
  { build: 'relaxed', path: `${ROOT}dist/relpos-kernels-relaxed.wasm`, flags: ['-mrelaxed-simd'] },
  { build: 'plain', path: `${ROOT}dist/relpos-kernels.wasm`, flags: [] },
];

// The builds this engine runs: each kernels module with the ceiling built the same way.
function loadBuilds() {
  const dir = mkdtempSync(`${os.tmpdir()}/relpos-gemm-`);
  const driver = new WebAssembly.Module(
    buildWasm(
      dir,
      'driver',
      `${ROOT}bench/gemm-driver.cpp`,
      [],
      ['multiply', 'multiplyTransposed'],
      ['--import-memory', '--allow-undefined'],
    ),
  );
  return KERNELS.map((k) => {
    const kernels = readFileSync(k.path);
    if (!WebAssembly.validate(kernels)) return { ...k, kernels: null };
    const ceilingBytes = buildWasm(dir, `ceiling-${k.build}`, `${ROOT}bench/fma-ceiling.cpp`, k.flags, [
      'multiplyAddSteps',
    ]);
    const ceiling = new WebAssembly.Instance(new WebAssembly.Module(ceilingBytes)).exports.multiplyAddSteps;
    return { ...k, kernels: new WebAssembly.Module(kernels), driver, ceiling };
  });
}

// GFLOP/s of each build's ceiling: many short calls (a long single call would stay in V8's
// baseline tier), 12 accumulators × 8 flops per step.
const CEILING_STEPS = 100_000;
function ceilingMeasure(build) {
  for (let i = 0; i < 200; i += 1) build.ceiling(1000, 1);
  return () => timeOf(() => build.ceiling(CEILING_STEPS, 1)).cpu;
}

function gemmMeasure(build, shape) {
  const { m, depth, n, transposed } = shape;
  const floats = m * depth + depth * n + m * n + Math.ceil(n / 8) * (128 * 8 + 16);
  const memory = new WebAssembly.Memory({ initial: Math.ceil((floats * 4 + 65536) / 65536) + 1 });
  const kernels = new WebAssembly.Instance(build.kernels, { env: { memory } }).exports;
  const exports = new WebAssembly.Instance(build.driver, {
    env: { memory, relpos_gemm_f32_4x8: kernels.relpos_gemm_f32_4x8 },
  }).exports;
  const heap = new Float32Array(memory.buffer);
  const a = 1024;
  const packed = a + m * depth * 4;
  const c = packed + depth * n * 4;
  const panels = c + m * n * 4;
  for (let i = 0; i < m * depth + depth * n; i += 1) heap[a / 4 + i] = ((i * 7919) % 1000) / 1000 - 0.5;
  const multiply = transposed
    ? () => exports.multiplyTransposed(a, packed, panels, c, m, n, depth)
    : () => exports.multiply(a, packed, c, m, n, depth);
  return () => timeOf(multiply).cpu;
}

/**
 * { ceiling: {relaxed, plain}, rows: [{ what, shape, relaxed, plain }] } in GFLOP/s; relaxed is
 * undefined where this engine has no relaxed SIMD.
 */
export async function runGemmBench(budgetMs = 1500) {
  const builds = loadBuilds().filter((b) => b.kernels);
  const gflops = (flop, ms) => flop / (ms * 1e6);
  const byBuild = (values) => Object.fromEntries(builds.map((b, i) => [b.build, values[i]]));
  const ceilingMs = await interleavedMedians(builds.map(ceilingMeasure), { budgetMs: 500 });
  const ceiling = byBuild(ceilingMs.map((ms) => gflops(CEILING_STEPS * 12 * 8, ms)));
  const rows = [];
  for (const shape of GEMM_SHAPES) {
    const ms = await interleavedMedians(
      builds.map((b) => gemmMeasure(b, shape)),
      { budgetMs },
    );
    const flop = 2 * shape.m * shape.n * shape.depth;
    rows.push({
      what: shape.what,
      shape: `${shape.m} × ${shape.depth} × ${shape.n}`,
      ...byBuild(ms.map((t) => gflops(flop, t))),
    });
  }
  return { ceiling, rows };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { ceiling, rows } = await runGemmBench();
  const f = (x) => (x === undefined ? '—' : x.toFixed(1));
  console.log(`ceiling | relaxed ${f(ceiling.relaxed)} | plain ${f(ceiling.plain)}`);
  for (const r of rows) console.log(`${r.what} | ${r.shape} | ${f(r.relaxed)} | ${f(r.plain)}`);
}
