#include "relpos/position_schemes.hpp"

#include "relpos/attention.hpp"
#include "relpos/scheme_table.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "test_matrices.hpp"

namespace relpos {
namespace {

using testing::constMapOf;
using testing::mapOf;
using testing::randomMatrix;

TEST(T5Bucket, HandDerivedValuesForTheDefaults) {
  const T5BucketParams p{32, 128, true};  // 16 buckets a side, 8 exact
  EXPECT_EQ(t5Bucket(0, p), 0);
  EXPECT_EQ(t5Bucket(-1, p), 1);
  EXPECT_EQ(t5Bucket(-7, p), 7);
  EXPECT_EQ(t5Bucket(1, p), 17);
  EXPECT_EQ(t5Bucket(-8, p), 8);    // log(1) = 0
  EXPECT_EQ(t5Bucket(-16, p), 10);  // 8 + log(2)/log(16) * 8 = 8 + 2 exactly
  EXPECT_EQ(t5Bucket(16, p), 26);
  EXPECT_EQ(t5Bucket(-127, p), 15);  // 8 + 7.99… = 15
  EXPECT_EQ(t5Bucket(-128, p), 15);  // 8 + 8 capped at 15
  EXPECT_EQ(t5Bucket(-4096, p), 15);
  EXPECT_EQ(t5Bucket(4096, p), 31);
  const T5BucketParams causal{32, 128, false};  // 32 buckets, 16 exact, keys after are bucket 0
  EXPECT_EQ(t5Bucket(5, causal), 0);
  EXPECT_EQ(t5Bucket(-15, causal), 15);
  EXPECT_EQ(t5Bucket(-16, causal), 16);
  EXPECT_EQ(t5Bucket(-32, causal), 21);  // 16 + log(2)/log(8) * 16 = 16 + 5.33
  EXPECT_EQ(t5Bucket(-4096, causal), 31);
}

TEST(T5Bucket, MonotoneInDistanceAndWithinRange) {
  for (const T5BucketParams p : {T5BucketParams{32, 128, true}, T5BucketParams{16, 64, false},
                                 T5BucketParams{64, 512, true}, T5BucketParams{8, 16, true}}) {
    const int half = p.bidirectional ? p.numBuckets / 2 : p.numBuckets;
    for (std::int64_t d = 1; d <= 4096; ++d) {
      EXPECT_GE(t5Bucket(-d, p), t5Bucket(-(d - 1), p));
      EXPECT_LT(t5Bucket(-d, p), half);
      if (p.bidirectional) {
        EXPECT_GE(t5Bucket(d, p), t5Bucket(d - 1 > 0 ? d - 1 : 1, p));
        EXPECT_EQ(t5Bucket(d, p) - half, t5Bucket(-d, p));  // the two halves mirror each other
      }
    }
    EXPECT_EQ(t5Bucket(-p.maxDistance, p), half - 1);  // the last bucket from maxDistance on
  }
}

TEST(T5Buckets, MatrixIsTheBucketOfKeyMinusQuery) {
  const T5BucketParams p{16, 32, true};
  const Index n = 70;
  Eigen::Matrix<std::int32_t, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> out(n, n);
  t5Buckets(p, OffsetMatrixMap(out.data(), n, n));
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < n; ++j) EXPECT_EQ(out(i, j), t5Bucket(j - i, p)) << i << ", " << j;
  }
}

TEST(AlibiSlopes, PowersOfTwoAreTheGeometricSequence) {
  for (Index heads : {1, 2, 4, 8, 16, 32, 64}) {
    Vector<double> slopes(heads);
    alibiSlopes(slopes);
    for (Index h = 1; h <= heads; ++h) {
      // start * start^(h - 1) as the reference code computes it: within 1e-14 of 2^(-8h/H).
      EXPECT_NEAR(slopes(h - 1), std::exp2(-8.0 * h / heads), 1e-14 * std::exp2(-8.0 * h / heads));
    }
  }
}

TEST(AlibiSlopes, OtherCountsTakeEveryOtherSlopeOfTheNextPower) {
  Vector<double> slopes(6);
  alibiSlopes(slopes);
  const double expected[] = {0.25, 0.0625, 0.015625, 0.00390625, 0.5, 0.125};
  for (int h = 0; h < 6; ++h) EXPECT_DOUBLE_EQ(slopes(h), expected[h]);
}

TEST(Rope, BothLayoutsRotateTheirPairs) {
  const Matrix<double> x = randomMatrix<double>(5, 6, 3);
  const Vector<double> positions = Vector<double>::LinSpaced(5, 0, 4);
  Matrix<double> interleaved(5, 6);
  Matrix<double> half(5, 6);
  applyRope<double>(x, positions, {10000, RopeLayout::kInterleaved}, interleaved);
  applyRope<double>(x, positions, {10000, RopeLayout::kHalf}, half);
  for (Index r = 0; r < 5; ++r) {
    for (Index t = 0; t < 3; ++t) {
      const double angle = static_cast<double>(r) * std::pow(10000.0, -2.0 * t / 6);
      const double c = std::cos(angle);
      const double s = std::sin(angle);
      EXPECT_NEAR(interleaved(r, 2 * t), x(r, 2 * t) * c - x(r, 2 * t + 1) * s, 1e-15);
      EXPECT_NEAR(interleaved(r, 2 * t + 1), x(r, 2 * t) * s + x(r, 2 * t + 1) * c, 1e-15);
      EXPECT_NEAR(half(r, t), x(r, t) * c - x(r, t + 3) * s, 1e-15);
      EXPECT_NEAR(half(r, t + 3), x(r, t) * s + x(r, t + 3) * c, 1e-15);
    }
  }
}

TEST(Rope, DotProductDependsOnlyOnTheOffset) {
  const Matrix<double> q = randomMatrix<double>(1, 8, 5);
  const Matrix<double> k = randomMatrix<double>(1, 8, 6);
  for (RopeLayout layout : {RopeLayout::kInterleaved, RopeLayout::kHalf}) {
    auto score = [&](double i, double j) {
      Matrix<double> rq(1, 8);
      Matrix<double> rk(1, 8);
      applyRope<double>(q, Vector<double>::Constant(1, i), {10000, layout}, rq);
      applyRope<double>(k, Vector<double>::Constant(1, j), {10000, layout}, rk);
      return rq.row(0).dot(rk.row(0));
    };
    for (double offset : {-7.0, 0.0, 3.0, 40.0}) {
      const double at0 = score(0, offset);
      for (double i : {1.0, 17.0, 250.0}) EXPECT_NEAR(score(i, i + offset), at0, 1e-12);
    }
  }
}

TEST(Sinusoidal, MatchesThePaperFormula) {
  Matrix<double> pe(4, 5);
  sinusoidalEncoding<double>(10000, 3, pe);
  for (Index r = 0; r < 4; ++r) {
    for (Index c = 0; c < 5; ++c) {
      const double angle = static_cast<double>(r + 3) / std::pow(10000.0, (c - c % 2) / 5.0);
      EXPECT_NEAR(pe(r, c), c % 2 == 0 ? std::sin(angle) : std::cos(angle), 1e-15);
    }
  }
}

// A scheme as the tests choose it: T5's params and biases, ALiBi's slope, RoPE's params.
struct Scheme {
  PositionScheme scheme = PositionScheme::kNone;
  T5BucketParams t5;
  const double* bucketBiases = nullptr;
  double slope = 0;
  RopeParams rope;
};

// Owns the inputs and panels of one computeAttention call with a scheme's PositionTerm; x rows
// are the tokens.
struct SchemeProblem {
  SchemeProblem(const Matrix<double>& tokens, std::uint32_t seed)
      : x(tokens),
        wQ(randomMatrix<double>(tokens.cols(), 4, seed)),
        wK(randomMatrix<double>(tokens.cols(), 4, seed + 1)),
        wV(randomMatrix<double>(tokens.cols(), 4, seed + 2)),
        q(x * wQ),
        k(x * wK),
        v(x * wV) {}

  void run(const Scheme& s, bool causal = false) {
    const Index n = x.rows();
    for (Matrix<double>* m : {&content, &bias, &combined, &contentWeights, &combinedWeights}) {
      m->resize(n, n);
    }
    output.resize(n, 4);
    Vector<double> byOffset(2 * n - 1);
    PositionTerm<double> position;
    position.kind = PositionKind::kNone;
    if (s.scheme == PositionScheme::kT5) {
      t5BiasByOffset<double>(s.t5, s.bucketBiases, n, byOffset.data());
      position.kind = PositionKind::kOffsetBias;
    } else if (s.scheme == PositionScheme::kAlibi) {
      alibiBiasByOffset<double>(s.slope, n, byOffset.data());
      position.kind = PositionKind::kOffsetBias;
    } else if (s.scheme == PositionScheme::kRope) {
      position.kind = PositionKind::kRotation;
      position.rotation = s.rope;
    }
    position.biasByOffset = byOffset.data();
    AttentionPanels<double> panels{mapOf(content),         mapOf(bias),
                                   mapOf(combined),        mapOf(contentWeights),
                                   mapOf(combinedWeights), mapOf(output)};
    const ConstMatrixMap<double> none(nullptr, 0, 0);
    if (s.scheme == PositionScheme::kSinusoidal) {
      absolute.computeSinusoidal(x, wQ, wK, wV, 10000, 0, x.rows());
      const PositionTerm<double> placed{
          PositionKind::kAbsolute, nullptr, 0, {}, absolute.positionedQueries,
          absolute.positionedKeys};
      const AttentionInputs<double> in{absolute.queries, absolute.keys, none,
                                       absolute.values,  none,          causal};
      computeAttention(in, placed, workspace, panels);
    } else {
      const AttentionInputs<double> in{q, k, none, v, none, causal};
      computeAttention(in, position, workspace, panels);
    }
  }

  Matrix<double> x, wQ, wK, wV, q, k, v;
  Matrix<double> content, bias, combined, contentWeights, combinedWeights, output;
  AttentionWorkspace<double> workspace;
  AbsoluteInputs<double> absolute;
};

TEST(SchemeAttention, BiasesArePerPairFormulas) {
  SchemeProblem p(randomMatrix<double>(9, 6, 1), 20);
  const Vector<double> biases = randomMatrix<double>(8, 1, 9);
  Scheme t5;
  t5.scheme = PositionScheme::kT5;
  t5.t5 = {8, 16, true};
  t5.bucketBiases = biases.data();
  p.run(t5);
  for (Index i = 0; i < 9; ++i) {
    for (Index j = 0; j < 9; ++j) {
      EXPECT_EQ(p.bias(i, j), biases(t5Bucket(j - i, t5.t5)));
      EXPECT_NEAR(p.content(i, j), p.q.row(i).dot(p.k.row(j)) / 2, 1e-12);
      EXPECT_EQ(p.combined(i, j), p.content(i, j) + p.bias(i, j));
    }
  }
  Scheme alibi;
  alibi.scheme = PositionScheme::kAlibi;
  alibi.slope = 0.25;
  p.run(alibi);
  for (Index i = 0; i < 9; ++i) {
    for (Index j = 0; j < 9; ++j)
      EXPECT_EQ(p.bias(i, j), -0.25 * std::abs(static_cast<double>(j - i)));
  }
  Scheme none;
  p.run(none);
  EXPECT_EQ(p.bias.cwiseAbs().maxCoeff(), 0.0);
  EXPECT_EQ((p.combinedWeights - p.contentWeights).cwiseAbs().maxCoeff(), 0.0);
}

// The scheme table's biasRegion: T5's biases give a bias row per row (1 x numBuckets or heads x
// numBuckets), ALiBi's slopes one per column (1 x 1 or 1 x heads), a scheme with none one row.
TEST(SchemeTable, BiasRegionsGiveTheRowsOfTheBiasByOffset) {
  const SchemeInfo& t5 = *schemeInfo(PositionScheme::kT5);
  const SchemeInfo& alibi = *schemeInfo(PositionScheme::kAlibi);
  EXPECT_STREQ(t5.biasRegion, "bucketBiases");
  EXPECT_STREQ(alibi.biasRegion, "slopes");
  EXPECT_EQ(offsetBiasRows(t5, 4, 32), 4);
  EXPECT_EQ(offsetBiasRows(t5, 1, 32), 1);
  EXPECT_EQ(offsetBiasRows(alibi, 1, 6), 6);
  EXPECT_EQ(offsetBiasRows(alibi, 1, 1), 1);
  for (const SchemeInfo& info : kSchemeTable) {
    if (info.kind != PositionKind::kOffsetBias) EXPECT_EQ(info.biasRegion, nullptr) << info.name;
  }
  EXPECT_EQ(offsetBiasRows(*schemeInfo(PositionScheme::kNone), 0, 0), 1);
  EXPECT_EQ(biasRegionReaders("bucketBiases"), "only T5 reads it");
  EXPECT_EQ(biasRegionReaders("slopes"), "only ALiBi reads it");
}

TEST(SchemeAttention, RopeScoresAreRotatedProducts) {
  SchemeProblem p(randomMatrix<double>(7, 6, 2), 30);
  Scheme rope;
  rope.scheme = PositionScheme::kRope;
  rope.rope.layout = RopeLayout::kHalf;
  p.run(rope);
  Matrix<double> rq(7, 4);
  Matrix<double> rk(7, 4);
  const Vector<double> positions = Vector<double>::LinSpaced(7, 0, 6);
  applyRope<double>(p.q, positions, rope.rope, rq);
  applyRope<double>(p.k, positions, rope.rope, rk);
  const Matrix<double> expected = rq * rk.transpose() / 2;
  EXPECT_LE((p.combined - expected).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LE((p.bias - (expected - p.content)).cwiseAbs().maxCoeff(), 1e-12);
}

// Prepend m filler tokens: the original tokens' combined scores move by rounding only for the
// relative schemes, and by much more for sinusoidal.
TEST(SchemeAttention, ShiftExperiment) {
  const Matrix<double> tokens = randomMatrix<double>(6, 8, 4);
  const Index m = 5;
  Matrix<double> shifted(6 + m, 8);
  shifted.topRows(m) = randomMatrix<double>(m, 8, 77);
  shifted.bottomRows(6) = tokens;
  const Vector<double> biases = randomMatrix<double>(32, 1, 9);
  for (PositionScheme scheme : {PositionScheme::kNone, PositionScheme::kT5, PositionScheme::kAlibi,
                                PositionScheme::kRope, PositionScheme::kSinusoidal}) {
    Scheme position;
    position.scheme = scheme;
    position.slope = 0.5;
    position.bucketBiases = biases.data();
    SchemeProblem before(tokens, 40);
    SchemeProblem after(shifted, 40);
    before.run(position);
    after.run(position);
    const double difference =
        (after.combined.bottomRightCorner(6, 6) - before.combined).cwiseAbs().maxCoeff();
    if (scheme == PositionScheme::kSinusoidal) {
      EXPECT_GT(difference, 1e-3);
    } else {
      EXPECT_LE(difference, 1e-12) << static_cast<int>(scheme);
    }
  }
}

}  // namespace
}  // namespace relpos
