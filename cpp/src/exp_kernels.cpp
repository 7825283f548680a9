#include "relpos/exp_kernels.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace relpos {
namespace {

// Cephes expf: exp(r) on |r| <= ln2/2 as 1 + r + r^2 · p(r).
constexpr float kLog2eF = 1.44269504088896341F;
constexpr float kLn2HiF = 0.693359375F;
constexpr float kLn2LoF = -2.12194440e-4F;
constexpr float kMinF = -87.3365478515625F;  // exp(kMinF) ~ FLT_MIN
constexpr float kPF[6] = {1.9875691500E-4F, 1.3981999507E-3F, 8.3334519073E-3F,
                          4.1665795894E-2F, 1.6666665459E-1F, 5.0000001201E-1F};

// Cephes exp: exp(r) = 1 + 2 r P(r^2) / (Q(r^2) - r P(r^2)).
constexpr double kLog2eD = 1.4426950408889634073599;
constexpr double kLn2HiD = 6.93145751953125E-1;
constexpr double kLn2LoD = 1.42860682030941723212E-6;
constexpr double kMinD = -708.3964185322641;  // exp(kMinD) ~ DBL_MIN
constexpr double kPD[3] = {1.26177193074810590878E-4, 3.02994407707441961300E-2,
                           9.99999999999999999910E-1};
constexpr double kQD[4] = {3.00198505138664455042E-6, 2.52448340349684104192E-3,
                           2.27265548208155028766E-1, 2.00000000000000000009E0};

float expScalar(float x) {
  if (std::isnan(x)) return x;  // (converting NaN to an integer below would be undefined)
  x = x < kMinF ? kMinF : x;
  const float m = std::nearbyint(x * kLog2eF);
  float r = x - m * kLn2HiF;
  r = r - m * kLn2LoF;
  float p = kPF[0];
  for (int c = 1; c < 6; ++c) p = p * r + kPF[c];
  const float y = (p * (r * r) + r) + 1.0F;
  const auto bits = static_cast<std::uint32_t>(static_cast<std::int32_t>(m) + 127) << 23;
  float scale = 0.0F;
  std::memcpy(&scale, &bits, sizeof scale);
  return y * scale;
}

double expScalar(double x) {
  if (std::isnan(x)) return x;  // (converting NaN to an integer below would be undefined)
  x = x < kMinD ? kMinD : x;
  const double m = std::nearbyint(x * kLog2eD);
  double r = x - m * kLn2HiD;
  r = r - m * kLn2LoD;
  const double rr = r * r;
  const double px = r * ((kPD[0] * rr + kPD[1]) * rr + kPD[2]);
  const double q = ((kQD[0] * rr + kQD[1]) * rr + kQD[2]) * rr + kQD[3];
  const double y = 1.0 + 2.0 * (px / (q - px));
  const auto bits = static_cast<std::uint64_t>(static_cast<std::int64_t>(m) + 1023) << 52;
  double scale = 0.0;
  std::memcpy(&scale, &bits, sizeof scale);
  return y * scale;
}

#if defined(__wasm_simd128__)

v128_t expVector(v128_t input, float /*tag*/) {
  const v128_t x = wasm_f32x4_pmax(input, wasm_f32x4_splat(kMinF));  // NaN stays NaN
  const v128_t m = wasm_f32x4_nearest(wasm_f32x4_mul(x, wasm_f32x4_splat(kLog2eF)));
  v128_t r = wasm_f32x4_sub(x, wasm_f32x4_mul(m, wasm_f32x4_splat(kLn2HiF)));
  r = wasm_f32x4_sub(r, wasm_f32x4_mul(m, wasm_f32x4_splat(kLn2LoF)));
  v128_t p = wasm_f32x4_splat(kPF[0]);
  for (int c = 1; c < 6; ++c) p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(kPF[c]));
  const v128_t y = wasm_f32x4_add(
      wasm_f32x4_add(wasm_f32x4_mul(p, wasm_f32x4_mul(r, r)), r), wasm_f32x4_splat(1.0F));
  const v128_t exponent = wasm_i32x4_shl(
      wasm_i32x4_add(wasm_i32x4_trunc_sat_f32x4(m), wasm_i32x4_splat(127)), 23);
  return wasm_f32x4_mul(y, exponent);
}

v128_t expVector(v128_t input, double /*tag*/) {
  const v128_t x = wasm_f64x2_pmax(input, wasm_f64x2_splat(kMinD));  // NaN stays NaN
  const v128_t m = wasm_f64x2_nearest(wasm_f64x2_mul(x, wasm_f64x2_splat(kLog2eD)));
  v128_t r = wasm_f64x2_sub(x, wasm_f64x2_mul(m, wasm_f64x2_splat(kLn2HiD)));
  r = wasm_f64x2_sub(r, wasm_f64x2_mul(m, wasm_f64x2_splat(kLn2LoD)));
  const v128_t rr = wasm_f64x2_mul(r, r);
  v128_t px = wasm_f64x2_add(wasm_f64x2_mul(wasm_f64x2_splat(kPD[0]), rr), wasm_f64x2_splat(kPD[1]));
  px = wasm_f64x2_mul(r, wasm_f64x2_add(wasm_f64x2_mul(px, rr), wasm_f64x2_splat(kPD[2])));
  v128_t q = wasm_f64x2_add(wasm_f64x2_mul(wasm_f64x2_splat(kQD[0]), rr), wasm_f64x2_splat(kQD[1]));
  q = wasm_f64x2_add(wasm_f64x2_mul(q, rr), wasm_f64x2_splat(kQD[2]));
  q = wasm_f64x2_add(wasm_f64x2_mul(q, rr), wasm_f64x2_splat(kQD[3]));
  const v128_t ratio = wasm_f64x2_div(px, wasm_f64x2_sub(q, px));
  const v128_t y = wasm_f64x2_add(wasm_f64x2_splat(1.0),
                                  wasm_f64x2_mul(wasm_f64x2_splat(2.0), ratio));
  const v128_t exponent = wasm_i64x2_shl(
      wasm_i64x2_add(wasm_i64x2_extend_low_i32x4(wasm_i32x4_trunc_sat_f64x2_zero(m)),
                     wasm_i64x2_splat(1023)),
      52);
  return wasm_f64x2_mul(y, exponent);
}

template <typename T>
constexpr Index kLanes = 16 / sizeof(T);

v128_t maxOf(v128_t a, v128_t b, float /*tag*/) { return wasm_f32x4_pmax(a, b); }
v128_t maxOf(v128_t a, v128_t b, double /*tag*/) { return wasm_f64x2_pmax(a, b); }
v128_t multiply(v128_t a, v128_t b, float /*tag*/) { return wasm_f32x4_mul(a, b); }
v128_t multiply(v128_t a, v128_t b, double /*tag*/) { return wasm_f64x2_mul(a, b); }
v128_t splat(float v) { return wasm_f32x4_splat(v); }
v128_t splat(double v) { return wasm_f64x2_splat(v); }
v128_t sub(v128_t a, v128_t b, float /*tag*/) { return wasm_f32x4_sub(a, b); }
v128_t sub(v128_t a, v128_t b, double /*tag*/) { return wasm_f64x2_sub(a, b); }
v128_t add(v128_t a, v128_t b, float /*tag*/) { return wasm_f32x4_add(a, b); }
v128_t add(v128_t a, v128_t b, double /*tag*/) { return wasm_f64x2_add(a, b); }
float lane(v128_t v, int i, float /*tag*/) {
  float out[4];
  wasm_v128_store(out, v);
  return out[i];
}
double lane(v128_t v, int i, double /*tag*/) {
  double out[2];
  wasm_v128_store(out, v);
  return out[i];
}

#endif

}  // namespace

template <typename T>
T expShiftedInPlaceScalar(T* row, Index count, T shift) {
  T sum = 0;
  for (Index j = 0; j < count; ++j) {
    row[j] = expScalar(row[j] - shift);
    sum += row[j];
  }
  return sum;
}

template <typename T>
T expShiftedInPlace(T* row, Index count, T shift) {
#if defined(__wasm_simd128__)
  const T tag{};
  const v128_t shiftV = splat(shift);
  v128_t sumV = splat(T(0));
  Index j = 0;
  for (; j + kLanes<T> <= count; j += kLanes<T>) {
    const v128_t e = expVector(sub(wasm_v128_load(row + j), shiftV, tag), tag);
    wasm_v128_store(row + j, e);
    sumV = add(sumV, e, tag);
  }
  T sum = 0;
  for (int l = 0; l < kLanes<T>; ++l) sum += lane(sumV, l, tag);
  return sum + expShiftedInPlaceScalar(row + j, count - j, shift);
#else
  return expShiftedInPlaceScalar(row, count, shift);
#endif
}

// Rows whose maximum is infinite (scores that overflowed): the softmax's limit. With +inf
// present, the +inf entries share the weight equally and the rest get 0; when every entry is
// -inf, the weights are uniform. Returns false for an ordinary row.
template <typename T>
bool softmaxLimit(T* row, Index count, T max) {
  if (std::isfinite(max) || std::isnan(max)) return false;
  for (Index j = 0; j < count; ++j) {
    if (std::isnan(row[j])) {  // as in the ordinary path: a NaN makes the whole row NaN
      for (Index l = 0; l < count; ++l) row[l] = row[j];
      return true;
    }
  }
  Index hits = 0;
  for (Index j = 0; j < count; ++j) hits += (row[j] == max) ? 1 : 0;
  for (Index j = 0; j < count; ++j) row[j] = row[j] == max ? T(1) / static_cast<T>(hits) : T(0);
  return true;
}

template <typename T>
void softmaxInPlaceScalar(T* row, Index count) {
  T max = row[0];
  for (Index j = 1; j < count; ++j) max = row[j] > max ? row[j] : max;
  if (softmaxLimit(row, count, max)) return;
  const T sum = expShiftedInPlaceScalar(row, count, max);
  const T inverse = T(1) / sum;
  for (Index j = 0; j < count; ++j) row[j] *= inverse;
}

template <typename T>
void softmaxInPlace(T* row, Index count) {
#if defined(__wasm_simd128__)
  const T tag{};
  constexpr Index lanes = kLanes<T>;
  if (count < 2 * lanes) {
    softmaxInPlaceScalar(row, count);
    return;
  }
  v128_t maxV = wasm_v128_load(row);
  Index j = lanes;
  for (; j + lanes <= count; j += lanes) maxV = maxOf(maxV, wasm_v128_load(row + j), tag);
  T max = lane(maxV, 0, tag);
  for (int l = 1; l < lanes; ++l) max = lane(maxV, l, tag) > max ? lane(maxV, l, tag) : max;
  for (; j < count; ++j) max = row[j] > max ? row[j] : max;
  if (softmaxLimit(row, count, max)) return;
  const T sum = expShiftedInPlace(row, count, max);
  const T inverse = T(1) / sum;
  const v128_t inverseV = splat(inverse);
  for (j = 0; j + lanes <= count; j += lanes) {
    wasm_v128_store(row + j, multiply(wasm_v128_load(row + j), inverseV, tag));
  }
  for (; j < count; ++j) row[j] *= inverse;
#else
  softmaxInPlaceScalar(row, count);
#endif
}

bool expKernelIsSimd() {
#if defined(__wasm_simd128__)
  return true;
#else
  return false;
#endif
}

template float expShiftedInPlace<float>(float*, Index, float);
template double expShiftedInPlace<double>(double*, Index, double);
template float expShiftedInPlaceScalar<float>(float*, Index, float);
template void softmaxInPlace<float>(float*, Index);
template void softmaxInPlace<double>(double*, Index);
template void softmaxInPlaceScalar<float>(float*, Index);
template void softmaxInPlaceScalar<double>(double*, Index);
template double expShiftedInPlaceScalar<double>(double*, Index, double);

}  // namespace relpos
