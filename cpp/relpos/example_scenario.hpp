// The page's example scenario: inputs for relative attention drawn from numpy's stream
// (docs/random-stream.md), by one of two rules.
//
// Handbook draw (the handbook's figures, one stream), in this order, row-major:
//   np.random.seed(seed)
//   X   = randn(n, d_model)
//   W_Q = randn(d_model, d_k) / sqrt(d_model);  W_K, W_V likewise (in that order)
//   a^K = randn(2k + 1, d_k);  a^V = randn(2k + 1, d_k)
// Every number depends on n and k, so any change re-rolls everything.
//
// Stable draw (the page's default): every part has a stream of its own, seeded by
// derivedSeed(seed, label), so a part changes only when what it stands for changes:
//   X row i  = randn(d_model)  from derivedSeed(seed, "word:" + token_i)   (a word's embedding)
//   W_Q, W_K, W_V = randn(d_model, d_k) / sqrt(d_model) each, from derivedSeed(seed, "weights")
//   a^K row of offset o = randn(d_k) from derivedSeed(seed, "aK:" + o)   (o in decimal, "-3")
//   a^V row of offset o = randn(d_k) from derivedSeed(seed, "aV:" + o)
// Clipping at k reads the rows of offsets -k..k of that unbounded table, so changing k changes
// only which rows exist, never a row's numbers.
//
// Either draw then: a^K may be replaced by the locality table (the handbook's simulated table,
// docs/maths.md): noise * (the draw above) plus strength * bump(offset) on its first column;
// with the handbook draw its noise is np.random.seed(seed); randn(2k + 1, d_k) on its own, exactly
// the handbook's figure. With sameQuery every query row is the uniform query (1, ..., 1)/sqrt(d_k).
//   Q = X W_Q,  K = X W_K,  V = X W_V
//   profile[c] = (u . a^K[c]) / sqrt(d_k), u = (1, ..., 1)/sqrt(d_k): what the uniform query's
//   position bias is at offset c - k, on the scale of the position-bias panel.
// tests/fixtures/make_fixtures.py builds both draws with numpy.
#pragma once

#include <cstdint>
#include <string_view>

#include "relpos/matrix_types.hpp"

namespace relpos {

enum class ScenarioDraw { kHandbook, kStable };
enum class PositionTable { kRandom, kLocality };

// The simulated table's shape (docs/maths.md): a Gaussian bump of height `strength` and width
// sigma = width * (1 + asymmetry) looking back (offset < 0), width * (1 - asymmetry) ahead,
// on the first column of `noise` times a random table.
// Defaults: the JS API's too, read from here (docs/architecture.md, "Defaults, one source").
struct LocalityShape {
  double noise = 0.1;
  double width = 1.0;
  double asymmetry = 0.0;
  double strength = 1.0;
};

struct ScenarioSettings {
  std::uint32_t seed = 42;
  ScenarioDraw draw = ScenarioDraw::kHandbook;
  PositionTable table = PositionTable::kRandom;
  LocalityShape locality;
  bool sameQuery = false;
};

// The words of the sequence for the stable draw: token i is bytes[start_i, start_i + lengths[i])
// (UTF-8), the tokens stored one after another.
struct Utf8Tokens {
  const char* bytes = nullptr;
  const std::int32_t* lengths = nullptr;
};

struct ExampleScenario {
  MatrixMap<double> x;                 // n x d_model
  MatrixMap<double> queryWeights;      // d_model x d_k
  MatrixMap<double> keyWeights;        // d_model x d_k
  MatrixMap<double> valueWeights;      // d_model x d_k
  MatrixMap<double> relativeKeys;      // (2k + 1) x d_k
  MatrixMap<double> relativeValues;    // (2k + 1) x d_k
  MatrixMap<double> queries;           // n x d_k
  MatrixMap<double> keys;              // n x d_k
  MatrixMap<double> values;            // n x d_k
  Eigen::Map<Vector<double>> profile;  // 2k + 1: the uniform query's bias per offset
};

// FNV-1a (32-bit) over the seed's four bytes (little-endian) followed by the label's bytes.
std::uint32_t derivedSeed(std::uint32_t seed, std::string_view label);
// The same as derivedSeed(seed, prefix + label), without building the string.
std::uint32_t derivedSeed(std::uint32_t seed, std::string_view label, std::string_view prefix);

// Fills every caller-owned matrix of the scenario; `tokens` is read by the stable draw only.
void drawExampleScenario(const ScenarioSettings& settings, const Utf8Tokens& tokens,
                         ExampleScenario& scenario);

}  // namespace relpos
