#include "relpos/packed_gemm.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

#include "test_matrices.hpp"

namespace relpos {
namespace {

using testing::randomMatrix;
using testing::referenceProduct;

template <typename T>
T tolerance() {
  return sizeof(T) == 4 ? T(2e-5) : T(1e-13);
}

template <typename T>
T maxRelativeError(const Matrix<T>& got, const Matrix<T>& expected) {
  return (got - expected).cwiseAbs().maxCoeff() / (T(1) + expected.cwiseAbs().maxCoeff());
}

// (M, K, N): edges of the 4-row kernel, the 8- and 4-column panels and the 256-deep passes.
class PackedShapes : public ::testing::TestWithParam<std::tuple<int, int, int>> {};

template <typename T>
void checkBothPackings(Index m, Index depth, Index cols) {
  const Matrix<T> a = randomMatrix<T>(m, depth, 1);
  const Matrix<T> bt = randomMatrix<T>(cols, depth, 2);
  const Matrix<T> b = bt.transpose();
  const T alpha = T(0.375);
  const Matrix<T> expected = alpha * referenceProduct<T>(a, b);

  PackedRight<T> fromTransposed;
  fromTransposed.packTransposed(bt);
  Matrix<T> got = Matrix<T>::Constant(m, cols, T(7));  // overwritten, not added to
  multiplyPacked<T>(a, fromTransposed, alpha, false, got);
  EXPECT_LE(maxRelativeError(got, expected), tolerance<T>());

  PackedRight<T> direct;
  direct.pack(b);
  Matrix<T> added = Matrix<T>::Ones(m, cols);
  multiplyPacked<T>(a, direct, alpha, true, added);
  const Matrix<T> expectedAdded = expected.array() + T(1);
  EXPECT_LE(maxRelativeError(added, expectedAdded), tolerance<T>());
}

TEST_P(PackedShapes, FloatMatchesTheDefinition) {
  const auto [m, depth, cols] = GetParam();
  checkBothPackings<float>(m, depth, cols);
}

TEST_P(PackedShapes, DoubleMatchesTheDefinition) {
  const auto [m, depth, cols] = GetParam();
  checkBothPackings<double>(m, depth, cols);
}

INSTANTIATE_TEST_SUITE_P(Shapes, PackedShapes,
                         ::testing::Values(std::make_tuple(1, 1, 1), std::make_tuple(3, 5, 7),
                                           std::make_tuple(4, 64, 8), std::make_tuple(5, 64, 9),
                                           std::make_tuple(33, 17, 31), std::make_tuple(8, 256, 16),
                                           std::make_tuple(6, 257, 12), std::make_tuple(9, 600, 3),
                                           std::make_tuple(2, 3, 40)));

// A sub-range: rows [firstRow, firstRow + K) of b, from panel firstPanel on, into a strided
// block of a larger output (as the attention's band projections and bucket products use it).
TEST(PackedGemm, RowAndPanelRangesIntoABlock) {
  const Matrix<double> b = randomMatrix<double>(50, 37, 3);
  PackedRight<double> packed;
  packed.pack(b);
  const Matrix<double> a = randomMatrix<double>(6, 20, 4);
  Matrix<double> target = Matrix<double>::Zero(10, 40);
  auto block = target.block(2, 3, 6, 37 - 8);  // panels 2.. of 4 columns, clipped at 37
  multiplyPacked<double>(a, packed, 1.0, false, block, 11, 2);
  const Matrix<double> expected = referenceProduct<double>(a, b.block(11, 8, 20, 29));
  EXPECT_LE((target.block(2, 3, 6, 29) - expected).cwiseAbs().maxCoeff(), 1e-13);
  target.block(2, 3, 6, 29).setZero();
  EXPECT_EQ(target.cwiseAbs().maxCoeff(), 0.0);  // nothing outside the block was touched
}

TEST(PackedGemm, ZeroDepthGivesZerosOrLeavesTheSum) {
  PackedRight<float> packed;
  packed.pack(Matrix<float>(0, 5));
  const Matrix<float> a(3, 0);
  Matrix<float> out = Matrix<float>::Constant(3, 5, 2.0F);
  multiplyPacked<float>(a, packed, 1.0F, true, out);
  EXPECT_TRUE((out.array() == 2.0F).all());
  multiplyPacked<float>(a, packed, 1.0F, false, out);
  EXPECT_TRUE((out.array() == 0.0F).all());
}

// A smaller product after a larger one reuses the storage without reading stale panels.
TEST(PackedGemm, RepackingSmallerReusesStorage) {
  PackedRight<float> packed;
  packed.packTransposed(randomMatrix<float>(40, 30, 5));
  const Index held = packed.storedElements();
  const Matrix<float> bt = randomMatrix<float>(9, 6, 6);
  packed.packTransposed(bt);
  EXPECT_EQ(packed.storedElements(), held);
  const Matrix<float> a = randomMatrix<float>(5, 6, 7);
  Matrix<float> out(5, 9);
  multiplyPacked<float>(a, packed, 1.0F, false, out);
  const Matrix<float> expected = referenceProduct<float>(a, bt.transpose());
  EXPECT_LE(maxRelativeError(out, expected), 2e-6F);
}

// c += aᵀ b (the weight gradients): (depth, m, n) at the edges of its 4-column blocks of a,
// 8- and 4-column panels and 128-deep passes, a and b strided (blocks of wider matrices). The
// workspace is followed by a guard of sentinel values, which the copy into panels (kPassPanelStride
// apart) must leave as they are.
class TransposedShapes : public ::testing::TestWithParam<std::tuple<int, int, int>> {};

template <typename T>
Matrix<T> transposedProduct(Index depth, Index m, Index n, Matrix<T>* aOut, Matrix<T>* bOut) {
  const Matrix<T> wideA = randomMatrix<T>(depth, m + 3, 8);
  const Matrix<T> wideB = randomMatrix<T>(depth, n + 5, 9);
  *aOut = wideA.middleCols(1, m);
  *bOut = wideB.middleCols(2, n);
  Matrix<T> c = Matrix<T>::Ones(m, n);
  const Index workspace = transposedProductWorkspace<T>(n);
  constexpr Index guard = 64;
  Vector<T> panels = Vector<T>::Constant(workspace + guard, T(-3.5));
  addTransposedProduct<T>(wideA.middleCols(1, m), wideB.middleCols(2, n), c, panels.data());
  EXPECT_TRUE((panels.tail(guard).array() == T(-3.5)).all()) << "written past the workspace";
  return c;
}

TEST_P(TransposedShapes, MatchesTheDefinitionInBothPrecisions) {
  const auto [depth, m, n] = GetParam();
  Matrix<float> af, bf;
  const Matrix<float> cf = transposedProduct<float>(depth, m, n, &af, &bf);
  EXPECT_LE(maxRelativeError(
                cf, Matrix<float>(referenceProduct<float>(af.transpose(), bf).array() + 1.0F)),
            tolerance<float>());
  Matrix<double> ad, bd;
  const Matrix<double> cd = transposedProduct<double>(depth, m, n, &ad, &bd);
  EXPECT_LE(maxRelativeError(
                cd, Matrix<double>(referenceProduct<double>(ad.transpose(), bd).array() + 1.0)),
            tolerance<double>());
}

// Natively the kernel is built with -ffp-contract=off: each element is the sum of each pass in
// order of depth, each step rounded, added to c pass after pass, bit for bit.
TEST_P(TransposedShapes, FloatIsTheOrderedSumBitForBit) {
  const auto [depth, m, n] = GetParam();
  Matrix<float> a, b;
  const Matrix<float> c = transposedProduct<float>(depth, m, n, &a, &b);
  for (Index i = 0; i < m; ++i) {
    for (Index j = 0; j < n; ++j) {
      float total = 1.0F;
      for (Index p0 = 0; p0 < depth; p0 += kTransposedPassDepth) {
        float sum = 0.0F;
        for (Index p = p0; p < std::min<Index>(depth, p0 + kTransposedPassDepth); ++p) {
          const float product = a(p, i) * b(p, j);
          sum += product;
        }
        total = sum + total;
      }
      ASSERT_EQ(c(i, j), total) << i << ", " << j;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, TransposedShapes,
                         ::testing::Values(std::make_tuple(1, 1, 1), std::make_tuple(3, 5, 7),
                                           std::make_tuple(127, 3, 15), std::make_tuple(128, 4, 8),
                                           std::make_tuple(129, 5, 9), std::make_tuple(300, 7, 17),
                                           std::make_tuple(2, 13, 16), std::make_tuple(257, 3, 33),
                                           std::make_tuple(255, 1, 1), std::make_tuple(256, 8, 1),
                                           std::make_tuple(130, 9, 250)));

}  // namespace
}  // namespace relpos
