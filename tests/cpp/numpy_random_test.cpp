#include "relpos/numpy_random.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace relpos {
namespace {

// std::mt19937(seed) uses the same init_genrand seeding as numpy: an independent reference.
TEST(NumpyRandom, RawStreamMatchesStdMt19937) {
  for (std::uint32_t seed : {0U, 1U, 42U, 5489U, 123456789U, 4294967295U}) {
    NumpyRandom ours(seed);
    std::mt19937 reference(seed);
    for (int i = 0; i < 2000; ++i) {  // crosses the 624-word twist several times
      ASSERT_EQ(ours.nextUint32(), reference()) << "seed " << seed << " draw " << i;
    }
  }
}

// The first draws of np.random.seed(42); np.random.randn(6), as numpy prints them.
TEST(NumpyRandom, GaussiansMatchNumpySeed42) {
  const std::vector<double> numpy = {0.4967141530112327,   -0.13826430117118466,
                                     0.6476885381006925,   1.5230298564080254,
                                     -0.23415337472333597, -0.23413695694918055};
  NumpyRandom random(42);
  for (double expected : numpy) {
    EXPECT_DOUBLE_EQ(random.nextGaussian(), expected);
  }
}

TEST(NumpyRandom, DoublesLieInUnitInterval) {
  NumpyRandom random(7);
  for (int i = 0; i < 10000; ++i) {
    const double u = random.nextDouble();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
  }
}

TEST(NumpyRandom, FillGaussianContinuesTheSameStream) {
  NumpyRandom one(3);
  NumpyRandom other(3);
  std::vector<double> filled(7);
  one.fillGaussian(filled.data(), 3);
  one.fillGaussian(filled.data() + 3, 4);  // an odd split: the cached second value carries over
  for (double value : filled) {
    EXPECT_EQ(value, other.nextGaussian());
  }
}

}  // namespace
}  // namespace relpos
