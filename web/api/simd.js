// The core is compiled with WebAssembly SIMD (128-bit vectors, docs/kernels.md), which every
// current browser has. An engine without it would fail deep inside Emscripten's loader with
// `Aborted(CompileError …)` and a console warning; createRelPos() asks first, with a module of
// one function that uses two SIMD instructions, and throws an error that says what is needed.

/** (func (result v128) i32.const 0  i8x16.splat  i8x16.popcnt) */
export const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);

/**
 * The engines relpos-wasm runs on (README "Browser support"), and which of them get the
 * relaxed-SIMD (fused multiply-add) GEMM kernels (web/api/kernels.js, docs/kernels.md).
 */
export const ENGINE_BASELINE =
  'WebAssembly SIMD: Chrome or Edge 91+, Firefox 89+, Safari 16.4+ (iOS 16.4+), Node.js 20+; ' +
  'the relaxed-SIMD (FMA) kernels where the engine validates them (Chrome or Edge 114+, Node.js 21+, ' +
  'Node.js 20 with --experimental-wasm-relaxed-simd), the plain-SIMD kernels elsewhere (Safari)';

/** Throws an Error naming the baseline if this engine has no WebAssembly or no WebAssembly SIMD. */
export function checkWasmSimd(where) {
  if (typeof WebAssembly !== 'object' || typeof WebAssembly.validate !== 'function') {
    throw new Error(`${where}: this JavaScript engine has no WebAssembly; relpos-wasm needs ${ENGINE_BASELINE}`);
  }
  if (!WebAssembly.validate(SIMD_PROBE)) {
    throw new Error(`${where}: this engine has no WebAssembly SIMD; relpos-wasm needs ${ENGINE_BASELINE}`);
  }
}
