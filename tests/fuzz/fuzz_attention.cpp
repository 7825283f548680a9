// Fuzz target: computeAttention (float and double) on fuzzer-chosen shapes and values, including
// NaN, +-Inf, +-max, denormals and -0. Every input must be memory-safe and UB-free; on top:
//   always:   causal weights are exactly 0 above the diagonal; every weight is NaN or in [0, 1];
//             combined = content + position; position biases are constant beyond +-k;
//   finite score rows: the weights are finite and sum to 1 (the softmax is stable);
//   moderate inputs (all finite, |x| <= 1e3): the gather and bucket forms equal the seed's
//             per-pair loops (positionBiasesPairwise, attentionOutputPairwise) to rounding;
//   masks and heads (checkMasksAndHeads): masked keys weigh +0, a row with no key left is +0,
//             two heads side by side each equal the one-head call bit for bit.
// Input layout (FuzzedDataProvider, integers taken from the end): type, n, d_k, d_v, k, causal,
// value table flag, PRNG seed, special rate, then two bytes per value; when the bytes run out the
// values come from a PRNG seeded by the input, so large shapes are not all zeros.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <iostream>
#include <limits>
#include <utility>
#include <vector>

#include "../cpp/reference_attention.hpp"
#include "fuzz_common.hpp"
#include "relpos/attention.hpp"

namespace relpos::fuzz {
namespace {

constexpr Index kMaxN = 100;  // up to four blocks of 32 query rows, interior ones included
constexpr Index kMaxDK = 16;
constexpr Index kMaxDV = 16;
constexpr Index kMaxK = 64;
constexpr double kModerate = 1e3;

// One value per call: from the input's bytes while they last, then from the PRNG.
template <typename T>
class ValueSource {
 public:
  ValueSource(FuzzedDataProvider& fdp, std::uint32_t seed, int specialPerMille)
      : fdp_(fdp), random_(seed), specialPerMille_(specialPerMille) {}

  T next() {
    if (fdp_.remaining_bytes() > 0) {
      const int selector = fdp_.ConsumeIntegral<std::uint8_t>();
      if (selector < kSpecialCount) return specialValue<T>(selector);
      return static_cast<T>(fdp_.ConsumeIntegral<std::int8_t>()) / T(8);  // [-16, 16)
    }
    const std::uint64_t r = random_.next();
    if (static_cast<int>(r % 1000) < specialPerMille_) {
      return specialValue<T>(static_cast<int>((r >> 16) % kSpecialCount));
    }
    return static_cast<T>(static_cast<int>((r >> 32) & 0xffff) - 32768) / T(4096);  // [-8, 8)
  }

  void fill(Buffer<T>& buffer) {
    for (Index i = 0; i < buffer.size(); ++i) buffer.data()[i] = next();
  }

 private:
  FuzzedDataProvider& fdp_;
  Xorshift random_;
  int specialPerMille_;
};

// The same value bit for bit (so +0 and -0 differ), except that any two NaNs are the same: the
// payload of a NaN that arithmetic produces is not specified by WebAssembly (nor by IEEE 754).
template <typename T>
bool sameBits(T a, T b) {
  if (std::isnan(a) && std::isnan(b)) return true;
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Largest |x| of a matrix, as a double (0 for an empty one).
template <typename T>
double maxAbs(const Buffer<T>& m) {
  double result = 0.0;
  for (Index i = 0; i < m.size(); ++i) {
    result = std::max(result, std::fabs(static_cast<double>(m.data()[i])));
  }
  return result;
}

// A block of query rows (from and to multiples of kAttentionBlockRows, or n) with only some
// panels asked for: bit for bit the full call's rows, NaN and Inf included.
template <typename T>
void checkRowBlock(FuzzedDataProvider& fdp, const AttentionInputs<T>& in,
                   const std::array<const Buffer<T>*, 6>& full) {
  const Index n = in.keys.rows();
  const Index blocks = (n + kAttentionBlockRows - 1) / kAttentionBlockRows;
  const Index firstBlock = fdp.ConsumeIntegralInRange<Index>(0, blocks - 1);
  const Index lastBlock = fdp.ConsumeIntegralInRange<Index>(firstBlock, blocks - 1);
  const Index first = firstBlock * kAttentionBlockRows;
  const Index rows = std::min(n, (lastBlock + 1) * kAttentionBlockRows) - first;
  const auto wanted = fdp.ConsumeIntegral<std::uint8_t>();  // bit p: panel p (5: the output)
  std::vector<Buffer<T>> part;
  for (int p = 0; p < 6; ++p) {
    const bool asked = ((wanted >> p) & 1) != 0 && full[p]->cols() > 0;
    part.emplace_back(asked ? rows : 0, asked ? full[p]->cols() : 0);
  }
  Buffer<T> queries(rows, in.queries.cols());
  queries.map() = in.queries.middleRows(first, rows);
  // (A Map's assignment copies values, so the block's inputs are built, not assigned.)
  const AttentionInputs<T> block{
      queries.constMap(), in.keys, in.relativeKeys, in.values, in.relativeValues, in.causal, first};
  AttentionPanels<T> panels{part[0].map(), part[1].map(), part[2].map(),
                            part[3].map(), part[4].map(), part[5].map()};
  static AttentionWorkspace<T> workspace;
  computeAttention(block, workspace, panels);
  for (int p = 0; p < 6; ++p) {
    for (Index r = 0; r < part[p].rows(); ++r) {
      for (Index c = 0; c < part[p].cols(); ++c) {
        FUZZ_CHECK(sameBits(part[p](r, c), (*full[p])(first + r, c)));
      }
    }
  }
}

// The masks (keyPadding, allowed: drawn from the input's seed, some rows with no key left) and
// two heads side by side (each the same inputs): a masked key weighs exactly +0, a row with no
// key left is all +0 (and so is its output when the values are finite), every weight is NaN or in
// [0, 1], finite rows sum to 1 over the keys left; the score panels are the unmasked call's; each
// of the two heads equals the one-head call bit for bit, wherever its block lies.
template <typename T>
void checkMasksAndHeads(const AttentionInputs<T>& in, std::uint32_t seed,
                        const std::array<const Buffer<T>*, 6>& unmasked) {
  const Index n = in.keys.rows();
  const Index dK = in.queries.cols();
  const Index dV = in.values.cols();
  Xorshift random(seed ^ 0x9E3779B97F4A7C15ULL);
  const int paddingPerMille = static_cast<int>(random.next() % 400);
  const int blockedPerMille = static_cast<int>(random.next() % 600);
  std::vector<std::uint8_t> padding(static_cast<std::size_t>(n));
  std::vector<std::uint8_t> allowed(static_cast<std::size_t>(n * n));
  for (auto& flag : padding) flag = static_cast<int>(random.next() % 1000) < paddingPerMille;
  for (auto& flag : allowed) flag = static_cast<int>(random.next() % 1000) >= blockedPerMille;
  const Index emptyRow = static_cast<Index>(random.next() % static_cast<std::uint64_t>(n));
  std::fill_n(allowed.begin() + emptyRow * n, n, std::uint8_t{0});
  const ConstFlagMap keyPadding(padding.data(), 1, n);
  const ConstFlagMap allowedMap(allowed.data(), n, n);

  std::array<Buffer<T>, 6> masked{Buffer<T>(n, n), Buffer<T>(n, n), Buffer<T>(n, n),
                                  Buffer<T>(n, n), Buffer<T>(n, n), Buffer<T>(dV == 0 ? 0 : n, dV)};
  AttentionPanels<T> panels{masked[0].map(), masked[1].map(), masked[2].map(),
                            masked[3].map(), masked[4].map(), masked[5].map()};
  const AttentionInputs<T> maskedIn{in.queries, in.keys,           in.relativeKeys,
                                    in.values,  in.relativeValues, in.causal,
                                    0,          keyPadding,        allowedMap};
  static AttentionWorkspace<T> workspace;
  computeAttention(maskedIn, workspace, panels);

  bool finiteValues = true;
  for (Index i = 0; i < in.values.size(); ++i)
    finiteValues = finiteValues && std::isfinite(in.values.data()[i]);
  for (Index r = 0; r < in.relativeValues.rows(); ++r) {
    for (Index c = 0; c < in.relativeValues.cols(); ++c) {
      finiteValues = finiteValues && std::isfinite(in.relativeValues(r, c));
    }
  }
  const double sumTolerance = 4.0 * static_cast<double>(n + 2) * std::numeric_limits<T>::epsilon();
  for (Index i = 0; i < n; ++i) {
    for (int p = 0; p < 3; ++p) {
      for (Index j = 0; j < n; ++j) FUZZ_CHECK(sameBits(masked[p](i, j), (*unmasked[p])(i, j)));
    }
    Index kept = 0;
    for (Index j = 0; j < n; ++j) {
      const bool counts = !(in.causal && j > i) && padding[j] == 0 && allowed[i * n + j] != 0;
      kept += counts ? 1 : 0;
      for (int p : {3, 4}) {
        const T weight = masked[p](i, j);
        FUZZ_CHECK(!(weight < T(0)) && !(weight > T(1)));
        if (!counts) FUZZ_CHECK(sameBits(weight, T(0)));
      }
    }
    if (kept == 0 && finiteValues) {
      for (Index c = 0; c < dV; ++c) FUZZ_CHECK(sameBits(masked[5](i, c), T(0)));
    }
    for (int p : {3, 4}) {
      bool finiteRow = true;
      double sum = 0.0;
      for (Index j = 0; j < n; ++j) {
        const bool counts = !(in.causal && j > i) && padding[j] == 0 && allowed[i * n + j] != 0;
        const Buffer<T>& scores = p == 3 ? *unmasked[0] : *unmasked[2];
        if (counts) finiteRow = finiteRow && std::isfinite(scores(i, j));
        sum += static_cast<double>(masked[p](i, j));
      }
      if (kept == 0)
        FUZZ_CHECK(sum == 0.0);
      else if (finiteRow)
        FUZZ_CHECK(std::fabs(sum - 1.0) <= sumTolerance);
    }
  }

  // Two heads, each the same inputs: [Q Q], [K K], [V V], the tables shared.
  Buffer<T> queries2(n, 2 * dK), keys2(n, 2 * dK), values2(dV == 0 ? 0 : n, 2 * dV);
  queries2.map() << in.queries, in.queries;
  keys2.map() << in.keys, in.keys;
  if (dV > 0) values2.map() << in.values, in.values;
  std::array<Buffer<T>, 6> heads{Buffer<T>(2 * n, n), Buffer<T>(2 * n, n),
                                 Buffer<T>(2 * n, n), Buffer<T>(2 * n, n),
                                 Buffer<T>(2 * n, n), Buffer<T>(dV == 0 ? 0 : n, 2 * dV)};
  AttentionPanels<T> headPanels{heads[0].map(), heads[1].map(), heads[2].map(),
                                heads[3].map(), heads[4].map(), heads[5].map()};
  const AttentionInputs<T> headsIn{queries2.constMap(),
                                   keys2.constMap(),
                                   in.relativeKeys,
                                   values2.constMap(),
                                   in.relativeValues,
                                   in.causal,
                                   0,
                                   keyPadding,
                                   allowedMap};
  computeHeads(headsIn, 2, workspace, headPanels);
  for (Index head = 0; head < 2; ++head) {
    for (int p = 0; p < 5; ++p) {
      for (Index i = 0; i < n; ++i) {
        for (Index j = 0; j < n; ++j)
          FUZZ_CHECK(sameBits(heads[p](head * n + i, j), masked[p](i, j)));
      }
    }
    for (Index i = 0; i < (dV == 0 ? 0 : n); ++i) {
      for (Index c = 0; c < dV; ++c)
        FUZZ_CHECK(sameBits(heads[5](i, head * dV + c), masked[5](i, c)));
    }
  }
}

template <typename T>
void run(FuzzedDataProvider& fdp) {
  const Index n = fdp.ConsumeIntegralInRange<Index>(1, kMaxN);
  const Index dK = fdp.ConsumeIntegralInRange<Index>(1, kMaxDK);
  const Index dV = fdp.ConsumeIntegralInRange<Index>(0, kMaxDV);  // 0: no values, no output
  const Index k = fdp.ConsumeIntegralInRange<Index>(0, kMaxK);
  const bool causal = fdp.ConsumeBool();
  const bool hasRelativeValues = dV > 0 && fdp.ConsumeBool();
  const auto seed = fdp.ConsumeIntegral<std::uint32_t>();
  const auto rate = fdp.ConsumeIntegral<std::uint8_t>();
  const int specialPerMille = rate >= 128 ? 0 : rate * 2;  // half the inputs: no PRNG specials
  const Index tableRows = 2 * k + 1;

  // Inputs and panels, each in its own exact-size heap block, with the shapes of bindings.cpp.
  Buffer<T> queries(n, dK), keys(n, dK), relativeKeys(tableRows, dK);
  Buffer<T> values(dV == 0 ? 0 : n, dV);
  Buffer<T> relativeValues(hasRelativeValues ? tableRows : 0, hasRelativeValues ? dV : 0);
  ValueSource<T> source(fdp, seed, specialPerMille);
  for (Buffer<T>* b : {&queries, &keys, &relativeKeys, &values, &relativeValues}) source.fill(*b);

  Buffer<T> content(n, n), position(n, n), combined(n, n), contentWeights(n, n),
      combinedWeights(n, n), output(dV == 0 ? 0 : n, dV);

  // One workspace for the whole run, like the WASM module's: it grows and is reused.
  static AttentionWorkspace<T> workspace;
  const AttentionInputs<T> in{queries.constMap(),        keys.constMap(),
                              relativeKeys.constMap(),   values.constMap(),
                              relativeValues.constMap(), causal};
  AttentionPanels<T> panels{content.map(),        position.map(),        combined.map(),
                            contentWeights.map(), combinedWeights.map(), output.map()};
  if (describing()) {
    std::fprintf(stderr,
                 "computeAttention<%s>: n %ld d_k %ld d_v %ld k %ld causal %d "
                 "relative values %d\n",
                 sizeof(T) == sizeof(float) ? "float" : "double", static_cast<long>(n),
                 static_cast<long>(dK), static_cast<long>(dV), static_cast<long>(k), causal,
                 hasRelativeValues);
    const Eigen::IOFormat format(Eigen::FullPrecision, 0, ", ", "\n", "  [", "]");
    std::cerr << " queries\n"
              << queries.map().format(format) << "\n keys\n"
              << keys.map().format(format) << "\n relative keys\n"
              << relativeKeys.map().format(format) << "\n values\n"
              << values.map().format(format) << "\n relative values\n"
              << relativeValues.map().format(format) << "\n";
  }
  computeAttention(in, workspace, panels);
  checkRowBlock<T>(fdp, in,
                   {&content, &position, &combined, &contentWeights, &combinedWeights, &output});
  checkMasksAndHeads<T>(
      in, seed, {&content, &position, &combined, &contentWeights, &combinedWeights, &output});

  // The seed's per-pair loops on the same inputs (a zero value table stands in for "none").
  Buffer<T> positionReference(n, n);
  positionBiasesPairwise<T>(queries.constMap(), relativeKeys.constMap(), positionReference.map());
  Buffer<T> zeroTable(tableRows, dV);
  zeroTable.map().setZero();
  Buffer<T> outputReference(n, dV);
  if (dV > 0) {
    attentionOutputPairwise<T>(combinedWeights.constMap(), values.constMap(),
                               hasRelativeValues ? relativeValues.constMap() : zeroTable.constMap(),
                               outputReference.map());
  }

  // --- Invariants that hold for every input, NaN and Inf included.
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < n; ++j) {
      for (const Buffer<T>* w : {&contentWeights, &combinedWeights}) {
        const T weight = (*w)(i, j);
        FUZZ_CHECK(!(weight < T(0)) && !(weight > T(1)));  // NaN or in [0, 1]
        if (causal && j > i) FUZZ_CHECK(sameBits(weight, T(0)));
      }
      const T sum = content(i, j) + position(i, j);
      FUZZ_CHECK(sameBits(combined(i, j), sum) || (std::isnan(combined(i, j)) && std::isnan(sum)));
      // Beyond the clipping distance every key shares the edge embedding's bias.
      if (j - i >= k) FUZZ_CHECK(sameBits(position(i, j), position(i, i + k)));
      if (i - j >= k) FUZZ_CHECK(sameBits(position(i, j), position(i, i - k)));
    }
  }

  // --- A row of finite scores gives finite weights that sum to 1, however large the scores.
  const double eps = std::numeric_limits<T>::epsilon();
  const double sumTolerance = 4.0 * static_cast<double>(n + 2) * eps;
  for (const auto& [scores, weights] :
       {std::make_pair(&content, &contentWeights), std::make_pair(&combined, &combinedWeights)}) {
    for (Index i = 0; i < n; ++i) {
      const Index visible = causal ? i + 1 : n;
      bool finiteRow = true;
      for (Index j = 0; j < visible; ++j) finiteRow = finiteRow && std::isfinite((*scores)(i, j));
      if (!finiteRow) continue;
      double sum = 0.0;
      for (Index j = 0; j < n; ++j) {
        FUZZ_CHECK(std::isfinite((*weights)(i, j)));
        sum += static_cast<double>((*weights)(i, j));
      }
      FUZZ_CHECK(std::fabs(sum - 1.0) <= sumTolerance);
    }
  }

  // --- Moderate inputs: the fast forms equal the reference loops within rounding.
  const bool moderate =
      allModerate(queries.map(), kModerate) && allModerate(keys.map(), kModerate) &&
      allModerate(relativeKeys.map(), kModerate) && allModerate(values.map(), kModerate) &&
      allModerate(relativeValues.map(), kModerate);
  if (!moderate) return;

  // Dot products of length d_k: error <= ~(d_k + 2) eps sum|q||a| scale; bound sum|q||a| by
  // d_k max|q| max|a| so the check needs no per-cell magnitude.
  const double scale = 1.0 / std::sqrt(static_cast<double>(dK));
  const double dotMagnitude = static_cast<double>(dK) * maxAbs(queries) *
                              std::max(maxAbs(keys), maxAbs(relativeKeys)) * scale;
  const double dotTolerance =
      8.0 * static_cast<double>(dK + 2) * eps * dotMagnitude + std::numeric_limits<T>::min();
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < n; ++j) {
      FUZZ_CHECK(std::fabs(static_cast<double>(position(i, j)) -
                           static_cast<double>(positionReference(i, j))) <= dotTolerance);
      double contentExact = 0.0;  // content scores against a double-precision dot product
      for (Index c = 0; c < dK; ++c) {
        contentExact += static_cast<double>(queries(i, c)) * static_cast<double>(keys(j, c));
      }
      FUZZ_CHECK(std::fabs(static_cast<double>(content(i, j)) - contentExact * scale) <=
                 dotTolerance);
    }
  }
  if (dV == 0) return;
  // Output rows are convex combinations (weights sum to 1) of n + 2k + 1 terms, each at most
  // max|v| + max|a^V|.
  const double outputMagnitude = maxAbs(values) + maxAbs(relativeValues);
  const double outputTolerance =
      8.0 * static_cast<double>(n + tableRows + 2) * eps * outputMagnitude +
      std::numeric_limits<T>::min();
  for (Index i = 0; i < n; ++i) {
    for (Index c = 0; c < dV; ++c) {
      FUZZ_CHECK(std::fabs(static_cast<double>(output(i, c)) -
                           static_cast<double>(outputReference(i, c))) <= outputTolerance);
    }
  }
}

}  // namespace
}  // namespace relpos::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider fdp(data, size);
  if (fdp.ConsumeBool()) {
    relpos::fuzz::run<float>(fdp);
  } else {
    relpos::fuzz::run<double>(fdp);
  }
  return 0;
}
