#include "relpos/transformer_model.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <type_traits>

#include "relpos/exp_kernels.hpp"
#include "relpos/finite_entries.hpp"
#include "relpos/layer_norm.hpp"
#include "relpos/simd_vectors.hpp"

// The training engine's passes (relpos/transformer_model.hpp): the forward pass of a chunk, the
// loss, the backward pass, and the calls that run them (a step, an evaluation, one sequence). Its
// parameters, products, attention and optimiser are in model_parameters.cpp, model_gemm.cpp,
// model_attention.cpp and model_adam.cpp. The stages are marked noinline: each runs for
// milliseconds, so a call costs nothing, and profiles of the module show them apart.

namespace relpos {

namespace {

// sums(j) += sum over rows of m(r, j), row by row (contiguous in row-major storage).
template <typename T>
__attribute__((noinline)) void addColumnSums(ConstMatrixRef<T> m, T* sums) {
  Eigen::Map<Eigen::Array<T, 1, Eigen::Dynamic>> out(sums, m.cols());
  for (Index r = 0; r < m.rows(); ++r) out += m.row(r).array();
}

// The largest of row[0 .. count) (the logits are finite).
template <typename T>
T rowMaximum(const T* row, Index count) {
  constexpr int lanes = simd::kLanes<T>;
  Index j = 0;
  T maximum = row[0];
  if (count >= 2 * lanes) {
    simd::Vec<T> m0 = simd::load(row), m1 = simd::load(row + lanes);
    for (j = 2 * lanes; j + 2 * lanes <= count; j += 2 * lanes) {
      m0 = simd::maxKeepingNaN<T>(m0, simd::load(row + j));
      m1 = simd::maxKeepingNaN<T>(m1, simd::load(row + j + lanes));
    }
    maximum = simd::maxOfLanes<T>(simd::maxKeepingNaN<T>(m0, m1));
  }
  for (; j < count; ++j) maximum = row[j] > maximum ? row[j] : maximum;
  return maximum;
}

}  // namespace

template <typename T>
__attribute__((noinline)) void TransformerModel<T>::forwardChunk(const std::int32_t* tokens,
                                                                 const std::int32_t* targets,
                                                                 int sequences, int seqLen) {
  const Index R = static_cast<Index>(sequences) * seqLen, d = config_.dModel;
  const Index V = config_.vocabSize, f = config_.ffnWidth;
  {
    auto x = activations_[0].input.topRows(R);
    const auto E = parameter(embedding_, V, d);
    for (Index r = 0; r < R; ++r) x.row(r) = E.row(tokens[r]);
    // Absolute schemes: the position's row added to each token's embedding.
    if (config_.positionScheme == PositionScheme::kSinusoidal) {
      for (Index r = 0; r < R; ++r) x.row(r) += sinusoid_.row(r % seqLen);
    } else if (config_.positionScheme == PositionScheme::kAbsolute) {
      const auto P = parameter(absolute_, config_.seqLen, d);
      for (Index r = 0; r < R; ++r) x.row(r) += P.row(r % seqLen);
    }
  }
  for (int l = 0; l < config_.layers; ++l) {
    LayerActivations& a = activations_[l];
    const LayerParameters& lp = layerParameters_[l];
    const auto x = a.input.topRows(R);
    gemm(x, false, parameter(lp.query, d, d), false, a.queries.topRows(R), false);
    gemm(x, false, parameter(lp.key, d, d), false, a.keys.topRows(R), false);
    gemm(x, false, parameter(lp.value, d, d), false, a.values.topRows(R), false);
    attentionForward(l, sequences, seqLen);
    auto u = dU_.topRows(R);
    u = x;
    gemm(a.heads.topRows(R), false, parameter(lp.output, d, d), false, u, true);
    layerNormForward<T>(u, parameters_.data() + lp.norm1Gain, parameters_.data() + lp.norm1Bias,
                        a.normed1Hat.topRows(R), a.inverseStd1.data(), a.normed1.topRows(R));
    auto hidden = a.hidden.topRows(R);
    gemm(a.normed1.topRows(R), false, parameter(lp.ffnWeight1, d, f), false, hidden, false);
    hidden.rowwise() += parameter(lp.ffnBias1, 1, f).row(0);
    hidden = hidden.cwiseMax(T(0));
    u = a.normed1.topRows(R);
    u.rowwise() += parameter(lp.ffnBias2, 1, d).row(0);
    gemm(hidden, false, parameter(lp.ffnWeight2, f, d), false, u, true);
    Matrix<T>& next = l + 1 < config_.layers ? activations_[l + 1].input : finalOutput_;
    layerNormForward<T>(u, parameters_.data() + lp.norm2Gain, parameters_.data() + lp.norm2Bias,
                        a.normed2Hat.topRows(R), a.inverseStd2.data(), next.topRows(R));
  }
  // Logits only for the rows with a target (README.md, "Training a model": a masked-word batch
  // has few), gathered into targetOutput_ in row order; none without targets.
  targetCount_ = 0;
  if (targets == nullptr) return;
  for (Index r = 0; r < R; ++r) {
    if (targets[r] < 0) continue;
    targetRows_[static_cast<std::size_t>(targetCount_)] = r;
    targetOutput_.row(targetCount_) = finalOutput_.row(r);
    ++targetCount_;
  }
  if (targetCount_ == 0) return;
  auto logits = logits_.topRows(targetCount_);
  logits.rowwise() = parameter(outputBias_, 1, V).row(0);
  gemm(targetOutput_.topRows(targetCount_), false, parameter(outputWeight_, d, V), false, logits,
       true);
}

template <typename T>
__attribute__((noinline)) void TransformerModel<T>::lossChunk(const std::int32_t* targets, T scale,
                                                              bool withGradient, double* lossSum,
                                                              Index* correct) {
  const Index V = config_.vocabSize;
  for (Index c = 0; c < targetCount_; ++c) {
    T* row = logits_.row(c).data();
    const std::int32_t target = targets[targetRows_[static_cast<std::size_t>(c)]];
    // The row maximum in vectors, then the first index holding it: the prediction.
    const T maximum = rowMaximum(row, V);
    Index best = 0;
    while (best + 1 < V && row[best] != maximum) ++best;
    if (best == target) ++*correct;
    const T targetLogit = row[target];
    const T sum = expShiftedInPlace(row, V, maximum);
    *lossSum += static_cast<double>(maximum) + std::log(static_cast<double>(sum)) -
                static_cast<double>(targetLogit);
    if (withGradient) {
      const T factor = scale / sum;
      for (Index j = 0; j < V; ++j) row[j] *= factor;
      row[target] -= scale;
    }
  }
}

template <typename T>
__attribute__((noinline)) void TransformerModel<T>::backwardChunk(const std::int32_t* tokens,
                                                                  int sequences, int seqLen) {
  const Index R = static_cast<Index>(sequences) * seqLen, d = config_.dModel;
  const Index V = config_.vocabSize, f = config_.ffnWidth;
  auto dX = dX_.topRows(R);
  dX.setZero();
  const Index C = targetCount_;
  if (C > 0) {
    // Only the rows with a target have logits (forwardChunk); their gradient is scattered back.
    const auto dLogits = logits_.topRows(C);
    gemm(targetOutput_.topRows(C), true, dLogits, false, gradient(outputWeight_, d, V), true);
    addColumnSums<T>(dLogits, gradients_.data() + outputBias_);
    auto dTarget = dTargetOutput_.topRows(C);
    gemm(dLogits, false, parameter(outputWeight_, d, V), true, dTarget, false);
    for (Index c = 0; c < C; ++c) dX.row(targetRows_[static_cast<std::size_t>(c)]) = dTarget.row(c);
  }
  auto dU = dU_.topRows(R);
  for (int l = config_.layers - 1; l >= 0; --l) {
    LayerActivations& a = activations_[l];
    const LayerParameters& lp = layerParameters_[l];
    layerNormBackward<T>(dX, parameters_.data() + lp.norm2Gain, a.normed2Hat.topRows(R),
                         a.inverseStd2.data(), dU, gradients_.data() + lp.norm2Gain,
                         gradients_.data() + lp.norm2Bias);
    const auto hidden = a.hidden.topRows(R);
    gemm(hidden, true, dU, false, gradient(lp.ffnWeight2, f, d), true);
    addColumnSums<T>(dU, gradients_.data() + lp.ffnBias2);
    auto dHidden = dHidden_.topRows(R);
    gemm(dU, false, parameter(lp.ffnWeight2, f, d), true, dHidden, false);
    dHidden = (hidden.array() > T(0)).select(dHidden, T(0));
    gemm(a.normed1.topRows(R), true, dHidden, false, gradient(lp.ffnWeight1, d, f), true);
    addColumnSums<T>(dHidden, gradients_.data() + lp.ffnBias1);
    auto dNormed1 = dNormed1_.topRows(R);
    dNormed1 = dU;
    gemm(dHidden, false, parameter(lp.ffnWeight1, d, f), true, dNormed1, true);
    layerNormBackward<T>(dNormed1, parameters_.data() + lp.norm1Gain, a.normed1Hat.topRows(R),
                         a.inverseStd1.data(), dU, gradients_.data() + lp.norm1Gain,
                         gradients_.data() + lp.norm1Bias);
    gemm(a.heads.topRows(R), true, dU, false, gradient(lp.output, d, d), true);
    auto dHeads = dHeads_.topRows(R);
    gemm(dU, false, parameter(lp.output, d, d), true, dHeads, false);
    dX = dU;  // the residual
    attentionBackward(l, sequences, seqLen, dHeads);
    const auto x = a.input.topRows(R);
    gemm(x, true, dQueries_.topRows(R), false, gradient(lp.query, d, d), true);
    gemm(x, true, dKeys_.topRows(R), false, gradient(lp.key, d, d), true);
    gemm(x, true, dValues_.topRows(R), false, gradient(lp.value, d, d), true);
    gemm(dQueries_.topRows(R), false, parameter(lp.query, d, d), true, dX, true);
    gemm(dKeys_.topRows(R), false, parameter(lp.key, d, d), true, dX, true);
    gemm(dValues_.topRows(R), false, parameter(lp.value, d, d), true, dX, true);
  }
  auto gE = gradient(embedding_, V, d);
  for (Index r = 0; r < R; ++r) gE.row(tokens[r]) += dX.row(r);
  if (config_.positionScheme == PositionScheme::kAbsolute) {
    auto gP = gradient(absolute_, config_.seqLen, d);
    for (Index r = 0; r < R; ++r) gP.row(r % seqLen) += dX.row(r);
  }
}

template <typename T>
double TransformerModel<T>::lossAndGradients(const BatchView& batch, Index stepTargets) {
  gradients_.setZero();
  const Index total = static_cast<Index>(batch.batchSize) * batch.seqLen;
  Index counted = 0;
  for (Index r = 0; r < total; ++r) counted += batch.targets[r] >= 0 ? 1 : 0;
  if (counted == 0) return 0.0;
  if (stepTargets > 0) counted = stepTargets;  // one shard of a step: its part of the step's mean
  const T scale = T(1) / static_cast<T>(counted);
  double lossSum = 0;
  Index correct = 0;
  for (int first = 0; first < batch.batchSize; first += config_.maxBatchSize) {
    const int sequences = std::min(config_.maxBatchSize, batch.batchSize - first);
    const Index offset = static_cast<Index>(first) * batch.seqLen;
    forwardChunk(batch.tokens + offset, batch.targets + offset, sequences, batch.seqLen);
    lossChunk(batch.targets + offset, scale, true, &lossSum, &correct);
    backwardChunk(batch.tokens + offset, sequences, batch.seqLen);
  }
  return lossSum / static_cast<double>(counted);
}

template <typename T>
Evaluation TransformerModel<T>::evaluate(const BatchView& batch) {
  double lossSum = 0;
  Index correct = 0, counted = 0;
  const Index total = static_cast<Index>(batch.batchSize) * batch.seqLen;
  for (Index r = 0; r < total; ++r) counted += batch.targets[r] >= 0 ? 1 : 0;
  for (int first = 0; first < batch.batchSize; first += config_.maxBatchSize) {
    const int sequences = std::min(config_.maxBatchSize, batch.batchSize - first);
    const Index offset = static_cast<Index>(first) * batch.seqLen;
    forwardChunk(batch.tokens + offset, batch.targets + offset, sequences, batch.seqLen);
    lossChunk(batch.targets + offset, T(0), false, &lossSum, &correct);
  }
  if (counted == 0) return Evaluation{0.0, 0.0, 0};
  return Evaluation{lossSum / static_cast<double>(counted),
                    static_cast<double>(correct) / static_cast<double>(counted), counted};
}

template <typename T>
void TransformerModel<T>::gatherGradients(const T* shard, bool first) {
  const Eigen::Map<const Vector<T>> given(shard, gradients_.size());
  if (first)
    gradients_ = given;
  else
    gradients_ += given;
}

template <typename T>
double TransformerModel<T>::trainStep(const BatchView& batch, const AdamOptions& options) {
  const double loss = lossAndGradients(batch);
  // A loss or gradient beyond T (parameters too large for the forward pass) would make Adam's
  // parameters NaN: no step then, the parameters as they were (the caller reads the loss).
  if (std::isfinite(loss) && firstNonFinite(gradients_.data(), gradients_.size()) < 0)
    adamStep(options);
  return loss;
}

template <typename T>
void TransformerModel<T>::forwardSequence(const std::int32_t* tokens, int seqLen) {
  forwardChunk(tokens, nullptr, 1, seqLen);
  lastSeqLen_ = seqLen;
}

template <typename T>
void TransformerModel<T>::headInputs(int layer, int head, T* queries, T* keys, T* values) const {
  const Index n = lastSeqLen_, dk = headWidth();
  const LayerActivations& a = activations_[layer];
  MatrixMap<T>(queries, n, dk) = headSlice(a.queries, 0, head, n);
  MatrixMap<T>(keys, n, dk) = headSlice(a.keys, 0, head, n);
  MatrixMap<T>(values, n, dk) = headSlice(a.values, 0, head, n);
}

template <typename T>
void TransformerModel<T>::positionProfile(const std::int32_t* tokens, int sequences, int seqLen,
                                          int layer, int head, double* profile) {
  // Σ over positions of q_i · aᴷ[c], in double. Plain loops: Eigen's cast expressions here made
  // the full module's gzip 1.9 KiB larger than these loops, for a few hundred multiply-adds.
  const Index dk = headWidth(), rows = tableRows();
  const T* table = relativeKeys(layer, head);
  std::fill(profile, profile + rows, 0.0);
  for (int s = 0; s < sequences; ++s) {
    forwardSequence(tokens + static_cast<Index>(s) * seqLen, seqLen);
    const auto queries = headSlice(activations_[layer].queries, 0, head, seqLen);
    for (Index c = 0; c < rows; ++c) {
      for (Index i = 0; i < seqLen; ++i) {
        for (Index x = 0; x < dk; ++x)
          profile[c] += double(queries(i, x)) * double(table[c * dk + x]);
      }
    }
  }
  const double scale = 1.0 / (static_cast<double>(sequences) * seqLen * std::sqrt(double(dk)));
  for (Index c = 0; c < rows; ++c) profile[c] *= scale;
}

template void TransformerModel<float>::forwardChunk(const std::int32_t*, const std::int32_t*, int,
                                                    int);
template void TransformerModel<float>::lossChunk(const std::int32_t*, float, bool, double*, Index*);
template void TransformerModel<float>::backwardChunk(const std::int32_t*, int, int);
template double TransformerModel<float>::lossAndGradients(const BatchView&, Index);
template void TransformerModel<float>::gatherGradients(const float*, bool);
template Evaluation TransformerModel<float>::evaluate(const BatchView&);
template double TransformerModel<float>::trainStep(const BatchView&, const AdamOptions&);
template void TransformerModel<float>::forwardSequence(const std::int32_t*, int);
template void TransformerModel<float>::headInputs(int, int, float*, float*, float*) const;
template void TransformerModel<float>::positionProfile(const std::int32_t*, int, int, int, int,
                                                       double*);
template void TransformerModel<double>::forwardChunk(const std::int32_t*, const std::int32_t*, int,
                                                     int);
template void TransformerModel<double>::lossChunk(const std::int32_t*, double, bool, double*,
                                                  Index*);
template void TransformerModel<double>::backwardChunk(const std::int32_t*, int, int);
template double TransformerModel<double>::lossAndGradients(const BatchView&, Index);
template void TransformerModel<double>::gatherGradients(const double*, bool);
template Evaluation TransformerModel<double>::evaluate(const BatchView&);
template double TransformerModel<double>::trainStep(const BatchView&, const AdamOptions&);
template void TransformerModel<double>::forwardSequence(const std::int32_t*, int);
template void TransformerModel<double>::headInputs(int, int, double*, double*, double*) const;
template void TransformerModel<double>::positionProfile(const std::int32_t*, int, int, int, int,
                                                        double*);

}  // namespace relpos
