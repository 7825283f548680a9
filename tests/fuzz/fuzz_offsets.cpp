// Fuzz target: relativeOffsets for n <= 300 and k from 0 up to INT32_MAX (the JS API's range for
// maxDistance), checked cell by cell against clamp(j - i, -k, k) computed in 64 bits, plus the
// RowBand invariants. Built for wasm32 (tests/fuzz/replay_main.cpp), where Eigen::Index is 32
// bits, the same inputs also check the core's index arithmetic at the deployed width.
#include <algorithm>
#include <cstdint>
#include <limits>

#include "fuzz_common.hpp"
#include "relpos/relative_offsets.hpp"

namespace {

constexpr relpos::Index kMaxN = 300;
constexpr std::int64_t kInt32Max = std::numeric_limits<std::int32_t>::max();

// Small distances most of the time; also the top of the int32 range, where i + k overflows.
std::int64_t pickDistance(FuzzedDataProvider& fdp) {
  switch (fdp.ConsumeIntegralInRange<int>(0, 3)) {
    case 0:
      return fdp.ConsumeIntegralInRange<std::int64_t>(0, 2 * kMaxN);
    case 1:
      return kInt32Max - fdp.ConsumeIntegralInRange<std::int64_t>(0, 2 * kMaxN);
    default:
      return fdp.ConsumeIntegralInRange<std::int64_t>(0, kInt32Max);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using relpos::Index;
  FuzzedDataProvider fdp(data, size);
  const auto n = fdp.ConsumeIntegralInRange<Index>(1, kMaxN);
  const std::int64_t k = pickDistance(fdp);

  if (relpos::fuzz::describing()) {
    std::fprintf(stderr, "relativeOffsets: n %ld k %lld\n", static_cast<long>(n),
                 static_cast<long long>(k));
  }
  using OffsetBuffer = relpos::fuzz::Buffer<std::int32_t>;
  OffsetBuffer out(n, n);
  relpos::relativeOffsets(static_cast<Index>(k), relpos::OffsetMatrixMap(out.data(), n, n));
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < n; ++j) {
      const std::int64_t expected =
          std::clamp<std::int64_t>(std::int64_t{j} - std::int64_t{i}, -k, k);
      FUZZ_CHECK(std::int64_t{out(i, j)} == expected);
    }
    const relpos::RowBand band = relpos::rowBand(i, n, static_cast<Index>(k));
    FUZZ_CHECK(band.leftLength >= 0 && band.midLength >= 0 && band.rightLength >= 0);
    FUZZ_CHECK(band.leftLength + band.midLength + band.rightLength == n);
    FUZZ_CHECK(band.midBegin == band.leftLength);
    FUZZ_CHECK(std::int64_t{band.midTableRow} == std::int64_t{band.midBegin} - i + k);
    FUZZ_CHECK(band.midLength == 0 || std::int64_t{band.midTableRow} + band.midLength <= 2 * k + 1);
  }
  return 0;
}
