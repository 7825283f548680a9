// The position schemes' own calls (docs/schemes.md): T5's buckets, ALiBi's slopes, the sinusoidal
// encoding and RoPE's rotation (attention() with a scheme is in attention.cpp). Each checks its
// regions (buffers.hpp) and returns what is wrong, writing nothing, or an empty string;
// web/api/schemes.js validates every argument before calling.
#include <emscripten/bind.h>

#include <cstdint>
#include <string>

#include "buffers.hpp"
#include "relpos/position_schemes.hpp"
#include "relpos/scheme_table.hpp"

namespace relpos::bindings {
namespace {

// out: n x n int32, the bucket of j - i.
std::string t5BucketsInto(const relpos::T5BucketParams& params, const MatrixBuffer& out) {
  BufferCheck c;
  c.holds(relpos::checkScheme(PositionScheme::kT5, params, 0));
  c.matrix<std::int32_t>("out", out, out.rows, out.rows);
  if (!c.ok()) return c.error();
  relpos::t5Buckets(params,
                    relpos::OffsetMatrixMap(at<std::int32_t>(out.address), out.rows, out.rows));
  return {};
}

// out: 1 x heads float64.
std::string alibiSlopesInto(const MatrixBuffer& out) {
  BufferCheck c;
  c.matrix<double>("out", out, 1, -1);
  c.require(out.cols >= 1 && out.cols <= relpos::kMaxAlibiHeads,
            "out must hold 1 to " + std::to_string(relpos::kMaxAlibiHeads) + " heads");
  if (!c.ok()) return c.error();
  relpos::alibiSlopes(vectorAt<double>(out));
  return {};
}

// out: n x d float64.
std::string sinusoidalInto(const relpos::SinusoidalParams& params, const MatrixBuffer& out) {
  BufferCheck c;
  c.inRange(relpos::outOfRange(relpos::Setting::kBase, params.base));
  c.matrix<double>("out", out, -1, -1);
  if (!c.ok()) return c.error();
  relpos::sinusoidalEncoding<double>(params.base, 0, matrixAt<double>(out));
  return {};
}

// One rope() call: x (n x d, d even) rotated by positions (1 x n float64) into out (n x d).
struct RopeRequest {
  relpos::RopeParams params;
  MatrixBuffer x, positions, out;
};

template <typename T>
std::string ropeInto(const RopeRequest& r) {
  BufferCheck c;
  c.inRange(relpos::outOfRange(relpos::Setting::kBase, r.params.base));
  c.matrix<T>("x", r.x, -1, -1);
  // RoPE's width rule is the scheme table's (it rotates pairs): one rotation of all of x.
  c.require(relpos::checkScheme(PositionScheme::kRope, {}, static_cast<int>(r.x.cols)).empty(),
            "x must have an even number of columns");
  c.matrix<double>("positions", r.positions, 1, r.x.rows);
  c.matrix<T>("out", r.out, r.x.rows, r.x.cols);
  if (!c.ok()) return c.error();
  relpos::applyRope<T>(constMatrixAt<T>(r.x), vectorAt<double>(r.positions), r.params,
                       matrixAt<T>(r.out));
  return {};
}

// Every name of this file that JS sees.
void registerSchemes() {
  registerValueObject("RopeRequest", field("params", &RopeRequest::params),
                      field("x", &RopeRequest::x), field("positions", &RopeRequest::positions),
                      field("out", &RopeRequest::out));
  registerFunctions(
      bound("t5BucketsInto", &t5BucketsInto), bound("alibiSlopesInto", &alibiSlopesInto),
      bound("sinusoidalInto", &sinusoidalInto), bound("ropeIntoFloat64", &ropeInto<double>));
}

}  // namespace
}  // namespace relpos::bindings

EMSCRIPTEN_BINDINGS(relpos_schemes) { relpos::bindings::registerSchemes(); }
