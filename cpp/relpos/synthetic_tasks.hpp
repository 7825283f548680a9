// Synthetic sequence tasks for tests and teaching (README.md, "Synthetic tasks"). Tokens are
// uniform over [0, vocabSize), drawn from the MT19937 stream of relpos::NumpyRandom(seed) by
// masked rejection (a 32-bit draw masked to the next power of two, redrawn while >= vocabSize).
//   copy-offset: target[i] = token[i + offset], −1 where i + offset is outside the sequence.
//   sum-offset:  target[i] = (token[i] + token[i + offset]) mod vocabSize, −1 outside: needs
//                the token itself and its neighbour at a fixed offset.
#pragma once

#include <cstdint>

namespace relpos {

enum class SyntheticTask { CopyOffset, SumOffset };

struct SyntheticBatchOptions {
  SyntheticTask task = SyntheticTask::CopyOffset;
  int offset = 1;
  int vocabSize = 16;
  int seqLen = 16;
  int batchSize = 32;
  std::uint32_t seed = 0;
};

// Fills tokens and targets, batchSize · seqLen each (row-major).
void syntheticBatch(const SyntheticBatchOptions& options, std::int32_t* tokens,
                    std::int32_t* targets);

}  // namespace relpos
