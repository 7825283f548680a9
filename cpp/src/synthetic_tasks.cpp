#include "relpos/synthetic_tasks.hpp"

#include "relpos/numpy_random.hpp"

namespace relpos {

void syntheticBatch(const SyntheticBatchOptions& o, std::int32_t* tokens, std::int32_t* targets) {
  NumpyRandom random(o.seed);
  const auto bound = static_cast<std::uint32_t>(o.vocabSize);
  std::uint32_t mask = 0;
  while (mask < bound - 1) mask = (mask << 1) | 1u;
  const long total = static_cast<long>(o.batchSize) * o.seqLen;
  for (long r = 0; r < total; ++r) {
    std::uint32_t value = 0;
    do {
      value = random.nextUint32() & mask;
    } while (value >= bound);
    tokens[r] = static_cast<std::int32_t>(value);
  }
  for (long b = 0; b < o.batchSize; ++b) {
    const std::int32_t* row = tokens + b * o.seqLen;
    std::int32_t* out = targets + b * o.seqLen;
    for (long i = 0; i < o.seqLen; ++i) {
      const long j = i + o.offset;
      if (j < 0 || j >= o.seqLen) {
        out[i] = -1;
      } else if (o.task == SyntheticTask::CopyOffset) {
        out[i] = row[j];
      } else {
        out[i] = (row[i] + row[j]) % o.vocabSize;
      }
    }
  }
}

}  // namespace relpos
