#include "relpos/relative_offsets.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace relpos {
namespace {

using OffsetMatrix = Eigen::Matrix<std::int32_t, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

OffsetMatrix offsets(Index n, Index k) {
  OffsetMatrix out(n, n);
  relativeOffsets(k, OffsetMatrixMap(out.data(), n, n));
  return out;
}

TEST(RelativeOffsets, ClipsKeyMinusQuery) {
  for (Index n : {1, 2, 5, 9}) {
    for (Index k : {0, 1, 2, 3, 8, 20}) {
      const OffsetMatrix o = offsets(n, k);
      for (Index i = 0; i < n; ++i) {
        for (Index j = 0; j < n; ++j) {
          ASSERT_EQ(o(i, j), std::clamp<Index>(j - i, -k, k)) << n << " " << k << " " << i << j;
        }
      }
    }
  }
}

TEST(RelativeOffsets, SignIsKeyMinusQuery) {
  const OffsetMatrix o = offsets(4, 3);
  EXPECT_EQ(o(0, 3), 3);   // query 0 looks 3 ahead
  EXPECT_EQ(o(3, 0), -3);  // query 3 looks 3 back
}

TEST(RelativeOffsets, BeyondKEverythingSharesTheEdge) {
  const OffsetMatrix o = offsets(10, 2);
  EXPECT_EQ(o(0, 9), 2);
  EXPECT_EQ(o(0, 3), 2);
  EXPECT_EQ(o(9, 0), -2);
  EXPECT_EQ(o(5, 2), -2);
  EXPECT_EQ(o(5, 4), -1);
}

TEST(RelativeOffsets, ZeroDistanceIsAllZero) { EXPECT_TRUE((offsets(6, 0).array() == 0).all()); }

TEST(RowBand, PartsCoverTheRow) {
  for (Index n : {1, 3, 7}) {
    for (Index k : {0, 1, 2, 10}) {
      for (Index i = 0; i < n; ++i) {
        const RowBand band = rowBand(i, n, k);
        EXPECT_EQ(band.leftLength + band.midLength + band.rightLength, n);
        EXPECT_EQ(band.midBegin, band.leftLength);
        EXPECT_EQ(band.midTableRow, band.midBegin - i + k);
      }
    }
  }
}

}  // namespace
}  // namespace relpos
