#include "relpos/exp_kernels.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "relpos/numpy_random.hpp"

namespace relpos {
namespace {

// Scores minus their maximum span [-(spread), 0]; odd lengths exercise the scalar tails.
template <typename T>
std::vector<T> shiftedScores(Index count, double spread, std::uint32_t seed) {
  NumpyRandom random(seed);
  std::vector<T> values(static_cast<std::size_t>(count));
  for (T& v : values) v = static_cast<T>(-spread * random.nextDouble());
  return values;
}

template <typename T>
void expectVectorMatchesScalar(double tolerance) {
  for (Index count : {1, 2, 3, 4, 5, 7, 8, 31, 64, 1001}) {
    for (double spread : {1e-3, 1.0, 30.0, 700.0}) {
      std::vector<T> vector = shiftedScores<T>(count, spread, static_cast<std::uint32_t>(count));
      std::vector<T> scalar = vector;
      const std::vector<T> input = vector;
      const T sumVector = expShiftedInPlace(vector.data(), count, T(0));
      const T sumScalar = expShiftedInPlaceScalar(scalar.data(), count, T(0));
      EXPECT_NEAR(sumVector, sumScalar,
                  tolerance * static_cast<double>(count) * sumScalar);  // order of the sum
      for (std::size_t j = 0; j < vector.size(); ++j) {
        ASSERT_EQ(vector[j], scalar[j]) << "count " << count << " spread " << spread << " j " << j;
        const double exact = std::exp(static_cast<double>(input[j]));
        if (input[j] >= kExpFlushBelow<T>) {
          ASSERT_NEAR(static_cast<double>(vector[j]), exact, 4 * tolerance * exact) << input[j];
        } else {
          ASSERT_EQ(vector[j], T(0)) << input[j];
        }
      }
    }
  }
}

// The vector kernel (WASM SIMD in the WASM build, SSE natively) against its scalar twin, and
// both against std::exp.
TEST(ExpKernels, VectorAndScalarAgreeFloat) { expectVectorMatchesScalar<float>(4e-7); }
TEST(ExpKernels, VectorAndScalarAgreeDouble) { expectVectorMatchesScalar<double>(4e-16); }

template <typename T>
void expectSoftmaxMatchesScalar(double tolerance) {
  for (Index count : {1, 3, 8, 9, 257}) {
    std::vector<T> vector = shiftedScores<T>(count, 12.0, 7);
    for (T& v : vector) v += T(5);  // not yet shifted: the kernel finds the max itself
    std::vector<T> scalar = vector;
    softmaxInPlace(vector.data(), count);
    softmaxInPlaceScalar(scalar.data(), count);
    double sum = 0;
    for (std::size_t j = 0; j < vector.size(); ++j) {
      EXPECT_NEAR(vector[j], scalar[j], tolerance) << count << " " << j;
      sum += static_cast<double>(vector[j]);
    }
    EXPECT_NEAR(sum, 1.0, 8 * tolerance);
  }
}

TEST(ExpKernels, SoftmaxVectorAndScalarAgreeFloat) { expectSoftmaxMatchesScalar<float>(1e-6); }
TEST(ExpKernels, SoftmaxVectorAndScalarAgreeDouble) { expectSoftmaxMatchesScalar<double>(1e-15); }

// Below kExpFlushBelow the kernels give exactly 0, never a subnormal (arithmetic on those is
// about 100 times slower), in the vector lanes and the tails alike; just above it, a normal
// number within rounding of std::exp.
template <typename T>
void expectFlushToZero() {
  const T above = kExpFlushBelow<T> * T(0.999);
  std::vector<T> values = {T(-1000), kExpFlushBelow<T> * T(1.001),        above,
                           T(-1e30), -std::numeric_limits<T>::infinity(), T(-1000),
                           above,    kExpFlushBelow<T> * T(1.5),          T(-2000)};
  const std::vector<T> input = values;
  std::vector<T> scalar = values;
  expShiftedInPlace(values.data(), static_cast<Index>(values.size()), T(0));
  expShiftedInPlaceScalar(scalar.data(), static_cast<Index>(scalar.size()), T(0));
  for (std::size_t j = 0; j < values.size(); ++j) {
    EXPECT_EQ(values[j], scalar[j]) << j;
    if (input[j] == above) {
      EXPECT_EQ(std::fpclassify(values[j]), FP_NORMAL) << j;
      EXPECT_NEAR(values[j], std::exp(above), 1e-6 * std::exp(above)) << j;
    } else {
      EXPECT_EQ(values[j], T(0)) << j;
    }
  }
}

TEST(ExpKernels, FlushesToZeroFloat) { expectFlushToZero<float>(); }
TEST(ExpKernels, FlushesToZeroDouble) { expectFlushToZero<double>(); }

TEST(ExpKernels, NaNStaysNaN) {
  std::vector<float> values = {0.0F, std::numeric_limits<float>::quiet_NaN(), -1.0F, -2.0F, -3.0F};
  expShiftedInPlace(values.data(), 5, 0.0F);
  EXPECT_TRUE(std::isnan(values[1]));
  EXPECT_FLOAT_EQ(values[0], 1.0F);
}

}  // namespace
}  // namespace relpos
