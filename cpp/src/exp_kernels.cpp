#include "relpos/exp_kernels.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "relpos/simd_vectors.hpp"

namespace relpos {
namespace {

// Cephes expf: exp(r) on |r| <= ln2/2 as 1 + r + r^2 · p(r).
constexpr float kLog2eF = 1.44269504088896341F;
constexpr float kLn2HiF = 0.693359375F;
constexpr float kLn2LoF = -2.12194440e-4F;
constexpr float kRoundF = 12582912.0F;  // 1.5 · 2^23: adding it rounds to an integer
constexpr float kPF[6] = {1.9875691500E-4F, 1.3981999507E-3F, 8.3334519073E-3F,
                          4.1665795894E-2F, 1.6666665459E-1F, 5.0000001201E-1F};

// Cephes exp: exp(r) = 1 + 2 r P(r^2) / (Q(r^2) - r P(r^2)).
constexpr double kLog2eD = 1.4426950408889634073599;
constexpr double kLn2HiD = 6.93145751953125E-1;
constexpr double kLn2LoD = 1.42860682030941723212E-6;
constexpr double kRoundD = 6755399441055744.0;  // 1.5 · 2^52
constexpr double kPD[3] = {1.26177193074810590878E-4, 3.02994407707441961300E-2,
                           9.99999999999999999910E-1};
constexpr double kQD[4] = {3.00198505138664455042E-6, 2.52448340349684104192E-3,
                           2.27265548208155028766E-1, 2.00000000000000000009E0};

constexpr float kFlushF = kExpFlushBelow<float>;
constexpr double kFlushD = kExpFlushBelow<double>;

// The vector kernels: the same steps on 128-bit vectors (relpos/simd_vectors.hpp), in WASM SIMD
// and natively. The constants are made once per call and kept in registers (splatRealized).
template <typename T>
struct ExpConstants {
  simd::Vec<T> minimum, log2e, round, ln2Hi, ln2Lo, one, two;
  simd::UIntVec<T> exponentBias;  // bits(round) - the exponent bias (127 or 1023)
  simd::Vec<T> poly[7];           // float: p(r); double: P then Q
};

// The scalar constants of one precision, by name.
template <typename T>
struct ExpScalars {
  T flush, log2e, round, ln2Hi, ln2Lo;
  const T* poly;
  int coefficients;
  std::uint64_t exponentBias;
};

constexpr double kPQD[7] = {kPD[0], kPD[1], kPD[2], kQD[0], kQD[1], kQD[2], kQD[3]};
constexpr ExpScalars<float> kExpF{kFlushF, kLog2eF, kRoundF, kLn2HiF, kLn2LoF, kPF, 6, 127};
constexpr ExpScalars<double> kExpD{kFlushD, kLog2eD, kRoundD, kLn2HiD, kLn2LoD, kPQD, 7, 1023};

// exp(r) on |r| <= ln 2 / 2, for one value or a vector of them (V = T or simd::Vec<T>, the
// coefficients as V): float, 1 + r + r^2 p(r); double, Cephes's 1 + 2 r P / (Q - r P). The same
// operations in both, so the scalar and the vector exp round alike.
template <typename T, typename V>
V expOfReduced(V r, const V* poly, V one, V two) {
  if constexpr (sizeof(T) == 4) {
    V p = poly[0];
    for (int i = 1; i < 6; ++i) p = p * r + poly[i];
    return (p * (r * r) + r) + one;
  } else {
    const V rr = r * r;
    const V px = r * ((poly[0] * rr + poly[1]) * rr + poly[2]);
    const V q = ((poly[3] * rr + poly[4]) * rr + poly[5]) * rr + poly[6];
    return one + two * (px / (q - px));
  }
}

// exp(x) one value at a time: the steps of expVector below, with nearbyint for the rounding.
template <typename T>
T expScalarOf(T x, const ExpScalars<T>& s) {
  using Bits = simd::UIntLane<T>;
  using Signed = std::make_signed_t<Bits>;
  constexpr int mantissaBits = sizeof(T) == 4 ? 23 : 52;
  if (std::isnan(x)) return x;  // (converting NaN to an integer below would be undefined)
  if (x < s.flush) return T(0);
  const T m = std::nearbyint(x * s.log2e);
  T r = x - m * s.ln2Hi;
  r = r - m * s.ln2Lo;
  const T y = expOfReduced<T>(r, s.poly, T(1), T(2));
  const auto bits = static_cast<Bits>(static_cast<Signed>(m) + static_cast<Signed>(s.exponentBias))
                    << mantissaBits;
  T scale = 0;
  std::memcpy(&scale, &bits, sizeof scale);
  return y * scale;
}

float expScalar(float x) { return expScalarOf(x, kExpF); }
double expScalar(double x) { return expScalarOf(x, kExpD); }

template <typename T>
ExpConstants<T> makeExpConstants(const ExpScalars<T>& s) {
  using simd::splatRealized;
  ExpConstants<T> c{};
  c.minimum = splatRealized(s.flush);
  c.log2e = splatRealized(s.log2e);
  c.round = splatRealized(s.round);
  c.ln2Hi = splatRealized(s.ln2Hi);
  c.ln2Lo = splatRealized(s.ln2Lo);
  c.one = splatRealized(T(1));
  c.two = splatRealized(T(2));
  c.exponentBias = (simd::UIntVec<T>)c.round - static_cast<simd::UIntLane<T>>(s.exponentBias);
  for (int i = 0; i < s.coefficients; ++i) c.poly[i] = splatRealized(s.poly[i]);
  return c;
}

ExpConstants<float> expConstants(float /*tag*/) { return makeExpConstants(kExpF); }
ExpConstants<double> expConstants(double /*tag*/) { return makeExpConstants(kExpD); }

// As expScalar, lane by lane. m = round(x / ln 2) is t - 1.5 · 2^p with t = x / ln 2 + 1.5 · 2^p
// (p = 23 or 52: rounds to nearest even, as nearbyint, so the kernels agree), and the bits of t
// minus those of 1.5 · 2^p are m as an integer: no float-to-int conversion (a long sequence in
// WASM SIMD), and 2^m is (m + bias) shifted into the exponent field (on unsigned lanes: the
// clamped inputs keep m in range, and wrap-around is defined). Lanes below the flush point are
// computed at it, then zeroed.
template <typename T>
simd::Vec<T> expVector(simd::Vec<T> input, const ExpConstants<T>& c) {
  constexpr int mantissaBits = sizeof(T) == 4 ? 23 : 52;
  const simd::IntVec<T> flushed = input < c.minimum;  // these lanes give 0 (a NaN does not)
  const simd::Vec<T> x = simd::maxKeepingNaN<T>(input, c.minimum);
  const simd::Vec<T> t = x * c.log2e + c.round;
  const simd::Vec<T> m = t - c.round;
  simd::Vec<T> r = x - m * c.ln2Hi;
  r = r - m * c.ln2Lo;
  const simd::Vec<T> twoToM =
      (simd::Vec<T>)(((simd::UIntVec<T>)t - c.exponentBias) << mantissaBits);
  const simd::Vec<T> e = expOfReduced<T>(r, c.poly, c.one, c.two) * twoToM;
  return (simd::Vec<T>)((simd::IntVec<T>)e & ~flushed);
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
  constexpr Index lanes = simd::kLanes<T>;
  const ExpConstants<T> constants = expConstants(T{});
  const simd::Vec<T> shiftV = simd::splat<T>(shift);
  simd::Vec<T> sumV{};
  Index j = 0;
  for (; j + lanes <= count; j += lanes) {
    const simd::Vec<T> e = expVector(simd::load<T>(row + j) - shiftV, constants);
    simd::store<T>(row + j, e);
    sumV += e;
  }
  return simd::sumOfLanes<T>(sumV) + expShiftedInPlaceScalar(row + j, count - j, shift);
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
  constexpr Index lanes = simd::kLanes<T>;
  if (count < 2 * lanes) {
    softmaxInPlaceScalar(row, count);
    return;
  }
  simd::Vec<T> maxV = simd::load<T>(row);
  Index j = lanes;
  // (A NaN may drop out of the running maximum; it still makes the whole row NaN, through the
  // exp and the sum, or through softmaxLimit's scan when the maximum is infinite.)
  for (; j + lanes <= count; j += lanes)
    maxV = simd::maxKeepingNaN<T>(simd::load<T>(row + j), maxV);
  T max = simd::maxOfLanes<T>(maxV);
  for (; j < count; ++j) max = row[j] > max ? row[j] : max;
  if (softmaxLimit(row, count, max)) return;
  const T sum = expShiftedInPlace(row, count, max);
  const simd::Vec<T> inverse = simd::splat<T>(T(1) / sum);
  for (j = 0; j + lanes <= count; j += lanes)
    simd::store<T>(row + j, simd::load<T>(row + j) * inverse);
  for (; j < count; ++j) row[j] *= inverse[0];
}

template float expShiftedInPlace<float>(float*, Index, float);
template double expShiftedInPlace<double>(double*, Index, double);
template float expShiftedInPlaceScalar<float>(float*, Index, float);
template double expShiftedInPlaceScalar<double>(double*, Index, double);
template void softmaxInPlace<float>(float*, Index);
template void softmaxInPlace<double>(double*, Index);
template void softmaxInPlaceScalar<float>(float*, Index);
template void softmaxInPlaceScalar<double>(double*, Index);

}  // namespace relpos
