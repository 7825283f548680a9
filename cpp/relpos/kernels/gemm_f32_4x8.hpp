// The float32 GEMM micro-kernel (gemm_micro_kernel.hpp): up to 4 rows of C × every 8-column
// panel of a packed operand, the one kernel of every float32 product of the core (the
// attention's packed products and the model's forward and gradient products, packed_gemm.cpp).
// In the WebAssembly module it is not linked in: it is imported from a small kernels module
// built twice by clang-19, with relaxed SIMD (fused multiply-add) and without, the one this
// engine validates chosen at load (docs/kernels.md, "Relaxed SIMD"). Natively it is compiled
// into the core from gemm_f32_4x8.cpp.
#pragma once

extern "C" {

// c[r][j] = alpha · Σ_p a[r·rowStep + p·depthStep] · b[p][j] (+ c[r][j] with accumulate), for
// r < rows ≤ 4 and j < cols, b in panels of 8 columns (panelStride floats apart, depth rows
// each, zero-padded). Without FMA each sum is taken in order of p, each term rounded, then
// multiplied by alpha, then c added; with FMA each step is one rounding (a·b + sum), which is
// at least as accurate.
void relpos_gemm_f32_4x8(int rows, int cols, int depth, const float* a, int rowStep, int depthStep,
                         const float* panels, int panelStride, float alpha, int accumulate,
                         float* c, int cStride);

}  // extern "C"
