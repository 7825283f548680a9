// The training engine's parameters (relpos/transformer_model.hpp): the registry of named
// parameters, every buffer allocated when the model is made, the initial values drawn from
// numpy's stream, and the views of a head's slice and tables.
#include <algorithm>
#include <cmath>

#include "relpos/numpy_random.hpp"
#include "relpos/transformer_model.hpp"

namespace relpos {

template <typename T>
Index TransformerModel<T>::add(const std::string& name, std::vector<Index> shape, double initScale,
                               double initConstant) {
  Index size = 1;
  for (Index side : shape) size *= side;
  const Index offset = table_.empty() ? 0 : table_.back().offset + table_.back().size;
  table_.push_back(ParameterInfo{name, offset, size, std::move(shape)});
  initScales_.push_back(initScale);
  initConstants_.push_back(initConstant);
  return offset;
}

template <typename T>
TransformerModel<T>::TransformerModel(const ModelConfig& config) : config_(config) {
  const Index V = config.vocabSize, d = config.dModel, f = config.ffnWidth, H = config.heads;
  const Index dk = d / H, rows = tableRows();
  const double inD = 1.0 / std::sqrt(static_cast<double>(d));
  embedding_ = add("embedding", {V, d}, 1.0);
  for (int l = 0; l < config.layers; ++l) {
    const std::string p = "layers." + std::to_string(l) + ".";
    LayerParameters lp{};
    lp.query = add(p + "attention.query", {d, d}, inD);
    lp.key = add(p + "attention.key", {d, d}, inD);
    lp.value = add(p + "attention.value", {d, d}, inD);
    lp.output = add(p + "attention.output", {d, d}, inD);
    const double tableScale = 1.0 / std::sqrt(static_cast<double>(dk));
    if (config.positionScheme == PositionScheme::kT5) {
      lp.bucketBiases = add(p + "attention.bucketBiases", {H, config.numBuckets}, tableScale);
    }
    if (!shawPositions()) {
      // no a^K / a^V: relativeKeys() and relativeValues() are for Shaw's scheme only
    } else if (config.perHeadTables) {
      lp.relativeKeys = add(p + "attention.relativeKeys", {H, rows, dk}, tableScale);
      lp.relativeValues = add(p + "attention.relativeValues", {H, rows, dk}, tableScale);
    } else {
      lp.relativeKeys = add(p + "attention.relativeKeys", {rows, dk}, tableScale);
      lp.relativeValues = add(p + "attention.relativeValues", {rows, dk}, tableScale);
    }
    lp.norm1Gain = add(p + "norm1.gain", {d}, 0.0, 1.0);
    lp.norm1Bias = add(p + "norm1.bias", {d}, 0.0);
    lp.ffnWeight1 = add(p + "ffn.weight1", {d, f}, inD);
    lp.ffnBias1 = add(p + "ffn.bias1", {f}, 0.0);
    lp.ffnWeight2 = add(p + "ffn.weight2", {f, d}, 1.0 / std::sqrt(static_cast<double>(f)));
    lp.ffnBias2 = add(p + "ffn.bias2", {d}, 0.0);
    lp.norm2Gain = add(p + "norm2.gain", {d}, 0.0, 1.0);
    lp.norm2Bias = add(p + "norm2.bias", {d}, 0.0);
    layerParameters_.push_back(lp);
  }
  outputWeight_ = add("output.weight", {d, V}, inD);
  outputBias_ = add("output.bias", {V}, 0.0);
  setUpPositions();

  const Index count = table_.back().offset + table_.back().size;
  parameters_.setZero(count);
  gradients_.setZero(count);
  firstMoment_.setZero(count);
  secondMoment_.setZero(count);
  initialise();

  const Index n = config.seqLen;
  maxRows_ = static_cast<Index>(config.maxBatchSize) * n;
  const Index R = maxRows_;
  activations_.resize(config.layers);
  for (auto& a : activations_) {
    for (Matrix<T>* m : {&a.input, &a.queries, &a.keys, &a.values, &a.heads, &a.normed1Hat,
                         &a.normed1, &a.normed2Hat}) {
      m->setZero(R, d);
    }
    a.hidden.setZero(R, f);
    a.weights.setZero(static_cast<Index>(config.maxBatchSize) * H * n, n);
    a.inverseStd1.setZero(R);
    a.inverseStd2.setZero(R);
  }
  finalOutput_.setZero(R, d);
  targetOutput_.setZero(R, d);
  dTargetOutput_.setZero(R, d);
  targetRows_.assign(static_cast<std::size_t>(R), 0);
  logits_.setZero(R, V);
  for (Matrix<T>* m : {&dX_, &dNormed1_, &dHeads_, &dQueries_, &dKeys_, &dValues_, &dU_}) {
    m->setZero(R, d);
  }
  dHidden_.setZero(R, f);
  biasByOffset_.setZero(2 * n - 1);
  dWeights_.setZero(n, n);
  projected_.setZero(n, rows);
  buckets_.setZero(n, rows);
  // The packed right operand (always a weight matrix or its transpose) reaches its largest size
  // now, not during a step: depth x the columns rounded up to whole panels.
  constexpr Index panel = kPanelWidth<T>;
  passPanels_.setZero(transposedProductWorkspace<T>(std::max({V, f, d, n})));
  const auto padded = [](Index cols) { return (cols + panel - 1) / panel * panel; };
  packed_.reserve(
      std::max({d * padded(V), V * padded(d), d * padded(f), f * padded(d), d * padded(d),
                dk * padded(n), n * padded(dk), dk * padded(rows), rows * padded(dk)}));
  // The attention workspace too: one pass of the first layer's attention over one sequence of the
  // longest length (on the zeroed activations, overwritten by every forward pass).
  attentionForward(0, 1, config.seqLen);
}

template <typename T>
void TransformerModel<T>::initialise() {
  NumpyRandom random(config_.seed);
  for (std::size_t p = 0; p < table_.size(); ++p) {
    T* data = parameters_.data() + table_[p].offset;
    for (Index i = 0; i < table_[p].size; ++i) {
      data[i] = initScales_[p] == 0.0 ? static_cast<T>(initConstants_[p])
                                      : static_cast<T>(random.nextGaussian() * initScales_[p]);
    }
  }
}

template <typename T>
Index TransformerModel<T>::tableOffset(Index base, int head) const {
  return config_.perHeadTables ? base + static_cast<Index>(head) * tableRows() * headWidth() : base;
}

template <typename T>
const T* TransformerModel<T>::relativeKeys(int layer, int head) const {
  return parameters_.data() + tableOffset(layerParameters_[layer].relativeKeys, head);
}

template <typename T>
const T* TransformerModel<T>::relativeValues(int layer, int head) const {
  return parameters_.data() + tableOffset(layerParameters_[layer].relativeValues, head);
}

template <typename T>
typename TransformerModel<T>::HeadView TransformerModel<T>::headView(LayerActivations& a, Index b,
                                                                     Index h, Index n) {
  const Index H = config_.heads;
  return {headSlice(a.queries, b, h, n), headSlice(a.keys, b, h, n), headSlice(a.values, b, h, n),
          MatrixMap<T>(a.weights.data() + (b * H + h) * n * n, n, n)};
}

template <typename T>
typename TransformerModel<T>::RelativeTables TransformerModel<T>::relativeTables(int layer,
                                                                                 Index h) const {
  const Index rows = tableRows(), dk = headWidth();
  return {ConstMatrixMap<T>(relativeKeys(layer, static_cast<int>(h)), rows, dk),
          ConstMatrixMap<T>(relativeValues(layer, static_cast<int>(h)), rows, dk)};
}

// The class itself here: every member defined in this file and in the class body (the others
// are instantiated in the files that define them).
template class TransformerModel<float>;
template class TransformerModel<double>;

}  // namespace relpos
