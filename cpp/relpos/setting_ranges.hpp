// The ranges of the core's real-valued settings (docs/api-boundary.md): RoPE's and the sinusoid's
// base, ALiBi's slopes, the locality profile's and the example's shape, Adam's options. The core
// refuses a value outside its range (outOfRange, below); the API
// checks its arguments by the same table before any call (coreContract(), written into
// web/api/core-contract.js at build time), so the two cannot drift apart.
#pragma once

#include <cfloat>
#include <string>

#include "relpos/example_scenario.hpp"
#include "relpos/locality_profile.hpp"
#include "relpos/model_config.hpp"

namespace relpos {

enum class Setting : int {
  kBase,          // RoPE's and the sinusoidal encoding's base: the wavelengths' ratio
  kAlibiSlope,    // an ALiBi slope m_h (the bias is −m_h |j − i|)
  kNoise,         // the locality table's noise, as a share of the bump
  kWidth,         // the locality bump's width, in positions
  kAsymmetry,     // the bump's asymmetry a: widths width · (1 ± a)
  kStrength,      // the example's locality strength: how far its table leans to the bump
  kLearningRate,  // Adam's
  kBeta1,
  kBeta2,
  kEpsilon,
  kWeightDecay,
  kMaxGradNorm,  // 0: no clipping
};

struct SettingRange {
  Setting setting;
  const char* name;  // the option's name in the API
  double min;
  double max;
  bool minInclusive;
  bool maxInclusive;
};

// One row per Setting, in its order.
inline constexpr SettingRange kSettingRanges[] = {
    {Setting::kBase, "base", 0, 1e300, false, true},
    {Setting::kAlibiSlope, "slope", 0, 1e6, true, true},
    {Setting::kNoise, "noise", 0, 1e6, true, true},
    {Setting::kWidth, "width", 0, 1e6, false, true},
    {Setting::kAsymmetry, "asymmetry", -1, 1, false, false},
    {Setting::kStrength, "strength", -1e6, 1e6, true, true},
    {Setting::kLearningRate, "learningRate", 0, 1e6, true, true},
    {Setting::kBeta1, "beta1", 0, 1, true, false},
    {Setting::kBeta2, "beta2", 0, 1, true, false},
    {Setting::kEpsilon, "epsilon", 0, 1e6, false, true},
    {Setting::kWeightDecay, "weightDecay", 0, 1e6, true, true},
    {Setting::kMaxGradNorm, "maxGradNorm", 0, DBL_MAX, true, true},
};

constexpr bool settingRowsInOrder() {
  int index = 0;
  for (const SettingRange& row : kSettingRanges) {
    if (static_cast<int>(row.setting) != index++) return false;
  }
  return true;
}
static_assert(settingRowsInOrder(), "kSettingRanges has one row per Setting, in its order");

inline const SettingRange& settingRange(Setting setting) {
  return kSettingRanges[static_cast<int>(setting)];
}

// Whether value lies in the setting's range (NaN never does).
bool inRange(Setting setting, double value);

// The checks below answer with the name of the first setting out of its range, or nullptr: no
// string is built unless a value is refused (the bindings write the message: outOfRangeText).

// The setting's name if value lies outside its range, else nullptr.
const char* outOfRange(Setting setting, double value);

// The locality profile's noise, width and asymmetry.
const char* outOfRange(const LocalityProfileParams& params);

// The example's locality shape: noise, width, asymmetry and strength.
const char* outOfRange(const LocalityShape& shape);

// Adam's options.
const char* outOfRange(const AdamOptions& options);

// The message of a refusal by the checks above: "<name> is out of its range"; "" for nullptr.
std::string outOfRangeText(const char* name);

}  // namespace relpos
