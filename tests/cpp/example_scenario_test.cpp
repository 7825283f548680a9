#include "relpos/example_scenario.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "relpos/numpy_random.hpp"

namespace relpos {
namespace {

// FNV-1a over the seed's bytes and the label, as computed by tests/fixtures/make_fixtures.py.
TEST(DerivedSeed, MatchesTheIndependentHash) {
  EXPECT_EQ(derivedSeed(0, ""), 1268118805U);
  EXPECT_EQ(derivedSeed(42, "word:the"), 3630558894U);
  EXPECT_EQ(derivedSeed(42, "aK:-3"), 303332419U);
  EXPECT_EQ(derivedSeed(4294967295U, "weights"), 976880898U);
  EXPECT_EQ(derivedSeed(7, "word:\xe6\x97\xa5\xe6\x9c\xac"), 3785999780U);
  EXPECT_EQ(derivedSeed(42, "the", "word:"), derivedSeed(42, "word:the"));
}

// The scenario's matrices, owned, for a sentence of words.
struct Drawn {
  Drawn(Index n, Index dModel, Index dK, Index k)
      : x(n, dModel),
        wq(dModel, dK),
        wk(dModel, dK),
        wv(dModel, dK),
        aK(2 * k + 1, dK),
        aV(2 * k + 1, dK),
        q(n, dK),
        keys(n, dK),
        v(n, dK),
        profile(2 * k + 1) {}
  Matrix<double> x, wq, wk, wv, aK, aV, q, keys, v;
  Vector<double> profile;
};

Drawn draw(const ScenarioSettings& settings, const std::vector<std::string>& words, Index k,
           Index dK = 4) {
  const auto n = static_cast<Index>(words.size());
  Drawn d(n, 8, dK, k);
  std::string bytes;
  std::vector<std::int32_t> lengths;
  for (const auto& word : words) {
    bytes += word;
    lengths.push_back(static_cast<std::int32_t>(word.size()));
  }
  ExampleScenario s{MatrixMap<double>(d.x.data(), n, 8),
                    MatrixMap<double>(d.wq.data(), 8, dK),
                    MatrixMap<double>(d.wk.data(), 8, dK),
                    MatrixMap<double>(d.wv.data(), 8, dK),
                    MatrixMap<double>(d.aK.data(), 2 * k + 1, dK),
                    MatrixMap<double>(d.aV.data(), 2 * k + 1, dK),
                    MatrixMap<double>(d.q.data(), n, dK),
                    MatrixMap<double>(d.keys.data(), n, dK),
                    MatrixMap<double>(d.v.data(), n, dK),
                    Eigen::Map<Vector<double>>(d.profile.data(), 2 * k + 1)};
  drawExampleScenario(settings, Utf8Tokens{bytes.data(), lengths.data()}, s);
  return d;
}

ScenarioSettings stable() {
  ScenarioSettings settings;
  settings.draw = ScenarioDraw::kStable;
  return settings;
}

TEST(StableScenario, AWordIsTheSameRowWhereverItStands) {
  const Drawn d = draw(stable(), {"the", "cat", "sat", "on", "the", "mat"}, 2);
  EXPECT_EQ(d.x.row(0), d.x.row(4));
  EXPECT_EQ(d.q.row(0), d.q.row(4));
  NumpyRandom the(derivedSeed(42, "word:the"));
  for (Index c = 0; c < 8; ++c) EXPECT_EQ(d.x(0, c), the.nextGaussian());
}

TEST(StableScenario, ATableRowBelongsToItsOffsetAtAnyK) {
  for (const PositionTable table : {PositionTable::kRandom, PositionTable::kLocality}) {
    ScenarioSettings settings = stable();
    settings.table = table;
    const Drawn narrow = draw(settings, {"a", "b", "c"}, 1);
    const Drawn wide = draw(settings, {"a", "b", "c"}, 4);
    for (Index o = -1; o <= 1; ++o) {
      EXPECT_EQ(narrow.aK.row(o + 1), wide.aK.row(o + 4));
      EXPECT_EQ(narrow.aV.row(o + 1), wide.aV.row(o + 4));
      EXPECT_EQ(narrow.profile(o + 1), wide.profile(o + 4));
    }
    EXPECT_EQ(narrow.q, wide.q);
  }
}

TEST(StableScenario, AppendingAWordKeepsEveryEarlierRow) {
  const Drawn shorter = draw(stable(), {"one", "two", "three"}, 2);
  const Drawn longer = draw(stable(), {"one", "two", "three", "four", "five", "six", "seven"}, 2);
  EXPECT_EQ(shorter.q, longer.q.topRows(3));
  EXPECT_EQ(shorter.keys, longer.keys.topRows(3));
  EXPECT_EQ(shorter.v, longer.v.topRows(3));
}

TEST(StableScenario, SameQueryMakesEveryRowTheUniformQueryAndTheProfileItsBias) {
  ScenarioSettings settings = stable();
  settings.sameQuery = true;
  settings.table = PositionTable::kLocality;
  settings.locality.noise = 0.0;
  settings.locality.strength = 4.0;
  const Drawn d = draw(settings, {"x", "y"}, 3, 4);
  EXPECT_TRUE((d.q.array() == 0.5).all());
  // Noiseless: profile = strength * bump / d_k (u . e_0 = 1/2, then / sqrt(d_k) = 1/2).
  EXPECT_DOUBLE_EQ(d.profile(3), 1.0);
  EXPECT_NEAR(d.profile(4), std::exp(-0.5), 1e-15);
}

}  // namespace
}  // namespace relpos
