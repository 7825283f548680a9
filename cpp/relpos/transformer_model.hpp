// A small Transformer encoder with Shaw relative positions, trainable in the core: token
// embeddings, L blocks of multi-head relative self-attention (residual + LayerNorm) and a ReLU
// feed-forward layer (residual + LayerNorm), then a linear map to the vocabulary; cross-entropy
// over the positions whose target is >= 0. No absolute position signal: order reaches the model
// only through the relative tables a^K, a^V (k = 0 removes it). Backward pass written out for
// every parameter, Adam in place. README.md, "Training a model", has the maths and the names.
//
// Memory: every buffer is allocated when the model is made (sized for maxBatchSize sequences of
// seqLen tokens); forward, backward and Adam allocate nothing. A batch larger than maxBatchSize
// runs in chunks whose gradients add up.
#pragma once

#include <string>
#include <vector>

#include "relpos/attention.hpp"
#include "relpos/matrix_types.hpp"
#include "relpos/model_config.hpp"
#include "relpos/packed_gemm.hpp"
#include "relpos/position_schemes.hpp"

namespace relpos {

// One named parameter: its place in the flat parameter vector and its shape (row-major).
struct ParameterInfo {
  std::string name;
  Index offset;
  Index size;
  std::vector<Index> shape;
};

struct Evaluation {
  double loss;      // mean cross-entropy over the positions with a target
  double accuracy;  // fraction of those positions whose argmax is the target
  Index counted;    // how many positions had a target
};

template <typename T>
class TransformerModel {
 public:
  // The configuration must pass checkModelConfig (the caller's to check).
  explicit TransformerModel(const ModelConfig& config);

  const ModelConfig& config() const { return config_; }
  const std::vector<ParameterInfo>& parameterTable() const { return table_; }
  Index parameterCount() const { return parameters_.size(); }
  T* parameters() { return parameters_.data(); }
  const T* gradients() const { return gradients_.data(); }
  T* gradients() { return gradients_.data(); }
  long adamSteps() const { return adamSteps_; }

  // Mean cross-entropy of the batch (0 when no target is set), its gradient for every parameter
  // written to gradients(). Tokens must be in [0, vocabSize), targets in [-1, vocabSize),
  // seqLen in [1, config().seqLen], batchSize >= 1 (the caller's to check).
  // stepTargets > 0 (at least the batch's own count): the batch is one shard of a step whose
  // shards hold stepTargets targets in all; loss and gradient are of Σ_shard loss / stepTargets,
  // so the shards' gradients add up to the step's (docs/training.md, "A step in shards").
  double lossAndGradients(const BatchView& batch, Index stepTargets = 0);
  // gradients() = shard (first) or gradients() += shard: a step's shards summed in a fixed order.
  void gatherGradients(const T* shard, bool first);
  // One Adam step on the current gradients().
  void adamStep(const AdamOptions& options);
  // lossAndGradients, then adamStep while the loss and every gradient are finite (else no step:
  // the parameters as they were); returns the loss before the step.
  double trainStep(const BatchView& batch, const AdamOptions& options);
  // Loss and accuracy, no gradients.
  Evaluation evaluate(const BatchView& batch);

  // One sequence through the model (no targets); then headInputs gives, for one layer and head,
  // the queries, keys and values (seqLen x headWidth each) that its attention saw.
  void forwardSequence(const std::int32_t* tokens, int seqLen);
  void headInputs(int layer, int head, T* queries, T* keys, T* values) const;
  // Shaw's scheme: one head's mean-query position profile over `sequences` sequences of seqLen
  // tokens (docs/training.md, "The position profile"): profile[c] = q̄ · aᴷ[c] / √d_k for the
  // tableRows() offsets −k … k, q̄ the mean of the head's queries over every position of every
  // sequence (in double). Runs each sequence through the model: headInputs reads the last.
  void positionProfile(const std::int32_t* tokens, int sequences, int seqLen, int layer, int head,
                       double* profile);
  // The layer's a^K / a^V for one head (tableRows x headWidth, inside parameters()).
  const T* relativeKeys(int layer, int head) const;
  const T* relativeValues(int layer, int head) const;

  int headWidth() const { return config_.dModel / config_.heads; }
  int tableRows() const { return 2 * config_.maxDistance + 1; }

 private:
  struct LayerParameters {
    Index query, key, value, output, relativeKeys, relativeValues;
    Index bucketBiases;  // T5: heads x numBuckets (0 for the other schemes)
    Index norm1Gain, norm1Bias, ffnWeight1, ffnBias1, ffnWeight2, ffnBias2, norm2Gain, norm2Bias;
  };
  // Activations of one layer for a chunk (maxRows rows each), kept for the backward pass.
  struct LayerActivations {
    Matrix<T> input, queries, keys, values, weights, heads, normed1Hat, normed1, hidden, normed2Hat;
    Vector<T> inverseStd1, inverseStd2;
  };

  // Appends a parameter to the table; initialise() fills it with randn · initScale, or with
  // initConstant where initScale is 0.
  Index add(const std::string& name, std::vector<Index> shape, double initScale,
            double initConstant = 0.0);
  void initialise();
  MatrixMap<T> parameter(Index offset, Index rows, Index cols) {
    return MatrixMap<T>(parameters_.data() + offset, rows, cols);
  }
  MatrixMap<T> gradient(Index offset, Index rows, Index cols) {
    return MatrixMap<T>(gradients_.data() + offset, rows, cols);
  }
  Index tableOffset(Index base, int head) const;

  // Head h's columns of sequence b's rows in a chunk's (rows x dModel) matrix: n x headWidth.
  template <typename M>
  auto headSlice(M& m, Index b, Index h, Index n) const {
    const Index dk = headWidth();
    return m.block(b * n, h * dk, n, dk);
  }
  // What one head's attention reads and writes for sequence b (n positions): its queries, keys
  // and values (headSlice of the layer's) and its weights (n x n).
  struct HeadView {
    MatrixRef<T> queries, keys, values;
    MatrixMap<T> weights;
  };
  HeadView headView(LayerActivations& a, Index b, Index h, Index n);
  // Head h's a^K and a^V in layer `layer` (tableRows x headWidth).
  struct RelativeTables {
    ConstMatrixMap<T> keys, values;
  };
  RelativeTables relativeTables(int layer, Index h) const;

  // out (+)= alpha · op(a) · op(b) through the packed 128-bit kernel; with transposeA (the
  // weight gradients) out += aᵀ b by a kernel that reads a in place, b in panels.
  void gemm(ConstMatrixRef<T> a, bool transposeA, ConstMatrixRef<T> b, bool transposeB,
            MatrixRef<T> out, bool accumulate, T alpha = T(1));

  // out (+)= a · op(b) through the packed kernel (the attention's per-head products).
  void product(ConstMatrixRef<T> a, ConstMatrixRef<T> b, bool transposeB, MatrixRef<T> out,
               bool accumulate);

  // With targets, the logits of the rows whose target is >= 0 only (targetCount_ of them, in
  // row order, their rows in targetRows_); without (nullptr), no logits.
  void forwardChunk(const std::int32_t* tokens, const std::int32_t* targets, int sequences,
                    int seqLen);
  // Turns the chunk's target rows' logits into d(loss)/d(logits) scaled by `scale` (when
  // withGradient), adding the cross-entropy sum and correct count.
  void lossChunk(const std::int32_t* targets, T scale, bool withGradient, double* lossSum,
                 Index* correct);
  void backwardChunk(const std::int32_t* tokens, int sequences, int seqLen);
  void attentionForward(int layer, int sequences, int seqLen);
  void attentionBackward(int layer, int sequences, int seqLen, MatrixRef<T> dHeads);
  // The forward pass is computeAttention per (sequence, head) with the scheme's PositionTerm;
  // the other position schemes' backward pass (PositionScheme): scores q kᵀ/√d_k plus a fixed or
  // learned bias, queries and keys rotated first for RoPE; the embeddings' term is in forwardChunk.
  bool shawPositions() const { return config_.positionScheme == PositionScheme::kShaw; }
  void setUpPositions();  // the constructor's part for them
  void schemeAttentionBackward(int layer, int sequences, int seqLen, MatrixRef<T> dHeads);
  // Rotates rows of m (positions 0 … rows − 1) by +angle (forward) or −angle (backward): the
  // core's one rotation (rotatePairs) over the model's table of angles.
  void rotate(MatrixRef<T> m, bool inverse) const;

  ModelConfig config_;
  std::vector<ParameterInfo> table_;
  std::vector<double> initScales_, initConstants_;
  Vector<T> parameters_, gradients_, firstMoment_, secondMoment_;
  Index embedding_ = 0, outputWeight_ = 0, outputBias_ = 0;
  std::vector<LayerParameters> layerParameters_;
  std::vector<LayerActivations> activations_;
  Index maxRows_ = 0;
  Matrix<T> finalOutput_, logits_;
  // The final outputs of the rows with a target, their gradient, and which rows they are.
  Matrix<T> targetOutput_, dTargetOutput_;
  std::vector<Index> targetRows_;
  Index targetCount_ = 0;
  // Backward scratch.
  Matrix<T> dX_, dNormed1_, dHidden_, dHeads_, dQueries_, dKeys_, dValues_, dU_;
  // Per (sequence, head) attention scratch.
  Matrix<T> dWeights_, projected_, buckets_;
  PackedRight<T> packed_;
  AttentionWorkspace<T> attentionWorkspace_;
  Vector<T> biasByOffset_;  // one head's T5 or ALiBi bias of each offset −(n − 1) … n − 1
  Vector<T> passPanels_;    // one depth pass of the weight gradients' right operand, in panels
  long adamSteps_ = 0;
  int lastSeqLen_ = 0;
  // Position schemes other than Shaw's.
  Index absolute_ = 0;           // kAbsolute: seqLen x dModel, in parameters()
  Matrix<T> sinusoid_;           // kSinusoidal: seqLen x dModel, fixed
  std::vector<int> bucketOf_;    // kT5: bucket of offset o at o + seqLen - 1
  std::vector<double> slopes_;   // kAlibi: one per head
  Matrix<T> ropeCos_, ropeSin_;  // kRope: seqLen x headWidth / 2
};

extern template class TransformerModel<float>;
extern template class TransformerModel<double>;

}  // namespace relpos
