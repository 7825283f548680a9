// Fuzz target: the softmax/exp kernels of exp_kernels.hpp (float and double; vector and scalar,
// natively and in the wasm32 replay build), on rows of 1..64 values with specials and any shift.
//   always:        every softmax weight is NaN or in [0, 1];
//   finite rows:   the softmax is finite, sums to 1, and matches exp(x - max) / sum from libm;
//   exp of x <= 0: within a few ulps of std::exp down to kExpFlushBelow, exactly 0 below it
//                  (the kernels' documented flush); the vector form equals the scalar one.
// expShiftedInPlace is documented for x - shift <= 0 (a softmax's range), so the shift is at
// least the row's maximum here (or NaN); beyond that its float -> int casts overflow (UB).
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "fuzz_common.hpp"
#include "relpos/exp_kernels.hpp"

namespace relpos::fuzz {
namespace {

constexpr Index kMaxCount = 64;

template <typename T>
T pickValue(FuzzedDataProvider& fdp) {
  const auto selector = fdp.ConsumeIntegral<std::uint8_t>();
  if (selector < kSpecialCount) return specialValue<T>(selector);
  if (selector < 64) {  // anywhere in the exp range and a little past it
    return static_cast<T>(fdp.ConsumeIntegralInRange<int>(-800000, 100000)) / T(1000);
  }
  return static_cast<T>(fdp.ConsumeIntegral<std::int8_t>()) / T(4);
}

template <typename T>
void run(FuzzedDataProvider& fdp) {
  using Limits = std::numeric_limits<T>;
  const Index count = fdp.ConsumeIntegralInRange<Index>(1, kMaxCount);
  Buffer<T> input(1, count);
  for (Index j = 0; j < count; ++j) input.data()[j] = pickValue<T>(fdp);
  T shift = pickValue<T>(fdp);
  for (Index j = 0; j < count; ++j) {
    if (!std::isnan(shift) && input.data()[j] > shift) shift = input.data()[j];
  }

  // Softmax, in place on an exact-size copy.
  Buffer<T> weights(1, count);
  std::copy(input.data(), input.data() + count, weights.data());
  softmaxInPlace(weights.data(), count);
  bool finite = true;
  for (Index j = 0; j < count; ++j) {
    const T w = weights.data()[j];
    FUZZ_CHECK(!(w < T(0)) && !(w > T(1)));
    finite = finite && std::isfinite(input.data()[j]);
  }
  const double eps = static_cast<double>(Limits::epsilon());
  if (finite) {
    // libm's exp of the same differences x - max, rounded to T as the kernel rounds them.
    const T max = *std::max_element(input.data(), input.data() + count);
    std::vector<double> reference(static_cast<std::size_t>(count));
    double referenceSum = 0.0;
    for (Index j = 0; j < count; ++j) {
      reference[j] = std::exp(static_cast<double>(static_cast<T>(input.data()[j] - max)));
      referenceSum += reference[j];
    }
    double sum = 0.0;
    for (Index j = 0; j < count; ++j) {
      const double w = static_cast<double>(weights.data()[j]);
      FUZZ_CHECK(std::isfinite(w));
      sum += w;
      // Relative error of a few ulps per exp, plus what the flush to 0 below
      // exp(kExpFlushBelow) leaves out (/ sum, which is at least 1).
      FUZZ_CHECK(std::fabs(w - reference[j] / referenceSum) <=
                 8.0 * static_cast<double>(count + 2) * eps * (reference[j] / referenceSum) +
                     std::exp(static_cast<double>(kExpFlushBelow<T>)));
    }
    FUZZ_CHECK(std::fabs(sum - 1.0) <= 4.0 * static_cast<double>(count + 2) * eps);
  }

  // exp(x - shift) for any shift, vector dispatch and scalar form.
  Buffer<T> shifted(1, count), scalar(1, count);
  std::copy(input.data(), input.data() + count, shifted.data());
  std::copy(input.data(), input.data() + count, scalar.data());
  const T sum = expShiftedInPlace(shifted.data(), count, shift);
  const T scalarSum = expShiftedInPlaceScalar(scalar.data(), count, shift);
  FUZZ_CHECK(std::isnan(sum) == std::isnan(scalarSum));
  for (Index j = 0; j < count; ++j) {
    const T x = input.data()[j] - shift;
    const T e = shifted.data()[j];
    const T s = scalar.data()[j];
    FUZZ_CHECK(std::isnan(e) == std::isnan(s));
    if (!(x <= T(0))) continue;  // only x <= 0 is specified (a softmax's range)
    FUZZ_CHECK(std::fabs(static_cast<double>(e) - static_cast<double>(s)) <=
               4.0 * eps * static_cast<double>(s));
    const double exact = std::exp(static_cast<double>(x));
    if (x >= kExpFlushBelow<T>) {
      FUZZ_CHECK(std::fabs(static_cast<double>(s) - exact) <= 4.0 * eps * exact);
    } else {
      FUZZ_CHECK(s == T(0) && e == T(0));  // flushed (no subnormals)
    }
  }
}

}  // namespace
}  // namespace relpos::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider fdp(data, size);
  if (fdp.ConsumeBool()) {
    relpos::fuzz::run<float>(fdp);
  } else {
    relpos::fuzz::run<double>(fdp);
  }
  return 0;
}
