// What every binding file shares: addresses of WASM memory as JS hands them over, and the check
// of a matrix's region against the shape a request implies (a mismatch is a message, never a
// write).
#pragma once

#include <emscripten/heap.h>

#include <cstdint>
#include <string>

#include "relpos/matrix_types.hpp"

namespace relpos::bindings {

using Address = std::uintptr_t;

template <typename T>
T* at(Address address) {
  return reinterpret_cast<T*>(address);  // NOLINT(performance-no-int-to-ptr)
}

template <typename T>
MatrixMap<T> matrixAt(Address address, int rows, int cols) {
  return MatrixMap<T>(at<T>(address), rows, cols);
}

template <typename T>
ConstMatrixMap<T> constMatrixAt(Address address, int rows, int cols) {
  return ConstMatrixMap<T>(at<const T>(address), rows, cols);
}

// A row-major matrix in WASM memory: rows x cols elements in the `bytes` reserved at `address`
// (0 x 0 at 0 for none). JS fills every field (an Embind value_object).
struct MatrixBuffer {
  Address address;
  int rows, cols;
  double bytes;
};

// Collects what is wrong with a request's buffers; the first message wins.
class BufferCheck {
 public:
  // `name` must be rows x cols (either may be -1: any) of `size`-byte elements, inside the heap,
  // aligned, its reserved bytes enough for its shape.
  void shape(const char* name, const MatrixBuffer& b, Index rows, Index cols, std::size_t size) {
    if (!error_.empty()) return;
    if ((rows >= 0 && b.rows != rows) || (cols >= 0 && b.cols != cols) || b.rows < 0 ||
        b.cols < 0) {
      fail(std::string(name) + " is " + dims(b.rows, b.cols) + ", the request needs " +
           dims(rows, cols));
      return;
    }
    const double needed = static_cast<double>(b.rows) * b.cols * static_cast<double>(size);
    if (needed == 0) return;
    if (b.bytes < needed) {
      fail(std::string(name) + " needs " + number(needed) + " bytes, " + number(b.bytes) +
           " reserved");
    } else if (b.address == 0 || b.address % size != 0 ||
               static_cast<double>(b.address) + b.bytes >
                   static_cast<double>(emscripten_get_heap_size())) {
      fail(std::string(name) + " lies outside WASM memory or is misaligned");
    }
  }
  // `name` must be empty (0 x 0).
  void none(const char* name, const MatrixBuffer& b, const char* because) {
    if (error_.empty() && (b.rows != 0 || b.cols != 0)) {
      fail(std::string(name) + " must be 0 x 0: " + because);
    }
  }
  void require(bool condition, const std::string& message) {
    if (error_.empty() && !condition) fail(message);
  }
  const std::string& error() const { return error_; }

 private:
  void fail(std::string message) { error_ = std::move(message); }
  static std::string number(double x) { return std::to_string(static_cast<long long>(x)); }
  static std::string dims(Index rows, Index cols) {
    const auto side = [](Index x) { return x < 0 ? std::string("any") : std::to_string(x); };
    return side(rows) + " x " + side(cols);
  }
  std::string error_;
};

}  // namespace relpos::bindings
