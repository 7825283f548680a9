// The core's contract for JavaScript: the position schemes' table, the model's limits, T5's
// bucket rules, the block of query rows, the largest seed, the most ALiBi heads and attention()'s
// shape rules, from the core's own constants (relpos/scheme_table.hpp, relpos/model_config.hpp,
// relpos/attention.hpp, relpos/numpy_random.hpp, relpos/position_schemes.hpp,
// relpos/attention_shapes.hpp, relpos/setting_ranges.hpp). coreContract()
// returns them; scripts/make-defaults.mjs writes them into web/api/core-contract.js at build time,
// and the API checks its arguments by them (so the page's module, without this file, carries none
// of it). checkScheme and checkSetting are for the tests that hold the API's checks to the core's.
#include <emscripten/bind.h>

#include <string>

#include "buffers.hpp"
#include "relpos/attention.hpp"
#include "relpos/attention_shapes.hpp"
#include "relpos/model_config.hpp"
#include "relpos/numpy_random.hpp"
#include "relpos/position_schemes.hpp"
#include "relpos/scheme_table.hpp"
#include "relpos/setting_ranges.hpp"

namespace relpos::bindings {
namespace {

// { attentionBlockRows, maxSeed, maxAlibiHeads, schemes: [{ name, attention, evenWidth }],
// attentionShapes: [{ name, region, rows, cols, headColumns, element, role }], extents, t5,
// model }: the block of query rows, the largest seed, the most heads alibiSlopes takes, the
// scheme table, attention()'s shape rules (each region's argument and request field, its extents
// by name, Extent's, its Element and Role by name) with every Extent's name, the real-valued
// settings' ranges by name ({ min, max, minInclusive, maxInclusive }), T5Rules and ModelLimits.
emscripten::val coreContract() {
  emscripten::val out = emscripten::val::object();
  out.set("attentionBlockRows", static_cast<int>(kAttentionBlockRows));
  out.set("maxSeed", static_cast<double>(kMaxSeed));
  out.set("maxAlibiHeads", kMaxAlibiHeads);
  emscripten::val schemes = emscripten::val::array();
  for (const SchemeInfo& info : kSchemeTable) {
    emscripten::val scheme = emscripten::val::object();
    scheme.set("name", std::string(info.name));
    scheme.set("attention", info.attention);
    scheme.set("evenWidth", info.evenWidth);
    schemes.call<void>("push", scheme);
  }
  out.set("schemes", schemes);
  emscripten::val shapes = emscripten::val::array();
  const auto extent = [](Extent e) { return std::string(kExtentNames[static_cast<int>(e)]); };
  for (const RegionShape& region : kAttentionShapes) {
    emscripten::val shape = emscripten::val::object();
    shape.set("name", std::string(region.jsName));
    shape.set("region", std::string(region.name));
    shape.set("rows", extent(region.rows));
    shape.set("cols", extent(region.cols));
    shape.set("headColumns", region.headColumns);
    shape.set("element", std::string(kElementNames[static_cast<int>(region.element)]));
    shape.set("role", std::string(kRoleNames[static_cast<int>(region.role)]));
    shapes.call<void>("push", shape);
  }
  out.set("attentionShapes", shapes);
  emscripten::val extents = emscripten::val::array();
  for (const char* name : kExtentNames) extents.call<void>("push", std::string(name));
  out.set("extents", extents);
  emscripten::val settings = emscripten::val::object();
  for (const SettingRange& range : kSettingRanges) {
    emscripten::val row = emscripten::val::object();
    row.set("min", range.min);
    row.set("max", range.max);
    row.set("minInclusive", range.minInclusive);
    row.set("maxInclusive", range.maxInclusive);
    settings.set(range.name, row);
  }
  out.set("settingRanges", settings);
  out.set("t5", emscripten::val(kT5Rules));
  out.set("model", emscripten::val(kModelLimits));
  return out;
}

// checkScheme (relpos/scheme_table.hpp): what is wrong with a scheme's settings, or "".
std::string checkSchemeText(PositionScheme scheme, const T5BucketParams& t5, int headWidth) {
  return checkScheme(scheme, t5, headWidth);
}

// outOfRange (relpos/setting_ranges.hpp) for the setting of that name: what is wrong, or "".
std::string checkSettingText(const std::string& name, double value) {
  for (const SettingRange& range : kSettingRanges) {
    if (name == range.name) return outOfRangeText(outOfRange(range.setting, value));
  }
  return "no setting is named " + name;
}

void registerContract() {
  using T = T5Rules;
  registerValueObject("T5Rules", field("minBucketsBidirectional", &T::minBucketsBidirectional),
                      field("minBucketsOneWay", &T::minBucketsOneWay),
                      field("exactDivisorBidirectional", &T::exactDivisorBidirectional),
                      field("exactDivisorOneWay", &T::exactDivisorOneWay));
  using L = ModelLimits;
  registerValueObject("ModelLimits", field("maxVocabSize", &L::maxVocabSize),
                      field("maxDModel", &L::maxDModel), field("minLayers", &L::minLayers),
                      field("maxLayers", &L::maxLayers), field("maxFfnWidth", &L::maxFfnWidth),
                      field("maxMaxDistance", &L::maxMaxDistance),
                      field("maxSeqLen", &L::maxSeqLen), field("maxBatchSize", &L::maxBatchSize),
                      field("minBuckets", &L::minBuckets), field("maxBuckets", &L::maxBuckets),
                      field("maxBucketDistance", &L::maxBucketDistance));
  registerFunctions(bound("coreContract", &coreContract), bound("checkScheme", &checkSchemeText),
                    bound("checkSetting", &checkSettingText));
}

}  // namespace
}  // namespace relpos::bindings

EMSCRIPTEN_BINDINGS(relpos_contract) { relpos::bindings::registerContract(); }
