// 128-bit vectors through the compiler's vector extensions (GCC and Clang): with -msimd128 they
// compile to WebAssembly SIMD, natively to SSE, so the kernels written on them (packed_gemm.cpp,
// exp_kernels.cpp) are one source for the WASM module and the native build. Internal to the core.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace relpos::simd {

// The 128-bit vector of T's lanes, and same-width signed and unsigned integer vectors.
template <typename T>
struct VectorOf {
  using unsignedLane = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  typedef T type __attribute__((vector_size(16)));
  typedef std::make_signed_t<unsignedLane> integer __attribute__((vector_size(16)));
  typedef unsignedLane unsignedInteger __attribute__((vector_size(16)));
};

template <typename T>
using Vec = typename VectorOf<T>::type;
// Same-width integers, for the bits of a Vec<T> (a cast between vector types keeps the bits).
template <typename T>
using IntVec = typename VectorOf<T>::integer;

// Unsigned lanes for bit arithmetic (shifts and wrap-around are defined for them).
template <typename T>
using UIntVec = typename VectorOf<T>::unsignedInteger;
template <typename T>
using UIntLane = typename VectorOf<T>::unsignedLane;

template <typename T>
constexpr int kLanes = 16 / sizeof(T);

template <typename T>
Vec<T> load(const T* from) {
  Vec<T> v;
  std::memcpy(&v, from, sizeof v);
  return v;
}

template <typename T>
void store(T* to, Vec<T> v) {
  std::memcpy(to, &v, sizeof v);
}

template <typename T>
Vec<T> splat(T value) {
  return Vec<T>{} + value;
}

// From here on the compiler keeps v in a register and no longer knows its value, so it cannot
// re-create a constant at every use inside a loop: LLVM rematerialises a v128.const per use, and
// V8 builds each from immediates, several instructions every iteration (XNNPACK's
// XNN_FORCE_REALIZATION does the same). Costs nothing: the asm is empty.
template <typename V>
void forceRealization(V& v) {
#if defined(__wasm__)
  __asm__ volatile("" : "+r"(v));
#elif defined(__x86_64__) || defined(__i386__)
  __asm__ volatile("" : "+x"(v));
#else
  __asm__ volatile("" : "+m"(v));
#endif
}

// splat(value), kept in a register (see forceRealization).
template <typename T>
Vec<T> splatRealized(T value) {
  Vec<T> v = splat(value);
  forceRealization(v);
  return v;
}

// a < b ? b : a per lane, so a NaN in a stays (WASM's pmax; SSE's max with the operands swapped).
template <typename T>
Vec<T> maxKeepingNaN(Vec<T> a, Vec<T> b) {
#if defined(__wasm_simd128__)
  if constexpr (sizeof(T) == 4) return (Vec<T>)wasm_f32x4_pmax((v128_t)a, (v128_t)b);
  if constexpr (sizeof(T) == 8) return (Vec<T>)wasm_f64x2_pmax((v128_t)a, (v128_t)b);
#endif
  const IntVec<T> below = a < b;  // all ones where a < b
  return (Vec<T>)(((IntVec<T>)a & ~below) | ((IntVec<T>)b & below));
}

template <typename T>
T sumOfLanes(Vec<T> v) {
  T sum = v[0];
  for (int l = 1; l < kLanes<T>; ++l) sum += v[l];
  return sum;
}

template <typename T>
T maxOfLanes(Vec<T> v) {
  T max = v[0];
  for (int l = 1; l < kLanes<T>; ++l) max = v[l] > max ? v[l] : max;
  return max;
}

}  // namespace relpos::simd
