#include "relpos/locality_profile.hpp"

#include <cmath>

#include "relpos/numpy_random.hpp"

namespace relpos {

double localityBump(Index offset, double width, double asymmetry) {
  const double sigma = width * (offset < 0 ? 1.0 + asymmetry : 1.0 - asymmetry);
  // offset 0 peaks at 1 whatever sigma is (sigma may underflow to 0 for tiny widths).
  const double z = offset == 0 ? 0.0 : static_cast<double>(offset) / sigma;
  return std::exp(-0.5 * (z * z));
}

void localityProfile(const LocalityProfileParams& params, MatrixMap<double> embeddings,
                     Eigen::Map<Vector<double>> query, Eigen::Map<Vector<double>> profile) {
  NumpyRandom random(params.seed);
  random.fillGaussian(embeddings.data(), static_cast<std::size_t>(embeddings.size()));
  embeddings *= params.noise;
  const Index k = params.maxDistance;
  for (Index row = 0; row < embeddings.rows(); ++row) {
    const Index offset = row - k;
    embeddings(row, 0) += localityBump(offset, params.width, params.asymmetry);
  }
  query.setConstant(1.0 / std::sqrt(static_cast<double>(params.dK)));
  profile.noalias() = embeddings * query;
}

}  // namespace relpos
