// The training engine's attention (relpos/transformer_model.hpp): the forward pass through
// computeAttention with the scheme table's position term, Shaw's backward pass, the other schemes'
// backward pass, their fixed tables (T5's buckets, ALiBi's slopes, RoPE's angles, the sinusoid).
// The stages are noinline: each runs for milliseconds, and profiles show them apart.
#include <cmath>

#include "relpos/relative_offsets.hpp"
#include "relpos/scheme_table.hpp"
#include "relpos/transformer_model.hpp"

namespace relpos {

namespace {

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

}  // namespace

template <typename T>
__attribute__((noinline)) void TransformerModel<T>::attentionForward(int layer, int sequences,
                                                                     int seqLen) {
  LayerActivations& a = activations_[layer];
  const LayerParameters& lp = layerParameters_[layer];
  const Index n = seqLen, H = config_.heads;
  const auto scheme = config_.positionScheme;
  const ConstMatrixMap<T> none(nullptr, 0, 0);
  // The scheme table's kind: Shaw's tables, T5's and ALiBi's biases by offset, or nothing (RoPE
  // rotates the queries and keys in place first: the backward pass reads them rotated; the
  // absolute schemes are in x).
  PositionTerm<T> position;
  position.kind = schemeInfo(scheme)->kind;
  if (position.kind != PositionKind::kShaw && position.kind != PositionKind::kOffsetBias) {
    position.kind = PositionKind::kNone;
  }
  position.biasByOffset = biasByOffset_.data();
  const T5BucketParams t5{config_.numBuckets, config_.bucketDistance, !config_.causal};
  for (Index h = 0; h < H; ++h) {
    // docs/schemes.md: T5's b[bucket(j − i)], ALiBi's −m_h |j − i|, unscaled.
    if (position.kind == PositionKind::kOffsetBias) {
      offsetBiases<T>(scheme, t5, parameters_.data() + lp.bucketBiases + h * config_.numBuckets,
                      slopes_.empty() ? nullptr : slopes_.data() + h, 1, n, biasByOffset_.data());
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
      // docs/schemes.md §3: angle p · base^(−2t/d_k) (RopeParams{}.base), pairs (2t, 2t + 1).
      ropeCos_.resize(n, dk / 2);
      ropeSin_.resize(n, dk / 2);
      ropeAngles<T>(Vector<double>::LinSpaced(n, 0, static_cast<double>(n - 1)), dk,
                    RopeParams{}.base, ropeCos_, ropeSin_);
      break;
    case PositionScheme::kSinusoidal:
      sinusoid_.resize(n, d);
      sinusoidalEncoding<T>(SinusoidalParams{}.base, 0, sinusoid_);
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

template void TransformerModel<float>::attentionForward(int, int, int);
template void TransformerModel<float>::attentionBackward(int, int, int, MatrixRef<float>);
template void TransformerModel<float>::setUpPositions();
template void TransformerModel<float>::rotate(MatrixRef<float>, bool) const;
template void TransformerModel<float>::schemeAttentionBackward(int, int, int, MatrixRef<float>);
template void TransformerModel<double>::attentionForward(int, int, int);
template void TransformerModel<double>::attentionBackward(int, int, int, MatrixRef<double>);
template void TransformerModel<double>::setUpPositions();
template void TransformerModel<double>::rotate(MatrixRef<double>, bool) const;
template void TransformerModel<double>::schemeAttentionBackward(int, int, int, MatrixRef<double>);

}  // namespace relpos
