// numpy's legacy RandomState stream (docs/random-stream.md): MT19937 seeded by init_genrand, 53-bit
// doubles, Marsaglia polar Gaussians with the second value cached. np.random.seed(s);
// np.random.randn(...) produce exactly what nextGaussian() does after NumpyRandom(s).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace relpos {

// The largest seed: numpy's legacy seeding takes a 32-bit unsigned integer.
inline constexpr std::uint32_t kMaxSeed = 0xFFFFFFFFu;

class NumpyRandom {
 public:
  explicit NumpyRandom(std::uint32_t seed);

  // The next raw 32-bit MT19937 output (genrand_int32).
  std::uint32_t nextUint32();

  // Uniform in [0, 1): ((a >> 5) * 2^26 + (b >> 6)) / 2^53.
  double nextDouble();

  // Standard normal, numpy's legacy_gauss.
  double nextGaussian();

  // out[0..count) = the next `count` Gaussians (np.random.randn(count)).
  void fillGaussian(double* out, std::size_t count);

 private:
  void twistAt(int i);
  void initUpTo(int last);

  static constexpr int kStateSize = 624;
  std::array<std::uint32_t, kStateSize> state_{};
  int position_ = kStateSize;
  int initialized_ = 1;  // words 0 … initialized_ − 1 of the first state are set
  bool hasCachedGaussian_ = false;
  double cachedGaussian_ = 0.0;
};

}  // namespace relpos
