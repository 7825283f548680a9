// The training engine's optimiser: Adam with decoupled weight decay and gradient-norm clipping
// (relpos/model_config.hpp, AdamOptions, has the update), in place on every parameter.
#include <cmath>

#include "relpos/transformer_model.hpp"

namespace relpos {

template <typename T>
__attribute__((noinline)) void TransformerModel<T>::adamStep(const AdamOptions& o) {
  ++adamSteps_;
  const Index count = parameters_.size();
  T* g = gradients_.data();
  if (o.maxGradNorm > 0) {
    double squares = 0;
    for (Index i = 0; i < count; ++i) squares += static_cast<double>(g[i]) * g[i];
    const double norm = std::sqrt(squares);
    if (norm > o.maxGradNorm) {
      const T factor = static_cast<T>(o.maxGradNorm / norm);
      for (Index i = 0; i < count; ++i) g[i] *= factor;
    }
  }
  const double t = static_cast<double>(adamSteps_);
  const T beta1 = static_cast<T>(o.beta1), beta2 = static_cast<T>(o.beta2);
  const T stepSize = static_cast<T>(o.learningRate / (1.0 - std::pow(o.beta1, t)));
  const T inverseCorrection2 = static_cast<T>(1.0 / std::sqrt(1.0 - std::pow(o.beta2, t)));
  const T epsilon = static_cast<T>(o.epsilon);
  const T decay = static_cast<T>(o.learningRate * o.weightDecay);
  T* p = parameters_.data();
  T* m = firstMoment_.data();
  T* v = secondMoment_.data();
  for (Index i = 0; i < count; ++i) {
    m[i] = beta1 * m[i] + (T(1) - beta1) * g[i];
    v[i] = beta2 * v[i] + (T(1) - beta2) * g[i] * g[i];
    p[i] -= stepSize * m[i] / (std::sqrt(v[i]) * inverseCorrection2 + epsilon) + decay * p[i];
  }
}

template void TransformerModel<float>::adamStep(const AdamOptions&);
template void TransformerModel<double>::adamStep(const AdamOptions&);

}  // namespace relpos
