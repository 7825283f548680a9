// Built three ways from this one file (CMakeLists.txt): into the native core, and by clang-19
// alone (no libc, no Emscripten) into the WebAssembly kernels modules relpos-kernels.wasm
// (SIMD128) and relpos-kernels-relaxed.wasm (-mrelaxed-simd: f32x4.relaxed_madd). So it uses
// only the compiler's vector extensions and builtins, no headers but the kernel's own.
#include "relpos/kernels/gemm_f32_4x8.hpp"

#include "relpos/kernels/gemm_micro_kernel.hpp"

extern "C" void relpos_gemm_f32_4x8(int rows, int cols, int depth, const float* a, int rowStep,
                                    int depthStep, const float* panels, int panelStride,
                                    float alpha, int accumulate, float* c, int cStride) {
  relpos::kernels::multiplyTile<float>(rows, cols, depth, a, rowStep, depthStep, panels,
                                       panelStride, alpha, accumulate, c, cStride);
}
