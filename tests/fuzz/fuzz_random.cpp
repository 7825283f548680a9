// Fuzz target: NumpyRandom and drawExampleScenario for any seed.
//   - the raw MT19937 stream equals std::mt19937 (same init_genrand seeding) for the first draws,
//     across the 624-word twist;
//   - nextDouble lies in [0, 1); every Gaussian is finite;
//   - fillGaussian split at any point continues the same stream (the cached second value);
//   - drawExampleScenario on small shapes: every matrix finite; handbook draw: X = the first
//     n * d_model draws; stable draw over any token bytes: X row 0 = its word's own stream.
#include <random>
#include <string>
#include <vector>

#include "fuzz_common.hpp"
#include "relpos/example_scenario.hpp"
#include "relpos/numpy_random.hpp"

namespace relpos::fuzz {
namespace {

constexpr std::size_t kMaxCount = 4096;
constexpr int kMaxRawDraws = 1300;  // crosses the first two twists
constexpr Index kMaxScenarioSide = 16;

bool allFinite(const double* values, Index count) {
  for (Index i = 0; i < count; ++i) {
    if (!std::isfinite(values[i])) return false;
  }
  return true;
}

void checkRawStream(std::uint32_t seed, int draws) {
  NumpyRandom ours(seed);
  std::mt19937 reference(seed);
  for (int i = 0; i < draws; ++i) FUZZ_CHECK(ours.nextUint32() == reference());
  for (int i = 0; i < 64; ++i) {
    const double u = ours.nextDouble();
    FUZZ_CHECK(u >= 0.0 && u < 1.0);
  }
}

void checkGaussians(std::uint32_t seed, std::size_t count, std::size_t split) {
  Buffer<double> whole(1, static_cast<Index>(count));
  NumpyRandom one(seed);
  one.fillGaussian(whole.data(), count);
  FUZZ_CHECK(allFinite(whole.data(), whole.size()));

  Buffer<double> parts(1, static_cast<Index>(count));
  NumpyRandom other(seed);
  other.fillGaussian(parts.data(), split);
  other.fillGaussian(parts.data() + split, count - split);
  for (Index i = 0; i < whole.size(); ++i) FUZZ_CHECK(whole.data()[i] == parts.data()[i]);
}

void checkScenario(std::uint32_t seed, Index n, Index dModel, Index dK, Index k,
                   const std::string& words) {
  const Index tableRows = 2 * k + 1;
  Buffer<double> x(n, dModel), wq(dModel, dK), wk(dModel, dK), wv(dModel, dK),
      relativeKeys(tableRows, dK), relativeValues(tableRows, dK), q(n, dK), keys(n, dK), v(n, dK),
      profile(tableRows, 1);
  ExampleScenario scenario{x.map(),
                           wq.map(),
                           wk.map(),
                           wv.map(),
                           relativeKeys.map(),
                           relativeValues.map(),
                           q.map(),
                           keys.map(),
                           v.map(),
                           Eigen::Map<Vector<double>>(profile.data(), tableRows)};
  // The handbook draw: X is the stream's first n * d_model Gaussians.
  ScenarioSettings settings;
  settings.seed = seed;
  drawExampleScenario(settings, Utf8Tokens{}, scenario);
  for (Buffer<double>* m :
       {&x, &wq, &wk, &wv, &relativeKeys, &relativeValues, &q, &keys, &v, &profile}) {
    FUZZ_CHECK(allFinite(m->data(), m->size()));
  }
  NumpyRandom random(seed);
  for (Index i = 0; i < x.size(); ++i) FUZZ_CHECK(x.data()[i] == random.nextGaussian());

  // The stable draw over arbitrary bytes split into n tokens, with the locality table: finite,
  // and a token's row is its word's embedding wherever it stands.
  std::vector<std::int32_t> lengths(static_cast<std::size_t>(n), 0);
  const auto share = static_cast<std::int32_t>(words.size() / lengths.size());
  for (auto& length : lengths) length = share;
  lengths.back() += static_cast<std::int32_t>(words.size() - share * lengths.size());
  settings.draw = ScenarioDraw::kStable;
  settings.table = PositionTable::kLocality;
  drawExampleScenario(settings, Utf8Tokens{words.data(), lengths.data()}, scenario);
  for (Buffer<double>* m :
       {&x, &wq, &wk, &wv, &relativeKeys, &relativeValues, &q, &keys, &v, &profile}) {
    FUZZ_CHECK(allFinite(m->data(), m->size()));
  }
  NumpyRandom first(derivedSeed(seed, std::string_view(words.data(), lengths[0]), "word:"));
  for (Index c = 0; c < dModel; ++c) FUZZ_CHECK(x.data()[c] == first.nextGaussian());
}

}  // namespace
}  // namespace relpos::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace relpos::fuzz;
  FuzzedDataProvider fdp(data, size);
  const auto seed = fdp.ConsumeIntegral<std::uint32_t>();
  const auto count = fdp.ConsumeIntegralInRange<std::size_t>(0, kMaxCount);
  const auto split = fdp.ConsumeIntegralInRange<std::size_t>(0, count);
  const int draws = fdp.ConsumeIntegralInRange<int>(1, kMaxRawDraws);
  // Named one by one: the order of evaluation of function arguments is unspecified.
  const auto n = fdp.ConsumeIntegralInRange<relpos::Index>(1, kMaxScenarioSide);
  const auto dModel = fdp.ConsumeIntegralInRange<relpos::Index>(1, kMaxScenarioSide);
  const auto dK = fdp.ConsumeIntegralInRange<relpos::Index>(1, kMaxScenarioSide);
  const auto k = fdp.ConsumeIntegralInRange<relpos::Index>(0, kMaxScenarioSide);
  checkRawStream(seed, draws);
  checkGaussians(seed, count, split);
  checkScenario(seed, n, dModel, dK, k, fdp.ConsumeRemainingBytesAsString());
  return 0;
}
