// The training engine: the model as one Embind class per precision, its config, Adam settings and
// synthetic batches as value objects, every batch and output as a region the handle checks
// (buffers.hpp); web/api/model.js validates every argument before calling in. Left out of the
// page's first-load module (CMake target relpos_wasm_lite links attention.cpp and schemes.cpp
// only): the training section loads the full one in its worker.
#include <emscripten/bind.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "buffers.hpp"
#include "relpos/finite_entries.hpp"
#include "relpos/synthetic_tasks.hpp"
#include "relpos/transformer_model.hpp"

namespace relpos::bindings {
namespace {

emscripten::val refusal(const std::string& error) {
  emscripten::val out = emscripten::val::object();
  out.set("error", error);
  return out;
}

// What is wrong with ids[0 .. count) for ids in [min, end), or an empty string.
void checkIds(BufferCheck& c, const char* name, const MatrixBuffer& b, int min, int end) {
  if (!c.ok()) return;
  const std::int32_t* ids = at<const std::int32_t>(b.address);
  const Index count = Index{b.rows} * b.cols;
  for (Index i = 0; i < count; ++i) {
    if (ids[i] < min || ids[i] >= end) {
      c.require(false, std::string(name) + "[" + std::to_string(i) + "] is " +
                           std::to_string(ids[i]) + ", outside " + std::to_string(min) + " .. " +
                           std::to_string(end - 1));
      return;
    }
  }
}

// One model of scalar T; registered once per precision (ModelHandleFloat32, ModelHandleFloat64).
// Every batch, sequence and output crosses as a region the handle checks against the model's
// shapes, and what JS reads of the model's own memory is described by the handle as a region.
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

  // Every parameter (gradient), count x 1, in the order of parameterTable().
  MatrixBuffer parameters() { return regionOf(model_.parameters(), model_.parameterCount(), 1); }
  MatrixBuffer gradients() { return regionOf(model_.gradients(), model_.parameterCount(), 1); }
  double adamSteps() const { return static_cast<double>(model_.adamSteps()); }

  // A batch crosses as tokens and targets, each batchSize x seqLen int32.
  // stepTargets 0: the batch is the step; > 0: one shard of a step with that many targets in all.
  emscripten::val lossAndGradients(const MatrixBuffer& tokens, const MatrixBuffer& targets,
                                   double stepTargets) {
    std::string error = checkBatch(tokens, targets);
    if (error.empty() && !(stepTargets >= 0 && stepTargets <= 2147483647.0))
      error = "stepTargets must be 0 to 2^31 - 1";
    if (!error.empty()) return refusal(error);
    return loss(model_.lossAndGradients(view(tokens, targets), static_cast<Index>(stepTargets)));
  }

  // gradients() = shard (first) or += shard; shard: every parameter's gradient, count x 1, finite,
  // and so is its sum with the shards before it (finite shards can add up to an infinity, which
  // Adam would turn into NaN parameters). A refused shard is not added.
  std::string gatherGradients(const MatrixBuffer& shard, bool first) {
    BufferCheck c;
    c.matrix<T>("gradients", shard, model_.parameterCount(), 1);
    if (!c.ok()) return c.error();
    const T* given = at<const T>(shard.address);
    const Index count = model_.parameterCount();
    const Index bad = relpos::firstNonFinite(given, count);
    if (bad >= 0)
      return "gradients[" + std::to_string(bad) + "] is not finite; every entry must be";
    const Index badSum = first ? -1 : relpos::firstNonFiniteSum(model_.gradients(), given, count);
    if (badSum >= 0)
      return "gradients[" + std::to_string(badSum) +
             "] added to the shards before it is not finite; the shards' sum must be";
    model_.gatherGradients(given, first);
    return {};
  }

  // One Adam step over the gathered gradients; options each in its range (or refused, nothing
  // done).
  std::string adamStep(const relpos::AdamOptions& options) {
    std::string error = relpos::outOfRangeText(relpos::outOfRange(options));
    if (error.empty()) model_.adamStep(options);
    return error;
  }

  // parameters() = values (count x 1, every entry finite); a refused vector writes nothing.
  std::string setParameterVector(const MatrixBuffer& values) {
    BufferCheck c;
    c.matrix<T>("values", values, model_.parameterCount(), 1);
    if (!c.ok()) return c.error();
    using Vector = Eigen::Matrix<T, Eigen::Dynamic, 1>;
    const Eigen::Map<const Vector> given(at<const T>(values.address), model_.parameterCount());
    const Index bad = relpos::firstNonFinite(given.data(), given.size());
    if (bad >= 0) return "values[" + std::to_string(bad) + "] is not finite; every entry must be";
    Eigen::Map<Vector>(model_.parameters(), model_.parameterCount()).noalias() = given;
    return {};
  }

  emscripten::val trainStep(const MatrixBuffer& tokens, const MatrixBuffer& targets,
                            const relpos::AdamOptions& options) {
    std::string error = checkBatch(tokens, targets);
    if (error.empty()) error = relpos::outOfRangeText(relpos::outOfRange(options));
    if (!error.empty()) return refusal(error);
    const double value = model_.trainStep(view(tokens, targets), options);
    const Index bad = relpos::firstNonFinite(model_.gradients(), model_.parameterCount());
    if (!std::isfinite(value) || bad >= 0)
      return refusal(std::string(!std::isfinite(value) ? "the loss"
                                                       : "gradients[" + std::to_string(bad) + "]") +
                     " is not finite (parameters too large for the forward pass?): no step was "
                     "taken, the parameters are unchanged");
    return loss(value);
  }

  emscripten::val evaluate(const MatrixBuffer& tokens, const MatrixBuffer& targets) {
    const std::string error = checkBatch(tokens, targets);
    if (!error.empty()) return refusal(error);
    const relpos::Evaluation e = model_.evaluate(view(tokens, targets));
    emscripten::val out = emscripten::val::object();
    out.set("loss", e.loss);
    out.set("accuracy", e.accuracy);
    out.set("counted", static_cast<double>(e.counted));
    return out;
  }

  // One sequence (1 x n int32) through the model; then headInputs reads any head's inputs.
  std::string forwardSequence(const MatrixBuffer& tokens) {
    BufferCheck c;
    c.matrix<std::int32_t>("tokens", tokens, 1, -1);
    c.require(tokens.cols >= 1 && tokens.cols <= model_.config().seqLen,
              "tokens must hold 1 to seqLen ids");
    checkIds(c, "tokens", tokens, 0, model_.config().vocabSize);
    if (!c.ok()) return c.error();
    model_.forwardSequence(at<const std::int32_t>(tokens.address), tokens.cols);
    sequenceLength_ = tokens.cols;
    return {};
  }

  // One head's queries, keys and values of the last forwardSequence, n x headWidth each.
  std::string headInputs(int layer, int head, const MatrixBuffer& queries, const MatrixBuffer& keys,
                         const MatrixBuffer& values) const {
    BufferCheck c;
    c.require(sequenceLength_ > 0, "no sequence has been through the model (forwardSequence)");
    checkHead(c, layer, head);
    for (const auto& [name, m] : {std::pair<const char*, const MatrixBuffer&>{"queries", queries},
                                  {"keys", keys},
                                  {"values", values}}) {
      c.matrix<T>(name, m, sequenceLength_, model_.headWidth());
    }
    if (!c.ok()) return c.error();
    model_.headInputs(layer, head, at<T>(queries.address), at<T>(keys.address),
                      at<T>(values.address));
    return {};
  }

  // Shaw's scheme: one head's mean-query position profile (1 x tableRows float64) over a batch of
  // sequences (batchSize x seqLen int32); headInputs then reads the batch's last sequence.
  std::string positionProfile(int layer, int head, const MatrixBuffer& tokens,
                              const MatrixBuffer& profile) {
    BufferCheck c;
    c.require(model_.config().positionScheme == relpos::PositionScheme::kShaw,
              "the position profile reads Shaw's a^K; this model has another position scheme");
    checkHead(c, layer, head);
    c.matrix<std::int32_t>("tokens", tokens, -1, -1);
    c.require(tokens.rows >= 1 && tokens.cols >= 1 && tokens.cols <= model_.config().seqLen,
              "tokens must be batchSize x seqLen, batchSize >= 1, seqLen 1 to the model's seqLen");
    c.matrix<double>("profile", profile, 1, model_.tableRows());
    checkIds(c, "tokens", tokens, 0, model_.config().vocabSize);
    if (!c.ok()) return c.error();
    model_.positionProfile(at<const std::int32_t>(tokens.address), tokens.rows, tokens.cols, layer,
                           head, at<double>(profile.address));
    sequenceLength_ = tokens.cols;
    return {};
  }

  // The layer's a^K / a^V for one head, tableRows x headWidth (0 x 0 for no such head, or a
  // model of another scheme, which has no such table).
  MatrixBuffer relativeKeys(int layer, int head) const {
    return table(layer, head, &relpos::TransformerModel<T>::relativeKeys);
  }
  MatrixBuffer relativeValues(int layer, int head) const {
    return table(layer, head, &relpos::TransformerModel<T>::relativeValues);
  }

 private:
  using Table = const T* (relpos::TransformerModel<T>::*)(int, int) const;
  MatrixBuffer table(int layer, int head, Table which) const {
    BufferCheck c;
    c.require(model_.config().positionScheme == relpos::PositionScheme::kShaw, "not Shaw's scheme");
    checkHead(c, layer, head);
    if (!c.ok()) return {};
    return regionOf((model_.*which)(layer, head), model_.tableRows(), model_.headWidth());
  }
  void checkHead(BufferCheck& c, int layer, int head) const {
    c.require(
        layer >= 0 && layer < model_.config().layers && head >= 0 && head < model_.config().heads,
        "layer and head must name one of the model's heads");
  }
  std::string checkBatch(const MatrixBuffer& tokens, const MatrixBuffer& targets) const {
    BufferCheck c;
    const relpos::ModelConfig& config = model_.config();
    c.matrix<std::int32_t>("tokens", tokens, -1, -1);
    c.require(tokens.rows >= 1 && tokens.cols >= 1 && tokens.cols <= config.seqLen,
              "tokens must be batchSize x seqLen, batchSize >= 1, seqLen 1 to the model's seqLen");
    c.matrix<std::int32_t>("targets", targets, tokens.rows, tokens.cols);
    checkIds(c, "tokens", tokens, 0, config.vocabSize);
    checkIds(c, "targets", targets, -1, config.vocabSize);
    return c.error();
  }
  static emscripten::val loss(double value) {
    emscripten::val out = emscripten::val::object();
    out.set("loss", value);
    return out;
  }
  static relpos::BatchView view(const MatrixBuffer& tokens, const MatrixBuffer& targets) {
    return relpos::BatchView{at<const std::int32_t>(tokens.address),
                             at<const std::int32_t>(targets.address), tokens.rows, tokens.cols};
  }

  relpos::TransformerModel<T> model_;
  int sequenceLength_ = 0;
};

template <typename F>
struct Method {
  const char* name;
  F pointer;
};
template <typename F>
Method<F> method(const char* name, F pointer) {
  return {name, pointer};
}

template <typename T, typename... F>
void registerModelHandle(const char* name, Method<F>... methods) {
  emscripten::class_<ModelHandle<T>> handle(name);
  handle.template constructor<const relpos::ModelConfig&>();
  (handle.function(methods.name, methods.pointer), ...);
}

template <typename T>
void registerModelHandle(const char* name) {
  using H = ModelHandle<T>;
  registerModelHandle<T>(
      name, method("parameterTable", &H::parameterTable), method("parameters", &H::parameters),
      method("gradients", &H::gradients), method("adamSteps", &H::adamSteps),
      method("lossAndGradients", &H::lossAndGradients), method("trainStep", &H::trainStep),
      method("gatherGradients", &H::gatherGradients), method("adamStep", &H::adamStep),
      method("setParameterVector", &H::setParameterVector), method("evaluate", &H::evaluate),
      method("forwardSequence", &H::forwardSequence), method("headInputs", &H::headInputs),
      method("positionProfile", &H::positionProfile), method("relativeKeys", &H::relativeKeys),
      method("relativeValues", &H::relativeValues));
}

std::string checkModelConfigText(const relpos::ModelConfig& config) {
  return relpos::checkModelConfig(config);
}

// The bytes a model of this configuration holds in float32 (4) or float64 (8).
double modelBytesOf(const relpos::ModelConfig& config, int scalarBytes) {
  return relpos::modelBytes(config, scalarBytes);
}

// tokens and targets: batchSize x seqLen int32 each.
std::string syntheticBatchInto(const relpos::SyntheticBatchOptions& options,
                               const MatrixBuffer& tokens, const MatrixBuffer& targets) {
  BufferCheck c;
  c.require(options.batchSize >= 1 && options.seqLen >= 1 && options.vocabSize >= 1,
            "batchSize, seqLen and vocabSize must be >= 1");
  c.matrix<std::int32_t>("tokens", tokens, options.batchSize, options.seqLen);
  c.matrix<std::int32_t>("targets", targets, options.batchSize, options.seqLen);
  if (!c.ok()) return c.error();
  relpos::syntheticBatch(options, at<std::int32_t>(tokens.address),
                         at<std::int32_t>(targets.address));
  return {};
}

// Every name of this file that JS sees.
void registerTraining() {
  emscripten::enum_<relpos::SyntheticTask>("SyntheticTask")
      .value("copy-offset", relpos::SyntheticTask::CopyOffset)
      .value("sum-offset", relpos::SyntheticTask::SumOffset);
  using M = ModelConfig;
  registerSettings("ModelConfig", field("vocabSize", &M::vocabSize), field("dModel", &M::dModel),
                   field("heads", &M::heads), field("layers", &M::layers),
                   field("ffnWidth", &M::ffnWidth), field("maxDistance", &M::maxDistance),
                   field("seqLen", &M::seqLen), field("maxBatchSize", &M::maxBatchSize),
                   field("causal", &M::causal), field("perHeadTables", &M::perHeadTables),
                   field("seed", &M::seed), field("positionScheme", &M::positionScheme),
                   field("numBuckets", &M::numBuckets),
                   field("bucketDistance", &M::bucketDistance));
  using A = AdamOptions;
  registerSettings("AdamOptions", field("learningRate", &A::learningRate),
                   field("beta1", &A::beta1), field("beta2", &A::beta2),
                   field("epsilon", &A::epsilon), field("weightDecay", &A::weightDecay),
                   field("maxGradNorm", &A::maxGradNorm));
  using S = SyntheticBatchOptions;
  registerSettings("SyntheticBatchOptions", field("task", &S::task), field("offset", &S::offset),
                   field("vocabSize", &S::vocabSize), field("seqLen", &S::seqLen),
                   field("batchSize", &S::batchSize), field("seed", &S::seed));
  registerModelHandle<float>("ModelHandleFloat32");
  registerModelHandle<double>("ModelHandleFloat64");
  registerFunctions(bound("checkModelConfig", &checkModelConfigText),
                    bound("modelBytes", &modelBytesOf),
                    bound("syntheticBatchInto", &syntheticBatchInto));
}

}  // namespace
}  // namespace relpos::bindings

EMSCRIPTEN_BINDINGS(relpos_training) { relpos::bindings::registerTraining(); }
