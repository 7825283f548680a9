#include "relpos/example_scenario.hpp"

#include <cmath>

#include "relpos/numpy_random.hpp"

namespace relpos {
namespace {

// out = randn(rows, cols) / divisor, divided (not multiplied by 1 / divisor) as numpy does.
void fillGaussian(NumpyRandom& random, MatrixMap<double> out, double divisor) {
  random.fillGaussian(out.data(), static_cast<std::size_t>(out.size()));
  out /= divisor;
}

}  // namespace

void drawExampleScenario(std::uint32_t seed, ExampleScenario& s) {
  NumpyRandom random(seed);
  const double weightDivisor = std::sqrt(static_cast<double>(s.x.cols()));
  fillGaussian(random, s.x, 1.0);
  fillGaussian(random, s.queryWeights, weightDivisor);
  fillGaussian(random, s.keyWeights, weightDivisor);
  fillGaussian(random, s.valueWeights, weightDivisor);
  fillGaussian(random, s.relativeKeys, 1.0);
  fillGaussian(random, s.relativeValues, 1.0);
  s.queries.noalias() = s.x * s.queryWeights;
  s.keys.noalias() = s.x * s.keyWeights;
  s.values.noalias() = s.x * s.valueWeights;
}

}  // namespace relpos
