// The only C++ that knows JavaScript. Each function takes the addresses of buffers the JS layer
// has laid out in WASM memory (web/api/wasm-arena.js) and already validated (web/api/validate.js):
// nothing here checks arguments, and nothing here throws.
#include <emscripten/bind.h>
#include <malloc.h>

#include <cstdint>

#include "relpos/attention.hpp"
#include "relpos/example_scenario.hpp"
#include "relpos/locality_profile.hpp"
#include "relpos/numpy_random.hpp"
#include "relpos/relative_offsets.hpp"

namespace {

using relpos::Index;
using Address = std::uintptr_t;

template <typename T>
T* at(Address address) {
  return reinterpret_cast<T*>(address);  // NOLINT(performance-no-int-to-ptr)
}

template <typename T>
relpos::MatrixMap<T> matrixAt(Address address, int rows, int cols) {
  return relpos::MatrixMap<T>(at<T>(address), rows, cols);
}

template <typename T>
relpos::ConstMatrixMap<T> constMatrixAt(Address address, int rows, int cols) {
  return relpos::ConstMatrixMap<T>(at<const T>(address), rows, cols);
}

void randnInto(std::uint32_t seed, double count, Address out) {
  relpos::NumpyRandom random(seed);
  random.fillGaussian(at<double>(out), static_cast<std::size_t>(count));
}

void relativeOffsetsInto(int n, int maxDistance, Address out) {
  relpos::relativeOffsets(maxDistance, relpos::OffsetMatrixMap(at<std::int32_t>(out), n, n));
}

// Scratch kept between calls; dropped after a call that needed more than this many elements.
constexpr Index kWorkspaceElementsKept = Index{1} << 22;

relpos::AttentionTimings lastTimings;

// The stage times of the last attention call, in milliseconds (see relpos::AttentionTimings).
emscripten::val lastAttentionTimings() {
  emscripten::val out = emscripten::val::object();
  out.set("contentScores", lastTimings.contentScores);
  out.set("positionBiases", lastTimings.positionBiases);
  out.set("softmax", lastTimings.softmax);
  out.set("valueProduct", lastTimings.valueProduct);
  out.set("valuePosition", lastTimings.valuePosition);
  return out;
}

template <typename T>
void attentionInto(int n, int dK, int dV, int tableRows, bool causal, bool hasRelativeValues,
                   Address queries, Address keys, Address relativeKeys, Address values,
                   Address relativeValues, Address contentScores, Address positionBiases,
                   Address combinedScores, Address contentWeights, Address combinedWeights,
                   Address output) {
  static relpos::AttentionWorkspace<T> workspace;
  const int valueTableRows = hasRelativeValues ? tableRows : 0;
  const relpos::AttentionInputs<T> in{constMatrixAt<T>(queries, n, dK),
                                      constMatrixAt<T>(keys, n, dK),
                                      constMatrixAt<T>(relativeKeys, tableRows, dK),
                                      constMatrixAt<T>(values, dV == 0 ? 0 : n, dV),
                                      constMatrixAt<T>(relativeValues, valueTableRows,
                                                       hasRelativeValues ? dV : 0),
                                      causal};
  relpos::AttentionPanels<T> panels{matrixAt<T>(contentScores, n, n),
                                    matrixAt<T>(positionBiases, n, n),
                                    matrixAt<T>(combinedScores, n, n),
                                    matrixAt<T>(contentWeights, n, n),
                                    matrixAt<T>(combinedWeights, n, n),
                                    matrixAt<T>(output, dV == 0 ? 0 : n, dV)};
  relpos::computeAttention(in, workspace, panels, &lastTimings);
  if (workspace.elements() > kWorkspaceElementsKept) {
    workspace = relpos::AttentionWorkspace<T>();
  }
}

void localityProfileInto(std::uint32_t seed, int dK, int maxDistance, double noise, double width,
                         double asymmetry, Address embeddings, Address query, Address profile) {
  const relpos::LocalityProfileParams params{seed, dK, maxDistance, noise, width, asymmetry};
  const int tableRows = 2 * maxDistance + 1;
  relpos::localityProfile(params, matrixAt<double>(embeddings, tableRows, dK),
                          Eigen::Map<relpos::Vector<double>>(at<double>(query), dK),
                          Eigen::Map<relpos::Vector<double>>(at<double>(profile), tableRows));
}

// One example() call, named field by field on both sides (web/api/index.js builds it).
struct ExampleRequest {
  std::uint32_t seed;
  int n;
  int dModel;
  int dK;
  int maxDistance;
  bool stable;     // the stable draw (else the handbook's)
  bool locality;   // a^K is the locality table (else as drawn)
  bool sameQuery;  // every query row is the uniform query
  double noise;
  double width;
  double asymmetry;
  double strength;
  Address tokenBytes;    // UTF-8, the tokens one after another (stable draw)
  Address tokenLengths;  // n int32 byte lengths
};

// Where example() writes: one buffer per matrix of relpos::ExampleScenario.
struct ExampleBuffers {
  Address x, queryWeights, keyWeights, valueWeights, relativeKeys, relativeValues;
  Address queries, keys, values, profile;
};

void exampleScenarioInto(const ExampleRequest& r, const ExampleBuffers& b) {
  const int tableRows = 2 * r.maxDistance + 1;
  relpos::ScenarioSettings settings;
  settings.seed = r.seed;
  settings.draw = r.stable ? relpos::ScenarioDraw::kStable : relpos::ScenarioDraw::kHandbook;
  settings.table = r.locality ? relpos::PositionTable::kLocality : relpos::PositionTable::kRandom;
  settings.locality = {r.noise, r.width, r.asymmetry, r.strength};
  settings.sameQuery = r.sameQuery;
  relpos::ExampleScenario scenario{
      matrixAt<double>(b.x, r.n, r.dModel),
      matrixAt<double>(b.queryWeights, r.dModel, r.dK),
      matrixAt<double>(b.keyWeights, r.dModel, r.dK),
      matrixAt<double>(b.valueWeights, r.dModel, r.dK),
      matrixAt<double>(b.relativeKeys, tableRows, r.dK),
      matrixAt<double>(b.relativeValues, tableRows, r.dK),
      matrixAt<double>(b.queries, r.n, r.dK),
      matrixAt<double>(b.keys, r.n, r.dK),
      matrixAt<double>(b.values, r.n, r.dK),
      Eigen::Map<relpos::Vector<double>>(at<double>(b.profile), tableRows)};
  relpos::drawExampleScenario(settings,
                              relpos::Utf8Tokens{at<const char>(r.tokenBytes),
                                                 at<const std::int32_t>(r.tokenLengths)},
                              scenario);
}

// Bytes of WASM heap in use by malloc: lets tests prove that repeated calls leave memory flat.
double heapBytesInUse() { return static_cast<double>(mallinfo().uordblks); }

}  // namespace

EMSCRIPTEN_BINDINGS(relpos) {
  emscripten::value_object<ExampleRequest>("ExampleRequest")
      .field("seed", &ExampleRequest::seed)
      .field("n", &ExampleRequest::n)
      .field("dModel", &ExampleRequest::dModel)
      .field("dK", &ExampleRequest::dK)
      .field("maxDistance", &ExampleRequest::maxDistance)
      .field("stable", &ExampleRequest::stable)
      .field("locality", &ExampleRequest::locality)
      .field("sameQuery", &ExampleRequest::sameQuery)
      .field("noise", &ExampleRequest::noise)
      .field("width", &ExampleRequest::width)
      .field("asymmetry", &ExampleRequest::asymmetry)
      .field("strength", &ExampleRequest::strength)
      .field("tokenBytes", &ExampleRequest::tokenBytes)
      .field("tokenLengths", &ExampleRequest::tokenLengths);
  emscripten::value_object<ExampleBuffers>("ExampleBuffers")
      .field("x", &ExampleBuffers::x)
      .field("queryWeights", &ExampleBuffers::queryWeights)
      .field("keyWeights", &ExampleBuffers::keyWeights)
      .field("valueWeights", &ExampleBuffers::valueWeights)
      .field("relativeKeys", &ExampleBuffers::relativeKeys)
      .field("relativeValues", &ExampleBuffers::relativeValues)
      .field("queries", &ExampleBuffers::queries)
      .field("keys", &ExampleBuffers::keys)
      .field("values", &ExampleBuffers::values)
      .field("profile", &ExampleBuffers::profile);
  emscripten::function("randnInto", &randnInto);
  emscripten::function("relativeOffsetsInto", &relativeOffsetsInto);
  emscripten::function("attentionIntoFloat64", &attentionInto<double>);
  emscripten::function("attentionIntoFloat32", &attentionInto<float>);
  emscripten::function("localityProfileInto", &localityProfileInto);
  emscripten::function("exampleScenarioInto", &exampleScenarioInto);
  emscripten::function("heapBytesInUse", &heapBytesInUse);
  emscripten::function("lastAttentionTimings", &lastAttentionTimings);
}
