// The core's contract for JavaScript: the position schemes' table, the model's limits, T5's
// bucket rules and the block of query rows, from the core's own constants
// (relpos/scheme_table.hpp, relpos/model_config.hpp, relpos/attention.hpp). coreContract()
// returns them; scripts/make-defaults.mjs writes them into web/api/core-contract.js at build time,
// and the API checks its arguments by them (so the page's module, without this file, carries none
// of it). checkScheme is for the tests that hold the API's checks to the core's.
#include <emscripten/bind.h>

#include <string>

#include "buffers.hpp"
#include "relpos/attention.hpp"
#include "relpos/model_config.hpp"
#include "relpos/scheme_table.hpp"

namespace relpos::bindings {
namespace {

// { attentionBlockRows, schemes: [{ name, attention, evenWidth }], t5, model }: the block of
// query rows, the scheme table, T5Rules and ModelLimits.
emscripten::val coreContract() {
  emscripten::val out = emscripten::val::object();
  out.set("attentionBlockRows", static_cast<int>(kAttentionBlockRows));
  emscripten::val schemes = emscripten::val::array();
  for (const SchemeInfo& info : kSchemeTable) {
    emscripten::val scheme = emscripten::val::object();
    scheme.set("name", std::string(info.name));
    scheme.set("attention", info.attention);
    scheme.set("evenWidth", info.evenWidth);
    schemes.call<void>("push", scheme);
  }
  out.set("schemes", schemes);
  out.set("t5", emscripten::val(kT5Rules));
  out.set("model", emscripten::val(kModelLimits));
  return out;
}

// checkScheme (relpos/scheme_table.hpp): what is wrong with a scheme's settings, or "".
std::string checkSchemeText(PositionScheme scheme, const T5BucketParams& t5, int headWidth) {
  return checkScheme(scheme, t5, headWidth);
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
  registerFunctions(bound("coreContract", &coreContract), bound("checkScheme", &checkSchemeText));
}

}  // namespace
}  // namespace relpos::bindings

EMSCRIPTEN_BINDINGS(relpos_contract) { relpos::bindings::registerContract(); }
