// The page's default scenario, drawn from numpy's stream (docs/random-stream.md §4) in this order, row-major:
//   np.random.seed(seed)
//   X   = randn(n, d_model)
//   W_Q = randn(d_model, d_k) / sqrt(d_model);  W_K, W_V likewise (in that order)
//   a^K = randn(2k + 1, d_k);  a^V = randn(2k + 1, d_k)
//   Q = X W_Q,  K = X W_K,  V = X W_V
// tests/fixtures/make_fixtures.py builds the same scenario with numpy.
#pragma once

#include <cstdint>

#include "relpos/matrix_types.hpp"

namespace relpos {

struct ExampleScenario {
  MatrixMap<double> x;               // n x d_model
  MatrixMap<double> queryWeights;    // d_model x d_k
  MatrixMap<double> keyWeights;      // d_model x d_k
  MatrixMap<double> valueWeights;    // d_model x d_k
  MatrixMap<double> relativeKeys;    // (2k + 1) x d_k
  MatrixMap<double> relativeValues;  // (2k + 1) x d_k
  MatrixMap<double> queries;         // n x d_k
  MatrixMap<double> keys;            // n x d_k
  MatrixMap<double> values;          // n x d_k
};

// Fills every caller-owned matrix of the scenario from the seeded stream.
void drawExampleScenario(std::uint32_t seed, ExampleScenario& scenario);

}  // namespace relpos
