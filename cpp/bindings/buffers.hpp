// What every binding file shares: regions of WASM memory as JS hands them over, the check of a
// region against the shape a call implies (a mismatch is a message, never a write), and the
// registration of a struct's fields and of functions from one list each.
#pragma once

#include <emscripten/bind.h>
#include <emscripten/heap.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "relpos/matrix_types.hpp"
#include "relpos/setting_ranges.hpp"

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
// (0 x 0 at 0 for none). Every binding takes its memory as these, checked (BufferCheck) before
// anything is read or written; JS fills every field (an Embind value_object, "MatrixBuffer").
struct MatrixBuffer {
  Address address = 0;
  int rows = 0, cols = 0;
  double bytes = 0;
};

// The region rows x cols elements of T at `data` occupy: the core's own memory, for JS to read.
template <typename T>
MatrixBuffer regionOf(const T* data, Index rows, Index cols) {
  return MatrixBuffer{reinterpret_cast<Address>(data), static_cast<int>(rows),
                      static_cast<int>(cols), static_cast<double>(rows * cols * sizeof(T))};
}

template <typename T>
MatrixMap<T> matrixAt(const MatrixBuffer& b) {
  return matrixAt<T>(b.address, b.rows, b.cols);
}

template <typename T>
ConstMatrixMap<T> constMatrixAt(const MatrixBuffer& b) {
  return constMatrixAt<T>(b.address, b.rows, b.cols);
}

// A region's elements as a column (a 1 x n or n x 1 region).
template <typename T>
Eigen::Map<Vector<T>> vectorAt(const MatrixBuffer& b) {
  return Eigen::Map<Vector<T>>(at<T>(b.address), Index{b.rows} * b.cols);
}

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
  // A check of the core's answer: what is wrong, or "" for nothing.
  void holds(std::string refusal) {
    if (error_.empty() && !refusal.empty()) fail(std::move(refusal));
  }
  // The core's range checks (relpos/setting_ranges.hpp): the setting out of its range, or nullptr.
  void inRange(const char* outOfRange) {
    if (error_.empty() && outOfRange != nullptr) fail(relpos::outOfRangeText(outOfRange));
  }
  // Every element of `name` is a T: shape() with sizeof(T).
  template <typename T>
  void matrix(const char* name, const MatrixBuffer& b, Index rows, Index cols) {
    shape(name, b, rows, cols, sizeof(T));
  }
  const std::string& error() const { return error_; }
  bool ok() const { return error_.empty(); }

 private:
  void fail(std::string message) { error_ = std::move(message); }
  static std::string number(double x) { return std::to_string(static_cast<long long>(x)); }
  static std::string dims(Index rows, Index cols) {
    const auto side = [](Index x) { return x < 0 ? std::string("any") : std::to_string(x); };
    return side(rows) + " x " + side(cols);
  }
  std::string error_;
};

// One field of S, by the name JS gives it.
template <typename S, typename M>
struct Field {
  const char* name;
  M S::*member;
};
template <typename S, typename M>
constexpr Field<S, M> field(const char* name, M S::*member) {
  return {name, member};
}

// S as an Embind value_object (a plain JS object both ways) with the listed fields.
template <typename S, typename... M>
void registerValueObject(const char* name, Field<S, M>... fields) {
  emscripten::value_object<S> object(name);
  (object.field(fields.name, fields.member), ...);
}

// The structs whose default-constructed values are the JS API's defaults, by name: every struct
// registered with registerSettings, in every binding file linked in.
inline std::vector<std::pair<const char*, emscripten::val (*)()>>& settingsDefaults() {
  static std::vector<std::pair<const char*, emscripten::val (*)()>> all;
  return all;
}

// S as a value object (registerValueObject) whose default-constructed value is one of the core's
// defaults: coreDefaults() hands it to JS under `name`.
template <typename S, typename... M>
void registerSettings(const char* name, Field<S, M>... fields) {
  registerValueObject(name, fields...);
  settingsDefaults().emplace_back(name, [] { return emscripten::val(S{}); });
}

// { [name]: S{} } for every struct registered with registerSettings.
inline emscripten::val coreDefaults() {
  emscripten::val out = emscripten::val::object();
  for (const auto& [name, make] : settingsDefaults()) out.set(name, make());
  return out;
}

// One free function, by the name JS calls it.
template <typename F>
struct Function {
  const char* name;
  F* pointer;
};
template <typename F>
constexpr Function<F> bound(const char* name, F* pointer) {
  return {name, pointer};
}

template <typename... F>
void registerFunctions(Function<F>... functions) {
  (emscripten::function(functions.name, functions.pointer), ...);
}

}  // namespace relpos::bindings
