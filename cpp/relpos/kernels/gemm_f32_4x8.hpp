// The float32 GEMM micro-kernel: 4 rows × 8 columns (8 accumulators of 4 lanes), the tile of
// the attention's packed products (packed_gemm.cpp) and of the model's weight gradients
// (transformer_model.cpp). In the WebAssembly module it is not linked in: it is imported from a
// small kernels module built twice by clang-19, with relaxed SIMD (fused multiply-add) and
// without, the one this engine validates chosen at load (docs/kernels.md, "Relaxed SIMD").
// Natively it is compiled into the core from gemm_f32_4x8.cpp.
#pragma once

extern "C" {

// c[r][0..8) = alpha · Σ_p a[r·rowStep + p·depthStep] · panel[8p + 0..8) (+ c[r][0..8) with
// accumulate), r < 4. Without FMA the sum is taken in order of p, each term rounded, then
// multiplied by alpha, then c added: bit for bit the project's generic kernel. With FMA each
// step is one rounding (a·b + sum), which is at least as accurate.
void relpos_gemm_f32_4x8(int depth, const float* a, int rowStep, int depthStep, const float* panel,
                         float alpha, int accumulate, float* c, int cStride);

}  // extern "C"
