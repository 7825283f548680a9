// Relative self-attention (Shaw et al. 2018; SPEC §1), templated on the scalar (float, double).
// Every function writes into caller-owned Maps; the workspace holds the only scratch memory and
// is reused from call to call, so a steady stream of same-sized calls allocates nothing.
#pragma once

#include "relpos/matrix_types.hpp"

namespace relpos {

// The clipping distance k implied by a relative table of 2k + 1 rows.
inline Index clippingDistance(Index tableRows) { return (tableRows - 1) / 2; }

// out = Q K^T / sqrt(d_k)   (n x n)
template <typename T>
void contentScores(ConstMatrixRef<T> queries, ConstMatrixRef<T> keys, MatrixRef<T> out);

// out(i, j) = q_i . a^K[clip(j - i) + k] / sqrt(d_k), the seed's per-pair loop: O(n^2 d_k).
// Kept as the reference the fast form is tested against.
template <typename T>
void positionBiasesPairwise(ConstMatrixRef<T> queries, ConstMatrixRef<T> relativeKeys,
                            MatrixRef<T> out);

// projected = Q a^K^T / sqrt(d_k)   (n x (2k + 1)): every query against every table row.
template <typename T>
void projectRelativeKeys(ConstMatrixRef<T> queries, ConstMatrixRef<T> relativeKeys,
                         MatrixRef<T> projected);

// out(i, j) = projected(i, clip(j - i) + k): the O(n k d_k) form of the position biases.
template <typename T>
void gatherByOffset(ConstMatrixRef<T> projected, MatrixRef<T> out);

// The same position biases row by row, for tables with more rows than there are keys: the
// unclipped band of row i is one block of a^K, so one matrix-vector product; the clipped ends
// repeat the edge values. n · min(n, 2k + 1) · d_k multiply-adds.
template <typename T>
void positionBiasesByRow(ConstMatrixRef<T> queries, ConstMatrixRef<T> relativeKeys,
                         MatrixRef<T> out);

// out(i, :) += sum_j w(i, j) a^V[clip(j - i) + k], row by row (the band as one block of a^V,
// the clipped ends as their summed weights times an edge row): for tables larger than n.
template <typename T>
void addValuePositionByRow(ConstMatrixRef<T> weights, ConstMatrixRef<T> relativeValues,
                           MatrixRef<T> out);

// Row-wise stable softmax: out(i, :) = exp(s(i, :) - max) / sum. With causal, keys j > i get
// weight exactly 0 (the scores are treated as -inf there).
template <typename T>
void softmaxRows(ConstMatrixRef<T> scores, bool causal, MatrixRef<T> out);

// buckets(i, c) = sum of weights(i, j) over the keys j with clip(j - i) + k == c  (n x (2k + 1)).
template <typename T>
void bucketByOffset(ConstMatrixRef<T> weights, MatrixRef<T> buckets);

// out(i, :) = sum_j w(i, j) (v_j + a^V[clip(j - i) + k]), the per-pair loop; the reference.
template <typename T>
void attentionOutputPairwise(ConstMatrixRef<T> weights, ConstMatrixRef<T> values,
                             ConstMatrixRef<T> relativeValues, MatrixRef<T> out);

template <typename T>
struct AttentionInputs {
  ConstMatrixMap<T> queries;         // n x d_k
  ConstMatrixMap<T> keys;            // n x d_k
  ConstMatrixMap<T> relativeKeys;    // (2k + 1) x d_k
  ConstMatrixMap<T> values;          // n x d_v, or 0 x 0 for no output
  ConstMatrixMap<T> relativeValues;  // (2k + 1) x d_v, or 0 x 0 for no value position term
  bool causal;
};

template <typename T>
struct AttentionPanels {
  MatrixMap<T> contentScores;    // n x n
  MatrixMap<T> positionBiases;   // n x n
  MatrixMap<T> combinedScores;   // n x n, content + position
  MatrixMap<T> contentWeights;   // n x n, softmax of content
  MatrixMap<T> combinedWeights;  // n x n, softmax of combined
  MatrixMap<T> output;           // n x d_v (0 x 0 when there are no values)
};

template <typename T>
class AttentionWorkspace {
 public:
  // Scratch matrices sized for n queries and a table of `tableRows` rows; grows, never shrinks.
  MatrixMap<T> projected(Index n, Index tableRows);
  MatrixMap<T> buckets(Index n, Index tableRows);

 private:
  Vector<T> projected_;
  Vector<T> buckets_;
};

// Milliseconds spent in each stage of the last computeAttention that was given a timings
// pointer (for benchmarks; nothing is timed without one).
struct AttentionTimings {
  double contentScores = 0;   // Q K^T (a GEMM)
  double positionBiases = 0;  // Q a^K^T and the gather
  double softmax = 0;         // combined scores and both softmaxes
  double valueProduct = 0;    // W V (a GEMM)
  double valuePosition = 0;   // the bucketed a^V term
};

// Every panel of relative self-attention; the shapes are the caller's to check.
template <typename T>
void computeAttention(const AttentionInputs<T>& in, AttentionWorkspace<T>& workspace,
                      AttentionPanels<T>& panels, AttentionTimings* timings = nullptr);

}  // namespace relpos
