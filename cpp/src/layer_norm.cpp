// Layer normalisation, forward and backward (relpos/layer_norm.hpp). noinline: each runs for
// milliseconds, and profiles of the module show them apart.
#include "relpos/layer_norm.hpp"

#include <cmath>

namespace relpos {

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

template void layerNormForward<float>(ConstMatrixRef<float>, const float*, const float*,
                                      MatrixRef<float>, float*, MatrixRef<float>);
template void layerNormForward<double>(ConstMatrixRef<double>, const double*, const double*,
                                       MatrixRef<double>, double*, MatrixRef<double>);
template void layerNormBackward<float>(ConstMatrixRef<float>, const float*, ConstMatrixRef<float>,
                                       const float*, MatrixRef<float>, float*, float*);
template void layerNormBackward<double>(ConstMatrixRef<double>, const double*,
                                        ConstMatrixRef<double>, const double*, MatrixRef<double>,
                                        double*, double*);

}  // namespace relpos
