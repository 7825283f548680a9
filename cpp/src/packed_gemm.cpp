#include "relpos/packed_gemm.hpp"

#include <algorithm>
#include <cassert>
#include <type_traits>

#include "relpos/kernels/gemm_f32_4x8.hpp"
#include "relpos/simd_vectors.hpp"

namespace relpos {
namespace {

using simd::kLanes;
using simd::load;
using simd::store;
using simd::Vec;

// Rows of A per kernel call: 4 rows x 2 vectors = 8 accumulators, which leaves registers for the
// panel row and the broadcast on 16-register machines (x86-64 SSE, V8's WASM SIMD).
constexpr Index kRowsPerKernel = 4;
// Depth per pass: the 4 rows of A that a pass reads (4 KiB of floats) stay in L1 while every
// panel slice streams past them.
constexpr Index kDepthPerPass = 256;

// c[r][0 .. cols) (+)= alpha · sum_p a[r][p] · panel[p][0 .. cols), for r < Rows.
template <typename T, int Rows>
void kernel(Index depth, const T* a, Index aStride, const T* panel, T alpha, bool accumulate, T* c,
            Index cStride, Index cols) {
  constexpr int lanes = kLanes<T>;
  Vec<T> sum[Rows][2] = {};
  for (Index p = 0; p < depth; ++p) {
    const Vec<T> b0 = load(panel + p * 2 * lanes);
    const Vec<T> b1 = load(panel + p * 2 * lanes + lanes);
#pragma GCC unroll 4  // (also read by Clang) the accumulators stay in registers even at -O2
    for (int r = 0; r < Rows; ++r) {
      const T ar = a[r * aStride + p];
      sum[r][0] += ar * b0;
      sum[r][1] += ar * b1;
    }
  }
  for (int r = 0; r < Rows; ++r) {
    T* row = c + r * cStride;
    if (cols == 2 * lanes) {
      Vec<T> v0 = alpha * sum[r][0];
      Vec<T> v1 = alpha * sum[r][1];
      if (accumulate) {
        v0 += load(row);
        v1 += load(row + lanes);
      }
      store(row, v0);
      store(row + lanes, v1);
    } else {
      T part[2 * lanes];
      store(part, alpha * sum[r][0]);
      store(part + lanes, alpha * sum[r][1]);
      for (Index j = 0; j < cols; ++j) row[j] = accumulate ? row[j] + part[j] : part[j];
    }
  }
}

// A float block through the imported micro-kernel (relaxed SIMD where it runs,
// cpp/relpos/kernels/): a full 4 × 8 block directly, a block at an edge (fewer rows or columns)
// on copies padded to 4 × 8 (zero rows of a; the panel is zero-padded already), so that every
// element is rounded alike wherever its block falls: the panels a call packs, and so the edges,
// depend on the call, and a split call must give the same bits (attention_split_test.cpp).
void multiplyBlockF32(Index rows, Index depth, const float* a, Index aStride, const float* panel,
                      float alpha, bool accumulate, float* c, Index cStride, Index cols) {
  constexpr Index width = kPanelWidth<float>;
  if (rows == kRowsPerKernel && cols == width) {
    relpos_gemm_f32_4x8(static_cast<int>(depth), a, static_cast<int>(aStride), 1, panel, alpha,
                        accumulate, c, static_cast<int>(cStride));
    return;
  }
  assert(depth <= kDepthPerPass && "a pass is at most kDepthPerPass deep");
  float paddedA[kRowsPerKernel * kDepthPerPass];
  float paddedC[kRowsPerKernel * width] = {};
  const float* from = a;
  Index fromStride = aStride;
  if (rows < kRowsPerKernel) {
    for (Index r = 0; r < kRowsPerKernel; ++r) {
      for (Index p = 0; p < depth; ++p)
        paddedA[r * depth + p] = r < rows ? a[r * aStride + p] : 0.0F;
    }
    from = paddedA;
    fromStride = depth;
  }
  if (accumulate) {
    for (Index r = 0; r < rows; ++r) {
      for (Index j = 0; j < cols; ++j) paddedC[r * width + j] = c[r * cStride + j];
    }
  }
  relpos_gemm_f32_4x8(static_cast<int>(depth), from, static_cast<int>(fromStride), 1, panel, alpha,
                      accumulate, paddedC, static_cast<int>(width));
  for (Index r = 0; r < rows; ++r) {
    for (Index j = 0; j < cols; ++j) c[r * cStride + j] = paddedC[r * width + j];
  }
}

// The micro-kernel for a block of 1 to 4 rows and 1 to kPanelWidth columns (the callers' blocking
// guarantees both; checked in every build with assertions on: the tests and the sanitizers).
template <typename T>
void kernelForRows(Index rows, Index depth, const T* a, Index aStride, const T* panel, T alpha,
                   bool accumulate, T* c, Index cStride, Index cols) {
  assert(rows >= 1 && rows <= 4 && "a block has 1 to 4 rows");
  assert(cols >= 1 && cols <= kPanelWidth<T> && "a block has 1 to kPanelWidth columns");
  if constexpr (std::is_same_v<T, float>) {
    multiplyBlockF32(rows, depth, a, aStride, panel, alpha, accumulate, c, cStride, cols);
  } else {
    switch (rows) {
      case 4:
        kernel<T, 4>(depth, a, aStride, panel, alpha, accumulate, c, cStride, cols);
        break;
      case 3:
        kernel<T, 3>(depth, a, aStride, panel, alpha, accumulate, c, cStride, cols);
        break;
      case 2:
        kernel<T, 2>(depth, a, aStride, panel, alpha, accumulate, c, cStride, cols);
        break;
      default:  // 1
        kernel<T, 1>(depth, a, aStride, panel, alpha, accumulate, c, cStride, cols);
        break;
    }
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
  const Index panels = (out.cols() + kPanelWidth<T> - 1) / kPanelWidth<T>;
  if (depth == 0 && !accumulate) out.setZero();
  for (Index p0 = 0; p0 < depth; p0 += kDepthPerPass) {
    const Index passDepth = std::min(kDepthPerPass, depth - p0);
    const bool add = accumulate || p0 > 0;
    for (Index i = 0; i < rows; i += kRowsPerKernel) {
      const Index blockRows = std::min(kRowsPerKernel, rows - i);
      const T* aBlock = a.data() + i * a.outerStride() + p0;
      for (Index p = 0; p < panels; ++p) {
        const Index first = p * kPanelWidth<T>;
        kernelForRows<T>(blockRows, passDepth, aBlock, a.outerStride(),
                         b.panel(firstPanel + p) + (firstRow + p0) * kPanelWidth<T>, alpha, add,
                         out.data() + i * out.outerStride() + first, out.outerStride(),
                         std::min(kPanelWidth<T>, out.cols() - first));
      }
    }
  }
}

template class PackedRight<float>;
template class PackedRight<double>;
template void multiplyPacked<float>(ConstMatrixRef<float>, const PackedRight<float>&, float, bool,
                                    MatrixRef<float>, Index, Index);
template void multiplyPacked<double>(ConstMatrixRef<double>, const PackedRight<double>&, double,
                                     bool, MatrixRef<double>, Index, Index);

}  // namespace relpos
