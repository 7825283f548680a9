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

// The product a·b by its definition, each element summed in double over the depth in order and
// rounded once to T: the independent reference for the GEMM kernels' tests (and far cheaper to
// compile than Eigen's own product, which instantiates its blocked kernels for each T).
template <typename T, typename A, typename B>
Matrix<T> referenceProduct(const A& a, const B& b) {
  Matrix<T> out(a.rows(), b.cols());
  for (Index i = 0; i < a.rows(); ++i) {
    for (Index j = 0; j < b.cols(); ++j) {
      double sum = 0.0;
      for (Index p = 0; p < a.cols(); ++p) sum += double(a(i, p)) * double(b(p, j));
      out(i, j) = static_cast<T>(sum);
    }
  }
  return out;
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
