// npm run bench's ceiling for the GEMM rows (bench/gemm-bench.mjs): the float32 GFLOP/s this
// engine reaches with nothing but the micro-kernel's own step (multiplyAdd of
// relpos/kernels/gemm_micro_kernel.hpp) on 12 independent 128-bit accumulators, no memory
// traffic: the most any 128-bit kernel can do here. Built twice by clang-19, like the kernels
// (-mrelaxed-simd: one f32x4.relaxed_madd per step; without it a multiply and an add).
#include "relpos/kernels/gemm_micro_kernel.hpp"

using V = relpos::kernels::Vector128<float>::type;

// 12 · 8 flops per step, `steps` steps; returns a sum so that nothing is optimised away.
extern "C" __attribute__((export_name("multiplyAddSteps"))) float multiplyAddSteps(int steps,
                                                                                   float seed) {
  constexpr int kChains = 12;
  const V scale = relpos::kernels::splat(1.0001F);
  const V shift = relpos::kernels::splat(-0.0001F);
  V sum[kChains];
  for (int c = 0; c < kChains; ++c) sum[c] = relpos::kernels::splat(seed + static_cast<float>(c));
  for (int s = 0; s < steps; ++s) {
#pragma GCC unroll 12
    for (int c = 0; c < kChains; ++c)
      sum[c] = relpos::kernels::multiplyAdd<float>(sum[c], scale, shift);
  }
  V total = sum[0];
  for (int c = 1; c < kChains; ++c) total += sum[c];
  return total[0] + total[1] + total[2] + total[3];
}
