// What position adds to attention's content scores (docs/schemes.md): the one argument by which
// computeAttention (relpos/attention.hpp) serves Shaw's tables and every other scheme.
#pragma once

#include "relpos/matrix_types.hpp"

namespace relpos {

// What computeAttention does with position, one family per way of adding it: each scheme maps to
// one in the scheme table (relpos/scheme_table.hpp: T5 and ALiBi to kOffsetBias, sinusoidal and
// learned to kAbsolute).
enum class PositionKind : int {
  kNone = 0,        // combined = content
  kShaw = 1,        // AttentionInputs' a^K (scale · q_i . a^K[clip(j - i)]) and a^V terms
  kOffsetBias = 2,  // bias[j - i], unscaled: T5's buckets, ALiBi's slopes
  kRotation = 3,    // combined = scale · rope(q_i, i) . rope(k_j, j) (RoPE)
  kAbsolute = 4,  // combined = scale · q'_i . k'_j, the projections of x + p (sinusoidal, learned)
};

enum class RopeLayout : int {
  kInterleaved = 0,  // pairs (2t, 2t + 1): RoFormer (Su et al. 2021)
  kHalf = 1,         // pairs (t, t + d/2): GPT-NeoX, LLaMA
};

struct RopeParams {
  double base = 10000;
  RopeLayout layout = RopeLayout::kInterleaved;
};

// The sinusoidal encoding's base (Vaswani et al. 2017).
struct SinusoidalParams {
  double base = 10000;
};

// The position term of one computeAttention or computeHeads call. For kRotation and kAbsolute
// the position bias panel is combined − content.
template <typename T>
struct PositionTerm {
  PositionKind kind = PositionKind::kShaw;
  // kOffsetBias: the bias of offset o = j − i at biasByOffset[o + n − 1] (2n − 1 values for n
  // keys); head h reads biasByOffset + h · biasHeadStride (stride 0: one row for every head).
  const T* biasByOffset = nullptr;
  Index biasHeadStride = 0;
  // kRotation: query r stands at position firstQuery + r, key j at j.
  RopeParams rotation;
  // kAbsolute: n_q x d_k and n x d_k (h d_k with heads side by side, like the queries and keys).
  Eigen::Ref<const Matrix<T>> positionedQueries{ConstMatrixMap<T>(nullptr, 0, 0)};
  Eigen::Ref<const Matrix<T>> positionedKeys{ConstMatrixMap<T>(nullptr, 0, 0)};
};

}  // namespace relpos
