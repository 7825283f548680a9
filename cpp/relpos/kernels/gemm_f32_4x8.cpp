// Built three ways from this one file (CMakeLists.txt): into the native core, and by clang-19
// alone (no libc, no Emscripten) into the WebAssembly kernels modules relpos-kernels.wasm
// (SIMD128) and relpos-kernels-relaxed.wasm (-mrelaxed-simd: f32x4.relaxed_madd). So it uses
// only the compiler's vector extensions and builtins, no headers.
#include "relpos/kernels/gemm_f32_4x8.hpp"

namespace {

typedef float Float4 __attribute__((vector_size(16)));

inline Float4 load4(const float* from) {
  Float4 v;
  __builtin_memcpy(&v, from, sizeof v);
  return v;
}

inline void store4(float* to, Float4 v) { __builtin_memcpy(to, &v, sizeof v); }

// sum + a · b: one rounding with relaxed SIMD, two without.
inline Float4 multiplyAdd(Float4 a, Float4 b, Float4 sum) {
#if defined(__wasm_relaxed_simd__)
  return __builtin_wasm_relaxed_madd_f32x4(a, b, sum);
#else
  return sum + a * b;
#endif
}

}  // namespace

extern "C" void relpos_gemm_f32_4x8(int depth, const float* a, int rowStep, int depthStep,
                                    const float* panel, float alpha, int accumulate, float* c,
                                    int cStride) {
  Float4 sum[4][2] = {};
  for (int p = 0; p < depth; ++p) {
    const Float4 b0 = load4(panel + 8 * p);
    const Float4 b1 = load4(panel + 8 * p + 4);
    const float* column = a + p * depthStep;
#pragma GCC unroll 4
    for (int r = 0; r < 4; ++r) {
      const float x = column[r * rowStep];
      const Float4 ar = {x, x, x, x};  // v128.load32_splat
      sum[r][0] = multiplyAdd(ar, b0, sum[r][0]);
      sum[r][1] = multiplyAdd(ar, b1, sum[r][1]);
    }
  }
  for (int r = 0; r < 4; ++r) {
    float* row = c + r * cStride;
    Float4 v0 = alpha * sum[r][0];
    Float4 v1 = alpha * sum[r][1];
    if (accumulate) {
      v0 += load4(row);
      v1 += load4(row + 4);
    }
    store4(row, v0);
    store4(row + 4, v1);
  }
}
