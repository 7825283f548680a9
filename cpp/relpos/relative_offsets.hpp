// Clipped relative offsets (docs/maths.md §2): offset(i, j) = clip(j - i, -k, k), index = offset +
// k. Sign convention: key position j minus query position i, as in Shaw et al. and tensor2tensor.
#pragma once

#include <algorithm>

#include "relpos/matrix_types.hpp"

namespace relpos {

// Which keys j of query row i fall in each part of the clipped band, for n keys and distance k:
// j < midBegin share index 0 (offset -k), j in [midBegin, midBegin + midLength) have the exact
// offset j - i (index j - i + k), and the last rightLength keys share index 2k (offset +k).
struct RowBand {
  Index leftLength;   // keys with j - i < -k (clipped to -k)
  Index midBegin;     // first key with |j - i| <= k
  Index midLength;    // keys with |j - i| <= k
  Index rightLength;  // keys with j - i > k (clipped to +k)
  Index midTableRow;  // table index of midBegin: midBegin - i + k
};

inline RowBand rowBand(Index i, Index n, Index k) {
  const Index midBegin = std::clamp<Index>(i - k, 0, n);
  const Index midEnd = k >= n - i ? n : i + k + 1;  // without overflow where Index is 32-bit
  return RowBand{midBegin, midBegin, midEnd - midBegin, n - midEnd, midBegin - i + k};
}

// out(i, j) = clip(j - i, -k, k) for an n x n out: a Toeplitz matrix.
void relativeOffsets(Index k, OffsetMatrixMap out);

}  // namespace relpos
