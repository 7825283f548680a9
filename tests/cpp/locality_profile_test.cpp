#include "relpos/locality_profile.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace relpos {
namespace {

struct ProfileResult {
  Matrix<double> embeddings;
  Vector<double> query;
  Vector<double> profile;
};

ProfileResult run(const LocalityProfileParams& params) {
  const Index rows = 2 * params.maxDistance + 1;
  ProfileResult r{Matrix<double>(rows, params.dK), Vector<double>(params.dK), Vector<double>(rows)};
  localityProfile(params, MatrixMap<double>(r.embeddings.data(), rows, params.dK),
                  Eigen::Map<Vector<double>>(r.query.data(), params.dK),
                  Eigen::Map<Vector<double>>(r.profile.data(), rows));
  return r;
}

// Derived by hand from docs/maths.md §7 with the noise switched off: profile[c] = exp(-o^2/2) /
// sqrt(d_k).
TEST(LocalityProfile, NoiselessProfileIsTheScaledGaussian) {
  LocalityProfileParams params;
  params.noise = 0.0;
  const ProfileResult r = run(params);
  for (Index c = 0; c < 11; ++c) {
    const double offset = static_cast<double>(c - 5);
    EXPECT_NEAR(r.profile(c), std::exp(-0.5 * offset * offset) / 2.0, 1e-15);
  }
  EXPECT_TRUE((r.query.array() == 0.5).all());
}

TEST(LocalityProfile, SeedDefaultsPeakAtOffsetZero) {
  const ProfileResult r = run(LocalityProfileParams{});
  Index peak = 0;
  r.profile.maxCoeff(&peak);
  EXPECT_EQ(peak, 5);
}

TEST(LocalityProfile, PositiveAsymmetryLooksBack) {
  LocalityProfileParams params;
  params.noise = 0.0;
  params.asymmetry = 0.5;
  const ProfileResult r = run(params);
  for (Index d = 1; d <= 5; ++d) {
    EXPECT_GT(r.profile(5 - d), r.profile(5 + d)) << "offset " << d;
  }
}

TEST(LocalityProfile, WidthWidensTheBump) {
  LocalityProfileParams narrow;
  narrow.noise = 0.0;
  LocalityProfileParams wide = narrow;
  wide.width = 2.0;
  EXPECT_GT(run(wide).profile(7), run(narrow).profile(7));
  EXPECT_NEAR(run(wide).profile(7), std::exp(-0.5) / 2.0, 1e-15);  // offset 2 at sigma 2
}

}  // namespace
}  // namespace relpos
