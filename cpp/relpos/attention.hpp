// Self-attention with a position term (docs/maths.md, docs/schemes.md): Shaw et al.'s relative
// tables, an offset bias, a rotation, an absolute encoding or none; templated on the scalar (float,
// double). Every function writes into caller-owned Maps; the workspace holds the only scratch
// memory and is reused from call to call, so a steady stream of same-sized calls allocates nothing.
#pragma once

#include <cstdint>

#include "relpos/matrix_types.hpp"
#include "relpos/packed_gemm.hpp"
#include "relpos/position_term.hpp"

namespace relpos {

// The clipping distance k implied by a relative table of 2k + 1 rows.
inline Index clippingDistance(Index tableRows) { return (tableRows - 1) / 2; }

// Row-wise stable softmax: out(i, :) = exp(s(i, :) - max) / sum. With causal, keys j > i get
// weight exactly 0 (the scores are treated as -inf there). Row r holds query firstRow + r.
template <typename T>
void softmaxRows(ConstMatrixRef<T> scores, bool causal, MatrixRef<T> out, Index firstRow = 0);

// Flags over caller-owned bytes (0 or 1), row-major; 0 x 0 for none.
using ConstFlagMap =
    Eigen::Map<const Eigen::Matrix<std::uint8_t, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>;

// The inputs are Refs, so a Map over a whole buffer or over a head's columns of a wider one
// (an outer stride, no copy) both bind.
template <typename T>
using ConstMatrixView = Eigen::Ref<const Matrix<T>>;

template <typename T>
struct AttentionInputs {
  ConstMatrixView<T> queries;         // n_q x d_k: queries firstQuery ... firstQuery + n_q - 1
  ConstMatrixView<T> keys;            // n x d_k (n_q = n, firstQuery = 0 for self-attention)
  ConstMatrixView<T> relativeKeys;    // (2k + 1) x d_k (PositionKind::kShaw; else 0 x 0)
  ConstMatrixView<T> values;          // n x d_v, or 0 x 0 for no output
  ConstMatrixView<T> relativeValues;  // (2k + 1) x d_v, or 0 x 0 for no value position term
  bool causal = false;
  // The position of the first query among the keys (a block of rows of a longer sequence):
  // query r stands at i = firstQuery + r, so its offsets are j - i and causal keeps j <= i.
  Index firstQuery = 0;
  // Masks (docs/maths.md §4): a key that is padding, or a pair that is not allowed, weighs
  // exactly 0; a query with no key left gets all-zero weights and a zero output. The score
  // panels are returned unmasked, as with causal.
  ConstFlagMap keyPadding{nullptr, 0, 0};  // 1 x n: nonzero = a padding key no query attends to
  ConstFlagMap allowed{nullptr, 0, 0};     // n_q x n: nonzero = query r may attend to key j
  // The score scale (docs/maths.md §3); 0 means the default 1/sqrt(d_k).
  T scale = T(0);
};

// Each panel is n_q x n (the output n_q x d_v), or 0 x 0 when nobody asked for it: an empty
// panel is not written, and is computed only if a requested one needs it (in a block of
// scratch rows): output needs combined weights, which need combined scores, which need content
// scores and position biases; content weights need content scores.
template <typename T>
struct AttentionPanels {
  MatrixMap<T> contentScores;    // n_q x n
  MatrixMap<T> positionBiases;   // n_q x n
  MatrixMap<T> combinedScores;   // n_q x n, content + position
  MatrixMap<T> contentWeights;   // n_q x n, softmax of content
  MatrixMap<T> combinedWeights;  // n_q x n, softmax of combined
  MatrixRef<T> output;           // n_q x d_v (0 x 0 when there are no values or it is not asked)
};

// The core's scratch memory, reused from call to call: it grows, never shrinks.
template <typename T>
class AttentionWorkspace {
 public:
  PackedRight<T> keys;            // K^T in panels
  PackedRight<T> values;          // V in panels
  PackedRight<T> relativeKeys;    // the rows of a^K that some query reads, transposed
  PackedRight<T> relativeValues;  // the same rows of a^V
  PackedRight<T> positionedKeys;  // kRotation, kAbsolute: the keys the combined scores read
  Matrix<T> rotatedQueries, rotatedKeys;
  Matrix<T> ropeCosines, ropeSines;  // kRotation: the angles of positions 0 ... n - 1
  Vector<double> positions;
  // One block of rows against a band of table rows: projections, then bucketed weights.
  MatrixMap<T> blockTable(Index rows, Index cols);
  // Scratch rows for a panel a block needs but nobody asked for (slot 0-3).
  MatrixMap<T> blockPanel(int slot, Index rows, Index cols);
  // Elements held in all (for the bindings' decision to drop a large workspace).
  Index elements() const;

 private:
  Vector<T> blockTable_;
  Vector<T> blockPanels_[4];
};

// Milliseconds spent in each stage of the last computeAttention that was given a timings
// pointer (for benchmarks; nothing is timed without one).
struct AttentionTimings {
  double contentScores = 0;   // Q K^T (a GEMM)
  double positionBiases = 0;  // Q a^K^T over each block's band, and the gather
  double softmax = 0;         // combined scores and both softmaxes
  double valueProduct = 0;    // W V (a GEMM)
  double valuePosition = 0;   // the bucketed a^V term
};

// Every requested panel of self-attention with the position term; the shapes are the caller's to
// check. Runs block of rows by block of rows (each stage while the block is in cache); Shaw's
// terms touch only the band of table rows a block reads: n · min(n + block, 2k + 1) · d work each.
// Blocks start at multiples of kAttentionBlockRows of the query position, so a caller that
// splits the queries (firstQuery) at such multiples gets every row bit for bit as in one call.
constexpr Index kAttentionBlockRows = 32;
// Bytes of scratch a call keeps beyond its inputs and panels, at most: Shaw's projected band
// (queryRows x tableRows, twice), the panels of a block nobody asked for (4 of
// kAttentionBlockRows x n) and, for PositionKind::kAbsolute, the projections (6 n (d_k + d_v)).
// A double: the caller refuses what does not fit in memory.
double attentionScratchBytes(Index queryRows, Index n, Index tableRows, Index dK, Index dV,
                             PositionKind kind, int scalarBytes);
template <typename T>
void computeAttention(const AttentionInputs<T>& in, const PositionTerm<T>& position,
                      AttentionWorkspace<T>& workspace, AttentionPanels<T>& panels,
                      AttentionTimings* timings = nullptr);
// Shaw's tables (PositionKind::kShaw).
template <typename T>
void computeAttention(const AttentionInputs<T>& in, AttentionWorkspace<T>& workspace,
                      AttentionPanels<T>& panels, AttentionTimings* timings = nullptr) {
  computeAttention(in, PositionTerm<T>{}, workspace, panels, timings);
}

// h heads side by side (docs/maths.md §9): queries n_q x (h d_k), keys n x (h d_k), values
// n x (h d_v); each relative table either shared by every head ((2k + 1) x d_k, as Shaw et al.)
// or one per head ((2k + 1) x (h d_k)), told apart by its width. Each panel is h blocks of n_q
// rows, head after head (PyTorch's [h, n_q, n]); the output n_q x (h d_v), heads side by side.
// Calls computeAttention once per head on the heads' columns (strided Maps, no copies); the
// position term's queries and keys are split alike, its offset biases by biasHeadStride.
template <typename T>
void computeHeads(const AttentionInputs<T>& in, const PositionTerm<T>& position, Index heads,
                  AttentionWorkspace<T>& workspace, AttentionPanels<T>& panels,
                  AttentionTimings* timings = nullptr);
template <typename T>
void computeHeads(const AttentionInputs<T>& in, Index heads, AttentionWorkspace<T>& workspace,
                  AttentionPanels<T>& panels, AttentionTimings* timings = nullptr) {
  computeHeads(in, PositionTerm<T>{}, heads, workspace, panels, timings);
}

}  // namespace relpos
