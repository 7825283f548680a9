// npm run bench's GEMM driver (bench/gemm-bench.mjs): C (m × n) = A (m × depth) · B, B packed
// in 8-column panels, through the GEMM micro-kernel imported from a kernels module
// (relpos-kernels*.wasm) exactly as the core imports it: 4-row blocks × panels, depth in passes
// of 256. Built by clang-19 alone (wasm32, no libc), like the kernels.
#include "relpos/kernels/gemm_f32_4x8.hpp"

extern "C" __attribute__((export_name("multiply"))) void multiply(const float* a,
                                                                  const float* packed, float* c,
                                                                  int m, int n, int depth) {
  constexpr int kDepthPerPass = 256;
  for (int p0 = 0; p0 < depth; p0 += kDepthPerPass) {
    const int passDepth = depth - p0 < kDepthPerPass ? depth - p0 : kDepthPerPass;
    for (int i = 0; i + 4 <= m; i += 4) {
      for (int j = 0; j + 8 <= n; j += 8) {
        relpos_gemm_f32_4x8(passDepth, a + i * depth + p0, depth, 1, packed + j * depth + p0 * 8,
                            1.0F, p0 > 0, c + i * n + j, n);
      }
    }
  }
}
