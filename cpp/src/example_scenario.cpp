#include "relpos/example_scenario.hpp"

#include <array>
#include <charconv>
#include <cmath>

#include "relpos/locality_profile.hpp"
#include "relpos/numpy_random.hpp"

namespace relpos {
namespace {

// out = randn(rows, cols) / divisor, divided (not multiplied by 1 / divisor) as numpy does.
void fillGaussian(NumpyRandom& random, MatrixMap<double> out, double divisor) {
  random.fillGaussian(out.data(), static_cast<std::size_t>(out.size()));
  out /= divisor;
}

// A label and a number: "aK:-3". Fits any 64-bit index.
class NumberedLabel {
 public:
  NumberedLabel(std::string_view prefix, Index number) {
    length_ = prefix.copy(text_.data(), prefix.size());
    const auto end = std::to_chars(text_.data() + length_, text_.data() + text_.size(),
                                   static_cast<long long>(number));
    length_ = static_cast<std::size_t>(end.ptr - text_.data());
  }
  std::string_view view() const { return {text_.data(), length_}; }

 private:
  std::array<char, 48> text_{};
  std::size_t length_ = 0;
};

// Row c of `table` (offset c - k) = randn(d_k) from derivedSeed(seed, prefix + offset).
void drawOffsetRows(std::uint32_t seed, std::string_view prefix, MatrixMap<double> table) {
  const Index k = (table.rows() - 1) / 2;
  for (Index row = 0; row < table.rows(); ++row) {
    NumpyRandom random(derivedSeed(seed, NumberedLabel(prefix, row - k).view()));
    random.fillGaussian(table.row(row).data(), static_cast<std::size_t>(table.cols()));
  }
}

void drawStable(const ScenarioSettings& settings, const Utf8Tokens& tokens, ExampleScenario& s) {
  const double weightDivisor = std::sqrt(static_cast<double>(s.x.cols()));
  std::size_t start = 0;
  for (Index i = 0; i < s.x.rows(); ++i) {
    const auto length = static_cast<std::size_t>(tokens.lengths[i]);
    // "word:" + the token's bytes, hashed without building the string.
    NumpyRandom random(
        derivedSeed(settings.seed, std::string_view(tokens.bytes + start, length), "word:"));
    random.fillGaussian(s.x.row(i).data(), static_cast<std::size_t>(s.x.cols()));
    start += length;
  }
  NumpyRandom weights(derivedSeed(settings.seed, "weights"));
  fillGaussian(weights, s.queryWeights, weightDivisor);
  fillGaussian(weights, s.keyWeights, weightDivisor);
  fillGaussian(weights, s.valueWeights, weightDivisor);
  drawOffsetRows(settings.seed, "aK:", s.relativeKeys);
  drawOffsetRows(settings.seed, "aV:", s.relativeValues);
}

void drawHandbook(std::uint32_t seed, ExampleScenario& s) {
  NumpyRandom random(seed);
  const double weightDivisor = std::sqrt(static_cast<double>(s.x.cols()));
  fillGaussian(random, s.x, 1.0);
  fillGaussian(random, s.queryWeights, weightDivisor);
  fillGaussian(random, s.keyWeights, weightDivisor);
  fillGaussian(random, s.valueWeights, weightDivisor);
  fillGaussian(random, s.relativeKeys, 1.0);
  fillGaussian(random, s.relativeValues, 1.0);
}

// a^K = noise * (random table) + strength * bump on the first column. The handbook draw takes
// its random table from a fresh np.random.seed(seed) stream, exactly as the handbook's figure.
void makeLocalityTable(const ScenarioSettings& settings, MatrixMap<double> table) {
  if (settings.draw == ScenarioDraw::kHandbook) {
    NumpyRandom random(settings.seed);
    random.fillGaussian(table.data(), static_cast<std::size_t>(table.size()));
  }
  const LocalityShape& shape = settings.locality;
  table *= shape.noise;
  const Index k = (table.rows() - 1) / 2;
  for (Index row = 0; row < table.rows(); ++row) {
    table(row, 0) += shape.strength * localityBump(row - k, shape.width, shape.asymmetry);
  }
}

}  // namespace

std::uint32_t derivedSeed(std::uint32_t seed, std::string_view label) {
  return derivedSeed(seed, label, {});
}

std::uint32_t derivedSeed(std::uint32_t seed, std::string_view label, std::string_view prefix) {
  std::uint32_t hash = 2166136261U;
  const auto mix = [&hash](unsigned char byte) {
    hash ^= byte;
    hash *= 16777619U;
  };
  for (int shift = 0; shift < 32; shift += 8) mix(static_cast<unsigned char>(seed >> shift));
  for (const char c : prefix) mix(static_cast<unsigned char>(c));
  for (const char c : label) mix(static_cast<unsigned char>(c));
  return hash;
}

void drawExampleScenario(const ScenarioSettings& settings, const Utf8Tokens& tokens,
                         ExampleScenario& s) {
  if (settings.draw == ScenarioDraw::kStable) {
    drawStable(settings, tokens, s);
  } else {
    drawHandbook(settings.seed, s);
  }
  if (settings.table == PositionTable::kLocality) makeLocalityTable(settings, s.relativeKeys);
  // Row by row: a row's projection is the same computation whatever n is, so the stable draw's
  // rows do not change in the last bit when words are added (a whole-matrix product may block
  // differently for another n).
  for (Index i = 0; i < s.x.rows(); ++i) {
    s.queries.row(i).noalias() = s.x.row(i) * s.queryWeights;
    s.keys.row(i).noalias() = s.x.row(i) * s.keyWeights;
    s.values.row(i).noalias() = s.x.row(i) * s.valueWeights;
  }
  const Index dK = s.queries.cols();
  const double uniform = 1.0 / std::sqrt(static_cast<double>(dK));
  if (settings.sameQuery) s.queries.setConstant(uniform);
  // The uniform query's bias, computed as the position-bias panel computes q . a^K / sqrt(d_k).
  s.profile.noalias() = s.relativeKeys * Vector<double>::Constant(dK, uniform);
  s.profile /= std::sqrt(static_cast<double>(dK));
}

}  // namespace relpos
