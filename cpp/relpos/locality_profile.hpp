// The simulated "learned" locality profile of the handbook (docs/maths.md §7):
//   a^K = randn(2k + 1, d_k) * noise;  a^K[c, 0] += exp(-offset^2 / (2 sigma^2)), offset = c - k;
//   query = ones(d_k) / sqrt(d_k);     profile = a^K query   (one score per offset -k..k).
#pragma once

#include <cstdint>

#include "relpos/matrix_types.hpp"

namespace relpos {

// Defaults: the JS API's too, read from here (docs/architecture.md, "Defaults, one source").
struct LocalityProfileParams {
  std::uint32_t seed = 42;
  Index dK = 4;
  Index maxDistance = 5;
  double noise = 0.1;
  double width = 1.0;      // sigma of the Gaussian bump, in positions
  double asymmetry = 0.0;  // in (-1, 1): sigma is width * (1 + a) for offsets < 0 (looking
                           // back) and width * (1 - a) for offsets > 0; 0 is the handbook's
};

// exp(-offset^2 / (2 sigma^2)) with sigma = width * (1 + asymmetry) for offset < 0 and
// width * (1 - asymmetry) for offset > 0; exactly 1 at offset 0.
double localityBump(Index offset, double width, double asymmetry);

// embeddings: (2k + 1) x d_k, query: d_k, profile: 2k + 1, all caller-owned.
void localityProfile(const LocalityProfileParams& params, MatrixMap<double> embeddings,
                     Eigen::Map<Vector<double>> query, Eigen::Map<Vector<double>> profile);

}  // namespace relpos
