// The per-pair loops of relative self-attention, written as the handbook writes them: the
// references that the core's blocked, band-limited forms are tested against (GoogleTest and
// fuzz_attention). O(n^2 d); test code only, never linked into the module.
#pragma once

#include <algorithm>
#include <cmath>

#include "relpos/attention.hpp"

namespace relpos {

// out(i, j) = q_i . a^K[clip(j - i) + k] / sqrt(d_k).
template <typename T>
void positionBiasesPairwise(ConstMatrixRef<T> queries, ConstMatrixRef<T> relativeKeys,
                            MatrixRef<T> out) {
  const Index n = queries.rows();
  const Index k = clippingDistance(relativeKeys.rows());
  const T scale = T(1) / std::sqrt(static_cast<T>(queries.cols()));
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < n; ++j) {
      const Index index = std::clamp<Index>(j - i, -k, k) + k;
      out(i, j) = queries.row(i).dot(relativeKeys.row(index)) * scale;
    }
  }
}

// out(i, :) = sum_j w(i, j) (v_j + a^V[clip(j - i) + k]).
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

}  // namespace relpos
