// The training engine: the model as one Embind class per precision, its config and Adam settings
// as value objects. web/api/model.js validates every argument before calling in. Left out of the
// page's first-load module (CMake target relpos_wasm_lite links attention.cpp and schemes.cpp
// only): the training section loads the full one in its worker.
#include <emscripten/bind.h>

#include <cstdint>
#include <string>

#include "buffers.hpp"
#include "relpos/synthetic_tasks.hpp"
#include "relpos/transformer_model.hpp"

namespace {

using relpos::Index;
using relpos::bindings::Address;
using relpos::bindings::at;

// One model of scalar T; registered once per precision (ModelHandleFloat32, ModelHandleFloat64).
// Batches are addresses of Int32 arrays the JS layer wrote into WASM memory.
template <typename T>
class ModelHandle {
 public:
  explicit ModelHandle(const relpos::ModelConfig& config) : model_(config) {}

  emscripten::val parameterTable() const {
    emscripten::val table = emscripten::val::array();
    for (const relpos::ParameterInfo& info : model_.parameterTable()) {
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

  Address parametersAddress() { return address(model_.parameters()); }
  Address gradientsAddress() { return address(model_.gradients()); }
  double adamSteps() const { return static_cast<double>(model_.adamSteps()); }

  double lossAndGradients(Address tokens, Address targets, int batchSize, int seqLen) {
    return model_.lossAndGradients(view(tokens, targets, batchSize, seqLen));
  }

  double trainStep(Address tokens, Address targets, int batchSize, int seqLen,
                   const relpos::AdamOptions& options) {
    return model_.trainStep(view(tokens, targets, batchSize, seqLen), options);
  }

  emscripten::val evaluate(Address tokens, Address targets, int batchSize, int seqLen) {
    const relpos::Evaluation e = model_.evaluate(view(tokens, targets, batchSize, seqLen));
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
    forwardSequenceOf(tokens, seqLen);
    headInputsOf(layer, head, queries, keys, values);
  }

  // One sequence through the model, then every head's inputs read from it (headInputsOf).
  void forwardSequenceOf(Address tokens, int seqLen) {
    model_.forwardSequence(at<const std::int32_t>(tokens), seqLen);
  }
  void headInputsOf(int layer, int head, Address queries, Address keys, Address values) const {
    model_.headInputs(layer, head, at<T>(queries), at<T>(keys), at<T>(values));
  }

  Address relativeKeysAddress(int layer, int head) const {
    return address(model_.relativeKeys(layer, head));
  }
  Address relativeValuesAddress(int layer, int head) const {
    return address(model_.relativeValues(layer, head));
  }

 private:
  static Address address(const T* pointer) { return reinterpret_cast<Address>(pointer); }
  static relpos::BatchView view(Address tokens, Address targets, int batchSize, int seqLen) {
    return relpos::BatchView{at<const std::int32_t>(tokens), at<const std::int32_t>(targets),
                             batchSize, seqLen};
  }

  relpos::TransformerModel<T> model_;
};

template <typename T>
void registerModelHandle(const char* name) {
  using Handle = ModelHandle<T>;
  emscripten::class_<Handle>(name)
      .template constructor<const relpos::ModelConfig&>()
      .function("parameterTable", &Handle::parameterTable)
      .function("parametersAddress", &Handle::parametersAddress)
      .function("gradientsAddress", &Handle::gradientsAddress)
      .function("adamSteps", &Handle::adamSteps)
      .function("lossAndGradients", &Handle::lossAndGradients)
      .function("trainStep", &Handle::trainStep)
      .function("evaluate", &Handle::evaluate)
      .function("headInputsInto", &Handle::headInputsInto)
      .function("forwardSequenceOf", &Handle::forwardSequenceOf)
      .function("headInputsOf", &Handle::headInputsOf)
      .function("relativeKeysAddress", &Handle::relativeKeysAddress)
      .function("relativeValuesAddress", &Handle::relativeValuesAddress);
}

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
  registerModelHandle<float>("ModelHandleFloat32");
  registerModelHandle<double>("ModelHandleFloat64");
  emscripten::function("checkModelConfig", &checkModelConfigText);
  emscripten::function("syntheticBatchInto", &syntheticBatchInto);
}
