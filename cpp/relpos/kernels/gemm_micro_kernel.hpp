// The GEMM micro-kernel, one source for every product of the core (docs/kernels.md): a block of
// up to 4 rows of C times every panel of a packed right operand, 4 rows × 2 vectors (8
// accumulators) per panel, each step a broadcast of one scalar of A per row (`loadsplat`, as
// XNNPACK's WebAssembly SIMD f32 GEMM kernels) times one panel row. The float32 instance is the
// kernels module's export (gemm_f32_4x8.cpp); packed_gemm.cpp instantiates the float64 one.
// Vector extensions and builtins only, no headers: clang-19 builds it without a libc.
#pragma once

namespace relpos::kernels {

template <typename T>
struct Vector128 {
  typedef T type __attribute__((vector_size(16)));
};

// Rows of C per block, and columns per panel (two vectors: 8 floats, 4 doubles).
constexpr int kTileRows = 4;
template <typename T>
constexpr int kTileColumns = 32 / static_cast<int>(sizeof(T));

template <typename T>
inline typename Vector128<T>::type loadVector(const T* from) {
  typename Vector128<T>::type v;
  __builtin_memcpy(&v, from, sizeof v);
  return v;
}

template <typename T>
inline void storeVector(T* to, typename Vector128<T>::type v) {
  __builtin_memcpy(to, &v, sizeof v);
}

// The broadcast of one scalar (v128.load32_splat when it is loaded from memory).
template <typename T>
inline typename Vector128<T>::type splat(T x) {
  if constexpr (sizeof(T) == 4) {
    return typename Vector128<T>::type{x, x, x, x};
  } else {
    return typename Vector128<T>::type{x, x};
  }
}

// sum + a · b: one rounding with relaxed SIMD (f32x4.relaxed_madd), two otherwise.
template <typename T>
inline typename Vector128<T>::type multiplyAdd(typename Vector128<T>::type a,
                                               typename Vector128<T>::type b,
                                               typename Vector128<T>::type sum) {
#if defined(__wasm_relaxed_simd__)
  if constexpr (sizeof(T) == 4) return __builtin_wasm_relaxed_madd_f32x4(a, b, sum);
#endif
  return sum + a * b;
}

// c[r][j] = alpha · Σ_p a[r·rowStep + p·depthStep] · b[p][j] (+ c[r][j] with accumulate), for
// r < rows (1 … kTileRows) and j < cols, where column j of b is lane j % kTileColumns of panel
// j / kTileColumns (panelStride values apart, depth rows of kTileColumns, zero-padded). Each
// element's sum runs in order of p, then is multiplied by alpha, then c is added: the rows, the
// columns and the panel an element falls in do not change how it rounds. Rows past `rows` repeat
// the last row (never stored); columns past `cols` are not stored.
template <typename T>
inline void multiplyTile(int rows, int cols, int depth, const T* a, int rowStep, int depthStep,
                         const T* panels, int panelStride, T alpha, int accumulate, T* c,
                         int cStride) {
  using V = typename Vector128<T>::type;
  constexpr int lanes = 16 / static_cast<int>(sizeof(T));
  constexpr int width = kTileColumns<T>;
  const T* rowOf[kTileRows];
  for (int r = 0; r < kTileRows; ++r) rowOf[r] = a + (r < rows ? r : rows - 1) * rowStep;
  for (int j = 0; j < cols; j += width, panels += panelStride) {
    V sum[kTileRows][2] = {};
    for (int p = 0; p < depth; ++p) {
      const V b0 = loadVector(panels + width * p);
      const V b1 = loadVector(panels + width * p + lanes);
#pragma GCC unroll 4  // (also read by Clang) the accumulators stay in registers even at -O2
      for (int r = 0; r < kTileRows; ++r) {
        const V x = splat(rowOf[r][p * depthStep]);
        sum[r][0] = multiplyAdd<T>(x, b0, sum[r][0]);
        sum[r][1] = multiplyAdd<T>(x, b1, sum[r][1]);
      }
    }
    const int stored = cols - j < width ? cols - j : width;
#pragma GCC unroll 4
    for (int r = 0; r < kTileRows; ++r) {
      if (r >= rows) break;
      T* row = c + r * cStride + j;
      V v0 = alpha * sum[r][0];
      V v1 = alpha * sum[r][1];
      if (stored == width) {
        if (accumulate) {
          v0 += loadVector(row);
          v1 += loadVector(row + lanes);
        }
        storeVector(row, v0);
        storeVector(row + lanes, v1);
      } else {
        for (int q = 0; q < stored; ++q) {
          const T x = q < lanes ? v0[q] : v1[q - lanes];
          row[q] = accumulate ? row[q] + x : x;
        }
      }
    }
  }
}

}  // namespace relpos::kernels
