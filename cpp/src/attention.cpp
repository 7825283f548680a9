#include "relpos/attention.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "relpos/exp_kernels.hpp"
#include "relpos/position_schemes.hpp"
#include "relpos/relative_offsets.hpp"
#include "relpos/simd_vectors.hpp"

namespace relpos {

double attentionScratchBytes(Index queryRows, Index n, Index tableRows, Index dK, Index dV,
                             PositionKind kind, int scalarBytes) {
  const double size = scalarBytes;
  const double rows = static_cast<double>(queryRows), keys = static_cast<double>(n);
  const double absolute =
      kind == PositionKind::kAbsolute ? 6 * keys * static_cast<double>(dK + dV) * size : 0;
  return (2 * rows * static_cast<double>(tableRows) +
          4 * static_cast<double>(kAttentionBlockRows) * keys) *
             size +
         absolute;
}

namespace {

// Query rows per block: the block's rows of all five panels stay in cache from its scores to
// its output, and a block reads at most n + kBlockRows - 1 table rows.
constexpr Index kBlockRows = kAttentionBlockRows;

// Rows [first, first + rows) of a requested panel, or scratch rows when it was not requested.
template <typename T>
MatrixMap<T> blockRows(MatrixMap<T>& panel, Index first, Index rows,
                       AttentionWorkspace<T>& workspace, int slot, Index cols) {
  if (panel.size() != 0)
    return MatrixMap<T>(panel.data() + first * panel.cols(), rows, panel.cols());
  return workspace.blockPanel(slot, rows, cols);
}

template <typename T>
T inverseSqrt(Index d) {
  return T(1) / std::sqrt(static_cast<T>(d));
}

// Milliseconds per stage, added up over the blocks, kept only when asked for.
class StageClock {
 public:
  explicit StageClock(AttentionTimings* timings) : timings_(timings), last_(now()) {
    if (timings_ != nullptr) *timings_ = AttentionTimings{};
  }
  void lap(double AttentionTimings::*stage) {
    if (timings_ == nullptr) return;
    const auto time = now();
    timings_->*stage += std::chrono::duration<double, std::milli>(time - last_).count();
    last_ = time;
  }

 private:
  static std::chrono::steady_clock::time_point now() { return std::chrono::steady_clock::now(); }
  AttentionTimings* timings_;
  std::chrono::steady_clock::time_point last_;
};

// The table rows [first, first + count) that queries [firstQuery, endQuery) read among n keys
// at distance k: clip(j - i, -k, k) + k is smallest at (j = 0, last query), largest at
// (j = n - 1, first query).
struct TableRows {
  Index first;
  Index count;
};

TableRows tableRowsRead(Index firstQuery, Index endQuery, Index n, Index k) {
  const Index first = std::clamp<Index>(-(endQuery - 1), -k, k) + k;
  const Index last = std::clamp<Index>(n - 1 - firstQuery, -k, k) + k;
  return {first, last - first + 1};
}

// out(r, j) = projected(r, clip(j - i) + k - firstTableRow) for query i = firstQuery + r.
template <typename T>
void gatherByOffset(ConstMatrixRef<T> projected, Index firstQuery, Index firstTableRow, Index k,
                    MatrixRef<T> out) {
  for (Index r = 0; r < out.rows(); ++r) {
    const RowBand band = rowBand(firstQuery + r, out.cols(), k);
    out.row(r).segment(band.midBegin, band.midLength) =
        projected.row(r).segment(band.midTableRow - firstTableRow, band.midLength);
    // Clipped keys repeat the band's edge cells (table rows 0 and 2k).
    if (band.leftLength > 0) {
      out.row(r).head(band.leftLength).setConstant(projected(r, -firstTableRow));
    }
    if (band.rightLength > 0) {
      out.row(r).tail(band.rightLength).setConstant(projected(r, 2 * k - firstTableRow));
    }
  }
}

// x[0] + ... + x[count - 1], added in an order that depends on count alone: a row gives the same
// sum wherever it lies (a head's block of a panel, a block of rows in a worker), whatever the
// alignment of its address (Eigen's sum() starts its vectors at the first aligned element).
template <typename T>
T sumInOrder(const T* x, Index count) {
  constexpr Index lanes = simd::kLanes<T>;
  simd::Vec<T> even{};
  simd::Vec<T> odd{};
  Index j = 0;
  for (; j + 2 * lanes <= count; j += 2 * lanes) {
    even += simd::load<T>(x + j);
    odd += simd::load<T>(x + j + lanes);
  }
  T sum = simd::sumOfLanes<T>(even + odd);
  for (; j < count; ++j) sum += x[j];
  return sum;
}

// buckets(r, c) = sum of weights(r, j) over the keys j with clip(j - i) + k == firstTableRow + c,
// for query i = firstQuery + r.
template <typename T>
void bucketByOffset(ConstMatrixRef<T> weights, Index firstQuery, Index firstTableRow, Index k,
                    MatrixRef<T> buckets) {
  buckets.setZero();
  for (Index r = 0; r < weights.rows(); ++r) {
    const RowBand band = rowBand(firstQuery + r, weights.cols(), k);
    buckets.row(r).segment(band.midTableRow - firstTableRow, band.midLength) =
        weights.row(r).segment(band.midBegin, band.midLength);
    if (band.leftLength > 0) {
      buckets(r, -firstTableRow) += sumInOrder(weights.row(r).data(), band.leftLength);
    }
    if (band.rightLength > 0) {
      buckets(r, 2 * k - firstTableRow) +=
          sumInOrder(weights.row(r).data() + weights.cols() - band.rightLength, band.rightLength);
    }
  }
}

// Whether query r (of `allowed`'s rows) may not attend to key j: a padding key, or a pair the
// boolean mask leaves out.
inline bool maskedOut(const ConstFlagMap& keyPadding, const ConstFlagMap& allowed, Index r,
                      Index j) {
  return (keyPadding.size() != 0 && keyPadding(0, j) != 0) ||
         (allowed.size() != 0 && allowed(r, j) == 0);
}

// softmaxRows with the masks (docs/maths.md §4): masked keys are -inf before the softmax and
// weigh exactly 0 after it; a row with no key left is all zeros. `allowed` holds these rows.
template <typename T>
void maskedSoftmaxRows(ConstMatrixRef<T> scores, bool causal, const ConstFlagMap& keyPadding,
                       const ConstFlagMap& allowed, MatrixRef<T> out, Index firstRow) {
  const Index cols = scores.cols();
  for (Index r = 0; r < scores.rows(); ++r) {
    const Index visible = causal ? std::min(firstRow + r + 1, cols) : cols;
    T* row = out.row(r).data();
    Index kept = 0;
    for (Index j = 0; j < visible; ++j) {
      const bool masked = maskedOut(keyPadding, allowed, r, j);
      row[j] = masked ? -std::numeric_limits<T>::infinity() : scores(r, j);
      kept += masked ? 0 : 1;
    }
    out.row(r).tail(cols - visible).setZero();
    if (kept == 0) {
      out.row(r).head(visible).setZero();
      continue;
    }
    softmaxInPlace(row, visible);  // exp(s - max) / sum; exp(-inf - max) is 0
    // (A row whose kept scores are all -inf is uniform over every cell: keep the masked at 0.)
    for (Index j = 0; j < visible; ++j) {
      if (maskedOut(keyPadding, allowed, r, j)) row[j] = T(0);
    }
  }
}

}  // namespace

template <typename T>
void softmaxRows(ConstMatrixRef<T> scores, bool causal, MatrixRef<T> out, Index firstRow) {
  const Index cols = scores.cols();
  for (Index r = 0; r < scores.rows(); ++r) {
    const Index visible = causal ? std::min(firstRow + r + 1, cols) : cols;
    out.row(r).head(visible) = scores.row(r).head(visible);
    softmaxInPlace(out.row(r).data(), visible);  // exp(s - max) / sum
    out.row(r).tail(cols - visible).setZero();
  }
}

template <typename T>
MatrixMap<T> AttentionWorkspace<T>::blockTable(Index rows, Index cols) {
  if (blockTable_.size() < rows * cols) blockTable_.resize(rows * cols);
  return MatrixMap<T>(blockTable_.data(), rows, cols);
}

template <typename T>
MatrixMap<T> AttentionWorkspace<T>::blockPanel(int slot, Index rows, Index cols) {
  Vector<T>& storage = blockPanels_[slot];
  if (storage.size() < rows * cols) storage.resize(rows * cols);
  return MatrixMap<T>(storage.data(), rows, cols);
}

template <typename T>
Index AttentionWorkspace<T>::elements() const {
  Index panels = 0;
  for (const Vector<T>& storage : blockPanels_) panels += storage.size();
  return keys.storedElements() + values.storedElements() + relativeKeys.storedElements() +
         relativeValues.storedElements() + positionedKeys.storedElements() + rotatedQueries.size() +
         rotatedKeys.size() + ropeCosines.size() + ropeSines.size() + blockTable_.size() + panels;
}

template <typename T>
void computeAttention(const AttentionInputs<T>& in, const PositionTerm<T>& position,
                      AttentionWorkspace<T>& workspace, AttentionPanels<T>& panels,
                      AttentionTimings* timings) {
  const Index queryRows = in.queries.rows();
  const Index n = in.keys.rows();
  const Index firstQuery = in.firstQuery;
  const bool shaw = position.kind == PositionKind::kShaw;
  // kRotation, kAbsolute: the combined scores come from positioned queries and keys.
  const bool positionedScores =
      position.kind == PositionKind::kRotation || position.kind == PositionKind::kAbsolute;
  const Index k = shaw ? clippingDistance(in.relativeKeys.rows()) : 0;
  // docs/maths.md §3: the caller's scale, or 1/sqrt(d_k).
  const T scale = in.scale > T(0) ? in.scale : inverseSqrt<T>(in.queries.cols());
  const bool masked = in.keyPadding.size() != 0 || in.allowed.size() != 0;
  // What is asked for, and what that needs (docs/kernels.md "Only the panels asked for").
  const bool needOutput = in.values.size() != 0 && panels.output.size() != 0;
  const bool needRelativeValues = shaw && needOutput && in.relativeValues.size() != 0;
  const bool needCombinedWeights = needOutput || panels.combinedWeights.size() != 0;
  const bool needCombined = needCombinedWeights || panels.combinedScores.size() != 0;
  const bool askedPosition = panels.positionBiases.size() != 0;
  // Added terms: position is computed, then combined = content + position; positioned scores:
  // combined is computed, then position = combined - content.
  const bool needPosition = !positionedScores && (needCombined || askedPosition);
  const bool needPositioned = positionedScores && (needCombined || askedPosition);
  const bool needContentWeights = panels.contentWeights.size() != 0;
  const bool needContent = (positionedScores ? askedPosition : needCombined) ||
                           needContentWeights || panels.contentScores.size() != 0;
  constexpr Index width = kPanelWidth<T>;
  StageClock clock(timings);
  if (queryRows == 0) return;

  // Only the table rows some query reads are packed: at most n + n_q - 1 of them.
  const TableRows used =
      shaw ? tableRowsRead(firstQuery, firstQuery + queryRows, n, k) : TableRows{0, 0};
  if (needContent) workspace.keys.packTransposed(in.keys);
  clock.lap(&AttentionTimings::contentScores);
  if (shaw && needPosition) {
    workspace.relativeKeys.packTransposed(in.relativeKeys.middleRows(used.first, used.count));
  }
  // docs/schemes.md §3: the queries at firstQuery + r and the keys at j, rotated.
  const bool rotation = position.kind == PositionKind::kRotation && needPositioned;
  if (rotation) {
    // One table of angles for the positions 0 ... n - 1; the queries read its rows firstQuery on.
    const Index d = in.queries.cols();
    workspace.positions.resize(n);
    for (Index j = 0; j < n; ++j) workspace.positions(j) = static_cast<double>(j);
    workspace.ropeCosines.resize(n, d / 2);
    workspace.ropeSines.resize(n, d / 2);
    ropeAngles<T>(workspace.positions, d, position.rotation.base, workspace.ropeCosines,
                  workspace.ropeSines);
    workspace.rotatedQueries.resize(queryRows, d);
    rotatePairs<T>(in.queries, workspace.ropeCosines.middleRows(firstQuery, queryRows),
                   workspace.ropeSines.middleRows(firstQuery, queryRows), position.rotation.layout,
                   T(1), workspace.rotatedQueries);
    workspace.rotatedKeys.resize(n, in.keys.cols());
    rotatePairs<T>(in.keys, workspace.ropeCosines, workspace.ropeSines, position.rotation.layout,
                   T(1), workspace.rotatedKeys);
    workspace.positionedKeys.packTransposed(workspace.rotatedKeys);
  } else if (needPositioned) {
    workspace.positionedKeys.packTransposed(position.positionedKeys);
  }
  clock.lap(&AttentionTimings::positionBiases);
  if (needOutput) workspace.values.pack(in.values);
  clock.lap(&AttentionTimings::valueProduct);
  if (needRelativeValues) {
    workspace.relativeValues.pack(in.relativeValues.middleRows(used.first, used.count));
  }
  clock.lap(&AttentionTimings::valuePosition);

  for (Index first = 0; first < queryRows;) {
    // Blocks start at multiples of kBlockRows of the query position i = firstQuery + r.
    const Index i = firstQuery + first;
    const Index rows = std::min((i / kBlockRows + 1) * kBlockRows - i, queryRows - first);
    const auto queries = in.queries.middleRows(first, rows);
    auto content = blockRows(panels.contentScores, first, rows, workspace, 0, n);
    auto positionRows = blockRows(panels.positionBiases, first, rows, workspace, 1, n);
    auto combined = blockRows(panels.combinedScores, first, rows, workspace, 2, n);
    auto combinedWeights = blockRows(panels.combinedWeights, first, rows, workspace, 3, n);
    const TableRows band = shaw ? tableRowsRead(i, i + rows, n, k) : TableRows{0, 0};

    // docs/maths.md §3: content(i, j) = scale · q_i . k_j (scale 1/sqrt(d_k) by default).
    if (needContent) multiplyPacked<T>(queries, workspace.keys, scale, false, content);
    clock.lap(&AttentionTimings::contentScores);

    if (needPosition && shaw) {
      // position(i, j) = scale · q_i . a^K[clip(j - i) + k]: project onto the block's band
      // (from a whole panel, so the projection's first column is panel-aligned), then gather.
      const Index firstPanel = (band.first - used.first) / width;
      const Index projectedCols = band.first - used.first + band.count - firstPanel * width;
      MatrixMap<T> projected = workspace.blockTable(rows, projectedCols);
      multiplyPacked<T>(queries, workspace.relativeKeys, scale, false, projected, 0, firstPanel);
      gatherByOffset<T>(projected, i, used.first + firstPanel * width, k, positionRows);
    } else if (needPosition && position.kind == PositionKind::kOffsetBias) {
      // position(i, j) = bias[j - i], the window of the offsets -i ... n - 1 - i.
      const ConstMatrixMap<T> byOffset(position.biasByOffset, 1, 2 * n - 1);
      for (Index r = 0; r < rows; ++r) {
        positionRows.row(r) = byOffset.middleCols(n - 1 - (i + r), n);
      }
    } else if (needPosition) {
      positionRows.setZero();
    } else if (needPositioned) {
      // combined(i, j) = scale · q'_i . k'_j; position = combined - content.
      const auto positioned =
          rotation ? ConstMatrixView<T>(workspace.rotatedQueries.middleRows(first, rows))
                   : ConstMatrixView<T>(position.positionedQueries.middleRows(first, rows));
      multiplyPacked<T>(positioned, workspace.positionedKeys, scale, false, combined);
      if (askedPosition) positionRows.noalias() = combined - content;
    }
    clock.lap(&AttentionTimings::positionBiases);

    if (needCombined && !positionedScores) combined.noalias() = content + positionRows;
    if (masked) {
      const ConstFlagMap allowed(in.allowed.size() != 0 ? in.allowed.data() + first * n : nullptr,
                                 in.allowed.size() != 0 ? rows : 0, in.allowed.size() != 0 ? n : 0);
      if (needContentWeights) {
        maskedSoftmaxRows<T>(content, in.causal, in.keyPadding, allowed,
                             MatrixMap<T>(panels.contentWeights.data() + first * n, rows, n), i);
      }
      if (needCombinedWeights) {
        maskedSoftmaxRows<T>(combined, in.causal, in.keyPadding, allowed, combinedWeights, i);
      }
    } else {
      if (needContentWeights) {
        softmaxRows<T>(content, in.causal,
                       MatrixMap<T>(panels.contentWeights.data() + first * n, rows, n), i);
      }
      if (needCombinedWeights) softmaxRows<T>(combined, in.causal, combinedWeights, i);
    }
    clock.lap(&AttentionTimings::softmax);

    if (needOutput) {
      // output(i, :) = sum_j w(i, j) v_j; with causal, keys past the block's last query weigh 0.
      auto output = panels.output.middleRows(first, rows);
      const Index keysSeen = in.causal ? std::min(i + rows, n) : n;
      multiplyPacked<T>(combinedWeights.leftCols(keysSeen), workspace.values, T(1), false, output);
      clock.lap(&AttentionTimings::valueProduct);

      if (needRelativeValues) {
        // output(i, :) += sum_c bucket(i, c) a^V[c], bucket(i, c) = the weights at offset index c.
        MatrixMap<T> buckets = workspace.blockTable(rows, band.count);
        bucketByOffset<T>(combinedWeights, i, band.first, k, buckets);
        multiplyPacked<T>(buckets, workspace.relativeValues, T(1), true, output,
                          band.first - used.first);
        clock.lap(&AttentionTimings::valuePosition);
      }
    }
    first += rows;
  }
}

template <typename T>
void computeHeads(const AttentionInputs<T>& in, const PositionTerm<T>& position, Index heads,
                  AttentionWorkspace<T>& workspace, AttentionPanels<T>& panels,
                  AttentionTimings* timings) {
  if (heads <= 1) {
    computeAttention(in, position, workspace, panels, timings);
    return;
  }
  const Index queryRows = in.queries.rows();
  const Index n = in.keys.rows();
  const Index dK = in.queries.cols() / heads;
  const Index dV = in.values.cols() / heads;
  using Strided = Eigen::OuterStride<>;
  using ConstColumns = Eigen::Map<const Matrix<T>, Eigen::Unaligned, Strided>;
  // Head h's `width` columns of a matrix h·width wide; a table `width` wide is everyone's.
  const auto columns = [](const ConstMatrixView<T>& all, Index head, Index width) {
    if (all.size() == 0) return ConstColumns(nullptr, 0, 0, Strided(0));
    const Index first = all.cols() == width ? 0 : head * width;
    return ConstColumns(all.data() + first, all.rows(), width, Strided(all.outerStride()));
  };
  // Head h's block of n_q rows of a panel (none when the panel was not asked for).
  const auto block = [&](MatrixMap<T>& panel, Index head) {
    return panel.size() == 0 ? MatrixMap<T>(nullptr, 0, 0)
                             : MatrixMap<T>(panel.data() + head * queryRows * n, queryRows, n);
  };
  AttentionTimings total;
  AttentionTimings head;
  for (Index h = 0; h < heads; ++h) {
    const AttentionInputs<T> one{columns(in.queries, h, dK),
                                 columns(in.keys, h, dK),
                                 columns(in.relativeKeys, h, dK),
                                 columns(in.values, h, dV),
                                 columns(in.relativeValues, h, dV),
                                 in.causal,
                                 in.firstQuery,
                                 in.keyPadding,
                                 in.allowed,
                                 in.scale};
    const PositionTerm<T> headPosition{position.kind,
                                       position.biasByOffset == nullptr
                                           ? nullptr
                                           : position.biasByOffset + h * position.biasHeadStride,
                                       position.biasHeadStride,
                                       position.rotation,
                                       columns(position.positionedQueries, h, dK),
                                       columns(position.positionedKeys, h, dK)};
    const bool output = panels.output.size() != 0;
    Eigen::Map<Matrix<T>, Eigen::Unaligned, Strided> outputColumns(
        output ? panels.output.data() + h * dV : nullptr, output ? queryRows : 0, output ? dV : 0,
        Strided(panels.output.outerStride()));
    AttentionPanels<T> part{block(panels.contentScores, h),   block(panels.positionBiases, h),
                            block(panels.combinedScores, h),  block(panels.contentWeights, h),
                            block(panels.combinedWeights, h), outputColumns};
    computeAttention(one, headPosition, workspace, part, timings != nullptr ? &head : nullptr);
    total.contentScores += head.contentScores;
    total.positionBiases += head.positionBiases;
    total.softmax += head.softmax;
    total.valueProduct += head.valueProduct;
    total.valuePosition += head.valuePosition;
  }
  if (timings != nullptr) *timings = total;
}

#define RELPOS_INSTANTIATE(T)                                                             \
  template void softmaxRows<T>(ConstMatrixRef<T>, bool, MatrixRef<T>, Index);             \
  template class AttentionWorkspace<T>;                                                   \
  template void computeAttention<T>(const AttentionInputs<T>&, const PositionTerm<T>&,    \
                                    AttentionWorkspace<T>&, AttentionPanels<T>&,          \
                                    AttentionTimings*);                                   \
  template void computeHeads<T>(const AttentionInputs<T>&, const PositionTerm<T>&, Index, \
                                AttentionWorkspace<T>&, AttentionPanels<T>&, AttentionTimings*);

RELPOS_INSTANTIATE(float)
RELPOS_INSTANTIATE(double)

#undef RELPOS_INSTANTIATE

}  // namespace relpos
