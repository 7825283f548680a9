// The training engine's matrix products (relpos/transformer_model.hpp) through the packed
// 128-bit kernels (relpos/packed_gemm.hpp, docs/kernels.md).
#include "relpos/transformer_model.hpp"

namespace relpos {

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

template void TransformerModel<float>::gemm(ConstMatrixRef<float>, bool, ConstMatrixRef<float>,
                                            bool, MatrixRef<float>, bool, float);
template void TransformerModel<float>::product(ConstMatrixRef<float>, ConstMatrixRef<float>, bool,
                                               MatrixRef<float>, bool);
template void TransformerModel<double>::gemm(ConstMatrixRef<double>, bool, ConstMatrixRef<double>,
                                             bool, MatrixRef<double>, bool, double);
template void TransformerModel<double>::product(ConstMatrixRef<double>, ConstMatrixRef<double>,
                                                bool, MatrixRef<double>, bool);

}  // namespace relpos
