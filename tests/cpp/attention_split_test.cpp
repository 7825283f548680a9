// Requested panels and row blocks (firstQuery): each must equal the one full call bit for bit.
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <tuple>
#include <utility>

#include "relpos/attention.hpp"
#include "test_matrices.hpp"

namespace relpos {
namespace {

using testing::constMapOf;
using testing::mapOf;
using testing::randomMatrix;

template <typename T>
struct Full {
  Full(Index n, Index dK, Index dV, Index k, bool causal)
      : q(randomMatrix<T>(n, dK, 5)),
        keys(randomMatrix<T>(n, dK, 6)),
        relKeys(randomMatrix<T>(2 * k + 1, dK, 7)),
        v(randomMatrix<T>(n, dV, 8)),
        relValues(randomMatrix<T>(2 * k + 1, dV, 9)),
        causal(causal) {
    for (Matrix<T>* panel : panels()) panel->resize(n, n);
    output.resize(n, dV);
    AttentionPanels<T> maps{mapOf(content),        mapOf(position),        mapOf(combined),
                            mapOf(contentWeights), mapOf(combinedWeights), mapOf(output)};
    computeAttention(inputs(constMapOf(q), 0), workspace, maps);
  }
  AttentionInputs<T> inputs(ConstMatrixMap<T> queries, Index firstQuery) const {
    return {queries, constMapOf(keys), constMapOf(relKeys), constMapOf(v), constMapOf(relValues),
            causal,  firstQuery};
  }
  std::array<Matrix<T>*, 5> panels() {
    return {&content, &position, &combined, &contentWeights, &combinedWeights};
  }

  Matrix<T> q, keys, relKeys, v, relValues;
  Matrix<T> content, position, combined, contentWeights, combinedWeights, output;
  bool causal;
  AttentionWorkspace<T> workspace;
};

template <typename T>
bool bitEqual(const Eigen::Ref<const Matrix<T>>& a, const Eigen::Ref<const Matrix<T>>& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return false;
  for (Index r = 0; r < a.rows(); ++r) {
    if (std::memcmp(a.row(r).data(), b.row(r).data(), sizeof(T) * a.cols()) != 0) return false;
  }
  return true;
}

// (n, k): blocks of 32 with a remainder, exactly 64, k >= n, k = 0.
class AttentionSplits : public ::testing::TestWithParam<std::tuple<int, int>> {};

TEST_P(AttentionSplits, RowBlocksEqualTheFullCallBitForBit) {
  const auto [n, k] = GetParam();
  for (bool causal : {false, true}) {
    Full<float> full(n, 16, 8, k, causal);
    // Split at every multiple of the block (as the worker pool does): [0, s) and [s, n).
    for (Index split = kAttentionBlockRows; split < n; split += kAttentionBlockRows) {
      for (const auto [first, rows] : {std::pair<Index, Index>{0, split}, {split, n - split}}) {
        Matrix<float> part[5], output(rows, 8);
        for (auto& panel : part) panel.resize(rows, n);
        AttentionPanels<float> maps{mapOf(part[0]), mapOf(part[1]), mapOf(part[2]),
                                    mapOf(part[3]), mapOf(part[4]), mapOf(output)};
        AttentionWorkspace<float> workspace;
        const Matrix<float> queries = full.q.middleRows(first, rows);
        computeAttention(full.inputs(constMapOf(queries), first), workspace, maps);
        const auto panels = full.panels();
        for (int p = 0; p < 5; ++p) {
          EXPECT_TRUE(bitEqual<float>(part[p], panels[p]->middleRows(first, rows)))
              << "panel " << p << " rows " << first << "+" << rows << " causal " << causal;
        }
        EXPECT_TRUE(bitEqual<float>(output, full.output.middleRows(first, rows)))
            << "output rows " << first << "+" << rows << " causal " << causal;
      }
    }
  }
}

TEST_P(AttentionSplits, RequestedPanelsEqualTheFullCallBitForBit) {
  const auto [n, k] = GetParam();
  for (bool causal : {false, true}) {
    Full<double> full(n, 16, 8, k, causal);
    // Each panel alone, and the output alone (it needs combined weights it does not return).
    for (int wanted = 0; wanted < 6; ++wanted) {
      Matrix<double> panel(n, wanted == 5 ? 8 : n);
      const auto slot = [&](int index) {
        return index == wanted ? mapOf(panel) : MatrixMap<double>(nullptr, 0, 0);
      };
      AttentionPanels<double> maps{slot(0), slot(1), slot(2), slot(3), slot(4), slot(5)};
      AttentionWorkspace<double> workspace;
      computeAttention(full.inputs(constMapOf(full.q), 0), workspace, maps);
      const Matrix<double>& expected = wanted == 5 ? full.output : *full.panels()[wanted];
      EXPECT_TRUE(bitEqual<double>(panel, expected)) << "panel " << wanted << " causal " << causal;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, AttentionSplits,
                         ::testing::Values(std::make_tuple(100, 3), std::make_tuple(64, 16),
                                           std::make_tuple(70, 200), std::make_tuple(33, 0)));

}  // namespace
}  // namespace relpos
