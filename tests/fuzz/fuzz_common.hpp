// Shared helpers of the relpos fuzz targets: a failing check that libFuzzer reports as a crash
// (with the message and a stack trace), exact-size heap buffers (so AddressSanitizer sees any
// read or write one element past a matrix), and the special floating-point values.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>

#include <fuzzer/FuzzedDataProvider.h>

#include "relpos/matrix_types.hpp"

namespace relpos::fuzz {

// abort() is what libFuzzer (and the WASM replay driver) report as a crash, with the input.
[[noreturn]] inline void fail(const char* file, int line, const char* what) {
  std::fprintf(stderr, "\n%s:%d: fuzz check failed: %s\n", file, line, what);
  std::fflush(stderr);
  std::abort();
}

#define FUZZ_CHECK(condition)                                               \
  do {                                                                      \
    if (!(condition)) ::relpos::fuzz::fail(__FILE__, __LINE__, #condition); \
  } while (false)

// RELPOS_FUZZ_DESCRIBE=1 makes a target print the input it decoded (for reports of findings).
inline bool describing() {
  static const bool enabled = std::getenv("RELPOS_FUZZ_DESCRIBE") != nullptr;
  return enabled;
}

// A rows x cols row-major matrix in its own heap block of exactly rows * cols elements.
template <typename T>
class Buffer {
 public:
  Buffer(Index rows, Index cols)
      : rows_(rows), cols_(cols), data_(new T[static_cast<std::size_t>(rows * cols)]) {}

  MatrixMap<T> map() { return MatrixMap<T>(data_.get(), rows_, cols_); }
  ConstMatrixMap<T> constMap() const { return ConstMatrixMap<T>(data_.get(), rows_, cols_); }
  T& operator()(Index row, Index col) { return data_[static_cast<std::size_t>(row * cols_ + col)]; }
  T operator()(Index row, Index col) const {
    return data_[static_cast<std::size_t>(row * cols_ + col)];
  }
  T* data() { return data_.get(); }
  const T* data() const { return data_.get(); }
  Index rows() const { return rows_; }
  Index cols() const { return cols_; }
  Index size() const { return rows_ * cols_; }

 private:
  Index rows_;
  Index cols_;
  std::unique_ptr<T[]> data_;
};

// The values that break naive numerics, all representable in T (no double -> float overflow):
// NaN, +-Inf, +-max (1e308 for double), +-smallest normal (~1e-308 for double), +-denormals,
// +-0, +-1e30, +-1, 1e3.
constexpr int kSpecialCount = 19;

template <typename T>
T specialValue(int which) {
  using Limits = std::numeric_limits<T>;
  switch (which % kSpecialCount) {
    case 0:
      return Limits::quiet_NaN();
    case 1:
      return Limits::infinity();
    case 2:
      return -Limits::infinity();
    case 3:
      return Limits::max();
    case 4:
      return -Limits::max();
    case 5:
      return static_cast<T>(sizeof(T) == sizeof(double) ? 1e308 : 1e38);
    case 6:
      return Limits::min();
    case 7:
      return -Limits::min();
    case 8:
      return Limits::denorm_min();
    case 9:
      return -Limits::denorm_min();
    case 10:
      return Limits::min() / T(3);  // a denormal with more than one bit set
    case 11:
      return T(0);
    case 12:
      return -T(0);
    case 13:
      return T(1e30);
    case 14:
      return T(-1e30);
    case 15:
      return T(1);
    case 16:
      return T(-1);
    case 17:
      return T(1e3);
    default:
      return Limits::signaling_NaN();
  }
}

// A small deterministic generator (xorshift64*) for filling large inputs from a few bytes.
class Xorshift {
 public:
  explicit Xorshift(std::uint64_t seed) : state_(seed | 1U) {}
  std::uint64_t next() {
    state_ ^= state_ >> 12;
    state_ ^= state_ << 25;
    state_ ^= state_ >> 27;
    return state_ * 0x2545F4914F6CDD1DULL;
  }

 private:
  std::uint64_t state_;
};

// True when every entry is finite and at most `bound` in magnitude.
template <typename Derived>
bool allModerate(const Eigen::MatrixBase<Derived>& m, double bound) {
  for (Index i = 0; i < m.rows(); ++i) {
    for (Index j = 0; j < m.cols(); ++j) {
      const double x = static_cast<double>(m(i, j));
      if (!std::isfinite(x) || std::fabs(x) > bound) return false;
    }
  }
  return true;
}

}  // namespace relpos::fuzz
