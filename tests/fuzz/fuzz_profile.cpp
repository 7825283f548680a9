// Fuzz target: localityProfile with d_k 1..64, maxDistance 0..256 and any noise, width > 0 and
// |asymmetry| < 1 (the JS API's guarantees), special values included (width down to the smallest
// denormal, asymmetry up to +-(1 - 2^-53)). Every input must be memory-safe and UB-free; inputs
// inside the JS API's contract (web/api/index.js: noise finite in [0, 1e6], width finite in
// (0, 1e6], asymmetry in (-1, 1)) must also give a finite profile, the query 1/sqrt(d_k), and
// with noise 0 exactly the Gaussian bump (1 at offset 0, as sigma -> 0 too).
#include <cmath>
#include <limits>

#include "fuzz_common.hpp"
#include "relpos/locality_profile.hpp"

namespace relpos::fuzz {
namespace {

constexpr Index kMaxDK = 64;
constexpr Index kMaxDistance = 256;

// Noise: anything, specials included.
double pickNoise(FuzzedDataProvider& fdp) {
  const auto selector = fdp.ConsumeIntegral<std::uint8_t>();
  if (selector < kSpecialCount) return specialValue<double>(selector);
  if (selector < 64) return 0.0;
  return fdp.ConsumeFloatingPointInRange<double>(0.0, 1e6);
}

// Width: strictly positive, from the smallest denormal to +Inf.
double pickWidth(FuzzedDataProvider& fdp) {
  constexpr double kEdges[] = {std::numeric_limits<double>::denorm_min(),
                               1e-320,
                               1e-310,
                               std::numeric_limits<double>::min(),
                               1e-300,
                               1e-150,
                               1e-6,
                               0.5,
                               1.0,
                               2.0,
                               1e6,
                               1e300,
                               std::numeric_limits<double>::max(),
                               std::numeric_limits<double>::infinity()};
  constexpr int kEdgeCount = sizeof(kEdges) / sizeof(kEdges[0]);
  const auto selector = fdp.ConsumeIntegral<std::uint8_t>();
  if (selector < kEdgeCount) return kEdges[selector];
  const double width = fdp.ConsumeFloatingPointInRange<double>(0.0, 1e6);
  return width > 0.0 ? width : 1.0;
}

// Asymmetry: strictly inside (-1, 1).
double pickAsymmetry(FuzzedDataProvider& fdp) {
  constexpr double kOneMinusUlp = 1.0 - std::numeric_limits<double>::epsilon() / 2;
  constexpr double kEdges[] = {0.0,           -0.0, 0.999999, -0.999999, kOneMinusUlp,
                               -kOneMinusUlp, 0.5,  -0.5,     1e-308,    -1e-308};
  constexpr int kEdgeCount = sizeof(kEdges) / sizeof(kEdges[0]);
  const auto selector = fdp.ConsumeIntegral<std::uint8_t>();
  if (selector < kEdgeCount) return kEdges[selector];
  const double a = fdp.ConsumeFloatingPointInRange<double>(-1.0, 1.0);
  return std::fabs(a) < 1.0 ? a : 0.0;
}

// The bump at `offset` as docs/maths.md §7 defines it, with its limits: 1 at offset 0 for any
// sigma, 0 elsewhere once sigma underflows to 0.
double expectedBump(Index offset, double width, double asymmetry) {
  if (offset == 0) return 1.0;
  const double sigma = width * (offset < 0 ? 1.0 + asymmetry : 1.0 - asymmetry);
  if (sigma == 0.0) return 0.0;
  const double z = static_cast<double>(offset) / sigma;
  return std::exp(-0.5 * (z * z));
}

}  // namespace
}  // namespace relpos::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace relpos::fuzz;
  using relpos::Index;
  FuzzedDataProvider fdp(data, size);
  relpos::LocalityProfileParams params;
  params.seed = fdp.ConsumeIntegral<std::uint32_t>();
  params.dK = fdp.ConsumeIntegralInRange<Index>(1, kMaxDK);
  params.maxDistance = fdp.ConsumeIntegralInRange<Index>(0, kMaxDistance);
  params.noise = pickNoise(fdp);
  params.width = pickWidth(fdp);
  params.asymmetry = pickAsymmetry(fdp);

  if (describing()) {
    std::fprintf(stderr,
                 "localityProfile: seed %u dK %ld maxDistance %ld noise %.17g width %.17g"
                 " asymmetry %.17g\n",
                 params.seed, static_cast<long>(params.dK), static_cast<long>(params.maxDistance),
                 params.noise, params.width, params.asymmetry);
  }
  const Index rows = 2 * params.maxDistance + 1;
  Buffer<double> embeddings(rows, params.dK), query(params.dK, 1), profile(rows, 1);
  relpos::localityProfile(params, embeddings.map(),
                          Eigen::Map<relpos::Vector<double>>(query.data(), params.dK),
                          Eigen::Map<relpos::Vector<double>>(profile.data(), rows));

  const bool inContract = std::isfinite(params.noise) && params.noise >= 0.0 &&
                          params.noise <= 1e6 && std::isfinite(params.width) &&
                          params.width > 0.0 && params.width <= 1e6;
  if (!inContract) return 0;
  const double queryValue = 1.0 / std::sqrt(static_cast<double>(params.dK));
  for (Index c = 0; c < params.dK; ++c) FUZZ_CHECK(query(c, 0) == queryValue);
  for (Index r = 0; r < rows; ++r) FUZZ_CHECK(std::isfinite(profile(r, 0)));
  if (params.noise != 0.0) return 0;
  for (Index r = 0; r < rows; ++r) {
    const double expected =
        expectedBump(r - params.maxDistance, params.width, params.asymmetry) * queryValue;
    FUZZ_CHECK(std::fabs(profile(r, 0) - expected) <= 4 * std::numeric_limits<double>::epsilon());
  }
  return 0;
}
