// Position schemes beside Shaw's (docs/schemes.md): T5's bucketed biases, ALiBi's linear biases,
// RoPE's rotations, the original sinusoidal encoding and none. Offsets are key minus query
// (j - i), as everywhere in this project. Every function writes into caller-owned memory; the
// shapes and parameters are the caller's to check (web/api/schemes.js does).
#pragma once

#include <cstdint>

#include "relpos/attention.hpp"
#include "relpos/matrix_types.hpp"
#include "relpos/packed_gemm.hpp"

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
// (docs/schemes.md §2). out.size() is H >= 1.
void alibiSlopes(Eigen::Ref<Vector<double>> out);

enum class RopeLayout : int {
  kInterleaved = 0,  // pairs (2t, 2t + 1): RoFormer (Su et al. 2021)
  kHalf = 1,         // pairs (t, t + d/2): GPT-NeoX, LLaMA
};

struct RopeParams {
  double base = 10000;
  RopeLayout layout = RopeLayout::kInterleaved;
};

// out = x with row r's pair t rotated by positions[r] * base^(-2t/d) (docs/schemes.md §3); d even.
// out may alias x.
template <typename T>
void applyRope(ConstMatrixRef<T> x, const Eigen::Ref<const Vector<double>>& positions,
               const RopeParams& params, MatrixRef<T> out);

// Vaswani et al. 2017: out(p, 2t) = sin(p / base^(2t/d)), out(p, 2t + 1) = cos(p / base^(2t/d)),
// p = firstPosition + row (docs/schemes.md §4).
template <typename T>
void sinusoidalEncoding(double base, Index firstPosition, MatrixRef<T> out);

enum class PositionScheme : int { kNone = 0, kT5 = 1, kAlibi = 2, kRope = 3, kSinusoidal = 4 };

// What position adds, per scheme (docs/schemes.md §5). bucketBiases: numBuckets values (T5).
template <typename T>
struct SchemePosition {
  PositionScheme scheme = PositionScheme::kNone;
  T5BucketParams t5;
  const T* bucketBiases = nullptr;  // T5: numBuckets values
  double slope = 0;                 // ALiBi
  RopeParams rope;
  double base = 10000;  // sinusoidal
};

// The inputs: queries, keys (n x d_k) and values (n x d_v or 0 x 0) for every scheme but
// sinusoidal, which reads x (n x d_model) and the projections W_Q, W_K (d_model x d_k) and W_V
// (d_model x d_v or 0 x 0) instead, and adds the encoding to x before them.
template <typename T>
struct SchemeInputs {
  ConstMatrixMap<T> queries;
  ConstMatrixMap<T> keys;
  ConstMatrixMap<T> values;
  ConstMatrixMap<T> x;
  ConstMatrixMap<T> queryWeights;
  ConstMatrixMap<T> keyWeights;
  ConstMatrixMap<T> valueWeights;
  bool causal;
};

// Scratch for schemeAttention, reused from call to call.
template <typename T>
struct SchemeWorkspace {
  Matrix<T> queries, keys, values;              // content-only (sinusoidal) or rotated (RoPE)
  Matrix<T> placed, placedQueries, placedKeys;  // sinusoidal: x + PE and its projections
  Vector<double> positions;
  Vector<T> byOffset;    // T5: the bias of each offset -(n - 1) .. n - 1
  PackedRight<T> right;  // the right operand of each product, packed (packed_gemm.hpp)
};

// Every panel of AttentionPanels for a scheme: content = q_i . k_j / sqrt(d_k) without
// position; positionBiases = what the scheme adds (combined - content for RoPE and sinusoidal);
// output = combined weights times the values (for sinusoidal, of x + PE).
template <typename T>
void schemeAttention(const SchemeInputs<T>& in, const SchemePosition<T>& position,
                     SchemeWorkspace<T>& workspace, AttentionPanels<T>& panels);

}  // namespace relpos
