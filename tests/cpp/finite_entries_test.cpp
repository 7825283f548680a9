// firstNonFinite / firstNonFiniteSum against std::isfinite entry by entry, for float and double:
// every non-finite kind (±inf, quiet and signalling NaN, NaN with the sign bit) at every position
// of short and long arrays, and the finite extremes (±max, ±denormals, ±0) that must pass.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "relpos/finite_entries.hpp"

namespace {

template <typename T>
relpos::Index expectedFirst(const std::vector<T>& x) {
  for (std::size_t i = 0; i < x.size(); ++i)
    if (!std::isfinite(x[i])) return static_cast<relpos::Index>(i);
  return -1;
}

template <typename T>
std::vector<T> nonFiniteKinds() {
  using L = std::numeric_limits<T>;
  return {L::infinity(), -L::infinity(), L::quiet_NaN(), -L::quiet_NaN(), L::signaling_NaN()};
}

template <typename T>
std::vector<T> finiteExtremes() {
  using L = std::numeric_limits<T>;
  return {L::max(), -L::max(), L::denorm_min(), -L::denorm_min(), L::min(), T(0), -T(0), T(1)};
}

template <typename T>
void checkEveryPosition() {
  for (const relpos::Index n : {1, 3, 4, 17, 64, 1001}) {
    std::vector<T> x(static_cast<std::size_t>(n));
    const auto extremes = finiteExtremes<T>();
    for (relpos::Index i = 0; i < n; ++i) x[i] = extremes[i % extremes.size()];
    EXPECT_EQ(relpos::firstNonFinite(x.data(), n), -1) << n;
    for (const T bad : nonFiniteKinds<T>()) {
      for (relpos::Index at = 0; at < n; at += (n > 64 ? 97 : 1)) {
        auto y = x;
        y[at] = bad;
        if (at + 5 < n) y[at + 5] = bad;  // a later one too: the first is named
        EXPECT_EQ(relpos::firstNonFinite(y.data(), n), expectedFirst(y)) << n << " " << at;
      }
    }
  }
}

TEST(FiniteEntries, EveryNonFiniteKindAtEveryPositionFloat) { checkEveryPosition<float>(); }
TEST(FiniteEntries, EveryNonFiniteKindAtEveryPositionDouble) { checkEveryPosition<double>(); }

template <typename T>
void checkSums() {
  using L = std::numeric_limits<T>;
  const relpos::Index n = 37;
  std::vector<T> a(n, T(1)), b(n, T(2));
  EXPECT_EQ(relpos::firstNonFiniteSum(a.data(), b.data(), n), -1);
  // Finite entries whose sum overflows, or cancels an infinity into NaN.
  a[9] = L::max();
  b[9] = L::max();
  a[20] = L::infinity();
  b[20] = -L::infinity();
  EXPECT_EQ(relpos::firstNonFiniteSum(a.data(), b.data(), n), 9);
  b[9] = -L::max();  // max − max = 0: finite
  EXPECT_EQ(relpos::firstNonFiniteSum(a.data(), b.data(), n), 20);
}

TEST(FiniteEntries, SumsThatOverflowOrCancelFloat) { checkSums<float>(); }
TEST(FiniteEntries, SumsThatOverflowOrCancelDouble) { checkSums<double>(); }

}  // namespace
