#include "relpos/attention.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "relpos/exp_kernels.hpp"
#include "relpos/relative_offsets.hpp"

namespace relpos {
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
      buckets(r, -firstTableRow) += weights.row(r).head(band.leftLength).sum();
    }
    if (band.rightLength > 0) {
      buckets(r, 2 * k - firstTableRow) += weights.row(r).tail(band.rightLength).sum();
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
         relativeValues.storedElements() + blockTable_.size() + panels;
}

template <typename T>
void computeAttention(const AttentionInputs<T>& in, AttentionWorkspace<T>& workspace,
                      AttentionPanels<T>& panels, AttentionTimings* timings) {
  const Index queryRows = in.queries.rows();
  const Index n = in.keys.rows();
  const Index firstQuery = in.firstQuery;
  const Index k = clippingDistance(in.relativeKeys.rows());
  const T scale = inverseSqrt<T>(in.queries.cols());
  // What is asked for, and what that needs (docs/kernels.md "Only the panels asked for").
  const bool needOutput = in.values.size() != 0 && panels.output.size() != 0;
  const bool needRelativeValues = needOutput && in.relativeValues.size() != 0;
  const bool needCombinedWeights = needOutput || panels.combinedWeights.size() != 0;
  const bool needCombined = needCombinedWeights || panels.combinedScores.size() != 0;
  const bool needPosition = needCombined || panels.positionBiases.size() != 0;
  const bool needContentWeights = panels.contentWeights.size() != 0;
  const bool needContent = needCombined || needContentWeights || panels.contentScores.size() != 0;
  constexpr Index width = kPanelWidth<T>;
  StageClock clock(timings);
  if (queryRows == 0) return;

  // Only the table rows some query reads are packed: at most n + n_q - 1 of them.
  const TableRows used = tableRowsRead(firstQuery, firstQuery + queryRows, n, k);
  if (needContent) workspace.keys.packTransposed(in.keys);
  clock.lap(&AttentionTimings::contentScores);
  if (needPosition) {
    workspace.relativeKeys.packTransposed(in.relativeKeys.middleRows(used.first, used.count));
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
    auto position = blockRows(panels.positionBiases, first, rows, workspace, 1, n);
    auto combined = blockRows(panels.combinedScores, first, rows, workspace, 2, n);
    auto combinedWeights = blockRows(panels.combinedWeights, first, rows, workspace, 3, n);
    const TableRows band = tableRowsRead(i, i + rows, n, k);

    // docs/maths.md §3: content(i, j) = q_i . k_j / sqrt(d_k).
    if (needContent) multiplyPacked<T>(queries, workspace.keys, scale, false, content);
    clock.lap(&AttentionTimings::contentScores);

    // position(i, j) = q_i . a^K[clip(j - i) + k] / sqrt(d_k): project onto the block's band
    // (from a whole panel, so the projection's first column is panel-aligned), then gather.
    if (needPosition) {
      const Index firstPanel = (band.first - used.first) / width;
      const Index projectedCols = band.first - used.first + band.count - firstPanel * width;
      MatrixMap<T> projected = workspace.blockTable(rows, projectedCols);
      multiplyPacked<T>(queries, workspace.relativeKeys, scale, false, projected, 0, firstPanel);
      gatherByOffset<T>(projected, i, used.first + firstPanel * width, k, position);
    }
    clock.lap(&AttentionTimings::positionBiases);

    if (needCombined) combined.noalias() = content + position;
    if (needContentWeights) {
      softmaxRows<T>(content, in.causal,
                     MatrixMap<T>(panels.contentWeights.data() + first * n, rows, n), i);
    }
    if (needCombinedWeights) softmaxRows<T>(combined, in.causal, combinedWeights, i);
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

#define RELPOS_INSTANTIATE(T)                                                          \
  template void softmaxRows<T>(ConstMatrixRef<T>, bool, MatrixRef<T>, Index);          \
  template class AttentionWorkspace<T>;                                                \
  template void computeAttention<T>(const AttentionInputs<T>&, AttentionWorkspace<T>&, \
                                    AttentionPanels<T>&, AttentionTimings*);

RELPOS_INSTANTIATE(float)
RELPOS_INSTANTIATE(double)

#undef RELPOS_INSTANTIATE

}  // namespace relpos
