// attention() and the other calls of the page's first screen: the offsets, the profile, the
// example scenario, the stream. The only C++ that knows JavaScript, with schemes.cpp and
// training.cpp beside it. Each function takes regions of WASM memory the JS layer laid out and
// validated (web/api/), checks every region against its call first (buffers.hpp) and returns
// what is wrong, writing nothing, or an empty string.
#include <emscripten/bind.h>
#include <malloc.h>

#include <cstdint>
#include <iterator>
#include <string>
#include <utility>

#include "buffers.hpp"
#include "relpos/attention.hpp"
#include "relpos/attention_shapes.hpp"
#include "relpos/example_scenario.hpp"
#include "relpos/locality_profile.hpp"
#include "relpos/model_config.hpp"
#include "relpos/numpy_random.hpp"
#include "relpos/position_schemes.hpp"
#include "relpos/relative_offsets.hpp"
#include "relpos/scheme_table.hpp"
#include "relpos/synthetic_tasks.hpp"

namespace relpos::bindings {
namespace {

std::string randnInto(std::uint32_t seed, const MatrixBuffer& out) {
  BufferCheck c;
  c.matrix<double>("out", out, 1, -1);
  if (!c.ok()) return c.error();
  relpos::NumpyRandom random(seed);
  random.fillGaussian(at<double>(out.address), static_cast<std::size_t>(out.cols));
  return {};
}

std::string relativeOffsetsInto(int maxDistance, const MatrixBuffer& out) {
  BufferCheck c;
  c.require(maxDistance >= 0, "maxDistance must be >= 0");
  c.matrix<std::int32_t>("out", out, out.rows, out.rows);
  if (!c.ok()) return c.error();
  relpos::relativeOffsets(
      maxDistance, relpos::OffsetMatrixMap(at<std::int32_t>(out.address), out.rows, out.rows));
  return {};
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

// The request's regions by field name: one for every row of the shape table
// (relpos/attention_shapes.hpp), which the static_assert below holds it to.
struct RequestRegion {
  const char* name;
  MatrixBuffer AttentionRequest::*member;
};
using R = AttentionRequest;
constexpr RequestRegion kRequestRegions[] = {{"queries", &R::queries},
                                             {"keys", &R::keys},
                                             {"values", &R::values},
                                             {"relativeKeys", &R::relativeKeys},
                                             {"relativeValues", &R::relativeValues},
                                             {"x", &R::x},
                                             {"queryWeights", &R::queryWeights},
                                             {"keyWeights", &R::keyWeights},
                                             {"valueWeights", &R::valueWeights},
                                             {"bucketBiases", &R::bucketBiases},
                                             {"slopes", &R::slopes},
                                             {"keyPadding", &R::keyPadding},
                                             {"allowed", &R::allowed},
                                             {"contentScores", &R::contentScores},
                                             {"positionBiases", &R::positionBiases},
                                             {"combinedScores", &R::combinedScores},
                                             {"contentWeights", &R::contentWeights},
                                             {"combinedWeights", &R::combinedWeights},
                                             {"output", &R::output}};

// Whether kRequestRegions names exactly the shape table's rows.
constexpr bool requestRegionsAreTheShapeTable() {
  if (std::size(kRequestRegions) != std::size(relpos::kAttentionShapes)) return false;
  for (const relpos::RegionShape& shape : relpos::kAttentionShapes) {
    bool found = false;
    for (const RequestRegion& region : kRequestRegions) {
      found = found || relpos::sameName(region.name, shape.name);
    }
    if (!found) return false;
  }
  return true;
}
static_assert(requestRegionsAreTheShapeTable(),
              "kRequestRegions must name every row of kAttentionShapes, and no other");

// The request's region for the field `name` (a row of relpos/attention_shapes.hpp); 0 x 0 for
// nullptr (a scheme that reads no region).
const MatrixBuffer& regionNamed(const AttentionRequest& r, const char* name) {
  static const MatrixBuffer none{};
  for (const RequestRegion& region : kRequestRegions) {
    if (relpos::sameName(region.name, name)) return r.*region.member;
  }
  return none;
}

// Whether a region was given: 0 x 0 is "not given" (an input left out, a panel not asked for).
bool given(const MatrixBuffer& b) { return b.rows != 0 || b.cols != 0; }

// `b` against its row of the shape table (relpos/attention_shapes.hpp) for the extents `e`: a
// side that is one number, by shape() (which says what it needs); one of several, in words. Not
// inlined: checkAttention calls it for every region, and each inlined copy carries its messages.
[[gnu::noinline]] void checkRegion(BufferCheck& c, const char* name, const MatrixBuffer& b,
                                   const relpos::AttentionExtents& e, std::size_t size) {
  if (!c.ok()) return;
  const relpos::RegionShape& shape = *relpos::attentionShape(name);
  const int rows = relpos::extentValue(shape.rows, e);
  const int cols = relpos::extentValue(shape.cols, e);
  const char* wrong = nullptr;  // what is wrong: name + wrong + words + unit
  const char* words = "";
  const char* unit = "";
  if (rows < 0 && !relpos::fitsExtent(shape.rows, b.rows, e)) {
    wrong = " must have ";
    words = relpos::extentWords(shape.rows);
    unit = " rows";
  } else if (cols < 0 && !relpos::fitsExtent(shape.cols, b.cols, e)) {
    wrong = " must be ";
    words = relpos::extentWords(shape.cols);
    unit = " wide";
  } else if (shape.headColumns && b.cols % e.heads != 0) {
    wrong = ": the widths must be multiples of heads";
  }
  if (wrong != nullptr) c.require(false, std::string(name) + wrong + words + unit);
  const std::size_t bytes = shape.element == relpos::Element::kByte      ? 1
                            : shape.element == relpos::Element::kFloat64 ? sizeof(double)
                                                                         : size;
  c.shape(name, b, rows, cols, bytes);
}

// What is wrong with r for scalar size `size`, or an empty string: which regions the scheme
// reads, then each region by the shape table, then the scheme's own rules.
std::string checkAttention(const AttentionRequest& r, std::size_t size) {
  BufferCheck c;
  const int h = r.heads;
  const SchemeInfo* info = schemeInfo(r.scheme);
  c.require(info != nullptr, "scheme must be one of the PositionScheme values");
  c.require(h >= 1, "heads must be at least 1");
  c.require(r.queryRows >= 0 && r.firstQuery >= 0, "queryRows and firstQuery must be >= 0");
  if (!c.error().empty()) return c.error();
  const bool sinusoidal = r.scheme == PositionScheme::kSinusoidal;
  const bool shaw = r.scheme == PositionScheme::kShaw;
  using Region = std::pair<const char*, const MatrixBuffer*>;
  const Region projected[] = {{"queries", &r.queries}, {"keys", &r.keys}, {"values", &r.values}};
  const Region encoded[] = {{"x", &r.x},
                            {"queryWeights", &r.queryWeights},
                            {"keyWeights", &r.keyWeights},
                            {"valueWeights", &r.valueWeights}};
  // The scheme's inputs (the last of them optional), and those it must not be given.
  const Region* inputs = sinusoidal ? encoded : projected;
  const int inputCount = sinusoidal ? 4 : 3;
  const Region* others = sinusoidal ? projected : encoded;
  for (int i = 0; i < 7 - inputCount; ++i) {
    c.none(others[i].first, *others[i].second,
           sinusoidal ? "the sinusoidal scheme projects x" : "only the sinusoidal scheme reads it");
  }
  if (!shaw) {
    c.none("relativeKeys", r.relativeKeys, "only Shaw's scheme reads it");
    c.none("relativeValues", r.relativeValues, "only Shaw's scheme reads it");
  }
  // The position regions (T5's biases, ALiBi's slopes) but the scheme table's biasRegion of this
  // scheme, the one it reads.
  for (const relpos::RegionShape& shape : relpos::kAttentionShapes) {
    if (shape.role == relpos::Role::kPosition && !relpos::sameName(shape.name, info->biasRegion)) {
      c.none(shape.name, regionNamed(r, shape.name), biasRegionReaders(shape.name).c_str());
    }
  }
  const int dV = sinusoidal ? r.valueWeights.cols : r.values.cols;
  if (dV == 0) c.none("output", r.output, "there are no values");
  if (!c.ok()) return c.error();
  const relpos::AttentionExtents e{h,
                                   sinusoidal ? r.x.rows : r.keys.rows,
                                   r.queryRows,
                                   sinusoidal ? r.queryWeights.cols : r.queries.cols,
                                   dV,
                                   r.relativeKeys.rows,
                                   r.t5.numBuckets,
                                   r.x.cols,
                                   r.queryWeights.cols};
  // The regions this scheme must have, then every other one given.
  for (int i = 0; i < inputCount; ++i) {
    if (given(*inputs[i].second) || i < inputCount - 1) {
      checkRegion(c, inputs[i].first, *inputs[i].second, e, size);
    }
  }
  c.require(r.firstQuery + r.queryRows <= e.keys, "firstQuery + queryRows must be at most n");
  if (shaw) checkRegion(c, "relativeKeys", r.relativeKeys, e, size);
  if (shaw && given(r.relativeValues)) {
    c.require(dV > 0, "relativeValues needs values");
    checkRegion(c, "relativeValues", r.relativeValues, e, size);
  }
  // The scheme's own rules (T5's buckets, RoPE's even width): the scheme table's one check.
  c.require(info->attention,
            "attention() takes the learned absolute table's x + p as its inputs (scheme none)");
  c.holds(checkScheme(r.scheme, r.t5, e.keyWidth / h));
  if (info->kind == PositionKind::kRotation || sinusoidal) {
    c.inRange(relpos::outOfRange(relpos::Setting::kBase, r.base));
  }
  if (info->biasRegion != nullptr) {
    const MatrixBuffer& numbers = regionNamed(r, info->biasRegion);
    checkRegion(c, info->biasRegion, numbers, e, size);
    if (c.ok()) {
      c.inRange(
          relpos::biasNumbersOutOfRange(r.scheme, at<const double>(numbers.address),
                                        relpos::offsetBiasRows(*info, numbers.rows, numbers.cols)));
    }
  }
  // The masks and the panels, each one given.
  for (const relpos::RegionShape& shape : relpos::kAttentionShapes) {
    const MatrixBuffer& b = regionNamed(r, shape.name);
    const bool optional = shape.role == relpos::Role::kMask || shape.role == relpos::Role::kOutput;
    if (optional && given(b)) checkRegion(c, shape.name, b, e, size);
  }
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
  // The scheme table's PositionKind; a bias by offset from the scheme table's biasRegion, one
  // row per head or one for all; the sinusoidal scheme's projections of x + p.
  const SchemeInfo& info = *schemeInfo(r.scheme);
  relpos::PositionTerm<T> position;
  position.kind = info.kind;
  if (position.kind == PositionKind::kOffsetBias) {
    const MatrixBuffer& numbers = regionNamed(r, info.biasRegion);
    const Index rows = relpos::offsetBiasRows(info, numbers.rows, numbers.cols);
    biasByOffset.resize(rows * (2 * n - 1));
    // offsetBiases reads the scheme's own of the two (the other is 0 x 0: checkAttention).
    relpos::offsetBiases<T>(r.scheme, r.t5, at<const T>(r.bucketBiases.address),
                            at<const double>(r.slopes.address), rows, n, biasByOffset.data());
    position.biasByOffset = biasByOffset.data();
    position.biasHeadStride = rows == 1 ? 0 : 2 * n - 1;
  } else if (position.kind == PositionKind::kRotation) {
    position.rotation = relpos::RopeParams{r.base, r.layout};
  } else if (sinusoidal) {
    absolute.computeSinusoidal(inputAt<T>(r.x), inputAt<T>(r.queryWeights),
                               inputAt<T>(r.keyWeights), inputAt<T>(r.valueWeights), r.base,
                               r.firstQuery, r.queryRows);
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

// Writes embeddings ((2k + 1) x d_k), query (1 x d_k) and profile (1 x (2k + 1)), float64.
std::string localityProfileInto(const relpos::LocalityProfileParams& params,
                                const MatrixBuffer& embeddings, const MatrixBuffer& query,
                                const MatrixBuffer& profile) {
  BufferCheck c;
  c.require(params.dK >= 1 && params.maxDistance >= 0, "dK must be >= 1 and maxDistance >= 0");
  c.inRange(relpos::outOfRange(params));
  const Index tableRows = 2 * params.maxDistance + 1;
  c.matrix<double>("embeddings", embeddings, tableRows, params.dK);
  c.matrix<double>("query", query, 1, params.dK);
  c.matrix<double>("profile", profile, 1, tableRows);
  if (!c.ok()) return c.error();
  relpos::localityProfile(params, matrixAt<double>(embeddings), vectorAt<double>(query),
                          vectorAt<double>(profile));
  return {};
}

// The example's sizes (its draw is relpos::ScenarioSettings), by default the handbook's: n tokens
// of width dModel, queries and keys dK wide, tables clipped at maxDistance.
struct ExampleSizes {
  int n = 6, dModel = 8, dK = 4, maxDistance = 3;
};

// Where example() writes (one region per matrix of relpos::ExampleScenario, float64), and the
// tokens it reads for the stable draw: their UTF-8 bytes one after another, and n int32 lengths.
struct ExampleBuffers {
  MatrixBuffer x, queryWeights, keyWeights, valueWeights, relativeKeys, relativeValues;
  MatrixBuffer queries, keys, values, profile;
  MatrixBuffer tokenBytes, tokenLengths;
};

std::string exampleScenarioInto(const ExampleSizes& s, const relpos::ScenarioSettings& settings,
                                const ExampleBuffers& b) {
  BufferCheck c;
  c.require(s.n >= 1 && s.dModel >= 1 && s.dK >= 1 && s.maxDistance >= 0,
            "n, dModel and dK must be >= 1 and maxDistance >= 0");
  c.inRange(relpos::outOfRange(settings.locality));
  if (!c.ok()) return c.error();
  const int tableRows = 2 * s.maxDistance + 1;
  c.matrix<double>("x", b.x, s.n, s.dModel);
  for (const auto& [name, m] :
       {std::pair<const char*, const MatrixBuffer&>{"queryWeights", b.queryWeights},
        {"keyWeights", b.keyWeights},
        {"valueWeights", b.valueWeights}}) {
    c.matrix<double>(name, m, s.dModel, s.dK);
  }
  c.matrix<double>("relativeKeys", b.relativeKeys, tableRows, s.dK);
  c.matrix<double>("relativeValues", b.relativeValues, tableRows, s.dK);
  for (const auto& [name, m] : {std::pair<const char*, const MatrixBuffer&>{"queries", b.queries},
                                {"keys", b.keys},
                                {"values", b.values}}) {
    c.matrix<double>(name, m, s.n, s.dK);
  }
  c.matrix<double>("profile", b.profile, tableRows, 1);
  const bool stable = settings.draw == relpos::ScenarioDraw::kStable;
  if (stable) {
    c.matrix<std::int32_t>("tokenLengths", b.tokenLengths, 1, s.n);
    c.matrix<char>("tokenBytes", b.tokenBytes, 1, -1);
    if (c.ok()) {
      double total = 0;
      for (int i = 0; i < s.n; ++i) {
        const std::int32_t length = at<const std::int32_t>(b.tokenLengths.address)[i];
        c.require(length >= 0, "tokenLengths must be >= 0");
        total += length;
      }
      c.require(total <= b.tokenBytes.cols, "tokenLengths add up to more than tokenBytes holds");
    }
  }
  if (!c.ok()) return c.error();
  relpos::ExampleScenario scenario{matrixAt<double>(b.x),
                                   matrixAt<double>(b.queryWeights),
                                   matrixAt<double>(b.keyWeights),
                                   matrixAt<double>(b.valueWeights),
                                   matrixAt<double>(b.relativeKeys),
                                   matrixAt<double>(b.relativeValues),
                                   matrixAt<double>(b.queries),
                                   matrixAt<double>(b.keys),
                                   matrixAt<double>(b.values),
                                   vectorAt<double>(b.profile)};
  const relpos::Utf8Tokens tokens =
      stable ? relpos::Utf8Tokens{at<const char>(b.tokenBytes.address),
                                  at<const std::int32_t>(b.tokenLengths.address)}
             : relpos::Utf8Tokens{};
  relpos::drawExampleScenario(settings, tokens, scenario);
  return {};
}

// attentionScratchBytes (relpos/attention.hpp) for a scheme: the API's byte budget adds it.
double attentionScratchBytesOf(int queryRows, int n, int tableRows, int dK, int dV,
                               PositionScheme scheme, int scalarBytes) {
  const SchemeInfo* info = schemeInfo(scheme);
  return relpos::attentionScratchBytes(queryRows, n, tableRows, dK, dV,
                                       info ? info->kind : PositionKind::kNone, scalarBytes);
}

// Bytes of WASM heap in use by malloc: lets tests prove that repeated calls leave memory flat.
double heapBytesInUse() { return static_cast<double>(mallinfo().uordblks); }

// Every name of this file that JS sees.
void registerAttention() {
  using relpos::T5BucketParams;
  emscripten::enum_<PositionScheme> schemes("PositionScheme");  // the scheme table's names
  for (const SchemeInfo& info : kSchemeTable) schemes.value(info.name, info.scheme);
  emscripten::enum_<relpos::RopeLayout>("RopeLayout")
      .value("interleaved", relpos::RopeLayout::kInterleaved)
      .value("half", relpos::RopeLayout::kHalf);
  emscripten::enum_<relpos::ScenarioDraw>("ScenarioDraw")
      .value("handbook", relpos::ScenarioDraw::kHandbook)
      .value("stable", relpos::ScenarioDraw::kStable);
  emscripten::enum_<relpos::PositionTable>("PositionTable")
      .value("random", relpos::PositionTable::kRandom)
      .value("locality", relpos::PositionTable::kLocality);
  registerValueObject("MatrixBuffer", field("address", &MatrixBuffer::address),
                      field("rows", &MatrixBuffer::rows), field("cols", &MatrixBuffer::cols),
                      field("bytes", &MatrixBuffer::bytes));
  registerSettings("T5BucketParams", field("numBuckets", &T5BucketParams::numBuckets),
                   field("maxDistance", &T5BucketParams::maxDistance),
                   field("bidirectional", &T5BucketParams::bidirectional));
  registerSettings("RopeParams", field("base", &RopeParams::base),
                   field("layout", &RopeParams::layout));
  registerSettings("SinusoidalParams", field("base", &relpos::SinusoidalParams::base));
  registerValueObject(
      "AttentionRequest", field("heads", &R::heads), field("causal", &R::causal),
      field("firstQuery", &R::firstQuery), field("queryRows", &R::queryRows),
      field("scale", &R::scale), field("scheme", &R::scheme), field("t5", &R::t5),
      field("base", &R::base), field("layout", &R::layout), field("queries", &R::queries),
      field("keys", &R::keys), field("values", &R::values), field("relativeKeys", &R::relativeKeys),
      field("relativeValues", &R::relativeValues), field("x", &R::x),
      field("queryWeights", &R::queryWeights), field("keyWeights", &R::keyWeights),
      field("valueWeights", &R::valueWeights), field("bucketBiases", &R::bucketBiases),
      field("slopes", &R::slopes), field("keyPadding", &R::keyPadding),
      field("allowed", &R::allowed), field("contentScores", &R::contentScores),
      field("positionBiases", &R::positionBiases), field("combinedScores", &R::combinedScores),
      field("contentWeights", &R::contentWeights), field("combinedWeights", &R::combinedWeights),
      field("output", &R::output));
  registerValueObject(
      "LocalityShape", field("noise", &LocalityShape::noise), field("width", &LocalityShape::width),
      field("asymmetry", &LocalityShape::asymmetry), field("strength", &LocalityShape::strength));
  registerSettings("ScenarioSettings", field("seed", &ScenarioSettings::seed),
                   field("draw", &ScenarioSettings::draw), field("table", &ScenarioSettings::table),
                   field("locality", &ScenarioSettings::locality),
                   field("sameQuery", &ScenarioSettings::sameQuery));
  registerSettings("ExampleSizes", field("n", &ExampleSizes::n),
                   field("dModel", &ExampleSizes::dModel), field("dK", &ExampleSizes::dK),
                   field("maxDistance", &ExampleSizes::maxDistance));
  using E = ExampleBuffers;
  registerValueObject("ExampleBuffers", field("x", &E::x), field("queryWeights", &E::queryWeights),
                      field("keyWeights", &E::keyWeights), field("valueWeights", &E::valueWeights),
                      field("relativeKeys", &E::relativeKeys),
                      field("relativeValues", &E::relativeValues), field("queries", &E::queries),
                      field("keys", &E::keys), field("values", &E::values),
                      field("profile", &E::profile), field("tokenBytes", &E::tokenBytes),
                      field("tokenLengths", &E::tokenLengths));
  using L = LocalityProfileParams;
  registerSettings("LocalityProfileParams", field("seed", &L::seed), field("dK", &L::dK),
                   field("maxDistance", &L::maxDistance), field("noise", &L::noise),
                   field("width", &L::width), field("asymmetry", &L::asymmetry));
  registerFunctions(
      bound("randnInto", &randnInto), bound("relativeOffsetsInto", &relativeOffsetsInto),
      bound("attentionIntoFloat64", &attentionInto<double>),
      bound("attentionIntoFloat32", &attentionInto<float>),
      bound("localityProfileInto", &localityProfileInto),
      bound("exampleScenarioInto", &exampleScenarioInto), bound("heapBytesInUse", &heapBytesInUse),
      bound("coreDefaults", &coreDefaults), bound("lastAttentionTimings", &lastAttentionTimings),
      bound("attentionScratchBytes", &attentionScratchBytesOf));
}

}  // namespace
}  // namespace relpos::bindings

EMSCRIPTEN_BINDINGS(relpos_attention) { relpos::bindings::registerAttention(); }
