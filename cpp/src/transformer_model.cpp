#include "relpos/transformer_model.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <type_traits>

#include "relpos/exp_kernels.hpp"
#include "relpos/numpy_random.hpp"
#include "relpos/relative_offsets.hpp"
#include "relpos/simd_vectors.hpp"

// The stages (forward, loss, backward, attention, Adam, the kernels) are marked noinline: each
// runs for milliseconds, so a call costs nothing, and profiles of the module show them apart.

namespace relpos {

std::string checkModelConfig(const ModelConfig& c) {
  if (c.vocabSize < 1) return "vocabSize must be at least 1";
  if (c.dModel < 1) return "dModel must be at least 1";
  if (c.heads < 1) return "heads must be at least 1";
  if (c.dModel % c.heads != 0) return "dModel must be a multiple of heads";
  if (c.layers < 1 || c.layers > 4) return "layers must be from 1 to 4";
  if (c.ffnWidth < 1) return "ffnWidth must be at least 1";
  if (c.maxDistance < 0) return "maxDistance must be at least 0";
  if (c.seqLen < 1) return "seqLen must be at least 1";
  if (c.maxBatchSize < 1) return "maxBatchSize must be at least 1";
  const int scheme = static_cast<int>(c.positionScheme);
  if (scheme < 0 || scheme > 6) return "positionScheme must be from 0 to 6";
  if (c.positionScheme == PositionScheme::kT5) {
    // One-way (causal) buckets use all numBuckets for keys before the query, else half.
    const int exact = (c.causal ? c.numBuckets : c.numBuckets / 2) / 2;
    if (c.numBuckets < 4) return "numBuckets must be at least 4";
    if (c.bucketDistance <= exact)
      return "bucketDistance must exceed the exact buckets (numBuckets / 4, causal: / 2)";
  }
  if (c.positionScheme == PositionScheme::kRope && (c.dModel / c.heads) % 2 != 0)
    return "RoPE needs an even head width (dModel / heads)";
  return "";
}

namespace {

constexpr double kLayerNormEpsilon = 1e-5;

// out(i, j) += projected(i, clip(j - i) + k) for the n x n out.
template <typename T>
__attribute__((noinline)) void addGathered(ConstMatrixRef<T> projected, Index k, MatrixRef<T> out) {
  const Index n = out.rows();
  for (Index i = 0; i < n; ++i) {
    const RowBand band = rowBand(i, n, k);
    T* row = out.row(i).data();
    const T left = projected(i, 0);
    const T right = projected(i, 2 * k);
    for (Index j = 0; j < band.leftLength; ++j) row[j] += left;
    const T* mid = projected.row(i).data() + band.midTableRow;
    for (Index j = 0; j < band.midLength; ++j) row[band.midBegin + j] += mid[j];
    for (Index j = band.midBegin + band.midLength; j < n; ++j) row[j] += right;
  }
}

// buckets(i, c) = sum of m(i, j) over the keys j with clip(j - i) + k == c.
template <typename T>
__attribute__((noinline)) void bucket(ConstMatrixRef<T> m, Index k, MatrixRef<T> buckets) {
  const Index n = m.rows();
  buckets.setZero();
  for (Index i = 0; i < n; ++i) {
    const RowBand band = rowBand(i, n, k);
    const T* row = m.row(i).data();
    T* out = buckets.row(i).data();
    T left = 0;
    for (Index j = 0; j < band.leftLength; ++j) left += row[j];
    T right = 0;
    for (Index j = band.midBegin + band.midLength; j < n; ++j) right += row[j];
    for (Index j = 0; j < band.midLength; ++j) out[band.midTableRow + j] += row[band.midBegin + j];
    out[0] += left;
    out[2 * k] += right;
  }
}

// out = LayerNorm(u) = gain · (u - mean) / sqrt(var + eps) + bias, row by row; keeps the
// normalised rows (hat) and 1 / sqrt(var + eps) for the backward pass.
template <typename T>
__attribute__((noinline)) void layerNormForward(ConstMatrixRef<T> u, const T* gain, const T* bias,
                                                MatrixRef<T> hat, T* inverseStd, MatrixRef<T> out) {
  const Index d = u.cols();
  const Eigen::Map<const Eigen::Array<T, 1, Eigen::Dynamic>> g(gain, d), b(bias, d);
  for (Index r = 0; r < u.rows(); ++r) {
    const T mean = u.row(r).mean();
    hat.row(r).array() = u.row(r).array() - mean;
    const T variance = hat.row(r).squaredNorm() / static_cast<T>(d);
    const T is = T(1) / std::sqrt(variance + static_cast<T>(kLayerNormEpsilon));
    inverseStd[r] = is;
    hat.row(r) *= is;
    out.row(r).array() = hat.row(r).array() * g + b;
  }
}

// From d(out) (dOut) to d(u) (written to dU, which may be dOut itself); adds d(gain), d(bias).
template <typename T>
__attribute__((noinline)) void layerNormBackward(ConstMatrixRef<T> dOut, const T* gain,
                                                 ConstMatrixRef<T> hat, const T* inverseStd,
                                                 MatrixRef<T> dU, T* dGain, T* dBias) {
  const Index d = dOut.cols();
  const Eigen::Map<const Eigen::Array<T, 1, Eigen::Dynamic>> g(gain, d);
  Eigen::Map<Eigen::Array<T, 1, Eigen::Dynamic>> dg(dGain, d), db(dBias, d);
  const T inverseD = T(1) / static_cast<T>(d);
  for (Index r = 0; r < dOut.rows(); ++r) {
    dg += dOut.row(r).array() * hat.row(r).array();
    db += dOut.row(r).array();
    const T mean1 = (dOut.row(r).array() * g).sum() * inverseD;
    const T mean2 = (dOut.row(r).array() * g * hat.row(r).array()).sum() * inverseD;
    dU.row(r).array() =
        inverseStd[r] * (dOut.row(r).array() * g - mean1 - hat.row(r).array() * mean2);
  }
}

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
Index TransformerModel<T>::add(const std::string& name, std::vector<Index> shape, double initScale,
                               double initConstant) {
  Index size = 1;
  for (Index side : shape) size *= side;
  const Index offset = table_.empty() ? 0 : table_.back().offset + table_.back().size;
  table_.push_back(ParameterInfo{name, offset, size, std::move(shape)});
  initScales_.push_back(initScale);
  initConstants_.push_back(initConstant);
  return offset;
}

template <typename T>
TransformerModel<T>::TransformerModel(const ModelConfig& config) : config_(config) {
  const Index V = config.vocabSize, d = config.dModel, f = config.ffnWidth, H = config.heads;
  const Index dk = d / H, rows = tableRows();
  const double inD = 1.0 / std::sqrt(static_cast<double>(d));
  embedding_ = add("embedding", {V, d}, 1.0);
  for (int l = 0; l < config.layers; ++l) {
    const std::string p = "layers." + std::to_string(l) + ".";
    LayerParameters lp{};
    lp.query = add(p + "attention.query", {d, d}, inD);
    lp.key = add(p + "attention.key", {d, d}, inD);
    lp.value = add(p + "attention.value", {d, d}, inD);
    lp.output = add(p + "attention.output", {d, d}, inD);
    const double tableScale = 1.0 / std::sqrt(static_cast<double>(dk));
    if (config.positionScheme == PositionScheme::kT5) {
      lp.bucketBiases = add(p + "attention.bucketBiases", {H, config.numBuckets}, tableScale);
    }
    if (!shawPositions()) {
      // no a^K / a^V: relativeKeys() and relativeValues() are for Shaw's scheme only
    } else if (config.perHeadTables) {
      lp.relativeKeys = add(p + "attention.relativeKeys", {H, rows, dk}, tableScale);
      lp.relativeValues = add(p + "attention.relativeValues", {H, rows, dk}, tableScale);
    } else {
      lp.relativeKeys = add(p + "attention.relativeKeys", {rows, dk}, tableScale);
      lp.relativeValues = add(p + "attention.relativeValues", {rows, dk}, tableScale);
    }
    lp.norm1Gain = add(p + "norm1.gain", {d}, 0.0, 1.0);
    lp.norm1Bias = add(p + "norm1.bias", {d}, 0.0);
    lp.ffnWeight1 = add(p + "ffn.weight1", {d, f}, inD);
    lp.ffnBias1 = add(p + "ffn.bias1", {f}, 0.0);
    lp.ffnWeight2 = add(p + "ffn.weight2", {f, d}, 1.0 / std::sqrt(static_cast<double>(f)));
    lp.ffnBias2 = add(p + "ffn.bias2", {d}, 0.0);
    lp.norm2Gain = add(p + "norm2.gain", {d}, 0.0, 1.0);
    lp.norm2Bias = add(p + "norm2.bias", {d}, 0.0);
    layerParameters_.push_back(lp);
  }
  outputWeight_ = add("output.weight", {d, V}, inD);
  outputBias_ = add("output.bias", {V}, 0.0);
  setUpPositions();

  const Index count = table_.back().offset + table_.back().size;
  parameters_.setZero(count);
  gradients_.setZero(count);
  firstMoment_.setZero(count);
  secondMoment_.setZero(count);
  initialise();

  const Index n = config.seqLen;
  maxRows_ = static_cast<Index>(config.maxBatchSize) * n;
  const Index R = maxRows_;
  activations_.resize(config.layers);
  for (auto& a : activations_) {
    for (Matrix<T>* m : {&a.input, &a.queries, &a.keys, &a.values, &a.heads, &a.normed1Hat,
                         &a.normed1, &a.normed2Hat}) {
      m->setZero(R, d);
    }
    a.hidden.setZero(R, f);
    a.weights.setZero(static_cast<Index>(config.maxBatchSize) * H * n, n);
    a.inverseStd1.setZero(R);
    a.inverseStd2.setZero(R);
  }
  finalOutput_.setZero(R, d);
  targetOutput_.setZero(R, d);
  dTargetOutput_.setZero(R, d);
  targetRows_.assign(static_cast<std::size_t>(R), 0);
  logits_.setZero(R, V);
  for (Matrix<T>* m : {&dX_, &dNormed1_, &dHeads_, &dQueries_, &dKeys_, &dValues_, &dU_}) {
    m->setZero(R, d);
  }
  dHidden_.setZero(R, f);
  biasByOffset_.setZero(2 * n - 1);
  dWeights_.setZero(n, n);
  projected_.setZero(n, rows);
  buckets_.setZero(n, rows);
  // The packed right operand (always a weight matrix or its transpose) reaches its largest size
  // now, not during a step: depth x the columns rounded up to whole panels.
  constexpr Index panel = kPanelWidth<T>;
  passPanels_.setZero(transposedProductWorkspace<T>(std::max({V, f, d, n})));
  const auto padded = [](Index cols) { return (cols + panel - 1) / panel * panel; };
  packed_.reserve(
      std::max({d * padded(V), V * padded(d), d * padded(f), f * padded(d), d * padded(d),
                dk * padded(n), n * padded(dk), dk * padded(rows), rows * padded(dk)}));
  // The attention workspace too: one pass of the first layer's attention over one sequence of the
  // longest length (on the zeroed activations, overwritten by every forward pass).
  attentionForward(0, 1, config.seqLen);
}

template <typename T>
void TransformerModel<T>::initialise() {
  NumpyRandom random(config_.seed);
  for (std::size_t p = 0; p < table_.size(); ++p) {
    T* data = parameters_.data() + table_[p].offset;
    for (Index i = 0; i < table_[p].size; ++i) {
      data[i] = initScales_[p] == 0.0 ? static_cast<T>(initConstants_[p])
                                      : static_cast<T>(random.nextGaussian() * initScales_[p]);
    }
  }
}

template <typename T>
Index TransformerModel<T>::tableOffset(Index base, int head) const {
  return config_.perHeadTables ? base + static_cast<Index>(head) * tableRows() * headWidth() : base;
}

template <typename T>
const T* TransformerModel<T>::relativeKeys(int layer, int head) const {
  return parameters_.data() + tableOffset(layerParameters_[layer].relativeKeys, head);
}

template <typename T>
const T* TransformerModel<T>::relativeValues(int layer, int head) const {
  return parameters_.data() + tableOffset(layerParameters_[layer].relativeValues, head);
}

template <typename T>
void TransformerModel<T>::gemm(ConstMatrixRef<T> a, bool transposeA, ConstMatrixRef<T> b,
                               bool transposeB, MatrixRef<T> out, bool accumulate, T alpha) {
  if (!transposeA) {
    if (transposeB) {
      packed_.packTransposed(b);
    } else {
      packed_.pack(b);
    }
  }
  if (transposeA) {
    // Only the weight gradients: out += aᵀ b.
    assert(accumulate && !transposeB && alpha == T(1));
    addTransposedProduct<T>(a, b, out, passPanels_.data());
    return;
  }
  { multiplyPacked<T>(a, packed_, alpha, accumulate, out); }
}

template <typename T>
void TransformerModel<T>::product(ConstMatrixRef<T> a, ConstMatrixRef<T> b, bool transposeB,
                                  MatrixRef<T> out, bool accumulate) {
  if (transposeB) {
    packed_.packTransposed(b);
  } else {
    packed_.pack(b);
  }
  multiplyPacked<T>(a, packed_, T(1), accumulate, out);
}

template <typename T>
typename TransformerModel<T>::HeadView TransformerModel<T>::headView(LayerActivations& a, Index b,
                                                                     Index h, Index n) {
  const Index H = config_.heads;
  return {headSlice(a.queries, b, h, n), headSlice(a.keys, b, h, n), headSlice(a.values, b, h, n),
          MatrixMap<T>(a.weights.data() + (b * H + h) * n * n, n, n)};
}

template <typename T>
typename TransformerModel<T>::RelativeTables TransformerModel<T>::relativeTables(int layer,
                                                                                 Index h) const {
  const Index rows = tableRows(), dk = headWidth();
  return {ConstMatrixMap<T>(relativeKeys(layer, static_cast<int>(h)), rows, dk),
          ConstMatrixMap<T>(relativeValues(layer, static_cast<int>(h)), rows, dk)};
}

template <typename T>
__attribute__((noinline)) void TransformerModel<T>::attentionForward(int layer, int sequences,
                                                                     int seqLen) {
  LayerActivations& a = activations_[layer];
  const LayerParameters& lp = layerParameters_[layer];
  const Index n = seqLen, H = config_.heads, N = config_.seqLen;
  const auto scheme = config_.positionScheme;
  const ConstMatrixMap<T> none(nullptr, 0, 0);
  // Shaw's tables, T5's and ALiBi's biases by offset, or nothing (RoPE rotates the queries and
  // keys in place first: the backward pass reads them rotated; the absolute schemes are in x).
  PositionTerm<T> position;
  position.kind = scheme == PositionScheme::kShaw ? PositionKind::kShaw
                  : scheme == PositionScheme::kT5 || scheme == PositionScheme::kAlibi
                      ? PositionKind::kOffsetBias
                      : PositionKind::kNone;
  position.biasByOffset = biasByOffset_.data();
  for (Index h = 0; h < H; ++h) {
    // docs/schemes.md: T5's b[bucket(j − i)], ALiBi's −m_h |j − i|, unscaled.
    if (scheme == PositionScheme::kT5) {
      const T* biases = parameters_.data() + lp.bucketBiases + h * config_.numBuckets;
      for (Index c = 0; c < 2 * n - 1; ++c) biasByOffset_(c) = biases[bucketOf_[c + N - n]];
    } else if (scheme == PositionScheme::kAlibi) {
      alibiBiasByOffset<T>(slopes_[h], n, biasByOffset_.data());
    }
    for (Index b = 0; b < sequences; ++b) {
      auto [q, keys, values, w] = headView(a, b, h, n);
      if (scheme == PositionScheme::kRope) {
        rotate(q, false);
        rotate(keys, false);
      }
      const bool shaw = scheme == PositionScheme::kShaw;
      const auto tables = shaw ? relativeTables(layer, h) : RelativeTables{none, none};
      const AttentionInputs<T> in{q, keys, tables.keys, values, tables.values, config_.causal};
      const MatrixMap<T> unused(nullptr, 0, 0);
      AttentionPanels<T> panels{unused, unused, unused, unused, w, headSlice(a.heads, b, h, n)};
      computeAttention<T>(in, position, attentionWorkspace_, panels);
    }
  }
}

template <typename T>
__attribute__((noinline)) void TransformerModel<T>::attentionBackward(int layer, int sequences,
                                                                      int seqLen,
                                                                      MatrixRef<T> dHeads) {
  if (!shawPositions()) {
    schemeAttentionBackward(layer, sequences, seqLen, dHeads);
    return;
  }
  LayerActivations& a = activations_[layer];
  const LayerParameters& lp = layerParameters_[layer];
  const Index n = seqLen, H = config_.heads, dk = headWidth(), k = config_.maxDistance;
  const Index rows = tableRows();
  const T scale = T(1) / std::sqrt(static_cast<T>(dk));
  auto projected = projected_.topRows(n);
  auto buckets = buckets_.topRows(n);
  auto dW = dWeights_.topLeftCorner(n, n);
  for (Index b = 0; b < sequences; ++b) {
    for (Index h = 0; h < H; ++h) {
      const auto [q, keys, values, w] = headView(a, b, h, n);
      const auto [aK, aV] = relativeTables(layer, h);
      MatrixMap<T> gK(gradients_.data() + tableOffset(lp.relativeKeys, static_cast<int>(h)), rows,
                      dk);
      MatrixMap<T> gV(gradients_.data() + tableOffset(lp.relativeValues, static_cast<int>(h)), rows,
                      dk);
      const auto dz = headSlice(dHeads, b, h, n);
      // d weights = dz (v_j + a^V[idx])
      product(dz, values, true, dW, false);
      product(dz, aV, true, projected, false);
      addGathered<T>(projected, k, dW);
      // d values = wᵀ dz, d a^V += buckets(w)ᵀ dz
      auto dv = headSlice(dValues_, b, h, n);
      dv.setZero();
      addTransposedProduct<T>(w, dz, dv, passPanels_.data());
      bucket<T>(w, k, buckets);
      addTransposedProduct<T>(buckets, dz, gV, passPanels_.data());
      // d scores (softmax backward), with the 1/sqrt(d_k) folded in
      for (Index i = 0; i < n; ++i) {
        const T dot = w.row(i).dot(dW.row(i));
        dW.row(i).array() = scale * w.row(i).array() * (dW.row(i).array() - dot);
      }
      // d queries = dS (k_j + a^K[idx]); d keys = dSᵀ q; d a^K += buckets(dS)ᵀ q
      auto dq = headSlice(dQueries_, b, h, n);
      product(dW, keys, false, dq, false);
      bucket<T>(dW, k, buckets);
      product(buckets, aK, false, dq, true);
      auto dkey = headSlice(dKeys_, b, h, n);
      dkey.setZero();
      addTransposedProduct<T>(dW, q, dkey, passPanels_.data());
      addTransposedProduct<T>(buckets, q, gK, passPanels_.data());
    }
  }
}

template <typename T>
void TransformerModel<T>::setUpPositions() {
  const ModelConfig& c = config_;
  const Index n = c.seqLen, d = c.dModel, dk = headWidth();
  switch (c.positionScheme) {
    case PositionScheme::kT5: {
      const T5BucketParams params{c.numBuckets, c.bucketDistance, !c.causal};
      bucketOf_.resize(2 * n - 1);
      for (Index o = -(n - 1); o < n; ++o) bucketOf_[o + n - 1] = t5Bucket(o, params);
      break;
    }
    case PositionScheme::kAlibi: {
      Vector<double> slopes(c.heads);
      alibiSlopes(slopes);
      slopes_.assign(slopes.data(), slopes.data() + slopes.size());
      break;
    }
    case PositionScheme::kRope:
      // docs/schemes.md §3: angle p · 10000^(−2t/d_k), pairs (2t, 2t + 1).
      ropeCos_.resize(n, dk / 2);
      ropeSin_.resize(n, dk / 2);
      ropeAngles<T>(Vector<double>::LinSpaced(n, 0, static_cast<double>(n - 1)), dk,
                    RopeParams{}.base, ropeCos_, ropeSin_);
      break;
    case PositionScheme::kSinusoidal:
      sinusoid_.resize(n, d);
      sinusoidalEncoding<T>(10000, 0, sinusoid_);
      break;
    case PositionScheme::kAbsolute:
      absolute_ = add("position.absolute", {n, d}, 1.0 / std::sqrt(static_cast<double>(d)));
      break;
    default:
      break;
  }
}

template <typename T>
void TransformerModel<T>::rotate(MatrixRef<T> m, bool inverse) const {
  rotatePairs<T>(m, ropeCos_.topRows(m.rows()), ropeSin_.topRows(m.rows()),
                 RopeLayout::kInterleaved, inverse ? T(-1) : T(1), m);
}

template <typename T>
void TransformerModel<T>::schemeAttentionBackward(int layer, int sequences, int seqLen,
                                                  MatrixRef<T> dHeads) {
  LayerActivations& a = activations_[layer];
  const LayerParameters& lp = layerParameters_[layer];
  const Index n = seqLen, H = config_.heads, dk = headWidth(), N = config_.seqLen;
  const T scale = T(1) / std::sqrt(static_cast<T>(dk));
  const auto scheme = config_.positionScheme;
  auto dW = dWeights_.topLeftCorner(n, n);
  for (Index b = 0; b < sequences; ++b) {
    for (Index h = 0; h < H; ++h) {
      const auto [q, keys, values, w] = headView(a, b, h, n);  // q and keys rotated for RoPE
      const auto dz = headSlice(dHeads, b, h, n);
      product(dz, values, true, dW, false);  // d weights = dz vᵀ
      auto dv = headSlice(dValues_, b, h, n);
      dv.setZero();
      addTransposedProduct<T>(w, dz, dv, passPanels_.data());
      T* gBiases = gradients_.data() + lp.bucketBiases + h * config_.numBuckets;
      for (Index i = 0; i < n; ++i) {
        const T dot = w.row(i).dot(dW.row(i));
        dW.row(i).array() = w.row(i).array() * (dW.row(i).array() - dot);  // d scores
        if (scheme == PositionScheme::kT5) {
          for (Index j = 0; j < n; ++j) gBiases[bucketOf_[j - i + N - 1]] += dW(i, j);
        }
      }
      dW *= scale;
      auto dq = headSlice(dQueries_, b, h, n);
      product(dW, keys, false, dq, false);  // d queries = dS k
      auto dkey = headSlice(dKeys_, b, h, n);
      dkey.setZero();
      addTransposedProduct<T>(dW, q, dkey, passPanels_.data());  // d keys = dSᵀ q
      if (scheme == PositionScheme::kRope) {  // back through the rotation: its transpose
        rotate(dq, true);
        rotate(dkey, true);
      }
    }
  }
}

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
double TransformerModel<T>::lossAndGradients(const BatchView& batch) {
  gradients_.setZero();
  const Index total = static_cast<Index>(batch.batchSize) * batch.seqLen;
  Index counted = 0;
  for (Index r = 0; r < total; ++r) counted += batch.targets[r] >= 0 ? 1 : 0;
  if (counted == 0) return 0.0;
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
__attribute__((noinline)) void TransformerModel<T>::adamStep(const AdamOptions& o) {
  ++adamSteps_;
  const Index count = parameters_.size();
  T* g = gradients_.data();
  if (o.maxGradNorm > 0) {
    double squares = 0;
    for (Index i = 0; i < count; ++i) squares += static_cast<double>(g[i]) * g[i];
    const double norm = std::sqrt(squares);
    if (norm > o.maxGradNorm) {
      const T factor = static_cast<T>(o.maxGradNorm / norm);
      for (Index i = 0; i < count; ++i) g[i] *= factor;
    }
  }
  const double t = static_cast<double>(adamSteps_);
  const T beta1 = static_cast<T>(o.beta1), beta2 = static_cast<T>(o.beta2);
  const T stepSize = static_cast<T>(o.learningRate / (1.0 - std::pow(o.beta1, t)));
  const T inverseCorrection2 = static_cast<T>(1.0 / std::sqrt(1.0 - std::pow(o.beta2, t)));
  const T epsilon = static_cast<T>(o.epsilon);
  const T decay = static_cast<T>(o.learningRate * o.weightDecay);
  T* p = parameters_.data();
  T* m = firstMoment_.data();
  T* v = secondMoment_.data();
  for (Index i = 0; i < count; ++i) {
    m[i] = beta1 * m[i] + (T(1) - beta1) * g[i];
    v[i] = beta2 * v[i] + (T(1) - beta2) * g[i] * g[i];
    p[i] -= stepSize * m[i] / (std::sqrt(v[i]) * inverseCorrection2 + epsilon) + decay * p[i];
  }
}

template <typename T>
double TransformerModel<T>::trainStep(const BatchView& batch, const AdamOptions& options) {
  const double loss = lossAndGradients(batch);
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

template class TransformerModel<float>;
template class TransformerModel<double>;

}  // namespace relpos
