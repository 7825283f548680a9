// Heads, masks and the score scale (docs/maths.md §3, §4, §9): computeHeads equals one
// computeAttention per head on copied column blocks, bit for bit; masked keys weigh 0, a row
// with no key left is all zeros; an all-allowed mask and an explicit 1/sqrt(d_k) change nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "relpos/attention.hpp"
#include "test_matrices.hpp"

namespace relpos {
namespace {

using testing::constMapOf;
using testing::mapOf;
using testing::randomMatrix;

template <typename T>
bool bitEqual(const Matrix<T>& a, const Matrix<T>& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::equal(a.data(), a.data() + a.size(), b.data());
}

// Every panel and the output of one call, owned.
template <typename T>
struct Result {
  Result(Index panelRows, Index n, Index outRows, Index outCols)
      : panels(5, Matrix<T>(panelRows, n)), output(outRows, outCols) {}
  AttentionPanels<T> maps() {
    return {mapOf(panels[0]), mapOf(panels[1]), mapOf(panels[2]),
            mapOf(panels[3]), mapOf(panels[4]), mapOf(output)};
  }
  std::vector<Matrix<T>> panels;
  Matrix<T> output;
};

class Heads : public ::testing::TestWithParam<std::tuple<bool, bool>> {};

TEST_P(Heads, EachHeadEqualsOneCallOnItsColumns) {
  const auto [perHeadTables, causal] = GetParam();
  const Index n = 45, h = 3, dK = 5, dV = 4, k = 3;
  const Matrix<float> q = randomMatrix<float>(n, h * dK, 1);
  const Matrix<float> keys = randomMatrix<float>(n, h * dK, 2);
  const Matrix<float> v = randomMatrix<float>(n, h * dV, 3);
  const Matrix<float> relKeys = randomMatrix<float>(2 * k + 1, (perHeadTables ? h : 1) * dK, 4);
  const Matrix<float> relValues = randomMatrix<float>(2 * k + 1, (perHeadTables ? h : 1) * dV, 5);
  std::vector<std::uint8_t> padding(n, 0);
  padding[7] = 1;
  const ConstFlagMap keyPadding(padding.data(), 1, n);
  AttentionWorkspace<float> workspace;
  Result<float> all(h * n, n, n, h * dV);
  AttentionPanels<float> maps = all.maps();
  const AttentionInputs<float> in{constMapOf(q),
                                  constMapOf(keys),
                                  constMapOf(relKeys),
                                  constMapOf(v),
                                  constMapOf(relValues),
                                  causal,
                                  0,
                                  keyPadding,
                                  ConstFlagMap(nullptr, 0, 0),
                                  0.3F};
  computeHeads(in, h, workspace, maps);
  for (Index head = 0; head < h; ++head) {
    const Index tk = perHeadTables ? head * dK : 0;
    const Index tv = perHeadTables ? head * dV : 0;
    const Matrix<float> hq = q.middleCols(head * dK, dK);
    const Matrix<float> hk = keys.middleCols(head * dK, dK);
    const Matrix<float> hv = v.middleCols(head * dV, dV);
    const Matrix<float> hrk = relKeys.middleCols(tk, dK);
    const Matrix<float> hrv = relValues.middleCols(tv, dV);
    Result<float> one(n, n, n, dV);
    AttentionPanels<float> oneMaps = one.maps();
    AttentionWorkspace<float> own;
    computeAttention<float>(
        {constMapOf(hq), constMapOf(hk), constMapOf(hrk), constMapOf(hv), constMapOf(hrv), causal,
         0, keyPadding, ConstFlagMap(nullptr, 0, 0), 0.3F},
        own, oneMaps);
    for (int p = 0; p < 5; ++p) {
      const Matrix<float> block = all.panels[p].middleRows(head * n, n);
      EXPECT_TRUE(bitEqual<float>(block, one.panels[p])) << "panel " << p << " head " << head;
    }
    const Matrix<float> outputColumns = all.output.middleCols(head * dV, dV);
    EXPECT_TRUE(bitEqual<float>(outputColumns, one.output)) << "output head " << head;
  }
}

INSTANTIATE_TEST_SUITE_P(SharedOrPerHead, Heads,
                         ::testing::Combine(::testing::Bool(), ::testing::Bool()));

TEST(Masks, MaskedKeysWeighZeroAndAnEmptyRowIsZero) {
  const Index n = 40, dK = 6, k = 2;
  const Matrix<double> q = randomMatrix<double>(n, dK, 1);
  const Matrix<double> keys = randomMatrix<double>(n, dK, 2);
  const Matrix<double> v = randomMatrix<double>(n, 3, 3);
  const Matrix<double> relKeys = randomMatrix<double>(2 * k + 1, dK, 4);
  const Matrix<double> relValues = randomMatrix<double>(2 * k + 1, 3, 5);
  std::vector<std::uint8_t> padding(n, 0);
  padding[0] = 1;
  padding[33] = 1;
  std::vector<std::uint8_t> allowed(n * n, 1);
  for (Index j = 0; j < n; ++j) allowed[5 * n + j] = 0;  // query 5 may attend to no key
  allowed[9 * n + 3] = 0;
  Result<double> r(n, n, n, 3);
  AttentionPanels<double> maps = r.maps();
  AttentionWorkspace<double> workspace;
  computeAttention<double>(
      {constMapOf(q), constMapOf(keys), constMapOf(relKeys), constMapOf(v), constMapOf(relValues),
       true, 0, ConstFlagMap(padding.data(), 1, n), ConstFlagMap(allowed.data(), n, n)},
      workspace, maps);
  for (int p : {3, 4}) {
    const Matrix<double>& w = r.panels[p];
    for (Index i = 0; i < n; ++i) {
      EXPECT_EQ(w(i, 0), 0.0);
      if (i >= 33) EXPECT_EQ(w(i, 33), 0.0);
      if (i == 5 || i == 0) {
        // Query 0 sees only key 0 (causal), which is padding; query 5's row allows nothing.
        EXPECT_EQ(w.row(i).cwiseAbs().sum(), 0.0) << "row " << i;
        EXPECT_EQ(r.output.row(i).cwiseAbs().sum(), 0.0) << "row " << i;
      } else {
        EXPECT_NEAR(w.row(i).sum(), 1.0, 1e-12) << "row " << i;
      }
    }
    EXPECT_EQ(w(9, 3), 0.0);
  }
  // The scores are returned unmasked, as with causal.
  EXPECT_NE(r.panels[0](5, 2), 0.0);
}

TEST(Masks, AllAllowedAndTheDefaultScaleChangeNothing) {
  const Index n = 37, dK = 16, k = 4;
  const Matrix<float> q = randomMatrix<float>(n, dK, 1);
  const Matrix<float> keys = randomMatrix<float>(n, dK, 2);
  const Matrix<float> v = randomMatrix<float>(n, 8, 3);
  const Matrix<float> relKeys = randomMatrix<float>(2 * k + 1, dK, 4);
  const Matrix<float> relValues = randomMatrix<float>(2 * k + 1, 8, 5);
  std::vector<std::uint8_t> none(n, 0);
  std::vector<std::uint8_t> everything(n * n, 1);
  Result<float> plain(n, n, n, 8);
  Result<float> masked(n, n, n, 8);
  AttentionPanels<float> plainMaps = plain.maps();
  AttentionPanels<float> maskedMaps = masked.maps();
  AttentionWorkspace<float> workspace;
  computeAttention<float>({constMapOf(q), constMapOf(keys), constMapOf(relKeys), constMapOf(v),
                           constMapOf(relValues), true},
                          workspace, plainMaps);
  computeAttention<float>({constMapOf(q), constMapOf(keys), constMapOf(relKeys), constMapOf(v),
                           constMapOf(relValues), true, 0, ConstFlagMap(none.data(), 1, n),
                           ConstFlagMap(everything.data(), n, n), 1.0F / std::sqrt(16.0F)},
                          workspace, maskedMaps);
  for (int p = 0; p < 5; ++p) EXPECT_TRUE(bitEqual<float>(plain.panels[p], masked.panels[p]));
  EXPECT_TRUE(bitEqual<float>(plain.output, masked.output));
}

}  // namespace
}  // namespace relpos
