// Linked into the core module (--js-library). The core's GEMM micro-kernels are imported
// (cpp/relpos/kernels/): these stand-ins give them import slots, and `kernelImports` lets the
// loader (web/api/kernels.js) find each slot by identity, whatever name Emscripten's import
// minification gave it, and put the kernels module's export there before instantiating, so
// the core calls the kernel wasm to wasm. Reaching a stand-in means the loader did not link.
mergeInto(LibraryManager.library, {
  relpos_gemm_f32_4x8: function () {
    abort('relpos_gemm_f32_4x8: the kernels module was not linked (load the core through relpos-wasm)');
  },
  relpos_gemm_f32_4x8__postset: 'Module["kernelImports"] = { relpos_gemm_f32_4x8: _relpos_gemm_f32_4x8 };',
});
