// The copy of a depth pass of a row-major operand into the micro-kernel's panels
// (gemm_micro_kernel.hpp), for C += Aᵀ·B (addTransposedProduct, and npm run bench's GEMM
// driver). Vector extensions only, no headers: clang-19 builds it without a libc.
#pragma once

#include "relpos/kernels/gemm_micro_kernel.hpp"

namespace relpos::kernels {

// panels[(j / w)·panelStride + p·w + j % w] = b[p·ldb + j] for p < depth, j < cols, w =
// kTileColumns<T>, and 0 for the columns of the last panel past `cols` (panelStride ≥ depth·w):
// each panel row is two vector loads and two stores.
template <typename T>
inline void copyIntoPanels(const T* b, int ldb, int depth, int cols, T* panels, int panelStride) {
  constexpr int lanes = 16 / static_cast<int>(sizeof(T));
  constexpr int width = kTileColumns<T>;
  const int fullCols = cols / width * width;
  for (int p = 0; p < depth; ++p) {
    const T* row = b + p * ldb;
    T* to = panels + p * width;
    for (int j = 0; j < fullCols; j += width, to += panelStride) {
      storeVector(to, loadVector(row + j));
      storeVector(to + lanes, loadVector(row + j + lanes));
    }
    if (fullCols < cols) {
      for (int q = 0; q < width; ++q) to[q] = fullCols + q < cols ? row[fullCols + q] : T(0);
    }
  }
}

}  // namespace relpos::kernels
