// The configuration of the trainable relative-attention model (relpos/transformer_model.hpp), its
// optimiser settings and a batch: named fields, not positional argument lists. README.md,
// "Training a model", documents every field; the JS API (web/api/model.js) fills the defaults.
#pragma once

#include <cstdint>
#include <string>

#include "relpos/scheme_table.hpp"

namespace relpos {

// Defaults: the JS API's too, read from here (docs/architecture.md, "Defaults, one source").
struct ModelConfig {
  int vocabSize = 64;          // token ids are 0 .. vocabSize - 1
  int dModel = 32;             // model width d
  int heads = 2;               // attention heads; dModel must be a multiple (head width d / heads)
  int layers = 1;              // 1 .. 4 blocks of attention + feed-forward
  int ffnWidth = 128;          // hidden width of the position-wise feed-forward layer
  int maxDistance = 4;         // Shaw's clipping distance k: tables of 2k + 1 rows (0: no order)
  int seqLen = 16;             // the longest sequence a batch may hold
  int maxBatchSize = 32;       // sequences processed at once; larger batches run in chunks
  bool causal = false;         // position i attends to keys j <= i only
  bool perHeadTables = false;  // one a^K / a^V table per head (default: shared by a layer's heads)
  std::uint32_t seed = 0;      // initial parameters are np.random.seed(seed) Gaussians, scaled
  // The position scheme (docs/schemes.md): Shaw's tables above, or another; T5's buckets use
  // numBuckets and bucketDistance (its maxDistance).
  PositionScheme positionScheme = PositionScheme::kShaw;
  int numBuckets = 32;
  int bucketDistance = 128;
};

// The largest model the core accepts, field by field (the smallest is 1, maxDistance's 0, but
// for layers and T5's buckets). checkModelConfig holds a configuration to them; the JS API reads
// them from web/api/core-contract.js, written from the core's (coreContract()).
struct ModelLimits {
  int maxVocabSize = 1 << 20;
  int maxDModel = 4096;
  int minLayers = 1;
  int maxLayers = 4;
  int maxFfnWidth = 65536;
  int maxMaxDistance = 4096;
  int maxSeqLen = 4096;
  int maxBatchSize = 4096;
  int minBuckets = 4;  // T5, either direction
  int maxBuckets = 4096;
  int maxBucketDistance = 4096;
};
inline constexpr ModelLimits kModelLimits{};

// An empty string if the configuration is usable, else what is wrong with it, naming the field.
std::string checkModelConfig(const ModelConfig& config);

// Bytes of memory a model of this configuration holds with scalars of `scalarBytes` (4 or 8):
// its parameters, gradients and Adam's moments, every layer's activations and the scratch, as the
// constructor (relpos/transformer_model.hpp) allocates them, rounded up. A double: a configuration
// may ask for more than 2^32 bytes, which the caller refuses.
double modelBytes(const ModelConfig& config, int scalarBytes);

// Adam (Kingma & Ba) with decoupled weight decay (AdamW) and optional gradient-norm clipping:
//   g <- g · min(1, maxGradNorm / ||g||)            (maxGradNorm > 0 only)
//   m <- β1 m + (1 − β1) g,  v <- β2 v + (1 − β2) g²
//   p <- p − lr · (m / (1 − β1^t)) / (sqrt(v / (1 − β2^t)) + ε) − lr · weightDecay · p
struct AdamOptions {
  double learningRate = 1e-3;
  double beta1 = 0.9;
  double beta2 = 0.999;
  double epsilon = 1e-8;
  double weightDecay = 0.0;
  double maxGradNorm = 0.0;  // 0: no clipping
};

// batchSize sequences of seqLen token ids each, row-major; targets the same shape, −1 = no loss.
struct BatchView {
  const std::int32_t* tokens = nullptr;
  const std::int32_t* targets = nullptr;
  int batchSize = 0;
  int seqLen = 0;
};

}  // namespace relpos
