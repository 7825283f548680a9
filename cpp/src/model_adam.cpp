// The training engine's optimiser: Adam with decoupled weight decay and gradient-norm clipping
// (relpos/model_config.hpp, AdamOptions, has the update), in place on every parameter.
#include <cmath>

#include "relpos/transformer_model.hpp"

namespace relpos {
namespace {

// The clipping factor min(1, maxNorm / |g|) when the sum of g's squares overflows a double
// (entries beyond about 1e154): every entry divided by the largest magnitude first, and the
// factor formed without the norm itself (which may lie beyond a double too).
template <typename T>
double scaledClipFactor(const T* g, Index count, double maxNorm) {
  double largest = 0;
  for (Index i = 0; i < count; ++i)
    largest = std::fmax(largest, std::fabs(static_cast<double>(g[i])));
  if (!std::isfinite(largest)) return 0;
  double squares = 0;
  for (Index i = 0; i < count; ++i) {
    const double x = static_cast<double>(g[i]) / largest;
    squares += x * x;
  }
  return std::fmin(1.0, maxNorm / largest / std::sqrt(squares));
}

}  // namespace

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
      const T factor = static_cast<T>(std::isinf(norm) ? scaledClipFactor(g, count, o.maxGradNorm)
                                                       : o.maxGradNorm / norm);
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
