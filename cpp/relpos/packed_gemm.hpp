// The core's matrix products (the attention's Q K^T, W V and position terms; the model's forward
// products and weight gradients), all through the one register-blocked micro-kernel of
// relpos/kernels/ over 128-bit vectors: Eigen 3.4 has no WebAssembly SIMD backend, and its
// generic product reaches 10-20 GFLOP/s there. The same source compiles to WASM SIMD and to SSE
// natively, through the compiler's vector extensions, so the native build runs the same kernel.
//
// C = alpha · A · B (+ C), A row-major (any row stride), B packed once into column panels of
// kPanelWidth<T> columns (K x width, zero-padded), so the kernel streams both operands
// contiguously: each step multiplies a few rows of A (one scalar each, broadcast) by one panel row.
// C += Aᵀ B reads A by columns and packs B a depth pass at a time (addTransposedProduct).
#pragma once

#include "relpos/matrix_types.hpp"

namespace relpos {

// Columns per packed panel: two 128-bit vectors (8 floats, 4 doubles).
template <typename T>
constexpr Index kPanelWidth = 2 * 16 / static_cast<Index>(sizeof(T));

// The right-hand operand of multiplyPacked, packed into panels; the storage grows, never shrinks.
template <typename T>
class PackedRight {
 public:
  // B = source^T, source being N x K (for Q K^T, the keys).
  void packTransposed(ConstMatrixRef<T> source);
  // B = source, K x N (for W V, the values).
  void pack(ConstMatrixRef<T> source);

  Index depth() const { return depth_; }  // K
  Index cols() const { return cols_; }    // N
  Index panels() const { return (cols_ + kPanelWidth<T> - 1) / kPanelWidth<T>; }
  // Panel p: depth() rows of kPanelWidth<T> values, row after row.
  const T* panel(Index p) const { return storage_.data() + p * depth_ * kPanelWidth<T>; }
  Index storedElements() const { return storage_.size(); }
  // Grows the storage to hold `elements` values now, so that later packs allocate nothing.
  void reserve(Index elements) {
    if (storage_.size() < elements) storage_.resize(elements);
  }

 private:
  Eigen::Map<Matrix<T>> panelMap(Index p);
  void reshape(Index depth, Index cols);

  Vector<T> storage_;
  Index depth_ = 0;
  Index cols_ = 0;
};

// out = alpha · a · b', or out += alpha · a · b' with accumulate, where b' is the part of b
// from row firstRow (a.cols() rows) and from panel firstPanel (out.cols() columns).
template <typename T>
void multiplyPacked(ConstMatrixRef<T> a, const PackedRight<T>& b, T alpha, bool accumulate,
                    MatrixRef<T> out, Index firstRow = 0, Index firstPanel = 0);

// Depth per pass of addTransposedProduct: a pass's panels of b (128 rows × 8 floats = 4 KiB
// each) stay in L1 across the rows of c.
constexpr Index kTransposedPassDepth = 128;

// Values between two of a pass's panels beyond the panel itself: 64 bytes, so panels lie 4 KiB +
// 64 bytes apart. At 4 KiB apart, the same row of every panel falls into the same cache set (an
// L1 of 64-byte lines in 64 sets repeats every 4 KiB), and the copy writes one row of each panel
// in turn: with 250 panels (V = 2000) every write evicted the last. docs/kernels.md, "Packing".
template <typename T>
constexpr Index kPassPanelPadding = 64 / static_cast<Index>(sizeof(T));

// Values from one of a pass's panels to the next (a full pass).
template <typename T>
constexpr Index kPassPanelStride = kPassPanelPadding<T> + (kTransposedPassDepth * kPanelWidth<T>);

// Values of the `panels` workspace that addTransposedProduct needs for b with `cols` columns.
template <typename T>
constexpr Index transposedProductWorkspace(Index cols) {
  return (cols + kPanelWidth<T> - 1) / kPanelWidth<T> * kPassPanelStride<T>;
}

// c += aᵀ · b, a (depth × m) and b (depth × n) row-major with any row strides, c (m × n), without
// transposing a: each depth pass of b is copied into zero-padded panels kPassPanelStride<T>
// values apart in `panels` (transposedProductWorkspace<T>(n) values, allocated by the caller
// once), then every block of 4 columns of a (4 rows of c) runs the micro-kernel over them. Each
// element's pass sums in order of depth; passes add to c in order.
template <typename T>
void addTransposedProduct(ConstMatrixRef<T> a, ConstMatrixRef<T> b, MatrixRef<T> c, T* panels);

}  // namespace relpos
