// GFLOP/s of the GEMM micro-kernel (cpp/relpos/kernels/) per build, on the training engine's and
// the attention's shapes: bench/gemm-driver.cpp (clang-19, wasm32) calls the kernel imported from
// dist/relpos-kernels.wasm and dist/relpos-kernels-relaxed.wasm, as the core does. Packing is
// not timed (the core packs each right operand once per call). Times are CPU times (the
// machine may be shared). Run with
// --experimental-wasm-relaxed-simd for the relaxed row (npm run bench does).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';

const ROOT = new URL('../', import.meta.url).pathname;

// m × depth × n: the model's products at the bench:train sizes, and attention's Q Kᵀ and W V.
export const GEMM_SHAPES = [
  { what: 'vocabulary projection, medium (B·n × d × V)', m: 2048, depth: 64, n: 2000 },
  { what: 'vocabulary projection, large', m: 2048, depth: 128, n: 2000 },
  { what: 'FFN up, large (B·n × d × 4d)', m: 2048, depth: 128, n: 512 },
  { what: 'FFN down, large (B·n × 4d × d)', m: 2048, depth: 512, n: 128 },
  { what: 'weight gradient, large (d × B·n × 4d)', m: 128, depth: 2048, n: 512 },
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
    '-o',
    `${dir}/driver.wasm`,
    object,
  ]);
  return new WebAssembly.Module(readFileSync(`${dir}/driver.wasm`));
}

function timeBuild(driver, kernelsPath, shape, budgetMs) {
  const bytes = readFileSync(kernelsPath);
  if (!WebAssembly.validate(bytes)) return undefined;
  const { m, depth, n } = shape;
  const floats = m * depth + depth * n + m * n;
  const memory = new WebAssembly.Memory({ initial: Math.ceil((floats * 4 + 65536) / 65536) + 1 });
  const kernels = new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { memory } }).exports;
  const { multiply } = new WebAssembly.Instance(driver, {
    env: { memory, relpos_gemm_f32_4x8: kernels.relpos_gemm_f32_4x8 },
  }).exports;
  const heap = new Float32Array(memory.buffer);
  const a = 1024;
  const packed = a + m * depth * 4;
  const c = packed + depth * n * 4;
  for (let i = 0; i < m * depth + depth * n; i += 1) heap[a / 4 + i] = ((i * 7919) % 1000) / 1000 - 0.5;
  multiply(a, packed, c, m, n, depth);
  // CPU time of this thread's process (steadier than wall time on a shared machine), median.
  const times = [];
  let spent = 0;
  while (times.length < 3 || (spent < budgetMs && times.length < 20)) {
    const start = performance.now();
    const cpuStart = process.cpuUsage();
    multiply(a, packed, c, m, n, depth);
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
