#include "relpos/position_schemes.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace relpos {
namespace {

template <typename T>
T inverseSqrt(Index d) {
  return T(1) / std::sqrt(static_cast<T>(d));
}

// get_slopes_power_of_2(count): start = 2^(-2^-(log2(count) - 3)) = 2^(-8/count), slope i =
// start * start^i (docs/schemes.md §2), written as the reference code writes it.
void powerOfTwoSlopes(Index count, double* out) {
  const double start = std::pow(2.0, -std::pow(2.0, -(std::log2(static_cast<double>(count)) - 3)));
  for (Index i = 0; i < count; ++i) out[i] = start * std::pow(start, static_cast<double>(i));
}

// out = alpha · a · b^T with the project's kernel (Eigen's own product would add its code to the
// module for both scalars).
template <typename T>
void multiplyTransposed(ConstMatrixRef<T> a, ConstMatrixRef<T> b, T alpha, PackedRight<T>& packed,
                        MatrixRef<T> out) {
  packed.packTransposed(b);
  multiplyPacked<T>(a, packed, alpha, false, out);
}

// out = a · b, out resized to a.rows() x b.cols() first.
template <typename T>
void multiplyInto(ConstMatrixRef<T> a, ConstMatrixRef<T> b, PackedRight<T>& packed,
                  Matrix<T>& out) {
  out.resize(a.rows(), b.cols());
  packed.pack(b);
  multiplyPacked<T>(a, packed, T(1), false, out);
}

// content(i, j) = a_i . b_j / sqrt(d_k) (docs/maths.md §3).
template <typename T>
void scaledScores(ConstMatrixRef<T> a, ConstMatrixRef<T> b, PackedRight<T>& packed,
                  MatrixRef<T> out) {
  multiplyTransposed<T>(a, b, inverseSqrt<T>(a.cols()), packed, out);
}

}  // namespace

std::int32_t t5Bucket(std::int64_t offset, const T5BucketParams& params) {
  std::int64_t bucket = 0;
  std::int64_t buckets = params.numBuckets;
  std::int64_t distance = 0;
  if (params.bidirectional) {
    buckets /= 2;
    if (offset > 0) bucket += buckets;
    distance = std::llabs(offset);
  } else {
    distance = -std::min<std::int64_t>(offset, 0);
  }
  const std::int64_t maxExact = buckets / 2;
  if (distance < maxExact) return static_cast<std::int32_t>(bucket + distance);
  // docs/schemes.md §1: log-spaced from maxExact up to maxDistance, truncated toward zero.
  const double scaled =
      std::log(static_cast<double>(distance) / static_cast<double>(maxExact)) /
      std::log(static_cast<double>(params.maxDistance) / static_cast<double>(maxExact)) *
      static_cast<double>(buckets - maxExact);
  const std::int64_t large = maxExact + static_cast<std::int64_t>(scaled);
  return static_cast<std::int32_t>(bucket + std::min(large, buckets - 1));
}

void t5Buckets(const T5BucketParams& params, OffsetMatrixMap out) {
  const Index n = out.rows();
  // Toeplitz: one bucket per offset -(n - 1) .. n - 1, then each row is a window of them.
  Eigen::Matrix<std::int32_t, Eigen::Dynamic, 1> byOffset(2 * n - 1);
  for (Index c = 0; c < 2 * n - 1; ++c) byOffset(c) = t5Bucket(c - (n - 1), params);
  for (Index i = 0; i < n; ++i) out.row(i) = byOffset.segment(n - 1 - i, n).transpose();
}

void alibiSlopes(Eigen::Ref<Vector<double>> out) {
  const Index heads = out.size();
  Index power = 1;
  while (power * 2 <= heads) power *= 2;
  powerOfTwoSlopes(power, out.data());
  if (power == heads) return;
  // get_slopes(2 * power)[0::2][:heads - power]: every other slope of twice as many heads.
  Vector<double> doubled(2 * power);
  powerOfTwoSlopes(2 * power, doubled.data());
  for (Index h = 0; h < heads - power; ++h) out(power + h) = doubled(2 * h);
}

template <typename T>
void applyRope(ConstMatrixRef<T> x, const Eigen::Ref<const Vector<double>>& positions,
               const RopeParams& params, MatrixRef<T> out) {
  const Index d = x.cols();
  const Index pairs = d / 2;
  const bool half = params.layout == RopeLayout::kHalf;
  for (Index t = 0; t < pairs; ++t) {
    // docs/schemes.md §3: theta_t = base^(-2t/d), as 1 / base^(2t/d) (the reference's inv_freq).
    const double theta =
        1.0 / std::pow(params.base, static_cast<double>(2 * t) / static_cast<double>(d));
    const Index a = half ? t : 2 * t;
    const Index b = half ? t + pairs : 2 * t + 1;
    for (Index r = 0; r < x.rows(); ++r) {
      const double angle = positions(r) * theta;
      const T c = static_cast<T>(std::cos(angle));
      const T s = static_cast<T>(std::sin(angle));
      const T xa = x(r, a);
      const T xb = x(r, b);
      out(r, a) = xa * c - xb * s;
      out(r, b) = xa * s + xb * c;
    }
  }
}

template <typename T>
void sinusoidalEncoding(double base, Index firstPosition, MatrixRef<T> out) {
  const Index d = out.cols();
  for (Index c = 0; c < d; c += 2) {
    const double inverse = 1.0 / std::pow(base, static_cast<double>(c) / static_cast<double>(d));
    for (Index r = 0; r < out.rows(); ++r) {
      const double angle = static_cast<double>(firstPosition + r) * inverse;
      out(r, c) = static_cast<T>(std::sin(angle));
      if (c + 1 < d) out(r, c + 1) = static_cast<T>(std::cos(angle));
    }
  }
}

template <typename T>
void schemeAttention(const SchemeInputs<T>& in, const SchemePosition<T>& position,
                     SchemeWorkspace<T>& workspace, AttentionPanels<T>& panels) {
  const bool sinusoidal = position.scheme == PositionScheme::kSinusoidal;
  const Index n = sinusoidal ? in.x.rows() : in.queries.rows();
  const bool hasValues = sinusoidal ? in.valueWeights.size() != 0 : in.values.size() != 0;

  if (sinusoidal) {
    // docs/schemes.md §4: content from Q = X W_Q, K = X W_K; combined from (X + PE) W_Q, W_K.
    PackedRight<T>& packed = workspace.right;
    multiplyInto<T>(in.x, in.queryWeights, packed, workspace.queries);
    multiplyInto<T>(in.x, in.keyWeights, packed, workspace.keys);
    workspace.placed.resize(n, in.x.cols());
    sinusoidalEncoding<T>(position.base, 0, workspace.placed);
    workspace.placed += in.x;
    multiplyInto<T>(workspace.placed, in.queryWeights, packed, workspace.placedQueries);
    multiplyInto<T>(workspace.placed, in.keyWeights, packed, workspace.placedKeys);
    scaledScores<T>(workspace.queries, workspace.keys, packed, panels.contentScores);
    scaledScores<T>(workspace.placedQueries, workspace.placedKeys, packed, panels.combinedScores);
    panels.positionBiases.noalias() = panels.combinedScores - panels.contentScores;
  } else {
    scaledScores<T>(in.queries, in.keys, workspace.right, panels.contentScores);
    switch (position.scheme) {
      case PositionScheme::kT5:
        // bias(i, j) = b[bucket(j - i)], unscaled (docs/schemes.md §1).
        workspace.byOffset.resize(2 * n - 1);
        for (Index c = 0; c < 2 * n - 1; ++c) {
          workspace.byOffset(c) = position.bucketBiases[t5Bucket(c - (n - 1), position.t5)];
        }
        for (Index i = 0; i < n; ++i) {
          panels.positionBiases.row(i) = workspace.byOffset.segment(n - 1 - i, n).transpose();
        }
        break;
      case PositionScheme::kAlibi:
        // bias(i, j) = -m |j - i| (docs/schemes.md §2).
        for (Index i = 0; i < n; ++i) {
          for (Index j = 0; j < n; ++j) {
            panels.positionBiases(i, j) =
                static_cast<T>(-position.slope * static_cast<double>(std::abs(j - i)));
          }
        }
        break;
      case PositionScheme::kRope:
        // docs/schemes.md §3: combined = rope(q_i, i) . rope(k_j, j) / sqrt(d_k).
        workspace.positions = Vector<double>::LinSpaced(n, 0, static_cast<double>(n - 1));
        workspace.queries.resize(n, in.queries.cols());
        workspace.keys.resize(n, in.keys.cols());
        applyRope<T>(in.queries, workspace.positions, position.rope, workspace.queries);
        applyRope<T>(in.keys, workspace.positions, position.rope, workspace.keys);
        scaledScores<T>(workspace.queries, workspace.keys, workspace.right, panels.combinedScores);
        panels.positionBiases.noalias() = panels.combinedScores - panels.contentScores;
        break;
      default:
        panels.positionBiases.setZero();
        break;
    }
    if (position.scheme != PositionScheme::kRope) {
      panels.combinedScores.noalias() = panels.contentScores + panels.positionBiases;
    }
  }
  softmaxRows<T>(panels.contentScores, in.causal, panels.contentWeights);
  softmaxRows<T>(panels.combinedScores, in.causal, panels.combinedWeights);
  if (!hasValues) return;
  if (sinusoidal) {
    multiplyInto<T>(workspace.placed, in.valueWeights, workspace.right, workspace.values);
    workspace.right.pack(workspace.values);
  } else {
    workspace.right.pack(in.values);
  }
  multiplyPacked<T>(panels.combinedWeights, workspace.right, T(1), false, panels.output);
}

#define RELPOS_INSTANTIATE(T)                                                            \
  template void applyRope<T>(ConstMatrixRef<T>, const Eigen::Ref<const Vector<double>>&, \
                             const RopeParams&, MatrixRef<T>);                           \
  template void sinusoidalEncoding<T>(double, Index, MatrixRef<T>);                      \
  template struct SchemeWorkspace<T>;                                                    \
  template void schemeAttention<T>(const SchemeInputs<T>&, const SchemePosition<T>&,     \
                                   SchemeWorkspace<T>&, AttentionPanels<T>&);

RELPOS_INSTANTIATE(float)
RELPOS_INSTANTIATE(double)

#undef RELPOS_INSTANTIATE

}  // namespace relpos
