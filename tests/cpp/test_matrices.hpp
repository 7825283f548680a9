// Helpers shared by the native tests: seeded random matrices that own their storage.
#pragma once

#include <cstdint>

#include "relpos/matrix_types.hpp"
#include "relpos/numpy_random.hpp"

namespace relpos::testing {

template <typename T>
Matrix<T> randomMatrix(Index rows, Index cols, std::uint32_t seed) {
  Matrix<double> m(rows, cols);
  NumpyRandom random(seed);
  random.fillGaussian(m.data(), static_cast<std::size_t>(m.size()));
  return m.cast<T>();
}

template <typename T>
MatrixMap<T> mapOf(Matrix<T>& m) {
  return MatrixMap<T>(m.data(), m.rows(), m.cols());
}

template <typename T>
ConstMatrixMap<T> constMapOf(const Matrix<T>& m) {
  return ConstMatrixMap<T>(m.data(), m.rows(), m.cols());
}

}  // namespace relpos::testing
