// The softmax of a row, and the exp inside it: Eigen 3.4 has no WebAssembly SIMD backend and its
// exp runs one lane at a time there, so the softmax's exp is written here: a vector kernel on
// 128-bit vectors (WASM SIMD in the module, SSE natively; relpos/simd_vectors.hpp) and a scalar
// twin for the tails. Both evaluate the same Cephes-style approximation, so each element agrees bit
// for bit (only the order of the sum differs):
//   exp(x) = 2^m · p(r),  m = round(x / ln 2),  r = x − m·ln 2 (in two parts),
//   float: degree-6 polynomial (≈1 ulp); double: Cephes's rational form (≈1e-16 relative).
// Meant for the scores minus their row maximum (≤ 0). Below kExpFlushBelow the result is 0:
// exp(x) < 2^-64 (float) or 2^-200 (double) of the row maximum's exp(0) = 1 is far below a
// weight's precision, and flushing it keeps every weight, and every product of a weight with a
// value, a normal number: arithmetic on subnormals is about 100 times slower, and peaked rows
// (large scores) made the value product 100 times slower before.
#pragma once

#include "relpos/matrix_types.hpp"

namespace relpos {

// exp(x) is 0 for x below this: -64 ln 2 for float, -200 ln 2 for double.
template <typename T>
constexpr T kExpFlushBelow = sizeof(T) == 4 ? T(-44.3614195558365) : T(-138.629436111989);

// row[j] = exp(row[j] - shift) for j < count; returns the sum of the new values.
template <typename T>
T expShiftedInPlace(T* row, Index count, T shift);

// The stable softmax of one row, in place: exp(x - max) · (1 / sum). Where scores overflowed,
// its limit: the +inf entries share the weight; an all −inf row is uniform; NaN stays NaN.
template <typename T>
void softmaxInPlace(T* row, Index count);

// The scalar forms, always available (tests compare them with the vector ones).
template <typename T>
void softmaxInPlaceScalar(T* row, Index count);

template <typename T>
T expShiftedInPlaceScalar(T* row, Index count, T shift);

}  // namespace relpos
