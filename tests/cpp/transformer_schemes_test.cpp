// The trainable model with the other position schemes (PositionScheme; docs/schemes.md): every
// parameter's gradient against central finite differences (float64), the learned position
// parameters among them (T5's bucket biases, the absolute table), and what each scheme adds.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "relpos/transformer_model.hpp"

namespace relpos {
namespace {

struct SchemeCase {
  const char* name;
  PositionScheme scheme;
  bool causal;
  int layers;
};

ModelConfig schemeConfig(const SchemeCase& c) {
  ModelConfig config;
  config.vocabSize = 7;
  config.dModel = 8;
  config.heads = 2;
  config.layers = c.layers;
  config.ffnWidth = 6;
  config.maxDistance = 2;
  config.seqLen = 6;
  config.maxBatchSize = 2;
  config.causal = c.causal;
  config.seed = 3;
  config.positionScheme = c.scheme;
  config.numBuckets = 8;  // 2 exact buckets a side (4 one-way), log-spaced to 8
  config.bucketDistance = 8;
  return config;
}

// tokens and targets of `sequences` sequences of n tokens; some positions without a target.
std::vector<std::int32_t> pattern(int count, int salt) {
  std::vector<std::int32_t> v(count);
  for (int r = 0; r < count; ++r) v[r] = (r * 5 + salt + r / 3) % 7;
  return v;
}

class SchemeGradient : public ::testing::TestWithParam<SchemeCase> {};

TEST_P(SchemeGradient, EveryParameterMatchesCentralDifferences) {
  const SchemeCase& c = GetParam();
  const ModelConfig config = schemeConfig(c);
  ASSERT_EQ(checkModelConfig(config), "");
  TransformerModel<double> model(config);
  const int sequences = 3, n = 5;  // more sequences than maxBatchSize: two chunks
  const std::vector<std::int32_t> tokens = pattern(sequences * n, 1);
  std::vector<std::int32_t> targets = pattern(sequences * n, 4);
  for (std::size_t r = 3; r < targets.size(); r += 4) targets[r] = -1;
  const BatchView batch{tokens.data(), targets.data(), sequences, n};
  model.lossAndGradients(batch);
  const std::vector<double> analytic(model.gradients(), model.gradients() + model.parameterCount());
  double* p = model.parameters();
  const double h = 1e-5;
  bool learnedPosition = false;
  for (const ParameterInfo& info : model.parameterTable()) {
    EXPECT_EQ(info.name.find("relative"), std::string::npos) << "no Shaw tables with " << c.name;
    learnedPosition |= info.name.find("bucketBiases") != std::string::npos ||
                       info.name.find("position.absolute") != std::string::npos;
    double norm = 0;
    for (Index i = info.offset; i < info.offset + info.size; ++i) {
      const double saved = p[i];
      p[i] = saved + h;
      const double up = model.evaluate(batch).loss;
      p[i] = saved - h;
      const double down = model.evaluate(batch).loss;
      p[i] = saved;
      const double numeric = (up - down) / (2 * h);
      const double error = std::abs(numeric - analytic[i]) / std::max(1e-3, std::abs(numeric));
      EXPECT_LT(error, 1e-5) << c.name << " " << info.name << "[" << i - info.offset
                             << "]: analytic " << analytic[i] << ", numeric " << numeric;
      norm += std::abs(analytic[i]);
    }
    EXPECT_GT(norm, 0) << c.name << " " << info.name << " has no gradient";
  }
  const bool learns = c.scheme == PositionScheme::kT5 || c.scheme == PositionScheme::kAbsolute;
  EXPECT_EQ(learnedPosition, learns) << c.name;
}

INSTANTIATE_TEST_SUITE_P(
    Schemes, SchemeGradient,
    ::testing::Values(SchemeCase{"t5", PositionScheme::kT5, false, 1},
                      SchemeCase{"t5Causal", PositionScheme::kT5, true, 2},
                      SchemeCase{"alibi", PositionScheme::kAlibi, false, 1},
                      SchemeCase{"alibiCausal", PositionScheme::kAlibi, true, 1},
                      SchemeCase{"rope", PositionScheme::kRope, false, 2},
                      SchemeCase{"ropeCausal", PositionScheme::kRope, true, 1},
                      SchemeCase{"sinusoidal", PositionScheme::kSinusoidal, false, 1},
                      SchemeCase{"absolute", PositionScheme::kAbsolute, true, 1},
                      SchemeCase{"none", PositionScheme::kNone, false, 1}),
    [](const ::testing::TestParamInfo<SchemeCase>& info) { return std::string(info.param.name); });

// Without any position signal a bidirectional model cannot tell where a token stands: the same
// tokens in a rotated order give the same loss per token; each scheme with positions breaks it.
TEST(SchemeModel, OnlyNoneIsBlindToOrder) {
  for (PositionScheme scheme :
       {PositionScheme::kNone, PositionScheme::kT5, PositionScheme::kAlibi, PositionScheme::kRope,
        PositionScheme::kSinusoidal, PositionScheme::kAbsolute}) {
    ModelConfig config = schemeConfig(SchemeCase{"", scheme, false, 1});
    TransformerModel<double> model(config);
    const std::vector<std::int32_t> tokens{1, 2, 3, 4, 5};
    const std::vector<std::int32_t> targets{6, -1, -1, -1, -1};  // the first position's target
    std::vector<std::int32_t> moved{2, 3, 1, 4, 5};              // token 1 moved to position 2
    std::vector<std::int32_t> movedTargets{-1, -1, 6, -1, -1};
    const double here = model.evaluate(BatchView{tokens.data(), targets.data(), 1, 5}).loss;
    const double there = model.evaluate(BatchView{moved.data(), movedTargets.data(), 1, 5}).loss;
    if (scheme == PositionScheme::kNone) {
      EXPECT_NEAR(here, there, 1e-12);
    } else {
      EXPECT_GT(std::abs(here - there), 1e-6) << static_cast<int>(scheme);
    }
  }
}

TEST(SchemeModel, ConfigChecks) {
  ModelConfig config = schemeConfig(SchemeCase{"", PositionScheme::kRope, false, 1});
  config.dModel = 6;  // head width 3
  EXPECT_EQ(checkModelConfig(config),
            "position.scheme 'rope' needs an even head width dModel / heads, got 3");
  config = schemeConfig(SchemeCase{"", PositionScheme::kT5, false, 1});
  config.bucketDistance = 2;
  EXPECT_EQ(checkModelConfig(config),
            "T5's maxDistance (the model's bucketDistance) must exceed the exact buckets "
            "(numBuckets / 4, one way: / 2)");
  config.causal = true;
  config.bucketDistance = 4;  // one-way: 4 exact buckets
  EXPECT_NE(checkModelConfig(config), "");
  config.bucketDistance = 5;
  EXPECT_EQ(checkModelConfig(config), "");
  config.positionScheme = static_cast<PositionScheme>(9);
  EXPECT_EQ(checkModelConfig(config), "positionScheme must be from 0 to 6");
}

}  // namespace
}  // namespace relpos
