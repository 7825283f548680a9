// The softmax of a row, and the exp inside it: Eigen 3.4 has no WebAssembly SIMD backend and its exp runs
// one lane at a time there, so the softmax's exp is written here: a vector kernel on 128-bit
// vectors (WASM SIMD in the module, SSE natively; relpos/simd_vectors.hpp) and a scalar twin
// for the tails. Both evaluate the same Cephes-style approximation, so each element agrees bit
// for bit (only the order of the sum differs):
//   exp(x) = 2^m · p(r),  m = round(x / ln 2),  r = x − m·ln 2 (in two parts),
//   float: degree-6 polynomial (≈1 ulp); double: Cephes's rational form (≈1e-16 relative).
// Meant for the scores minus their row maximum (≤ 0): below exp's normal range (x < −87.3 for
// float, −708.4 for double) the result is about the smallest normal number (1.2e-38 or
// 2.2e-308) where libm gives a subnormal or 0: a softmax cannot tell them apart, and
// arithmetic on subnormals is many times slower.
#pragma once

#include "relpos/matrix_types.hpp"

namespace relpos {

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
