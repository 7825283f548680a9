// Position schemes beside Shaw's (docs/schemes.md): T5's bucketed biases, ALiBi's linear biases,
// RoPE's rotations, the original sinusoidal encoding and none. Offsets are key minus query
// (j - i), as everywhere in this project. Every function writes into caller-owned memory; the
// shapes and parameters are the caller's to check (web/api/schemes.js does). attention() with a
// scheme is computeAttention with the scheme's PositionTerm (relpos/position_term.hpp).
#pragma once

#include <cstdint>

#include "relpos/matrix_types.hpp"
#include "relpos/packed_gemm.hpp"
#include "relpos/position_term.hpp"

namespace relpos {

// T5 (Raffel et al. 2020; mesh-tensorflow's _relative_position_bucket): numBuckets >= 2
// (>= 4 when bidirectional), maxDistance > the exact buckets (numBuckets / 2, halved again when
// bidirectional).
struct T5BucketParams {
  int numBuckets = 32;
  int maxDistance = 128;
  bool bidirectional = true;
};

// docs/schemes.md §1: exact buckets below maxExact, then maxExact + floor(log(d / maxExact) /
// log(maxDistance / maxExact) * (half - maxExact)), capped at half - 1; keys after the query
// (offset > 0) in the upper half when bidirectional, and every offset > 0 in bucket 0 otherwise.
std::int32_t t5Bucket(std::int64_t offset, const T5BucketParams& params);

// out(i, j) = t5Bucket(j - i) for an n x n out.
void t5Buckets(const T5BucketParams& params, OffsetMatrixMap out);

// ALiBi (Press, Smith & Lewis 2022, get_slopes): for H = 2^a heads, m_h = 2^(-8h/H), h = 1..H;
// otherwise the 2^floor(log2 H) slopes of that power, then every other slope of twice that power
// (docs/schemes.md §2). out.size() is H, 1 to kMaxAlibiHeads.
void alibiSlopes(Eigen::Ref<Vector<double>> out);
// The most heads alibiSlopes computes slopes for (the bindings refuse more).
inline constexpr int kMaxAlibiHeads = 4096;

// RoPE's angles (docs/schemes.md §3): row r, pair t of a d-wide row turns by
// positions[r] * theta_t, theta_t = 1 / base^(2t/d); cosines and sines are positions x d / 2.
template <typename T>
void ropeAngles(const Eigen::Ref<const Vector<double>>& positions, Index d, double base,
                MatrixRef<T> cosines, MatrixRef<T> sines);

// The one rotation of RoPE: out = x with row r's pair t (t, t + d/2 for the half layout, else
// 2t, 2t + 1) turned by the angle whose cosine and sine are cosines(r, t), sines(r, t); with
// sign -1 by minus it (the transpose: the backward pass). d even; out may alias x.
template <typename T>
void rotatePairs(ConstMatrixRef<T> x, ConstMatrixRef<T> cosines, ConstMatrixRef<T> sines,
                 RopeLayout layout, T sign, MatrixRef<T> out);

// out = x with row r's pair t rotated by positions[r] * base^(-2t/d) (docs/schemes.md §3); d even.
// out may alias x. ropeAngles, then rotatePairs (the angles in a table it allocates).
template <typename T>
void applyRope(ConstMatrixRef<T> x, const Eigen::Ref<const Vector<double>>& positions,
               const RopeParams& params, MatrixRef<T> out);

// Vaswani et al. 2017: out(p, 2t) = sin(p / base^(2t/d)), out(p, 2t + 1) = cos(p / base^(2t/d)),
// p = firstPosition + row (docs/schemes.md §4).
template <typename T>
void sinusoidalEncoding(double base, Index firstPosition, MatrixRef<T> out);

// PositionKind::kOffsetBias's biases for n keys: out(o + n - 1) = the bias of offset o = j - i,
// o = -(n - 1) ... n - 1 (2n - 1 values).
// T5: biases[t5Bucket(o)], numBuckets biases (docs/schemes.md §1).
template <typename T>
void t5BiasByOffset(const T5BucketParams& params, const T* biases, Index n, T* out);
// ALiBi: -slope · |o| (docs/schemes.md §2).
template <typename T>
void alibiBiasByOffset(double slope, Index n, T* out);

// The inputs of attention with an absolute encoding (docs/schemes.md §4): content queries and
// keys x W_Q, x W_K; positioned ones (x + p) W_Q, (x + p) W_K; values (x + p) W_V. Reused.
template <typename T>
struct AbsoluteInputs {
  Matrix<T> queries, keys, values, positionedQueries, positionedKeys;
  Matrix<T> placed;  // x + p
  PackedRight<T> packed;
  // p = sinusoidalEncoding(base) of positions 0 ... n - 1; the queries of x's rows firstQuery
  // ... firstQuery + queryRows - 1; wV 0 x 0 for no values.
  void computeSinusoidal(ConstMatrixRef<T> x, ConstMatrixRef<T> wQ, ConstMatrixRef<T> wK,
                         ConstMatrixRef<T> wV, double base, Index firstQuery, Index queryRows);
};

}  // namespace relpos
