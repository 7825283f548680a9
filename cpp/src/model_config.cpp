// The model's configuration: its check and the memory it holds (relpos/model_config.hpp).
#include "relpos/model_config.hpp"

#include <algorithm>
#include <cmath>

#include "relpos/packed_gemm.hpp"
#include "relpos/scheme_table.hpp"

namespace relpos {

namespace {

// "name must be an integer from min to max, got value", or an empty string.
std::string range(const char* name, int value, int min, int max) {
  if (value >= min && value <= max) return {};
  return std::string(name) + " must be an integer from " + std::to_string(min) + " to " +
         std::to_string(max) + ", got " + std::to_string(value);
}

}  // namespace

std::string checkModelConfig(const ModelConfig& c) {
  const ModelLimits& l = kModelLimits;
  for (const std::string& error :
       {range("vocabSize", c.vocabSize, 1, l.maxVocabSize),
        range("dModel", c.dModel, 1, l.maxDModel), range("heads", c.heads, 1, c.dModel),
        range("layers", c.layers, l.minLayers, l.maxLayers),
        range("ffnWidth", c.ffnWidth, 1, l.maxFfnWidth),
        range("maxDistance", c.maxDistance, 0, l.maxMaxDistance),
        range("seqLen", c.seqLen, 1, l.maxSeqLen),
        range("maxBatchSize", c.maxBatchSize, 1, l.maxBatchSize)}) {
    if (!error.empty()) return error;
  }
  if (c.dModel % c.heads != 0) {
    return "dModel (" + std::to_string(c.dModel) + ") must be a multiple of heads (" +
           std::to_string(c.heads) + ")";
  }
  if (c.positionScheme == PositionScheme::kT5) {
    std::string error = range("numBuckets", c.numBuckets, l.minBuckets, l.maxBuckets);
    if (!error.empty()) return error;
  }
  // One-way (causal) buckets use all numBuckets for keys before the query, else half.
  return checkScheme(c.positionScheme, T5BucketParams{c.numBuckets, c.bucketDistance, !c.causal},
                     c.dModel / c.heads);
}

double modelBytes(const ModelConfig& c, int scalarBytes) {
  const double size = scalarBytes;
  const double V = c.vocabSize, d = c.dModel, f = c.ffnWidth, H = c.heads, n = c.seqLen,
               B = c.maxBatchSize, L = c.layers;
  const double rows = 2.0 * c.maxDistance + 1;
  const double dk = d / H;
  const double tables = (c.perHeadTables ? H : 1) * rows * dk * 2;
  const double parameters =
      V * d + L * (4 * d * d + tables + 4 * d + 2 * d * f + f + d) + d * V + V;
  const double R = B * n;
  const double perLayer = 8 * R * d + R * f + B * H * n * n + 2 * R;
  // A packed operand: depth x the columns rounded up to whole 16-byte panels, twice.
  const double lanes = 16 / size;
  const auto pad = [lanes](double cols) { return std::ceil(cols / lanes) * lanes * 2; };
  const double packed = std::max({d * pad(V), V * pad(d), f * pad(d), d * pad(f)});
  // The weight gradients' depth pass in panels (addTransposedProduct), for the widest right
  // operand.
  const Index widest = static_cast<Index>(std::max({V, f, d, n}));
  const double passPanels =
      static_cast<double>(scalarBytes == 4 ? transposedProductWorkspace<float>(widest)
                                           : transposedProductWorkspace<double>(widest));
  const double scratch =
      R * d + R * V + 9 * R * d + 2 * R + R * f + 2 * n * n + 2 * n * rows + packed + passPanels;
  return size * (4 * parameters + L * perLayer + scratch);
}

}  // namespace relpos
