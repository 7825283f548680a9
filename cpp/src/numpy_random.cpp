#include "relpos/numpy_random.hpp"

#include <cmath>

namespace relpos {

NumpyRandom::NumpyRandom(std::uint32_t seed) {
  state_[0] = seed;  // the other words when the twist first reads them (initUpTo)
}

// init_genrand: state[i] = 1812433253 * (state[i-1] ^ (state[i-1] >> 30)) + i (mod 2^32), for
// every word up to `last` not yet set.
void NumpyRandom::initUpTo(int last) {
  for (int i = initialized_; i <= last; ++i) {
    const std::uint32_t previous = state_[i - 1];
    state_[i] = 1812433253U * (previous ^ (previous >> 30)) + static_cast<std::uint32_t>(i);
  }
  initialized_ = last + 1;
}

// MT19937's twist, one element at a time, just before that element is output: element i takes
// state[i + 1] and state[i + 397] (mod 624) as the in-place loop over i = 0…623 would see them
// (not yet twisted for i + 1 < 624 and i + 397 < 624, already twisted past the wrap), so the
// stream is the same, bit for bit. A stream read for a few numbers (the stable draw's one per
// word) then does not twist all 624.
void NumpyRandom::twistAt(int i) {
  constexpr int kShift = 397;
  constexpr std::uint32_t kMatrixA = 0x9908b0dfU;
  constexpr std::uint32_t kUpperMask = 0x80000000U;
  constexpr std::uint32_t kLowerMask = 0x7fffffffU;
  const int next = i + 1 < kStateSize ? i + 1 : 0;
  const int far = i + kShift < kStateSize ? i + kShift : i + kShift - kStateSize;
  if (far >= initialized_) {
    initUpTo(far);  // the first twist reads words 0 … i + 397
  }
  const std::uint32_t y = (state_[i] & kUpperMask) | (state_[next] & kLowerMask);
  state_[i] = state_[far] ^ (y >> 1) ^ ((y & 1U) != 0U ? kMatrixA : 0U);
}

std::uint32_t NumpyRandom::nextUint32() {
  if (position_ >= kStateSize) {
    position_ = 0;
  }
  twistAt(position_);
  std::uint32_t y = state_[position_++];
  y ^= (y >> 11);
  y ^= (y << 7) & 0x9d2c5680U;
  y ^= (y << 15) & 0xefc60000U;
  y ^= (y >> 18);
  return y;
}

double NumpyRandom::nextDouble() {
  const std::uint32_t a = nextUint32() >> 5;
  const std::uint32_t b = nextUint32() >> 6;
  return (a * 67108864.0 + b) / 9007199254740992.0;
}

double NumpyRandom::nextGaussian() {
  if (hasCachedGaussian_) {
    hasCachedGaussian_ = false;
    return cachedGaussian_;
  }
  double x1 = 0.0;
  double x2 = 0.0;
  double r2 = 0.0;
  do {
    x1 = 2.0 * nextDouble() - 1.0;
    x2 = 2.0 * nextDouble() - 1.0;
    r2 = x1 * x1 + x2 * x2;
  } while (r2 >= 1.0 || r2 == 0.0);
  const double f = std::sqrt(-2.0 * std::log(r2) / r2);
  cachedGaussian_ = f * x1;
  hasCachedGaussian_ = true;
  return f * x2;
}

void NumpyRandom::fillGaussian(double* out, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    out[i] = nextGaussian();
  }
}

}  // namespace relpos
