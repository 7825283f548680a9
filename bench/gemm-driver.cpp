// npm run bench's GEMM driver (bench/gemm-bench.mjs): the core's two product loops
// (cpp/src/packed_gemm.cpp) around the GEMM micro-kernel imported from a kernels module
// (relpos-kernels*.wasm) exactly as the core imports it. Built by clang-19 alone (wasm32, no
// libc), like the kernels.
#include "relpos/kernels/gemm_f32_4x8.hpp"
#include "relpos/kernels/panel_copy.hpp"

namespace {
constexpr int kRows = 4;
constexpr int kWidth = 8;
int smaller(int x, int y) { return x < y ? x : y; }
}  // namespace

// C (m × n) = A (m × depth) · B, B packed in 8-column panels (depth × 8 each): 4-row blocks,
// depth in passes of 256 (multiplyPacked).
extern "C" __attribute__((export_name("multiply"))) void multiply(const float* a,
                                                                  const float* packed, float* c,
                                                                  int m, int n, int depth) {
  constexpr int kDepthPerPass = 256;
  for (int p0 = 0; p0 < depth; p0 += kDepthPerPass) {
    const int passDepth = smaller(kDepthPerPass, depth - p0);
    for (int i = 0; i < m; i += kRows) {
      relpos_gemm_f32_4x8(smaller(kRows, m - i), n, passDepth, a + i * depth + p0, depth, 1,
                          packed + p0 * kWidth, depth * kWidth, 1.0F, p0 > 0, c + i * n, n);
    }
  }
}

// C (m × n) += Aᵀ · B, A (depth × m), B (depth × n) row-major: depth in passes of 128, each
// pass of B copied into panels 128 · 8 + 16 floats apart by the core's copy
// (addTransposedProduct; the copy is timed here).
extern "C" __attribute__((export_name("multiplyTransposed"))) void multiplyTransposed(
    const float* a, const float* b, float* panels, float* c, int m, int n, int depth) {
  constexpr int kPassDepth = 128;
  constexpr int kPanelStride = kPassDepth * kWidth + 16;
  for (int p0 = 0; p0 < depth; p0 += kPassDepth) {
    const int passDepth = smaller(kPassDepth, depth - p0);
    relpos::kernels::copyIntoPanels(b + p0 * n, n, passDepth, n, panels, kPanelStride);
    for (int i = 0; i < m; i += kRows) {
      relpos_gemm_f32_4x8(smaller(kRows, m - i), n, passDepth, a + p0 * m + i, 1, m, panels,
                          kPanelStride, 1.0F, 1, c + i * n, n);
    }
  }
}
