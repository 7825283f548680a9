// The core's GEMM micro-kernels live in a small WebAssembly module of their own
// (cpp/relpos/kernels/, built twice by clang-19: docs/kernels.md, "Relaxed SIMD"), which imports
// the core's memory; the core imports the kernels. The relaxed-SIMD build (fused multiply-add)
// is used where this engine validates it, the plain-SIMD build elsewhere (Safari; Node 20
// without --experimental-wasm-relaxed-simd), as onnxruntime-web and TF.js choose their binaries.
import { plainKernelsBase64, relaxedKernelsBase64 } from '../../dist/relpos-kernels-wasm.mjs';

/** The kernels builds: 'relaxed' (relaxed SIMD, f32x4.relaxed_madd) and 'plain' (SIMD128). */
export const KERNEL_BUILDS = Object.freeze(['relaxed', 'plain']);

const decode = (base64) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
const compiled = new Map();

/** True if this engine runs the relaxed-SIMD kernels (the module itself is the probe). */
export function hasRelaxedSimd() {
  return kernelsModule('relaxed') !== null;
}

// The compiled kernels module of a build, or null if this engine cannot validate it.
function kernelsModule(build) {
  if (!compiled.has(build)) {
    const bytes = decode(build === 'relaxed' ? relaxedKernelsBase64 : plainKernelsBase64);
    compiled.set(build, WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null);
  }
  return compiled.get(build);
}

/**
 * The build to load: `requested` ('relaxed', 'plain' or undefined: relaxed where it validates).
 * Throws an Error if 'relaxed' is asked for and this engine has no relaxed SIMD.
 */
export function chooseKernels(where, requested) {
  if (requested === undefined) return hasRelaxedSimd() ? 'relaxed' : 'plain';
  if (!KERNEL_BUILDS.includes(requested)) {
    const Kind = typeof requested === 'string' ? RangeError : TypeError; // a wrong word, or not a word
    throw new Kind(`${where}: options.kernels must be 'relaxed' or 'plain', got ${String(requested)}`);
  }
  if (requested === 'relaxed' && !hasRelaxedSimd()) {
    throw new Error(
      `${where}: this engine has no WebAssembly relaxed SIMD (Node.js 20 needs --experimental-wasm-relaxed-simd; Safari has none); use kernels: 'plain' or leave it out`,
    );
  }
  return requested;
}

/**
 * Instantiates the kernels of `build` on the core's memory and puts their functions into the
 * core's import object, in the slots of the stand-ins the core module registered
 * (`stubs`: name → stand-in, cpp/js/kernels-library.js).
 */
export function linkKernels(imports, stubs, build) {
  const env = Object.values(imports).find((object) =>
    Object.values(object).some((value) => value instanceof WebAssembly.Memory),
  );
  const memory = Object.values(env).find((value) => value instanceof WebAssembly.Memory);
  const kernels = new WebAssembly.Instance(kernelsModule(build), { env: { memory } }).exports;
  for (const [name, stub] of Object.entries(stubs)) {
    const slot = Object.keys(env).find((key) => env[key] === stub);
    env[slot] = kernels[name];
  }
}
