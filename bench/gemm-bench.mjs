// GFLOP/s of the GEMM micro-kernel (cpp/relpos/kernels/) per build, on the training engine's and
// the attention's shapes: bench/gemm-driver.cpp (clang-19, wasm32) runs the core's two product
// loops around the kernel imported from dist/relpos-kernels.wasm and
// dist/relpos-kernels-relaxed.wasm, as the core does. For C = A·B the packing is not timed (the
// core packs each weight once per product); for the weight gradients C += Aᵀ·B the copy of each
// depth pass into panels is. Times are CPU times (the
// machine may be shared). Run with
// --experimental-wasm-relaxed-simd for the relaxed row (npm run bench does).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';

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

function buildDriver() {
  const dir = mkdtempSync(`${os.tmpdir()}/relpos-gemm-`);
  const object = `${dir}/driver.o`;
  execFileSync('clang-19', [
    '--target=wasm32',
    '-nostdlib',
    '-O3',
    '-msimd128',
    '-fno-exceptions',
    `-I${ROOT}cpp`,
    '-c',
    `${ROOT}bench/gemm-driver.cpp`,
    '-o',
    object,
  ]);
  execFileSync('wasm-ld-19', [
    '--no-entry',
    '--import-memory',
    '--allow-undefined',
    '--export=multiply',
    '--export=multiplyTransposed',
    '-o',
    `${dir}/driver.wasm`,
    object,
  ]);
  return new WebAssembly.Module(readFileSync(`${dir}/driver.wasm`));
}

function timeBuild(driver, kernelsPath, shape, budgetMs) {
  const bytes = readFileSync(kernelsPath);
  if (!WebAssembly.validate(bytes)) return undefined;
  const { m, depth, n, transposed } = shape;
  const floats = m * depth + depth * n + m * n + 128 * (n + 8);
  const memory = new WebAssembly.Memory({ initial: Math.ceil((floats * 4 + 65536) / 65536) + 1 });
  const kernels = new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { memory } }).exports;
  const exports = new WebAssembly.Instance(driver, {
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
  multiply();
  // CPU time of this thread's process (steadier than wall time on a shared machine), median.
  const times = [];
  let spent = 0;
  while (times.length < 3 || (spent < budgetMs && times.length < 20)) {
    const start = performance.now();
    const cpuStart = process.cpuUsage();
    multiply();
    const used = process.cpuUsage(cpuStart);
    times.push((used.user + used.system) / 1000);
    spent += performance.now() - start;
  }
  times.sort((x, y) => x - y);
  const ms = times[Math.floor(times.length / 2)];
  return (2 * m * n * depth) / (ms * 1e6);
}

/** Rows [what, m × depth × n, relaxed GFLOP/s or undefined, plain GFLOP/s]. */
export function runGemmBench(budgetMs = 300) {
  const driver = buildDriver();
  return GEMM_SHAPES.map((shape) => [
    shape.what,
    `${shape.m} × ${shape.depth} × ${shape.n}`,
    timeBuild(driver, `${ROOT}dist/relpos-kernels-relaxed.wasm`, shape, budgetMs),
    timeBuild(driver, `${ROOT}dist/relpos-kernels.wasm`, shape, budgetMs),
  ]);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of runGemmBench()) console.log(row.map((x) => (typeof x === 'number' ? x.toFixed(1) : x)).join(' | '));
}
