// attention() and the other calls of the page's first screen: the offsets, the profile, the
// example scenario, the stream. The only C++ that knows JavaScript, with schemes.cpp and
// training.cpp beside it. Each function takes regions of WASM memory the JS layer laid out and
// validated (web/api/); attention() checks every region against its request first
// (buffers.hpp) and returns what is wrong, writing nothing, or an empty string.
#include <emscripten/bind.h>
#include <malloc.h>

#include <cstdint>
#include <string>

#include "buffers.hpp"
#include "relpos/attention.hpp"
#include "relpos/example_scenario.hpp"
#include "relpos/locality_profile.hpp"
#include "relpos/model_config.hpp"
#include "relpos/numpy_random.hpp"
#include "relpos/position_schemes.hpp"
#include "relpos/relative_offsets.hpp"
#include "relpos/synthetic_tasks.hpp"

namespace {

using relpos::Index;
using relpos::PositionKind;
using relpos::PositionScheme;
using relpos::bindings::Address;
using relpos::bindings::at;
using relpos::bindings::BufferCheck;
using relpos::bindings::constMatrixAt;
using relpos::bindings::matrixAt;
using relpos::bindings::MatrixBuffer;

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

// One attention() call (web/api/index.js builds it): the settings, then every region by the
// names of AttentionInputs, PositionTerm and AttentionPanels; a panel 0 x 0 was not asked for.
struct AttentionRequest {
  int heads;  // side by side: queries n_q x (heads d_k), and so on
  bool causal;
  int firstQuery;  // queries firstQuery ... firstQuery + n_q - 1 of the n keys
  int queryRows;   // n_q
  double scale;    // 0: 1/sqrt(d_k)
  PositionScheme scheme;
  relpos::T5BucketParams t5;
  double base;  // RoPE, sinusoidal
  relpos::RopeLayout layout;
  MatrixBuffer queries, keys, values;                      // every scheme but sinusoidal
  MatrixBuffer relativeKeys, relativeValues;               // Shaw
  MatrixBuffer x, queryWeights, keyWeights, valueWeights;  // sinusoidal
  MatrixBuffer bucketBiases;                               // T5: 1 or heads rows of numBuckets
  MatrixBuffer slopes;                                     // ALiBi: 1 x 1 or 1 x heads, float64
  MatrixBuffer keyPadding, allowed;                        // bytes: 1 x n, n_q x n
  MatrixBuffer contentScores, positionBiases, combinedScores, contentWeights, combinedWeights;
  MatrixBuffer output;
};

// What is wrong with r for scalar size `size`, or an empty string.
std::string checkAttention(const AttentionRequest& r, std::size_t size) {
  BufferCheck c;
  const int h = r.heads;
  c.require(h >= 1, "heads must be at least 1");
  c.require(r.queryRows >= 0 && r.firstQuery >= 0, "queryRows and firstQuery must be >= 0");
  if (!c.error().empty()) return c.error();
  const bool sinusoidal = r.scheme == PositionScheme::kSinusoidal;
  const bool shaw = r.scheme == PositionScheme::kShaw;
  int n = 0;
  int dK = 0;
  int dV = 0;
  if (sinusoidal) {
    n = r.x.rows;
    c.shape("x", r.x, n, -1, size);
    c.shape("queryWeights", r.queryWeights, r.x.cols, -1, size);
    c.shape("keyWeights", r.keyWeights, r.x.cols, r.queryWeights.cols, size);
    if (r.valueWeights.rows != 0 || r.valueWeights.cols != 0) {
      c.shape("valueWeights", r.valueWeights, r.x.cols, -1, size);
    }
    dK = r.queryWeights.cols;
    dV = r.valueWeights.cols;
    for (const auto* name : {"queries", "keys", "values"}) {
      const MatrixBuffer& b = std::string(name) == "queries" ? r.queries
                              : std::string(name) == "keys"  ? r.keys
                                                             : r.values;
      c.none(name, b, "the sinusoidal scheme projects x");
    }
  } else {
    n = r.keys.rows;
    c.shape("queries", r.queries, r.queryRows, -1, size);
    c.shape("keys", r.keys, n, r.queries.cols, size);
    if (r.values.rows != 0 || r.values.cols != 0) c.shape("values", r.values, n, -1, size);
    dK = r.queries.cols;
    dV = r.values.cols;
    for (const auto* name : {"x", "queryWeights", "keyWeights", "valueWeights"}) {
      const MatrixBuffer& b = std::string(name) == "x"              ? r.x
                              : std::string(name) == "queryWeights" ? r.queryWeights
                              : std::string(name) == "keyWeights"   ? r.keyWeights
                                                                    : r.valueWeights;
      c.none(name, b, "only the sinusoidal scheme reads it");
    }
  }
  c.require(dK % h == 0 && dV % h == 0, "the widths must be multiples of heads");
  c.require(r.firstQuery + r.queryRows <= n, "firstQuery + queryRows must be at most n");
  if (!c.error().empty()) return c.error();
  const int headDK = dK / h;
  const int headDV = dV / h;
  if (shaw) {
    const int tableRows = r.relativeKeys.rows;
    c.require(tableRows % 2 == 1, "relativeKeys must have 2k + 1 rows");
    c.shape("relativeKeys", r.relativeKeys, tableRows, r.relativeKeys.cols, size);
    c.require(r.relativeKeys.cols == headDK || r.relativeKeys.cols == dK,
              "relativeKeys must be d_k or heads d_k wide");
    if (r.relativeValues.rows != 0 || r.relativeValues.cols != 0) {
      c.require(dV > 0, "relativeValues needs values");
      c.shape("relativeValues", r.relativeValues, tableRows, r.relativeValues.cols, size);
      c.require(r.relativeValues.cols == headDV || r.relativeValues.cols == dV,
                "relativeValues must be d_v or heads d_v wide");
    }
  } else {
    c.none("relativeKeys", r.relativeKeys, "only Shaw's scheme reads it");
    c.none("relativeValues", r.relativeValues, "only Shaw's scheme reads it");
  }
  if (r.scheme == PositionScheme::kT5) {
    const int half = r.t5.bidirectional ? r.t5.numBuckets / 2 : r.t5.numBuckets;
    c.require(r.t5.numBuckets >= (r.t5.bidirectional ? 4 : 2) && r.t5.maxDistance > half / 2,
              "T5 needs an exact bucket a side and maxDistance past them");
    c.require(r.bucketBiases.rows == 1 || r.bucketBiases.rows == h,
              "bucketBiases must have 1 or heads rows");
    c.shape("bucketBiases", r.bucketBiases, r.bucketBiases.rows, r.t5.numBuckets, size);
  } else {
    c.none("bucketBiases", r.bucketBiases, "only T5 reads it");
  }
  if (r.scheme == PositionScheme::kAlibi) {
    c.require(r.slopes.cols == 1 || r.slopes.cols == h, "slopes must hold 1 or heads values");
    c.shape("slopes", r.slopes, 1, r.slopes.cols, sizeof(double));
  } else {
    c.none("slopes", r.slopes, "only ALiBi reads it");
  }
  c.require(r.scheme != PositionScheme::kRope || headDK % 2 == 0, "RoPE needs an even d_k");
  c.require(r.scheme != PositionScheme::kAbsolute,
            "attention() takes the learned absolute table's x + p as its inputs (scheme none)");
  const auto optional = [&](const char* name, const MatrixBuffer& b, int rows, int cols,
                            std::size_t elementSize) {
    if (b.rows != 0 || b.cols != 0) c.shape(name, b, rows, cols, elementSize);
  };
  optional("keyPadding", r.keyPadding, 1, n, 1);
  optional("allowed", r.allowed, r.queryRows, n, 1);
  for (const auto& [name, b] :
       {std::pair<const char*, const MatrixBuffer&>{"contentScores", r.contentScores},
        {"positionBiases", r.positionBiases},
        {"combinedScores", r.combinedScores},
        {"contentWeights", r.contentWeights},
        {"combinedWeights", r.combinedWeights}}) {
    optional(name, b, h * r.queryRows, n, size);
  }
  if (dV == 0) c.none("output", r.output, "there are no values");
  optional("output", r.output, r.queryRows, dV, size);
  return c.error();
}

template <typename T>
relpos::MatrixMap<T> panelAt(const MatrixBuffer& b) {
  return matrixAt<T>(b.address, b.rows, b.cols);
}

template <typename T>
relpos::ConstMatrixMap<T> inputAt(const MatrixBuffer& b) {
  return constMatrixAt<T>(b.address, b.rows, b.cols);
}

relpos::ConstFlagMap flagsAt(const MatrixBuffer& b) {
  return relpos::ConstFlagMap(b.rows == 0 ? nullptr : at<const std::uint8_t>(b.address), b.rows,
                              b.cols);
}

// Every scheme through computeHeads: the request's scheme becomes its PositionTerm.
template <typename T>
std::string attentionInto(const AttentionRequest& r) {
  std::string error = checkAttention(r, sizeof(T));
  if (!error.empty()) return error;
  static relpos::AttentionWorkspace<T> workspace;
  static relpos::AbsoluteInputs<T> absolute;
  static relpos::Vector<T> biasByOffset;
  const bool sinusoidal = r.scheme == PositionScheme::kSinusoidal;
  const Index n = sinusoidal ? r.x.rows : r.keys.rows;
  relpos::PositionTerm<T> position;
  switch (r.scheme) {
    case PositionScheme::kShaw:
      position.kind = PositionKind::kShaw;
      break;
    case PositionScheme::kT5:
    case PositionScheme::kAlibi: {
      // One row of biases by offset per head, or one for all.
      const bool t5 = r.scheme == PositionScheme::kT5;
      const Index rows = t5 ? r.bucketBiases.rows : r.slopes.cols;
      biasByOffset.resize(rows * (2 * n - 1));
      for (Index row = 0; row < rows; ++row) {
        T* out = biasByOffset.data() + row * (2 * n - 1);
        if (t5) {
          relpos::t5BiasByOffset<T>(
              r.t5, at<const T>(r.bucketBiases.address) + row * r.t5.numBuckets, n, out);
        } else {
          relpos::alibiBiasByOffset<T>(at<const double>(r.slopes.address)[row], n, out);
        }
      }
      position.kind = PositionKind::kOffsetBias;
      position.biasByOffset = biasByOffset.data();
      position.biasHeadStride = rows == 1 ? 0 : 2 * n - 1;
      break;
    }
    case PositionScheme::kRope:
      position.kind = PositionKind::kRotation;
      position.rotation = relpos::RopeParams{r.base, r.layout};
      break;
    case PositionScheme::kSinusoidal:
      absolute.computeSinusoidal(inputAt<T>(r.x), inputAt<T>(r.queryWeights),
                                 inputAt<T>(r.keyWeights), inputAt<T>(r.valueWeights), r.base,
                                 r.firstQuery, r.queryRows);
      break;
    default:
      position.kind = PositionKind::kNone;
      break;
  }
  const relpos::ConstMatrixMap<T> none(nullptr, 0, 0);
  const relpos::PositionTerm<T> placed{
      PositionKind::kAbsolute, nullptr, 0, {}, absolute.positionedQueries, absolute.positionedKeys};
  const relpos::AttentionInputs<T> in{
      sinusoidal ? relpos::ConstMatrixView<T>(absolute.queries) : inputAt<T>(r.queries),
      sinusoidal ? relpos::ConstMatrixView<T>(absolute.keys) : inputAt<T>(r.keys),
      sinusoidal ? relpos::ConstMatrixView<T>(none) : inputAt<T>(r.relativeKeys),
      sinusoidal ? relpos::ConstMatrixView<T>(absolute.values) : inputAt<T>(r.values),
      sinusoidal ? relpos::ConstMatrixView<T>(none) : inputAt<T>(r.relativeValues),
      r.causal,
      r.firstQuery,
      flagsAt(r.keyPadding),
      flagsAt(r.allowed),
      static_cast<T>(r.scale)};
  relpos::AttentionPanels<T> panels{panelAt<T>(r.contentScores),   panelAt<T>(r.positionBiases),
                                    panelAt<T>(r.combinedScores),  panelAt<T>(r.contentWeights),
                                    panelAt<T>(r.combinedWeights), panelAt<T>(r.output)};
  relpos::computeHeads(in, sinusoidal ? placed : position, r.heads, workspace, panels,
                       &lastTimings);
  if (workspace.elements() > kWorkspaceElementsKept) {
    workspace = relpos::AttentionWorkspace<T>();
    absolute = relpos::AbsoluteInputs<T>();
  }
  return error;
}

// Where localityProfile() writes.
struct ProfileBuffers {
  Address embeddings, query, profile;
};

void localityProfileInto(const relpos::LocalityProfileParams& params, const ProfileBuffers& b) {
  const auto tableRows = static_cast<int>(2 * params.maxDistance + 1);
  const auto dK = static_cast<int>(params.dK);
  relpos::localityProfile(params, matrixAt<double>(b.embeddings, tableRows, dK),
                          Eigen::Map<relpos::Vector<double>>(at<double>(b.query), dK),
                          Eigen::Map<relpos::Vector<double>>(at<double>(b.profile), tableRows));
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
  relpos::drawExampleScenario(
      settings,
      relpos::Utf8Tokens{at<const char>(r.tokenBytes), at<const std::int32_t>(r.tokenLengths)},
      scenario);
}

// The core's own defaults (its structs default-constructed), so a test can hold the JS API's
// defaults (web/api/index.js, web/api/model.js) equal to them: one value, checked in one place.
emscripten::val coreDefaults() {
  const relpos::LocalityProfileParams profile;
  const relpos::ScenarioSettings scenario;
  const relpos::ModelConfig model;
  const relpos::AdamOptions adam;
  const relpos::SyntheticBatchOptions synthetic;
  emscripten::val out = emscripten::val::object();
  emscripten::val p = emscripten::val::object();
  p.set("seed", profile.seed);
  p.set("dK", static_cast<int>(profile.dK));
  p.set("maxDistance", static_cast<int>(profile.maxDistance));
  p.set("noise", profile.noise);
  p.set("width", profile.width);
  p.set("asymmetry", profile.asymmetry);
  out.set("localityProfile", p);
  emscripten::val e = emscripten::val::object();
  e.set("seed", scenario.seed);
  e.set("draw", scenario.draw == relpos::ScenarioDraw::kStable ? "stable" : "handbook");
  e.set("table", scenario.table == relpos::PositionTable::kLocality ? "locality" : "random");
  e.set("sameQuery", scenario.sameQuery);
  out.set("example", e);
  emscripten::val t = emscripten::val::object();
  t.set("noise", scenario.locality.noise);
  t.set("width", scenario.locality.width);
  t.set("asymmetry", scenario.locality.asymmetry);
  t.set("strength", scenario.locality.strength);
  out.set("localityTable", t);
  emscripten::val m = emscripten::val::object();
  m.set("dModel", model.dModel);
  m.set("heads", model.heads);
  m.set("layers", model.layers);
  m.set("maxDistance", model.maxDistance);
  m.set("seqLen", model.seqLen);
  m.set("maxBatchSize", model.maxBatchSize);
  m.set("causal", model.causal);
  m.set("perHeadTables", model.perHeadTables);
  m.set("seed", model.seed);
  out.set("model", m);
  emscripten::val a = emscripten::val::object();
  a.set("learningRate", adam.learningRate);
  a.set("beta1", adam.beta1);
  a.set("beta2", adam.beta2);
  a.set("epsilon", adam.epsilon);
  a.set("weightDecay", adam.weightDecay);
  a.set("maxGradNorm", adam.maxGradNorm);
  out.set("adam", a);
  emscripten::val y = emscripten::val::object();
  y.set("task", synthetic.task == relpos::SyntheticTask::CopyOffset ? "copy-offset" : "sum-offset");
  y.set("offset", synthetic.offset);
  y.set("vocabSize", synthetic.vocabSize);
  y.set("seqLen", synthetic.seqLen);
  y.set("batchSize", synthetic.batchSize);
  y.set("seed", synthetic.seed);
  out.set("synthetic", y);
  return out;
}

// Bytes of WASM heap in use by malloc: lets tests prove that repeated calls leave memory flat.
double heapBytesInUse() { return static_cast<double>(mallinfo().uordblks); }

}  // namespace

EMSCRIPTEN_BINDINGS(relpos_attention) {
  emscripten::enum_<PositionScheme>("PositionScheme")
      .value("shaw", PositionScheme::kShaw)
      .value("t5", PositionScheme::kT5)
      .value("alibi", PositionScheme::kAlibi)
      .value("rope", PositionScheme::kRope)
      .value("sinusoidal", PositionScheme::kSinusoidal)
      .value("absolute", PositionScheme::kAbsolute)
      .value("none", PositionScheme::kNone);
  emscripten::enum_<relpos::RopeLayout>("RopeLayout")
      .value("interleaved", relpos::RopeLayout::kInterleaved)
      .value("half", relpos::RopeLayout::kHalf);
  emscripten::value_object<MatrixBuffer>("MatrixBuffer")
      .field("address", &MatrixBuffer::address)
      .field("rows", &MatrixBuffer::rows)
      .field("cols", &MatrixBuffer::cols)
      .field("bytes", &MatrixBuffer::bytes);
  emscripten::value_object<relpos::T5BucketParams>("T5BucketParams")
      .field("numBuckets", &relpos::T5BucketParams::numBuckets)
      .field("maxDistance", &relpos::T5BucketParams::maxDistance)
      .field("bidirectional", &relpos::T5BucketParams::bidirectional);
  emscripten::value_object<AttentionRequest>("AttentionRequest")
      .field("heads", &AttentionRequest::heads)
      .field("causal", &AttentionRequest::causal)
      .field("firstQuery", &AttentionRequest::firstQuery)
      .field("queryRows", &AttentionRequest::queryRows)
      .field("scale", &AttentionRequest::scale)
      .field("scheme", &AttentionRequest::scheme)
      .field("t5", &AttentionRequest::t5)
      .field("base", &AttentionRequest::base)
      .field("layout", &AttentionRequest::layout)
      .field("queries", &AttentionRequest::queries)
      .field("keys", &AttentionRequest::keys)
      .field("values", &AttentionRequest::values)
      .field("relativeKeys", &AttentionRequest::relativeKeys)
      .field("relativeValues", &AttentionRequest::relativeValues)
      .field("x", &AttentionRequest::x)
      .field("queryWeights", &AttentionRequest::queryWeights)
      .field("keyWeights", &AttentionRequest::keyWeights)
      .field("valueWeights", &AttentionRequest::valueWeights)
      .field("bucketBiases", &AttentionRequest::bucketBiases)
      .field("slopes", &AttentionRequest::slopes)
      .field("keyPadding", &AttentionRequest::keyPadding)
      .field("allowed", &AttentionRequest::allowed)
      .field("contentScores", &AttentionRequest::contentScores)
      .field("positionBiases", &AttentionRequest::positionBiases)
      .field("combinedScores", &AttentionRequest::combinedScores)
      .field("contentWeights", &AttentionRequest::contentWeights)
      .field("combinedWeights", &AttentionRequest::combinedWeights)
      .field("output", &AttentionRequest::output);
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
  emscripten::value_object<relpos::LocalityProfileParams>("LocalityProfileParams")
      .field("seed", &relpos::LocalityProfileParams::seed)
      .field("dK", &relpos::LocalityProfileParams::dK)
      .field("maxDistance", &relpos::LocalityProfileParams::maxDistance)
      .field("noise", &relpos::LocalityProfileParams::noise)
      .field("width", &relpos::LocalityProfileParams::width)
      .field("asymmetry", &relpos::LocalityProfileParams::asymmetry);
  emscripten::value_object<ProfileBuffers>("ProfileBuffers")
      .field("embeddings", &ProfileBuffers::embeddings)
      .field("query", &ProfileBuffers::query)
      .field("profile", &ProfileBuffers::profile);
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
  emscripten::function("coreDefaults", &coreDefaults);
  emscripten::function("lastAttentionTimings", &lastAttentionTimings);
}
