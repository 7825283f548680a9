// The ranges of the core's real-valued settings and the checks built on them
// (relpos/setting_ranges.hpp).
#include "relpos/setting_ranges.hpp"

#include <initializer_list>

namespace relpos {

namespace {

struct Given {
  Setting setting;
  double value;
};

// The name of the first value out of its setting's range, or nullptr.
const char* firstOutOfRange(std::initializer_list<Given> values) {
  for (const Given& given : values) {
    if (!inRange(given.setting, given.value)) return settingRange(given.setting).name;
  }
  return nullptr;
}

}  // namespace

bool inRange(Setting setting, double value) {
  const SettingRange& r = settingRange(setting);
  const bool aboveMin = r.minInclusive ? value >= r.min : value > r.min;
  const bool belowMax = r.maxInclusive ? value <= r.max : value < r.max;
  return aboveMin && belowMax;
}

const char* outOfRange(Setting setting, double value) {
  return inRange(setting, value) ? nullptr : settingRange(setting).name;
}

const char* outOfRange(const LocalityProfileParams& p) {
  return firstOutOfRange(
      {{Setting::kNoise, p.noise}, {Setting::kWidth, p.width}, {Setting::kAsymmetry, p.asymmetry}});
}

const char* outOfRange(const LocalityShape& s) {
  return firstOutOfRange({{Setting::kNoise, s.noise},
                          {Setting::kWidth, s.width},
                          {Setting::kAsymmetry, s.asymmetry},
                          {Setting::kStrength, s.strength}});
}

const char* outOfRange(const AdamOptions& o) {
  return firstOutOfRange({{Setting::kLearningRate, o.learningRate},
                          {Setting::kBeta1, o.beta1},
                          {Setting::kBeta2, o.beta2},
                          {Setting::kEpsilon, o.epsilon},
                          {Setting::kWeightDecay, o.weightDecay},
                          {Setting::kMaxGradNorm, o.maxGradNorm}});
}

// No number is formatted here: formatting doubles would add printf's and strtod's code to the
// page's module. The API refuses first, with the range and the value in its message.
std::string outOfRangeText(const char* name) {
  return name == nullptr ? std::string() : std::string(name) + " is out of its range";
}

}  // namespace relpos
