// The position schemes' own calls (docs/schemes.md): T5's buckets, ALiBi's slopes, the sinusoidal
// encoding and RoPE's rotation (attention() with a scheme is in attention.cpp).
// web/api/schemes.js validates every argument before calling.
#include <emscripten/bind.h>

#include <cstdint>

#include "buffers.hpp"
#include "relpos/position_schemes.hpp"

namespace {

using relpos::bindings::Address;
using relpos::bindings::at;
using relpos::bindings::constMatrixAt;
using relpos::bindings::matrixAt;

void t5BucketsInto(int n, const relpos::T5BucketParams& params, Address out) {
  relpos::t5Buckets(params, relpos::OffsetMatrixMap(at<std::int32_t>(out), n, n));
}

void alibiSlopesInto(int heads, Address out) {
  relpos::alibiSlopes(Eigen::Map<relpos::Vector<double>>(at<double>(out), heads));
}

void sinusoidalInto(int n, int d, double base, Address out) {
  relpos::sinusoidalEncoding<double>(base, 0, matrixAt<double>(out, n, d));
}

// One rope() call: x (n x d) rotated by positions (n float64) into out.
struct RopeRequest {
  int n;
  int d;
  double base;
  relpos::RopeLayout layout;
  Address x, positions, out;
};

template <typename T>
void ropeInto(const RopeRequest& r) {
  relpos::applyRope<T>(constMatrixAt<T>(r.x, r.n, r.d),
                       Eigen::Map<const relpos::Vector<double>>(at<const double>(r.positions), r.n),
                       relpos::RopeParams{r.base, r.layout}, matrixAt<T>(r.out, r.n, r.d));
}

}  // namespace

EMSCRIPTEN_BINDINGS(relpos_schemes) {
  emscripten::value_object<RopeRequest>("RopeRequest")
      .field("n", &RopeRequest::n)
      .field("d", &RopeRequest::d)
      .field("base", &RopeRequest::base)
      .field("layout", &RopeRequest::layout)
      .field("x", &RopeRequest::x)
      .field("positions", &RopeRequest::positions)
      .field("out", &RopeRequest::out);
  emscripten::function("t5BucketsInto", &t5BucketsInto);
  emscripten::function("alibiSlopesInto", &alibiSlopesInto);
  emscripten::function("sinusoidalInto", &sinusoidalInto);
  emscripten::function("ropeIntoFloat64", &ropeInto<double>);
}
