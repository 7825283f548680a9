// Layer normalisation (Ba, Kiros & Hinton 2016) row by row, forward and backward, for the
// training engine (relpos/transformer_model.hpp; README.md, "Training a model", has the maths).
#pragma once

#include "relpos/matrix_types.hpp"

namespace relpos {

inline constexpr double kLayerNormEpsilon = 1e-5;

// out = LayerNorm(u) = gain · (u - mean) / sqrt(var + eps) + bias, row by row; keeps the
// normalised rows (hat) and 1 / sqrt(var + eps) for the backward pass.
template <typename T>
void layerNormForward(ConstMatrixRef<T> u, const T* gain, const T* bias, MatrixRef<T> hat,
                      T* inverseStd, MatrixRef<T> out);

// From d(out) (dOut) to d(u) (written to dU, which may be dOut itself); adds d(gain), d(bias).
template <typename T>
void layerNormBackward(ConstMatrixRef<T> dOut, const T* gain, ConstMatrixRef<T> hat,
                       const T* inverseStd, MatrixRef<T> dU, T* dGain, T* dBias);

}  // namespace relpos
