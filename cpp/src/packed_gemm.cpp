#include "relpos/packed_gemm.hpp"

#include <algorithm>
#include <cassert>
#include <type_traits>

#include "relpos/kernels/gemm_f32_4x8.hpp"
#include "relpos/kernels/gemm_micro_kernel.hpp"
#include "relpos/kernels/panel_copy.hpp"

namespace relpos {
namespace {

// Rows of C per micro-kernel call: 4 rows × 2 vectors = 8 accumulators, which leaves registers
// for the panel row and the broadcast on 16-register machines (x86-64 SSE, V8's WASM SIMD).
constexpr Index kRowsPerKernel = kernels::kTileRows;
static_assert(kPanelWidth<float> == kernels::kTileColumns<float> &&
              kPanelWidth<double> == kernels::kTileColumns<double>);
// Depth per pass: the 4 rows of A that a pass reads (4 KiB of floats) stay in L1 while every
// panel slice streams past them.
constexpr Index kDepthPerPass = 256;

// The micro-kernel on `rows` (1 to 4) rows of C and all `cols` columns: in float32 the kernels
// module's export (relaxed SIMD where it runs, cpp/relpos/kernels/), in float64 the same
// template compiled here.
template <typename T>
void multiplyRows(Index rows, Index cols, Index depth, const T* a, Index rowStep, Index depthStep,
                  const T* panels, Index panelStride, T alpha, bool accumulate, T* c,
                  Index cStride) {
  assert(rows >= 1 && rows <= kRowsPerKernel && "a block has 1 to 4 rows");
  const auto i = [](Index x) { return static_cast<int>(x); };
  if constexpr (std::is_same_v<T, float>) {
    relpos_gemm_f32_4x8(i(rows), i(cols), i(depth), a, i(rowStep), i(depthStep), panels,
                        i(panelStride), alpha, accumulate ? 1 : 0, c, i(cStride));
  } else {
    kernels::multiplyTile<T>(i(rows), i(cols), i(depth), a, i(rowStep), i(depthStep), panels,
                             i(panelStride), alpha, accumulate ? 1 : 0, c, i(cStride));
  }
}

}  // namespace

template <typename T>
void PackedRight<T>::reshape(Index depth, Index cols) {
  depth_ = depth;
  cols_ = cols;
  const Index size = panels() * depth * kPanelWidth<T>;
  if (storage_.size() < size) storage_.resize(size);
}

template <typename T>
Eigen::Map<Matrix<T>> PackedRight<T>::panelMap(Index p) {
  return Eigen::Map<Matrix<T>>(storage_.data() + p * depth_ * kPanelWidth<T>, depth_,
                               kPanelWidth<T>);
}

template <typename T>
void PackedRight<T>::packTransposed(ConstMatrixRef<T> source) {
  reshape(source.cols(), source.rows());
  if (depth_ == 0) return;  // nothing to pack (and no storage to point into)
  for (Index p = 0; p < panels(); ++p) {
    const Index first = p * kPanelWidth<T>;
    const Index width = std::min(kPanelWidth<T>, cols_ - first);
    auto target = panelMap(p);
    target.leftCols(width) = source.middleRows(first, width).transpose();
    target.rightCols(kPanelWidth<T> - width).setZero();
  }
}

template <typename T>
void PackedRight<T>::pack(ConstMatrixRef<T> source) {
  reshape(source.rows(), source.cols());
  if (depth_ == 0) return;
  for (Index p = 0; p < panels(); ++p) {
    const Index first = p * kPanelWidth<T>;
    const Index width = std::min(kPanelWidth<T>, cols_ - first);
    auto target = panelMap(p);
    target.leftCols(width) = source.middleCols(first, width);
    target.rightCols(kPanelWidth<T> - width).setZero();
  }
}

template <typename T>
void multiplyPacked(ConstMatrixRef<T> a, const PackedRight<T>& b, T alpha, bool accumulate,
                    MatrixRef<T> out, Index firstRow, Index firstPanel) {
  const Index rows = a.rows();
  const Index depth = a.cols();
  if (depth == 0 && !accumulate) out.setZero();
  if (rows == 0 || out.cols() == 0) return;
  const Index panelStride = b.depth() * kPanelWidth<T>;
  for (Index p0 = 0; p0 < depth; p0 += kDepthPerPass) {
    const Index passDepth = std::min(kDepthPerPass, depth - p0);
    const T* panels = b.panel(firstPanel) + (firstRow + p0) * kPanelWidth<T>;
    for (Index i = 0; i < rows; i += kRowsPerKernel) {
      multiplyRows<T>(std::min(kRowsPerKernel, rows - i), out.cols(), passDepth,
                      a.data() + i * a.outerStride() + p0, a.outerStride(), 1, panels, panelStride,
                      alpha, accumulate || p0 > 0, out.data() + i * out.outerStride(),
                      out.outerStride());
    }
  }
}

// A pass's slice of b (passDepth × n) is first copied into panels: b's rows can be far apart (a
// row of the logits' gradient is 8 KB at V = 2000), and reading 8 values from each of 128 rows
// would touch 128 pages per panel. The panels lie kPassPanelStride<T> values apart whatever the
// pass's depth (a shorter last pass leaves a gap between them).
template <typename T>
void addTransposedProduct(ConstMatrixRef<T> a, ConstMatrixRef<T> b, MatrixRef<T> c, T* panels) {
  const Index depth = a.rows(), m = a.cols(), n = b.cols();
  const Index lda = a.outerStride(), ldb = b.outerStride();
  if (m == 0 || n == 0) return;
  for (Index p0 = 0; p0 < depth; p0 += kTransposedPassDepth) {
    const Index passDepth = std::min(kTransposedPassDepth, depth - p0);
    kernels::copyIntoPanels<T>(b.data() + p0 * ldb, static_cast<int>(ldb),
                               static_cast<int>(passDepth), static_cast<int>(n), panels,
                               static_cast<int>(kPassPanelStride<T>));
    for (Index i = 0; i < m; i += kRowsPerKernel) {
      multiplyRows<T>(std::min(kRowsPerKernel, m - i), n, passDepth, a.data() + p0 * lda + i, 1,
                      lda, panels, kPassPanelStride<T>, T(1), true, c.data() + i * c.outerStride(),
                      c.outerStride());
    }
  }
}

template class PackedRight<float>;
template class PackedRight<double>;
template void multiplyPacked<float>(ConstMatrixRef<float>, const PackedRight<float>&, float, bool,
                                    MatrixRef<float>, Index, Index);
template void multiplyPacked<double>(ConstMatrixRef<double>, const PackedRight<double>&, double,
                                     bool, MatrixRef<double>, Index, Index);
template void addTransposedProduct<float>(ConstMatrixRef<float>, ConstMatrixRef<float>,
                                          MatrixRef<float>, float*);
template void addTransposedProduct<double>(ConstMatrixRef<double>, ConstMatrixRef<double>,
                                           MatrixRef<double>, double*);

}  // namespace relpos
