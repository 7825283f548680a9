// Whether every entry of an array is finite, and where the first one that is not lies: read as
// bits (a float is ±inf or NaN exactly when its magnitude's bits are at least +inf's), so the scan
// is a max over integers, which the compiler vectorizes (a float comparison's NaN rules keep it
// from doing so without -ffast-math).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "relpos/matrix_types.hpp"

namespace relpos {

namespace detail {
template <typename T>
using FloatBits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;

// The bits of |x|: at least infinityBits<T>() exactly when x is ±inf or NaN.
template <typename T>
inline FloatBits<T> magnitudeBits(T x) {
  FloatBits<T> bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits & (~FloatBits<T>(0) >> 1);
}

template <typename T>
constexpr FloatBits<T> infinityBits() {
  return sizeof(T) == 4 ? FloatBits<T>(0x7f800000u) : FloatBits<T>(0x7ff0000000000000ull);
}
}  // namespace detail

// The index of the first entry of x[0, n) that is ±inf or NaN, or -1 if every one is finite.
template <typename T>
Index firstNonFinite(const T* x, Index n) {
  static_assert(std::is_floating_point_v<T>);
  detail::FloatBits<T> largest = 0;
  for (Index i = 0; i < n; ++i) {
    const auto bits = detail::magnitudeBits(x[i]);
    largest = bits > largest ? bits : largest;
  }
  if (largest < detail::infinityBits<T>()) return -1;
  for (Index i = 0; i < n; ++i)
    if (detail::magnitudeBits(x[i]) >= detail::infinityBits<T>()) return i;
  return -1;
}

// The index of the first i where a[i] + b[i] (in T) is ±inf or NaN, or -1 if none is.
template <typename T>
Index firstNonFiniteSum(const T* a, const T* b, Index n) {
  static_assert(std::is_floating_point_v<T>);
  detail::FloatBits<T> largest = 0;
  for (Index i = 0; i < n; ++i) {
    const auto bits = detail::magnitudeBits(static_cast<T>(a[i] + b[i]));
    largest = bits > largest ? bits : largest;
  }
  if (largest < detail::infinityBits<T>()) return -1;
  for (Index i = 0; i < n; ++i)
    if (detail::magnitudeBits(static_cast<T>(a[i] + b[i])) >= detail::infinityBits<T>()) return i;
  return -1;
}

}  // namespace relpos
