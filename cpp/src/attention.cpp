#include "relpos/attention.hpp"

#include <cmath>
#include <algorithm>
#include <chrono>

#include "relpos/exp_kernels.hpp"
#include "relpos/relative_offsets.hpp"

namespace relpos {
namespace {

template <typename T>
T inverseSqrt(Index d) {
  return T(1) / std::sqrt(static_cast<T>(d));
}

// Lap times in milliseconds, read only when asked for.
class StageClock {
 public:
  explicit StageClock(bool enabled) : enabled_(enabled), last_(now()) {}
  void lap(double* milliseconds) {
    if (!enabled_ || milliseconds == nullptr) return;
    const auto time = now();
    *milliseconds = std::chrono::duration<double, std::milli>(time - last_).count();
    last_ = time;
  }

 private:
  static std::chrono::steady_clock::time_point now() { return std::chrono::steady_clock::now(); }
  bool enabled_;
  std::chrono::steady_clock::time_point last_;
};

template <typename T>
MatrixMap<T> reshapeInto(Vector<T>& storage, Index rows, Index cols) {
  if (storage.size() < rows * cols) {
    storage.resize(rows * cols);
  }
  return MatrixMap<T>(storage.data(), rows, cols);
}

}  // namespace

template <typename T>
void contentScores(ConstMatrixRef<T> queries, ConstMatrixRef<T> keys, MatrixRef<T> out) {
  out.noalias() = (inverseSqrt<T>(queries.cols()) * queries) * keys.transpose();
}

template <typename T>
void positionBiasesPairwise(ConstMatrixRef<T> queries, ConstMatrixRef<T> relativeKeys,
                            MatrixRef<T> out) {
  const Index n = queries.rows();
  const Index k = clippingDistance(relativeKeys.rows());
  const T scale = inverseSqrt<T>(queries.cols());
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < n; ++j) {
      const Index index = std::clamp<Index>(j - i, -k, k) + k;
      out(i, j) = queries.row(i).dot(relativeKeys.row(index)) * scale;
    }
  }
}

template <typename T>
void projectRelativeKeys(ConstMatrixRef<T> queries, ConstMatrixRef<T> relativeKeys,
                         MatrixRef<T> projected) {
  projected.noalias() = (inverseSqrt<T>(queries.cols()) * queries) * relativeKeys.transpose();
}

template <typename T>
void gatherByOffset(ConstMatrixRef<T> projected, MatrixRef<T> out) {
  const Index n = out.rows();
  const Index lastColumn = projected.cols() - 1;
  const Index k = clippingDistance(projected.cols());
  for (Index i = 0; i < n; ++i) {
    const RowBand band = rowBand(i, n, k);
    out.row(i).head(band.leftLength).setConstant(projected(i, 0));
    out.row(i).segment(band.midBegin, band.midLength) =
        projected.row(i).segment(band.midTableRow, band.midLength);
    out.row(i).tail(band.rightLength).setConstant(projected(i, lastColumn));
  }
}

template <typename T>
void positionBiasesByRow(ConstMatrixRef<T> queries, ConstMatrixRef<T> relativeKeys,
                         MatrixRef<T> out) {
  const Index n = out.rows();
  const Index k = clippingDistance(relativeKeys.rows());
  const T scale = inverseSqrt<T>(queries.cols());
  for (Index i = 0; i < n; ++i) {
    const RowBand band = rowBand(i, n, k);
    out.row(i).segment(band.midBegin, band.midLength).noalias() =
        (relativeKeys.middleRows(band.midTableRow, band.midLength) *
         (scale * queries.row(i)).transpose())
            .transpose();
    // Clipped keys repeat the band's edge cell (offset -k at j = i - k, +k at j = i + k).
    if (band.leftLength > 0) out.row(i).head(band.leftLength).setConstant(out(i, i - k));
    if (band.rightLength > 0) out.row(i).tail(band.rightLength).setConstant(out(i, i + k));
  }
}

template <typename T>
void addValuePositionByRow(ConstMatrixRef<T> weights, ConstMatrixRef<T> relativeValues,
                           MatrixRef<T> out) {
  const Index n = weights.rows();
  const Index lastRow = relativeValues.rows() - 1;
  const Index k = clippingDistance(relativeValues.rows());
  for (Index i = 0; i < n; ++i) {
    const RowBand band = rowBand(i, weights.cols(), k);
    out.row(i).noalias() += weights.row(i).segment(band.midBegin, band.midLength) *
                            relativeValues.middleRows(band.midTableRow, band.midLength);
    if (band.leftLength > 0) {
      out.row(i) += weights.row(i).head(band.leftLength).sum() * relativeValues.row(0);
    }
    if (band.rightLength > 0) {
      out.row(i) += weights.row(i).tail(band.rightLength).sum() * relativeValues.row(lastRow);
    }
  }
}

template <typename T>
void softmaxRows(ConstMatrixRef<T> scores, bool causal, MatrixRef<T> out) {
  const Index n = scores.rows();
  const Index cols = scores.cols();
  for (Index i = 0; i < n; ++i) {
    const Index visible = causal ? std::min(i + 1, cols) : cols;
    out.row(i).head(visible) = scores.row(i).head(visible);
    softmaxInPlace(out.row(i).data(), visible);  // exp(s - max) / sum
    out.row(i).tail(cols - visible).setZero();
  }
}

template <typename T>
void bucketByOffset(ConstMatrixRef<T> weights, MatrixRef<T> buckets) {
  const Index n = weights.rows();
  const Index lastColumn = buckets.cols() - 1;
  const Index k = clippingDistance(buckets.cols());
  buckets.setZero();
  for (Index i = 0; i < n; ++i) {
    const RowBand band = rowBand(i, weights.cols(), k);
    buckets.row(i).segment(band.midTableRow, band.midLength) =
        weights.row(i).segment(band.midBegin, band.midLength);
    buckets(i, 0) += weights.row(i).head(band.leftLength).sum();
    buckets(i, lastColumn) += weights.row(i).tail(band.rightLength).sum();
  }
}

template <typename T>
void attentionOutputPairwise(ConstMatrixRef<T> weights, ConstMatrixRef<T> values,
                             ConstMatrixRef<T> relativeValues, MatrixRef<T> out) {
  const Index n = weights.rows();
  const Index k = clippingDistance(relativeValues.rows());
  out.setZero();
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < weights.cols(); ++j) {
      const Index index = std::clamp<Index>(j - i, -k, k) + k;
      out.row(i) += weights(i, j) * (values.row(j) + relativeValues.row(index));
    }
  }
}

template <typename T>
MatrixMap<T> AttentionWorkspace<T>::projected(Index n, Index tableRows) {
  return reshapeInto(projected_, n, tableRows);
}

template <typename T>
MatrixMap<T> AttentionWorkspace<T>::buckets(Index n, Index tableRows) {
  return reshapeInto(buckets_, n, tableRows);
}

template <typename T>
void computeAttention(const AttentionInputs<T>& in, AttentionWorkspace<T>& workspace,
                      AttentionPanels<T>& panels, AttentionTimings* timings) {
  const Index n = in.queries.rows();
  const Index tableRows = in.relativeKeys.rows();
  StageClock clock(timings != nullptr);

  // Tables with more rows than keys are cheaper row by row than projected whole.
  const bool byRow = tableRows > n;

  contentScores<T>(in.queries, in.keys, panels.contentScores);
  clock.lap(timings ? &timings->contentScores : nullptr);
  if (byRow) {
    positionBiasesByRow<T>(in.queries, in.relativeKeys, panels.positionBiases);
  } else {
    MatrixMap<T> projected = workspace.projected(n, tableRows);
    projectRelativeKeys<T>(in.queries, in.relativeKeys, projected);
    gatherByOffset<T>(projected, panels.positionBiases);
  }
  clock.lap(timings ? &timings->positionBiases : nullptr);
  panels.combinedScores.noalias() = panels.contentScores + panels.positionBiases;
  softmaxRows<T>(panels.contentScores, in.causal, panels.contentWeights);
  softmaxRows<T>(panels.combinedScores, in.causal, panels.combinedWeights);
  clock.lap(timings ? &timings->softmax : nullptr);

  if (in.values.size() == 0) {
    return;
  }
  panels.output.noalias() = panels.combinedWeights * in.values;
  clock.lap(timings ? &timings->valueProduct : nullptr);
  if (in.relativeValues.size() != 0 && byRow) {
    addValuePositionByRow<T>(panels.combinedWeights, in.relativeValues, panels.output);
  } else if (in.relativeValues.size() != 0) {
    MatrixMap<T> buckets = workspace.buckets(n, in.relativeValues.rows());
    bucketByOffset<T>(panels.combinedWeights, buckets);
    panels.output.noalias() += buckets * in.relativeValues;
  }
  clock.lap(timings ? &timings->valuePosition : nullptr);
}

#define RELPOS_INSTANTIATE(T)                                                                   \
  template void contentScores<T>(ConstMatrixRef<T>, ConstMatrixRef<T>, MatrixRef<T>);           \
  template void positionBiasesPairwise<T>(ConstMatrixRef<T>, ConstMatrixRef<T>, MatrixRef<T>);  \
  template void projectRelativeKeys<T>(ConstMatrixRef<T>, ConstMatrixRef<T>, MatrixRef<T>);     \
  template void gatherByOffset<T>(ConstMatrixRef<T>, MatrixRef<T>);                             \
  template void positionBiasesByRow<T>(ConstMatrixRef<T>, ConstMatrixRef<T>, MatrixRef<T>);     \
  template void addValuePositionByRow<T>(ConstMatrixRef<T>, ConstMatrixRef<T>, MatrixRef<T>);   \
  template void softmaxRows<T>(ConstMatrixRef<T>, bool, MatrixRef<T>);                          \
  template void bucketByOffset<T>(ConstMatrixRef<T>, MatrixRef<T>);                             \
  template void attentionOutputPairwise<T>(ConstMatrixRef<T>, ConstMatrixRef<T>,                \
                                           ConstMatrixRef<T>, MatrixRef<T>);                    \
  template class AttentionWorkspace<T>;                                                         \
  template void computeAttention<T>(const AttentionInputs<T>&, AttentionWorkspace<T>&,          \
                                    AttentionPanels<T>&, AttentionTimings*);

RELPOS_INSTANTIATE(float)
RELPOS_INSTANTIATE(double)

#undef RELPOS_INSTANTIATE

}  // namespace relpos
