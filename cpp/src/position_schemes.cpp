#include "relpos/position_schemes.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace relpos {
namespace {

// get_slopes_power_of_2(count): start = 2^(-2^-(log2(count) - 3)) = 2^(-8/count), slope i =
// start * start^i (docs/schemes.md §2), written as the reference code writes it.
void powerOfTwoSlopes(Index count, double* out) {
  const double start = std::pow(2.0, -std::pow(2.0, -(std::log2(static_cast<double>(count)) - 3)));
  for (Index i = 0; i < count; ++i) out[i] = start * std::pow(start, static_cast<double>(i));
}

// out = a · b, out resized to a.rows() x b.cols() first.
template <typename T>
void multiplyInto(ConstMatrixRef<T> a, ConstMatrixRef<T> b, PackedRight<T>& packed,
                  Matrix<T>& out) {
  out.resize(a.rows(), b.cols());
  packed.pack(b);
  multiplyPacked<T>(a, packed, T(1), false, out);
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
void ropeAngles(const Eigen::Ref<const Vector<double>>& positions, Index d, double base,
                MatrixRef<T> cosines, MatrixRef<T> sines) {
  for (Index t = 0; t < d / 2; ++t) {
    // docs/schemes.md §3: theta_t = base^(-2t/d), as 1 / base^(2t/d) (the reference's inv_freq).
    const double theta = 1.0 / std::pow(base, static_cast<double>(2 * t) / static_cast<double>(d));
    for (Index r = 0; r < positions.size(); ++r) {
      const double angle = positions(r) * theta;
      cosines(r, t) = static_cast<T>(std::cos(angle));
      sines(r, t) = static_cast<T>(std::sin(angle));
    }
  }
}

template <typename T>
void rotatePairs(ConstMatrixRef<T> x, ConstMatrixRef<T> cosines, ConstMatrixRef<T> sines,
                 RopeLayout layout, T sign, MatrixRef<T> out) {
  const Index pairs = x.cols() / 2;
  const bool half = layout == RopeLayout::kHalf;
  for (Index r = 0; r < x.rows(); ++r) {
    for (Index t = 0; t < pairs; ++t) {
      const Index a = half ? t : 2 * t;
      const Index b = half ? t + pairs : 2 * t + 1;
      const T c = cosines(r, t);
      const T s = sign * sines(r, t);
      const T xa = x(r, a);
      const T xb = x(r, b);
      out(r, a) = xa * c - xb * s;
      out(r, b) = xa * s + xb * c;
    }
  }
}

template <typename T>
void applyRope(ConstMatrixRef<T> x, const Eigen::Ref<const Vector<double>>& positions,
               const RopeParams& params, MatrixRef<T> out) {
  Matrix<T> cosines(x.rows(), x.cols() / 2);
  Matrix<T> sines(x.rows(), x.cols() / 2);
  ropeAngles<T>(positions, x.cols(), params.base, cosines, sines);
  rotatePairs<T>(x, cosines, sines, params.layout, T(1), out);
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
void t5BiasByOffset(const T5BucketParams& params, const T* biases, Index n, T* out) {
  for (Index c = 0; c < 2 * n - 1; ++c) out[c] = biases[t5Bucket(c - (n - 1), params)];
}

template <typename T>
void alibiBiasByOffset(double slope, Index n, T* out) {
  for (Index c = 0; c < 2 * n - 1; ++c) {
    out[c] = static_cast<T>(-slope * static_cast<double>(std::abs(c - (n - 1))));
  }
}

template <typename T>
void AbsoluteInputs<T>::computeSinusoidal(ConstMatrixRef<T> x, ConstMatrixRef<T> wQ,
                                          ConstMatrixRef<T> wK, ConstMatrixRef<T> wV, double base,
                                          Index firstQuery, Index queryRows) {
  multiplyInto<T>(x.middleRows(firstQuery, queryRows), wQ, packed, queries);
  multiplyInto<T>(x, wK, packed, keys);
  placed.resize(x.rows(), x.cols());
  sinusoidalEncoding<T>(base, 0, placed);
  placed += x;
  multiplyInto<T>(placed.middleRows(firstQuery, queryRows), wQ, packed, positionedQueries);
  multiplyInto<T>(placed, wK, packed, positionedKeys);
  if (wV.size() != 0) {
    multiplyInto<T>(placed, wV, packed, values);
  } else {
    values.resize(0, 0);
  }
}

#define RELPOS_INSTANTIATE(T)                                                            \
  template void ropeAngles<T>(const Eigen::Ref<const Vector<double>>&, Index, double,    \
                              MatrixRef<T>, MatrixRef<T>);                               \
  template void rotatePairs<T>(ConstMatrixRef<T>, ConstMatrixRef<T>, ConstMatrixRef<T>,  \
                               RopeLayout, T, MatrixRef<T>);                             \
  template void applyRope<T>(ConstMatrixRef<T>, const Eigen::Ref<const Vector<double>>&, \
                             const RopeParams&, MatrixRef<T>);                           \
  template void sinusoidalEncoding<T>(double, Index, MatrixRef<T>);                      \
  template struct AbsoluteInputs<T>;

RELPOS_INSTANTIATE(float)
RELPOS_INSTANTIATE(double)

#undef RELPOS_INSTANTIATE

template void t5BiasByOffset<float>(const T5BucketParams&, const float*, Index, float*);
template void t5BiasByOffset<double>(const T5BucketParams&, const double*, Index, double*);
template void alibiBiasByOffset<float>(double, Index, float*);
template void alibiBiasByOffset<double>(double, Index, double*);

}  // namespace relpos
