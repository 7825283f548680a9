#include "relpos/relative_offsets.hpp"

namespace relpos {

void relativeOffsets(Index k, OffsetMatrixMap out) {
  const Index n = out.rows();
  const auto clipped = static_cast<std::int32_t>(k);
  for (Index i = 0; i < n; ++i) {
    const RowBand band = rowBand(i, n, k);
    const auto first = static_cast<std::int32_t>(band.midBegin - i);
    out.row(i).head(band.leftLength).setConstant(-clipped);
    out.row(i)
        .segment(band.midBegin, band.midLength)
        .setLinSpaced(band.midLength, first, first + static_cast<std::int32_t>(band.midLength) - 1);
    out.row(i).tail(band.rightLength).setConstant(clipped);
  }
}

}  // namespace relpos
