// The only C++ that knows JavaScript. Each function takes the addresses of buffers the JS layer
// has laid out in WASM memory (web/api/wasm-arena.js) and already validated (web/api/validate.js):
// nothing here checks arguments, and nothing here throws.
#include <emscripten/bind.h>
#include <malloc.h>

#include <cstdint>
#include <memory>
#include <string>

#include "relpos/attention.hpp"
#include "relpos/example_scenario.hpp"
#include "relpos/locality_profile.hpp"
#include "relpos/numpy_random.hpp"
#include "relpos/position_schemes.hpp"
#include "relpos/relative_offsets.hpp"
#include "relpos/synthetic_tasks.hpp"
#include "relpos/transformer_model.hpp"

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

// One attention() call, named field by field on both sides (web/api/index.js builds it).
struct AttentionRequest {
  int n;          // keys
  int queryRows;  // queries firstQuery ... firstQuery + queryRows - 1 (n and 0 for all of them)
  int firstQuery;
  int dK;         // per head
  int dV;         // per head; 0: no values, no output
  int tableRows;  // 2k + 1
  bool causal;
  bool hasRelativeValues;
  int heads;               // side by side: queries queryRows x (heads dK), and so on
  bool perHeadKeyTable;    // relativeKeys tableRows x (heads dK), else tableRows x dK
  bool perHeadValueTable;  // relativeValues tableRows x (heads dV), else tableRows x dV
  double scale;            // 0: 1/sqrt(dK)
};

// Where attention() reads its inputs and writes its panels (the names of AttentionInputs and
// AttentionPanels); a panel at address 0 was not asked for.
struct AttentionBuffers {
  Address queries, keys, relativeKeys, values, relativeValues;
  Address keyPadding, allowed;  // bytes: n flags, queryRows x n flags; 0 for none
  Address contentScores, positionBiases, combinedScores, contentWeights, combinedWeights, output;
};

template <typename T>
void attentionInto(const AttentionRequest& r, const AttentionBuffers& b) {
  static relpos::AttentionWorkspace<T> workspace;
  const int valueTableRows = r.hasRelativeValues ? r.tableRows : 0;
  const int valueRows = r.dV == 0 ? 0 : r.n;
  const int h = r.heads;
  const auto flags = [](Address address, int rows, int cols) {
    return address == 0 ? relpos::ConstFlagMap(nullptr, 0, 0)
                        : relpos::ConstFlagMap(at<const std::uint8_t>(address), rows, cols);
  };
  const relpos::AttentionInputs<T> in{
      constMatrixAt<T>(b.queries, r.queryRows, h * r.dK),
      constMatrixAt<T>(b.keys, r.n, h * r.dK),
      constMatrixAt<T>(b.relativeKeys, r.tableRows, (r.perHeadKeyTable ? h : 1) * r.dK),
      constMatrixAt<T>(b.values, valueRows, h * r.dV),
      constMatrixAt<T>(b.relativeValues, valueTableRows,
                       r.hasRelativeValues ? (r.perHeadValueTable ? h : 1) * r.dV : 0),
      r.causal,
      r.firstQuery,
      flags(b.keyPadding, 1, r.n),
      flags(b.allowed, r.queryRows, r.n),
      static_cast<T>(r.scale)};
  const auto panel = [&](Address address, int rows, int cols) {
    return address == 0 ? matrixAt<T>(address, 0, 0) : matrixAt<T>(address, rows, cols);
  };
  const int panelRows = h * r.queryRows;  // head after head
  relpos::AttentionPanels<T> panels{
      panel(b.contentScores, panelRows, r.n),   panel(b.positionBiases, panelRows, r.n),
      panel(b.combinedScores, panelRows, r.n),  panel(b.contentWeights, panelRows, r.n),
      panel(b.combinedWeights, panelRows, r.n), panel(b.output, r.queryRows, h * r.dV)};
  relpos::computeHeads(in, h, workspace, panels, &lastTimings);
  if (workspace.elements() > kWorkspaceElementsKept) {
    workspace = relpos::AttentionWorkspace<T>();
  }
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
  emscripten::value_object<AttentionRequest>("AttentionRequest")
      .field("n", &AttentionRequest::n)
      .field("queryRows", &AttentionRequest::queryRows)
      .field("firstQuery", &AttentionRequest::firstQuery)
      .field("dK", &AttentionRequest::dK)
      .field("dV", &AttentionRequest::dV)
      .field("tableRows", &AttentionRequest::tableRows)
      .field("causal", &AttentionRequest::causal)
      .field("hasRelativeValues", &AttentionRequest::hasRelativeValues)
      .field("heads", &AttentionRequest::heads)
      .field("perHeadKeyTable", &AttentionRequest::perHeadKeyTable)
      .field("perHeadValueTable", &AttentionRequest::perHeadValueTable)
      .field("scale", &AttentionRequest::scale);
  emscripten::value_object<AttentionBuffers>("AttentionBuffers")
      .field("queries", &AttentionBuffers::queries)
      .field("keys", &AttentionBuffers::keys)
      .field("relativeKeys", &AttentionBuffers::relativeKeys)
      .field("values", &AttentionBuffers::values)
      .field("relativeValues", &AttentionBuffers::relativeValues)
      .field("keyPadding", &AttentionBuffers::keyPadding)
      .field("allowed", &AttentionBuffers::allowed)
      .field("contentScores", &AttentionBuffers::contentScores)
      .field("positionBiases", &AttentionBuffers::positionBiases)
      .field("combinedScores", &AttentionBuffers::combinedScores)
      .field("contentWeights", &AttentionBuffers::contentWeights)
      .field("combinedWeights", &AttentionBuffers::combinedWeights)
      .field("output", &AttentionBuffers::output);
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

// ---- Position schemes (docs/schemes.md): web/api/schemes.js validates every argument first.

namespace {

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
  int layout;  // relpos::RopeLayout
  Address x, positions, out;
};

template <typename T>
void ropeInto(const RopeRequest& r) {
  relpos::applyRope<T>(constMatrixAt<T>(r.x, r.n, r.d),
                       Eigen::Map<const relpos::Vector<double>>(at<const double>(r.positions), r.n),
                       relpos::RopeParams{r.base, static_cast<relpos::RopeLayout>(r.layout)},
                       matrixAt<T>(r.out, r.n, r.d));
}

// One attention() call with a position scheme other than Shaw's, named field by field.
struct SchemeRequest {
  int scheme;  // relpos::PositionScheme
  int n;
  int dModel;  // sinusoidal: the width of x; else 0
  int dK;
  int dV;  // 0: no values, no output
  bool causal;
  relpos::T5BucketParams t5;
  double slope;
  double base;
  int layout;
};

struct SchemeBuffers {
  Address queries, keys, values, x, queryWeights, keyWeights, valueWeights, bucketBiases;
  Address contentScores, positionBiases, combinedScores, contentWeights, combinedWeights, output;
};

template <typename T>
void schemeAttentionInto(const SchemeRequest& r, const SchemeBuffers& b) {
  static relpos::SchemeWorkspace<T> workspace;
  const bool sinusoidal = r.scheme == static_cast<int>(relpos::PositionScheme::kSinusoidal);
  const int qkRows = sinusoidal ? 0 : r.n;
  const int xRows = sinusoidal ? r.n : 0;
  const int wRows = sinusoidal ? r.dModel : 0;
  const int valueRows = r.dV == 0 || sinusoidal ? 0 : r.n;
  const int valueWeightRows = r.dV == 0 || !sinusoidal ? 0 : r.dModel;
  const relpos::SchemeInputs<T> in{
      constMatrixAt<T>(b.queries, qkRows, qkRows ? r.dK : 0),
      constMatrixAt<T>(b.keys, qkRows, qkRows ? r.dK : 0),
      constMatrixAt<T>(b.values, valueRows, valueRows ? r.dV : 0),
      constMatrixAt<T>(b.x, xRows, r.dModel),
      constMatrixAt<T>(b.queryWeights, wRows, wRows ? r.dK : 0),
      constMatrixAt<T>(b.keyWeights, wRows, wRows ? r.dK : 0),
      constMatrixAt<T>(b.valueWeights, valueWeightRows, valueWeightRows ? r.dV : 0),
      r.causal};
  relpos::SchemePosition<T> position;
  position.scheme = static_cast<relpos::PositionScheme>(r.scheme);
  position.t5 = r.t5;
  position.bucketBiases = at<const T>(b.bucketBiases);
  position.slope = r.slope;
  position.rope = relpos::RopeParams{r.base, static_cast<relpos::RopeLayout>(r.layout)};
  position.base = r.base;
  const int outputRows = r.dV == 0 ? 0 : r.n;
  relpos::AttentionPanels<T> panels{
      matrixAt<T>(b.contentScores, r.n, r.n),   matrixAt<T>(b.positionBiases, r.n, r.n),
      matrixAt<T>(b.combinedScores, r.n, r.n),  matrixAt<T>(b.contentWeights, r.n, r.n),
      matrixAt<T>(b.combinedWeights, r.n, r.n), matrixAt<T>(b.output, outputRows, r.dV)};
  relpos::schemeAttention(in, position, workspace, panels);
  if (static_cast<Index>(r.n) * r.n > kWorkspaceElementsKept) workspace = {};
}

}  // namespace

EMSCRIPTEN_BINDINGS(relpos_schemes) {
  emscripten::value_object<relpos::T5BucketParams>("T5BucketParams")
      .field("numBuckets", &relpos::T5BucketParams::numBuckets)
      .field("maxDistance", &relpos::T5BucketParams::maxDistance)
      .field("bidirectional", &relpos::T5BucketParams::bidirectional);
  emscripten::value_object<RopeRequest>("RopeRequest")
      .field("n", &RopeRequest::n)
      .field("d", &RopeRequest::d)
      .field("base", &RopeRequest::base)
      .field("layout", &RopeRequest::layout)
      .field("x", &RopeRequest::x)
      .field("positions", &RopeRequest::positions)
      .field("out", &RopeRequest::out);
  emscripten::value_object<SchemeRequest>("SchemeRequest")
      .field("scheme", &SchemeRequest::scheme)
      .field("n", &SchemeRequest::n)
      .field("dModel", &SchemeRequest::dModel)
      .field("dK", &SchemeRequest::dK)
      .field("dV", &SchemeRequest::dV)
      .field("causal", &SchemeRequest::causal)
      .field("t5", &SchemeRequest::t5)
      .field("slope", &SchemeRequest::slope)
      .field("base", &SchemeRequest::base)
      .field("layout", &SchemeRequest::layout);
  emscripten::value_object<SchemeBuffers>("SchemeBuffers")
      .field("queries", &SchemeBuffers::queries)
      .field("keys", &SchemeBuffers::keys)
      .field("values", &SchemeBuffers::values)
      .field("x", &SchemeBuffers::x)
      .field("queryWeights", &SchemeBuffers::queryWeights)
      .field("keyWeights", &SchemeBuffers::keyWeights)
      .field("valueWeights", &SchemeBuffers::valueWeights)
      .field("bucketBiases", &SchemeBuffers::bucketBiases)
      .field("contentScores", &SchemeBuffers::contentScores)
      .field("positionBiases", &SchemeBuffers::positionBiases)
      .field("combinedScores", &SchemeBuffers::combinedScores)
      .field("contentWeights", &SchemeBuffers::contentWeights)
      .field("combinedWeights", &SchemeBuffers::combinedWeights)
      .field("output", &SchemeBuffers::output);
  emscripten::function("t5BucketsInto", &t5BucketsInto);
  emscripten::function("alibiSlopesInto", &alibiSlopesInto);
  emscripten::function("sinusoidalInto", &sinusoidalInto);
  emscripten::function("ropeIntoFloat64", &ropeInto<double>);
  emscripten::function("schemeAttentionIntoFloat64", &schemeAttentionInto<double>);
}

// ---- Training engine: the model as an Embind class, its config and Adam settings
// as value objects. web/api/model.js validates every argument before calling in.
// Left out of the page's first-load module (RELPOS_NO_TRAINING, CMake target relpos_wasm_lite):
// the training section loads the full module in its worker.
#ifndef RELPOS_NO_TRAINING

namespace {

// One model in float32 or float64 (the other pointer is null). Batches are addresses of Int32
// arrays the JS layer wrote into WASM memory.
class ModelHandle {
 public:
  ModelHandle(const relpos::ModelConfig& config, bool float64) {
    if (float64) {
      double_ = std::make_unique<relpos::TransformerModel<double>>(config);
    } else {
      float_ = std::make_unique<relpos::TransformerModel<float>>(config);
    }
  }

  emscripten::val parameterTable() const {
    emscripten::val table = emscripten::val::array();
    const auto& infos = double_ ? double_->parameterTable() : float_->parameterTable();
    for (const relpos::ParameterInfo& info : infos) {
      emscripten::val entry = emscripten::val::object();
      entry.set("name", info.name);
      entry.set("offset", static_cast<double>(info.offset));
      entry.set("size", static_cast<double>(info.size));
      emscripten::val shape = emscripten::val::array();
      for (Index side : info.shape) shape.call<void>("push", static_cast<double>(side));
      entry.set("shape", shape);
      table.call<void>("push", entry);
    }
    return table;
  }

  Address parametersAddress() {
    return double_ ? address(double_->parameters()) : address(float_->parameters());
  }
  Address gradientsAddress() {
    return double_ ? address(double_->gradients()) : address(float_->gradients());
  }
  double adamSteps() const {
    return static_cast<double>(double_ ? double_->adamSteps() : float_->adamSteps());
  }

  double lossAndGradients(Address tokens, Address targets, int batchSize, int seqLen) {
    const relpos::BatchView batch = view(tokens, targets, batchSize, seqLen);
    return double_ ? double_->lossAndGradients(batch) : float_->lossAndGradients(batch);
  }

  double trainStep(Address tokens, Address targets, int batchSize, int seqLen,
                   const relpos::AdamOptions& options) {
    const relpos::BatchView batch = view(tokens, targets, batchSize, seqLen);
    return double_ ? double_->trainStep(batch, options) : float_->trainStep(batch, options);
  }

  emscripten::val evaluate(Address tokens, Address targets, int batchSize, int seqLen) {
    const relpos::BatchView batch = view(tokens, targets, batchSize, seqLen);
    const relpos::Evaluation e = double_ ? double_->evaluate(batch) : float_->evaluate(batch);
    emscripten::val out = emscripten::val::object();
    out.set("loss", e.loss);
    out.set("accuracy", e.accuracy);
    out.set("counted", static_cast<double>(e.counted));
    return out;
  }

  // One sequence through the model, then that head's queries, keys and values (seqLen x
  // headWidth each) into the three addresses.
  void headInputsInto(Address tokens, int seqLen, int layer, int head, Address queries,
                      Address keys, Address values) {
    if (double_) {
      double_->forwardSequence(at<const std::int32_t>(tokens), seqLen);
      double_->headInputs(layer, head, at<double>(queries), at<double>(keys), at<double>(values));
    } else {
      float_->forwardSequence(at<const std::int32_t>(tokens), seqLen);
      float_->headInputs(layer, head, at<float>(queries), at<float>(keys), at<float>(values));
    }
  }

  // One sequence through the model, then every head's inputs read from it (headInputsOf).
  void forwardSequenceOf(Address tokens, int seqLen) {
    if (double_) {
      double_->forwardSequence(at<const std::int32_t>(tokens), seqLen);
    } else {
      float_->forwardSequence(at<const std::int32_t>(tokens), seqLen);
    }
  }
  void headInputsOf(int layer, int head, Address queries, Address keys, Address values) const {
    if (double_) {
      double_->headInputs(layer, head, at<double>(queries), at<double>(keys), at<double>(values));
    } else {
      float_->headInputs(layer, head, at<float>(queries), at<float>(keys), at<float>(values));
    }
  }

  Address relativeKeysAddress(int layer, int head) const {
    return double_ ? address(double_->relativeKeys(layer, head))
                   : address(float_->relativeKeys(layer, head));
  }
  Address relativeValuesAddress(int layer, int head) const {
    return double_ ? address(double_->relativeValues(layer, head))
                   : address(float_->relativeValues(layer, head));
  }

 private:
  template <typename T>
  static Address address(const T* pointer) {
    return reinterpret_cast<Address>(pointer);
  }
  static relpos::BatchView view(Address tokens, Address targets, int batchSize, int seqLen) {
    return relpos::BatchView{at<const std::int32_t>(tokens), at<const std::int32_t>(targets),
                             batchSize, seqLen};
  }

  std::unique_ptr<relpos::TransformerModel<float>> float_;
  std::unique_ptr<relpos::TransformerModel<double>> double_;
};

std::string checkModelConfigText(const relpos::ModelConfig& config) {
  return relpos::checkModelConfig(config);
}

// task: 0 copy-offset, 1 sum-offset.
void syntheticBatchInto(int task, int offset, int vocabSize, int seqLen, int batchSize,
                        std::uint32_t seed, Address tokens, Address targets) {
  relpos::SyntheticBatchOptions options;
  options.task = task == 0 ? relpos::SyntheticTask::CopyOffset : relpos::SyntheticTask::SumOffset;
  options.offset = offset;
  options.vocabSize = vocabSize;
  options.seqLen = seqLen;
  options.batchSize = batchSize;
  options.seed = seed;
  relpos::syntheticBatch(options, at<std::int32_t>(tokens), at<std::int32_t>(targets));
}

}  // namespace

EMSCRIPTEN_BINDINGS(relpos_training) {
  emscripten::value_object<relpos::ModelConfig>("ModelConfig")
      .field("vocabSize", &relpos::ModelConfig::vocabSize)
      .field("dModel", &relpos::ModelConfig::dModel)
      .field("heads", &relpos::ModelConfig::heads)
      .field("layers", &relpos::ModelConfig::layers)
      .field("ffnWidth", &relpos::ModelConfig::ffnWidth)
      .field("maxDistance", &relpos::ModelConfig::maxDistance)
      .field("seqLen", &relpos::ModelConfig::seqLen)
      .field("maxBatchSize", &relpos::ModelConfig::maxBatchSize)
      .field("causal", &relpos::ModelConfig::causal)
      .field("perHeadTables", &relpos::ModelConfig::perHeadTables)
      .field("seed", &relpos::ModelConfig::seed)
      .field("positionScheme", &relpos::ModelConfig::positionScheme)
      .field("numBuckets", &relpos::ModelConfig::numBuckets)
      .field("bucketDistance", &relpos::ModelConfig::bucketDistance);
  emscripten::value_object<relpos::AdamOptions>("AdamOptions")
      .field("learningRate", &relpos::AdamOptions::learningRate)
      .field("beta1", &relpos::AdamOptions::beta1)
      .field("beta2", &relpos::AdamOptions::beta2)
      .field("epsilon", &relpos::AdamOptions::epsilon)
      .field("weightDecay", &relpos::AdamOptions::weightDecay)
      .field("maxGradNorm", &relpos::AdamOptions::maxGradNorm);
  emscripten::class_<ModelHandle>("ModelHandle")
      .constructor<const relpos::ModelConfig&, bool>()
      .function("parameterTable", &ModelHandle::parameterTable)
      .function("parametersAddress", &ModelHandle::parametersAddress)
      .function("gradientsAddress", &ModelHandle::gradientsAddress)
      .function("adamSteps", &ModelHandle::adamSteps)
      .function("lossAndGradients", &ModelHandle::lossAndGradients)
      .function("trainStep", &ModelHandle::trainStep)
      .function("evaluate", &ModelHandle::evaluate)
      .function("headInputsInto", &ModelHandle::headInputsInto)
      .function("forwardSequenceOf", &ModelHandle::forwardSequenceOf)
      .function("headInputsOf", &ModelHandle::headInputsOf)
      .function("relativeKeysAddress", &ModelHandle::relativeKeysAddress)
      .function("relativeValuesAddress", &ModelHandle::relativeValuesAddress);
  emscripten::function("checkModelConfig", &checkModelConfigText);
  emscripten::function("syntheticBatchInto", &syntheticBatchInto);
}
#endif  // RELPOS_NO_TRAINING
// ---- end of the training engine's bindings
