// The trainable model: every parameter's gradient against central finite differences (float64),
// one Adam step against a hand computation, bit-for-bit repeatability, and learning copy-offset
// with relative positions (and not without them).
#include "relpos/transformer_model.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "relpos/synthetic_tasks.hpp"

namespace relpos {
namespace {

struct Batch {
  std::vector<std::int32_t> tokens, targets;
  int batchSize, seqLen;
  BatchView view() const { return BatchView{tokens.data(), targets.data(), batchSize, seqLen}; }
};

Batch randomBatch(int vocabSize, int batchSize, int seqLen, std::uint32_t seed) {
  Batch batch{std::vector<std::int32_t>(batchSize * seqLen),
              std::vector<std::int32_t>(batchSize * seqLen), batchSize, seqLen};
  SyntheticBatchOptions options;
  options.vocabSize = vocabSize;
  options.seqLen = seqLen;
  options.batchSize = batchSize;
  options.seed = seed;
  options.offset = 0;
  syntheticBatch(options, batch.tokens.data(), batch.targets.data());
  // Targets: a shuffle of the tokens, with some positions left out.
  for (std::size_t r = 0; r < batch.targets.size(); ++r) {
    batch.targets[r] = r % 4 == 3 ? -1 : (batch.tokens[r] * 3 + static_cast<int>(r)) % vocabSize;
  }
  return batch;
}

struct GradientCase {
  const char* name;
  ModelConfig config;
  int batchSize;
  int seqLen;
};

ModelConfig smallConfig() {
  ModelConfig c;
  c.vocabSize = 7;
  c.dModel = 4;
  c.heads = 2;
  c.layers = 1;
  c.ffnWidth = 6;
  c.maxDistance = 2;
  c.seqLen = 5;
  c.maxBatchSize = 3;
  c.seed = 3;
  return c;
}

std::vector<GradientCase> gradientCases() {
  std::vector<GradientCase> cases;
  cases.push_back({"plain", smallConfig(), 3, 5});
  ModelConfig causal = smallConfig();
  causal.causal = true;
  cases.push_back({"causal", causal, 2, 5});
  ModelConfig perHead = smallConfig();
  perHead.perHeadTables = true;
  perHead.heads = 2;
  cases.push_back({"perHeadTables", perHead, 2, 5});
  ModelConfig noOrder = smallConfig();
  noOrder.maxDistance = 0;
  cases.push_back({"k0", noOrder, 2, 5});
  ModelConfig wide = smallConfig();
  wide.maxDistance = 7;
  wide.causal = true;
  wide.perHeadTables = true;
  cases.push_back({"kBeyondSeqLen", wide, 2, 5});
  ModelConfig deep = smallConfig();
  deep.layers = 2;
  deep.heads = 1;
  deep.seed = 11;
  cases.push_back({"twoLayers", deep, 2, 4});
  ModelConfig chunked = smallConfig();
  chunked.maxBatchSize = 2;
  chunked.layers = 2;
  cases.push_back({"chunkedShortSequences", chunked, 5, 3});
  return cases;
}

// d loss / d parameter i by central differences: (L(p + h) − L(p − h)) / 2h, p restored.
double centralDifference(TransformerModel<double>& model, const Batch& batch, Index i) {
  constexpr double h = 1e-5;
  double* p = model.parameters();
  const double saved = p[i];
  p[i] = saved + h;
  const double up = model.evaluate(batch.view()).loss;
  p[i] = saved - h;
  const double down = model.evaluate(batch.view()).loss;
  p[i] = saved;
  return (up - down) / (2 * h);
}

class ModelGradient : public ::testing::TestWithParam<GradientCase> {};

TEST_P(ModelGradient, EveryParameterMatchesCentralDifferences) {
  const GradientCase& c = GetParam();
  ASSERT_EQ(checkModelConfig(c.config), "");
  TransformerModel<double> model(c.config);
  const Batch batch = randomBatch(c.config.vocabSize, c.batchSize, c.seqLen, 5);
  model.lossAndGradients(batch.view());
  const std::vector<double> analytic(model.gradients(), model.gradients() + model.parameterCount());
  for (const ParameterInfo& info : model.parameterTable()) {
    for (Index i = info.offset; i < info.offset + info.size; ++i) {
      const double numeric = centralDifference(model, batch, i);
      const double error = std::abs(numeric - analytic[i]) / std::max(1e-3, std::abs(numeric));
      EXPECT_LT(error, 1e-5) << c.name << " " << info.name << "[" << i - info.offset
                             << "]: analytic " << analytic[i] << ", numeric " << numeric;
    }
    // Every parameter takes part (a table at k = 0 still moves the loss through a^V).
    double norm = 0;
    for (Index i = info.offset; i < info.offset + info.size; ++i) norm += std::abs(analytic[i]);
    if (info.name.find("relativeKeys") == std::string::npos) {
      EXPECT_GT(norm, 0) << c.name << " " << info.name << " has no gradient";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, ModelGradient, ::testing::ValuesIn(gradientCases()),
                         [](const auto& info) { return std::string(info.param.name); });

// A masked-word batch: few positions have a target, and one chunk has none (only the target
// rows get logits; the others' output gradient is zero).
TEST(ModelGradient, SparseTargetsAndAChunkWithoutTargets) {
  ModelConfig c = smallConfig();
  c.maxBatchSize = 2;
  c.layers = 2;
  TransformerModel<double> model(c);
  Batch batch = randomBatch(c.vocabSize, 5, 3, 9);
  for (std::size_t r = 0; r < batch.targets.size(); ++r) {
    if (r % 5 != 1 || r >= 12) batch.targets[r] = -1;
  }
  model.lossAndGradients(batch.view());
  const std::vector<double> analytic(model.gradients(), model.gradients() + model.parameterCount());
  for (Index i = 0; i < model.parameterCount(); ++i) {
    const double numeric = centralDifference(model, batch, i);
    EXPECT_LT(std::abs(numeric - analytic[i]) / std::max(1e-3, std::abs(numeric)), 1e-5)
        << "parameter " << i << ": analytic " << analytic[i] << ", numeric " << numeric;
  }
  Index withTarget = 0;
  for (const std::int32_t t : batch.targets) withTarget += t >= 0 ? 1 : 0;
  EXPECT_EQ(withTarget, 2);  // rows 1 and 6 (11 is left out by randomBatch)
  EXPECT_EQ(model.evaluate(batch.view()).counted, withTarget);
}

// A step in shards: each shard's gradient over the step's target count, gathered in order, is the
// whole batch's gradient; and the shard losses add up to the batch's mean loss.
TEST(ModelGradient, ShardsAddUpToTheBatch) {
  ModelConfig c = smallConfig();
  c.layers = 2;
  TransformerModel<double> model(c);
  const Batch batch = randomBatch(c.vocabSize, 3, 4, 11);
  const double whole = model.lossAndGradients(batch.view());
  const std::vector<double> expected(model.gradients(), model.gradients() + model.parameterCount());
  Index stepTargets = 0;
  for (const std::int32_t t : batch.targets) stepTargets += t >= 0 ? 1 : 0;
  const auto shard = [&](int first, int count) {
    return BatchView{batch.tokens.data() + first * batch.seqLen,
                     batch.targets.data() + first * batch.seqLen, count, batch.seqLen};
  };
  const double second = model.lossAndGradients(shard(1, 2), stepTargets);
  const std::vector<double> secondGradients(model.gradients(),
                                            model.gradients() + model.parameterCount());
  const double first = model.lossAndGradients(shard(0, 1), stepTargets);
  const std::vector<double> firstGradients(model.gradients(),
                                           model.gradients() + model.parameterCount());
  EXPECT_NEAR(first + second, whole, 1e-12);
  model.gatherGradients(firstGradients.data(), true);
  model.gatherGradients(secondGradients.data(), false);
  for (Index i = 0; i < model.parameterCount(); ++i) {
    EXPECT_NEAR(model.gradients()[i], expected[i], 1e-12) << "parameter " << i;
    EXPECT_EQ(model.gradients()[i], firstGradients[i] + secondGradients[i]) << "parameter " << i;
  }
}

TEST(Model, ParameterTableNamesAndShapes) {
  ModelConfig c = smallConfig();
  c.layers = 2;
  c.perHeadTables = true;
  TransformerModel<float> model(c);
  const auto& table = model.parameterTable();
  ASSERT_EQ(table.size(), 1u + 14u * 2u + 2u);
  EXPECT_EQ(table[0].name, "embedding");
  EXPECT_EQ(table[0].shape, (std::vector<Index>{7, 4}));
  EXPECT_EQ(table[5].name, "layers.0.attention.relativeKeys");
  EXPECT_EQ(table[5].shape, (std::vector<Index>{2, 5, 2}));
  EXPECT_EQ(table.back().name, "output.bias");
  Index total = 0;
  for (const auto& info : table) {
    EXPECT_EQ(info.offset, total);
    total += info.size;
  }
  EXPECT_EQ(total, model.parameterCount());
}

TEST(Model, AdamStepMatchesHandComputation) {
  ModelConfig c = smallConfig();
  TransformerModel<double> model(c);
  const Batch batch = randomBatch(c.vocabSize, 2, 5, 9);
  AdamOptions o;
  o.learningRate = 0.01;
  o.beta1 = 0.8;
  o.beta2 = 0.99;
  o.epsilon = 1e-6;
  o.weightDecay = 0.1;
  o.maxGradNorm = 0.5;
  const Index count = model.parameterCount();
  std::vector<double> p(model.parameters(), model.parameters() + count);
  std::vector<double> m(count, 0.0), v(count, 0.0);
  for (int t = 1; t <= 2; ++t) {
    model.lossAndGradients(batch.view());
    std::vector<double> g(model.gradients(), model.gradients() + count);
    double norm = 0;
    for (double x : g) norm += x * x;
    norm = std::sqrt(norm);
    ASSERT_GT(norm, o.maxGradNorm);  // clipping is exercised
    for (double& x : g) x *= o.maxGradNorm / norm;
    model.adamStep(o);
    for (Index i = 0; i < count; ++i) {
      m[i] = o.beta1 * m[i] + (1 - o.beta1) * g[i];
      v[i] = o.beta2 * v[i] + (1 - o.beta2) * g[i] * g[i];
      const double mHat = m[i] / (1 - std::pow(o.beta1, t));
      const double vHat = v[i] / (1 - std::pow(o.beta2, t));
      p[i] = p[i] - o.learningRate * o.weightDecay * p[i] -
             o.learningRate * mHat / (std::sqrt(vHat) + o.epsilon);
      ASSERT_NEAR(model.parameters()[i], p[i], 1e-12 * std::max(1.0, std::abs(p[i])))
          << "step " << t << " parameter " << i;
    }
  }
  EXPECT_EQ(model.adamSteps(), 2);
}

// Parameters finite but too large for the forward pass (1e19 in float32): the loss overflows,
// and a step would make Adam's parameters NaN. trainStep takes none: parameters, moments and the
// step count as they were.
TEST(Model, TrainStepTakesNoStepOnALossOrGradientBeyondItsType) {
  ModelConfig c = smallConfig();
  TransformerModel<float> model(c);
  const Index count = model.parameterCount();
  std::fill(model.parameters(), model.parameters() + count, 1e19f);
  const Batch batch = randomBatch(c.vocabSize, 2, 5, 9);
  AdamOptions o;
  o.learningRate = 0.01;
  const double loss = model.trainStep(batch.view(), o);
  const bool gradientsFinite = std::all_of(model.gradients(), model.gradients() + count,
                                           [](float g) { return std::isfinite(g); });
  EXPECT_FALSE(std::isfinite(loss) && gradientsFinite);
  EXPECT_EQ(model.adamSteps(), 0);
  for (Index i = 0; i < count; ++i) ASSERT_EQ(model.parameters()[i], 1e19f) << "parameter " << i;
}

template <typename T>
std::vector<double> trainLosses(const ModelConfig& c, int steps) {
  TransformerModel<T> model(c);
  std::vector<double> losses;
  AdamOptions o;
  o.learningRate = 0.01;
  for (int s = 0; s < steps; ++s) {
    const Batch batch = randomBatch(c.vocabSize, 4, c.seqLen, 100 + s);
    losses.push_back(model.trainStep(batch.view(), o));
  }
  return losses;
}

TEST(Model, SameSeedSameLossesBitForBit) {
  ModelConfig c = smallConfig();
  c.layers = 2;
  c.maxBatchSize = 3;  // chunks of 3 + 1
  const auto a = trainLosses<float>(c, 5);
  const auto b = trainLosses<float>(c, 5);
  EXPECT_EQ(a, b);
  c.seed = 4;
  EXPECT_NE(trainLosses<float>(c, 5), a);
  EXPECT_EQ(trainLosses<double>(c, 3), trainLosses<double>(c, 3));
}

// positionProfile: per offset c, the mean over every position of every sequence of
// q_i · aᴷ[c] / √d_k, with q_i read back by headInputs one sequence at a time.
TEST(Model, PositionProfileIsTheMeanQueryTimesTheKeyTable) {
  ModelConfig c = smallConfig();
  c.layers = 2;
  c.perHeadTables = true;
  TransformerModel<float> model(c);
  const Batch batch = randomBatch(c.vocabSize, 3, c.seqLen, 9);
  const Index n = c.seqLen, dk = model.headWidth(), rows = model.tableRows();
  std::vector<double> expected(rows, 0.0);
  for (int s = 0; s < batch.batchSize; ++s) {
    model.forwardSequence(batch.tokens.data() + s * n, static_cast<int>(n));
    Matrix<float> q(n, dk), k(n, dk), v(n, dk);
    model.headInputs(1, 1, q.data(), k.data(), v.data());
    const ConstMatrixMap<float> aK(model.relativeKeys(1, 1), rows, dk);
    for (Index i = 0; i < n; ++i) {
      for (Index r = 0; r < rows; ++r) {
        double dot = 0;
        for (Index x = 0; x < dk; ++x) dot += double(q(i, x)) * double(aK(r, x));
        expected[r] += dot / (3.0 * n * std::sqrt(double(dk)));
      }
    }
  }
  std::vector<double> profile(rows, -1.0);
  model.positionProfile(batch.tokens.data(), 3, static_cast<int>(n), 1, 1, profile.data());
  for (Index r = 0; r < rows; ++r) EXPECT_NEAR(profile[r], expected[r], 1e-12) << "row " << r;
}

TEST(Model, EmptyTargetsGiveZeroLossAndGradients) {
  TransformerModel<double> model(smallConfig());
  Batch batch = randomBatch(7, 2, 5, 1);
  std::fill(batch.targets.begin(), batch.targets.end(), -1);
  EXPECT_EQ(model.lossAndGradients(batch.view()), 0.0);
  for (Index i = 0; i < model.parameterCount(); ++i) ASSERT_EQ(model.gradients()[i], 0.0);
}

// Under AddressSanitizer (scripts/sanitize.sh, -O1) 450 training steps take over a minute; the
// gradient checks above already run every line of the model there, and the native and WASM
// suites (and tests/js/train.test.js) run these.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

// Copy-offset: a tiny relative model solves it; with k = 0 it cannot tell positions apart.
struct CopyOffsetRun {
  double accuracy;
  Index peakOffset;  // where layer 0's mean combined weights (over queries) peak, relative
};

CopyOffsetRun trainCopyOffset(int maxDistance, int offset, int steps) {
  ModelConfig c;
  c.vocabSize = 16;
  c.dModel = 32;
  c.heads = 1;
  c.layers = 1;
  c.ffnWidth = 64;
  c.maxDistance = maxDistance;
  c.seqLen = 12;
  c.maxBatchSize = 32;
  c.seed = 1;
  TransformerModel<float> model(c);
  SyntheticBatchOptions s;
  s.offset = offset;
  s.vocabSize = c.vocabSize;
  s.seqLen = c.seqLen;
  s.batchSize = 32;
  std::vector<std::int32_t> tokens(32 * c.seqLen), targets(32 * c.seqLen);
  AdamOptions o;
  o.learningRate = 0.01;
  for (int step = 0; step < steps; ++step) {
    s.seed = 1000 + static_cast<std::uint32_t>(step);
    syntheticBatch(s, tokens.data(), targets.data());
    model.trainStep(BatchView{tokens.data(), targets.data(), 32, c.seqLen}, o);
  }
  s.seed = 7;  // held out: not among the training seeds
  s.batchSize = 32;
  syntheticBatch(s, tokens.data(), targets.data());
  const Evaluation e = model.evaluate(BatchView{tokens.data(), targets.data(), 32, c.seqLen});
  // Attention of the head on one held-out sequence, by offset j - i.
  model.forwardSequence(tokens.data(), c.seqLen);
  const Index n = c.seqLen, dk = model.headWidth();
  Matrix<float> q(n, dk), k(n, dk), v(n, dk);
  model.headInputs(0, 0, q.data(), k.data(), v.data());
  const ConstMatrixMap<float> aK(model.relativeKeys(0, 0), model.tableRows(), dk);
  std::vector<double> byOffset(2 * n - 1, 0.0);
  std::vector<int> counts(2 * n - 1, 0);
  for (Index i = 0; i < n; ++i) {
    std::vector<double> scores(n);
    double maximum = -1e300;
    for (Index j = 0; j < n; ++j) {
      const Index c2 = std::clamp<Index>(j - i, -maxDistance, maxDistance) + maxDistance;
      scores[j] = (q.row(i).dot(k.row(j)) + q.row(i).dot(aK.row(c2))) / std::sqrt(double(dk));
      maximum = std::max(maximum, scores[j]);
    }
    double sum = 0;
    for (double& x : scores) sum += (x = std::exp(x - maximum));
    for (Index j = 0; j < n; ++j) {
      byOffset[j - i + n - 1] += scores[j] / sum;
      counts[j - i + n - 1] += 1;
    }
  }
  Index peak = 0;
  for (Index o2 = 0; o2 < 2 * n - 1; ++o2) {
    if (byOffset[o2] / counts[o2] > byOffset[peak] / counts[peak]) peak = o2;
  }
  return CopyOffsetRun{e.accuracy, peak - (n - 1)};
}

TEST(Model, LearnsCopyOffsetWithRelativePositions) {
  if (kSanitized) GTEST_SKIP() << "450 training steps: run by the native and WASM suites";
  const CopyOffsetRun run = trainCopyOffset(3, 2, 150);
  EXPECT_GE(run.accuracy, 0.99);
  EXPECT_EQ(run.peakOffset, 2);
  const CopyOffsetRun before = trainCopyOffset(3, -1, 150);
  EXPECT_GE(before.accuracy, 0.99);
  EXPECT_EQ(before.peakOffset, -1);
}

TEST(Model, CannotLearnCopyOffsetWithoutPositions) {
  if (kSanitized) GTEST_SKIP() << "150 training steps: run by the native and WASM suites";
  const CopyOffsetRun run = trainCopyOffset(0, 2, 150);
  EXPECT_LT(run.accuracy, 0.3);  // chance is 1/16 from the tokens alone, a little more by luck
}

}  // namespace
}  // namespace relpos
