#include "relpos/attention.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <tuple>

#include "reference_attention.hpp"
#include "relpos/relative_offsets.hpp"
#include "test_matrices.hpp"

namespace relpos {
namespace {

using testing::constMapOf;
using testing::mapOf;
using testing::randomMatrix;

// Owns every input and panel of one attention problem.
template <typename T>
struct Problem {
  Problem(Index n, Index dK, Index dV, Index k, bool causal, std::uint32_t seed)
      : q(randomMatrix<T>(n, dK, seed)),
        keys(randomMatrix<T>(n, dK, seed + 1)),
        relKeys(randomMatrix<T>(2 * k + 1, dK, seed + 2)),
        v(randomMatrix<T>(n, dV, seed + 3)),
        relValues(randomMatrix<T>(2 * k + 1, dV, seed + 4)),
        content(n, n),
        position(n, n),
        combined(n, n),
        contentWeights(n, n),
        combinedWeights(n, n),
        output(n, dV),
        causal(causal) {}

  void run() {
    const AttentionInputs<T> in{constMapOf(q), constMapOf(keys),      constMapOf(relKeys),
                                constMapOf(v), constMapOf(relValues), causal};
    AttentionPanels<T> panels{mapOf(content),        mapOf(position),        mapOf(combined),
                              mapOf(contentWeights), mapOf(combinedWeights), mapOf(output)};
    computeAttention(in, workspace, panels);
  }

  Matrix<T> q, keys, relKeys, v, relValues;
  Matrix<T> content, position, combined, contentWeights, combinedWeights, output;
  bool causal;
  AttentionWorkspace<T> workspace;
};

// (n, d_k, k): includes n > 2k + 1 (clipping active), k >= n (none), k = 0 and n = 1.
class AttentionShapes : public ::testing::TestWithParam<std::tuple<int, int, int>> {};

TEST_P(AttentionShapes, GatherFormEqualsSeedLoop) {
  const auto [n, dK, k] = GetParam();
  Problem<double> p(n, dK, 3, k, false, 11);
  p.run();
  Matrix<double> reference(n, n);
  positionBiasesPairwise<double>(constMapOf(p.q), constMapOf(p.relKeys), mapOf(reference));
  EXPECT_LE((p.position - reference).cwiseAbs().maxCoeff(),
            1e-12 * (1 + reference.cwiseAbs().maxCoeff()));
}

TEST_P(AttentionShapes, BucketedOutputEqualsPairLoop) {
  const auto [n, dK, k] = GetParam();
  for (bool causal : {false, true}) {
    Problem<double> p(n, dK, 5, k, causal, 21);
    p.run();
    Matrix<double> reference(n, 5);
    attentionOutputPairwise<double>(constMapOf(p.combinedWeights), constMapOf(p.v),
                                    constMapOf(p.relValues), mapOf(reference));
    EXPECT_LE((p.output - reference).cwiseAbs().maxCoeff(),
              1e-12 * (1 + reference.cwiseAbs().maxCoeff()));
  }
}

TEST_P(AttentionShapes, WeightRowsSumToOne) {
  const auto [n, dK, k] = GetParam();
  for (bool causal : {false, true}) {
    Problem<double> p(n, dK, 2, k, causal, 31);
    p.run();
    for (const Matrix<double>* w : {&p.contentWeights, &p.combinedWeights}) {
      EXPECT_TRUE((w->array() >= 0).all());
      EXPECT_LE((w->rowwise().sum().array() - 1).abs().maxCoeff(), 1e-14);
    }
  }
}

TEST_P(AttentionShapes, PositionBiasesAreConstantBeyondK) {
  const auto [n, dK, k] = GetParam();
  Problem<double> p(n, dK, 2, k, false, 41);
  p.run();
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < n; ++j) {
      if (j - i > k) {
        EXPECT_EQ(p.position(i, j), p.position(i, i + k));
      }
      if (j - i < -k) {
        EXPECT_EQ(p.position(i, j), p.position(i, i - k));
      }
    }
  }
}

TEST_P(AttentionShapes, FloatAgreesWithDouble) {
  const auto [n, dK, k] = GetParam();
  Problem<double> d(n, dK, 4, k, false, 51);
  Problem<float> f(n, dK, 4, k, false, 51);
  d.run();
  f.run();
  const auto close = [](const Matrix<float>& single, const Matrix<double>& full) {
    return (single.cast<double>() - full).cwiseAbs().maxCoeff() <=
           2e-5 * (1 + full.cwiseAbs().maxCoeff());
  };
  EXPECT_TRUE(close(f.content, d.content));
  EXPECT_TRUE(close(f.position, d.position));
  EXPECT_TRUE(close(f.combinedWeights, d.combinedWeights));
  EXPECT_TRUE(close(f.output, d.output));
}

INSTANTIATE_TEST_SUITE_P(Shapes, AttentionShapes,
                         ::testing::Values(std::make_tuple(1, 4, 0), std::make_tuple(1, 3, 2),
                                           std::make_tuple(6, 4, 0), std::make_tuple(6, 4, 2),
                                           std::make_tuple(6, 8, 5), std::make_tuple(6, 4, 9),
                                           std::make_tuple(17, 7, 3), std::make_tuple(40, 16, 4),
                                           std::make_tuple(33, 1, 1),
                                           // Several blocks of 32 query rows, each reading its
                                           // own band of a table larger than n, or all of it.
                                           std::make_tuple(70, 5, 3), std::make_tuple(70, 3, 100),
                                           std::make_tuple(75, 9, 44), std::make_tuple(64, 8, 31),
                                           std::make_tuple(97, 2, 63)));

TEST(Attention, ScoresMatchTheirDefinitions) {
  Problem<double> p(5, 3, 2, 1, false, 61);
  p.run();
  const double scale = 1.0 / std::sqrt(3.0);
  for (Index i = 0; i < 5; ++i) {
    for (Index j = 0; j < 5; ++j) {
      const Index index = std::clamp<Index>(j - i, -1, 1) + 1;
      EXPECT_NEAR(p.content(i, j), p.q.row(i).dot(p.keys.row(j)) * scale, 1e-14);
      EXPECT_NEAR(p.position(i, j), p.q.row(i).dot(p.relKeys.row(index)) * scale, 1e-14);
      EXPECT_DOUBLE_EQ(p.combined(i, j), p.content(i, j) + p.position(i, j));
    }
  }
}

TEST(Attention, CausalMaskZeroesTheFuture) {
  Problem<double> p(7, 4, 3, 2, true, 71);
  p.run();
  for (Index i = 0; i < 7; ++i) {
    for (Index j = i + 1; j < 7; ++j) {
      EXPECT_EQ(p.contentWeights(i, j), 0.0);
      EXPECT_EQ(p.combinedWeights(i, j), 0.0);
    }
  }
  EXPECT_DOUBLE_EQ(p.combinedWeights(0, 0), 1.0);  // the first query sees only itself
  // Scores stay unmasked: the mask belongs to the softmax.
  EXPECT_NE(p.content(0, 6), 0.0);
}

TEST(Attention, SoftmaxIsStableForHugeScores) {
  Matrix<double> scores(1, 3);
  scores << 1000.0, 999.0, -1000.0;
  Matrix<double> weights(1, 3);
  softmaxRows<double>(constMapOf(scores), false, mapOf(weights));
  const double e = std::exp(-1.0);
  EXPECT_NEAR(weights(0, 0), 1.0 / (1.0 + e), 1e-15);
  EXPECT_NEAR(weights(0, 1), e / (1.0 + e), 1e-15);
  EXPECT_LE(weights(0, 2), 1e-300);  // exp(-2000): at most the smallest normal double
}

// Scores that overflow float (1e30 · 1e30) take the softmax's limit: finite weights.
TEST(Attention, OverflowingScoresGiveTheSoftmaxLimit) {
  Problem<float> p(5, 2, 2, 1, false, 111);
  p.q.setConstant(1e30F);
  p.keys.setConstant(1e30F);
  p.keys.row(3).setConstant(-1e30F);
  p.run();
  EXPECT_TRUE(std::isinf(p.content(0, 0)));  // the score itself is +inf in float
  for (Index i = 0; i < 5; ++i) {
    EXPECT_TRUE(p.contentWeights.row(i).allFinite());
    EXPECT_NEAR(p.contentWeights.row(i).sum(), 1.0F, 1e-6F);
    EXPECT_EQ(p.contentWeights(i, 3), 0.0F);         // the -inf key
    EXPECT_FLOAT_EQ(p.contentWeights(i, 0), 0.25F);  // four +inf keys share the weight
  }
  EXPECT_TRUE(p.output.allFinite());
}

// Peaked rows (large scores) flush their far-below-maximum weights to 0: no weight, and no
// output, is a subnormal number (arithmetic on those made the value product 100x slower).
TEST(Attention, PeakedRowsHaveNoSubnormalWeights) {
  Problem<float> p(70, 8, 5, 3, false, 131);
  p.q *= 100.0F;
  p.run();
  Index zeros = 0;
  for (const Matrix<float>* m : {&p.contentWeights, &p.combinedWeights, &p.output}) {
    for (Index t = 0; t < m->size(); ++t) {
      const float v = m->data()[t];
      EXPECT_TRUE(v == 0.0F || std::fpclassify(v) == FP_NORMAL) << v;
      zeros += v == 0.0F ? 1 : 0;
    }
  }
  EXPECT_GT(zeros, 0);  // the case is really peaked
  for (Index i = 0; i < 70; ++i) EXPECT_NEAR(p.combinedWeights.row(i).sum(), 1.0F, 1e-5F);
}

TEST(Attention, AllMinusInfinityRowIsUniform) {
  Matrix<double> scores(1, 4);
  scores.setConstant(-std::numeric_limits<double>::infinity());
  Matrix<double> weights(1, 4);
  softmaxRows<double>(constMapOf(scores), false, mapOf(weights));
  EXPECT_TRUE((weights.array() == 0.25).all());
}

TEST(Attention, HugeFiniteDoublesStayFinite) {
  Problem<double> p(4, 3, 2, 2, true, 121);
  p.q *= 1e140;
  p.keys *= 1e140;  // scores ~1e280: finite in double
  p.run();
  EXPECT_TRUE(p.content.allFinite());
  EXPECT_TRUE(p.combinedWeights.allFinite());
  EXPECT_TRUE(p.output.allFinite());
}

TEST(Attention, ZeroDistanceUsesOneEmbeddingEverywhere) {
  Problem<double> p(6, 4, 2, 0, false, 81);
  p.run();
  for (Index i = 0; i < 6; ++i) {
    EXPECT_TRUE((p.position.row(i).array() == p.position(i, 0)).all());
  }
}

TEST(Attention, SingleTokenAttendsToItself) {
  Problem<double> p(1, 4, 3, 2, false, 91);
  p.run();
  EXPECT_EQ(p.contentWeights(0, 0), 1.0);
  EXPECT_EQ(p.combinedWeights(0, 0), 1.0);
  const Matrix<double> expected = p.v.row(0) + p.relValues.row(2);  // offset 0 is row k
  EXPECT_LE((p.output - expected).cwiseAbs().maxCoeff(), 1e-15);
}

TEST(Attention, WorkspaceReuseAcrossShapesGivesFreshResults) {
  AttentionWorkspace<double> shared;
  Problem<double> big(20, 4, 3, 6, false, 101);
  big.run();
  Problem<double> small(5, 4, 3, 1, false, 102);
  Problem<double> smallAlone(5, 4, 3, 1, false, 102);
  small.workspace = big.workspace;  // a workspace that is larger than needed
  small.run();
  smallAlone.run();
  EXPECT_EQ(small.output, smallAlone.output);
  EXPECT_EQ(small.position, smallAlone.position);
}

}  // namespace
}  // namespace relpos
