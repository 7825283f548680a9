// The scheme table's checks and the biases by offset (relpos/scheme_table.hpp).
#include "relpos/scheme_table.hpp"

#include <vector>

#include "relpos/setting_ranges.hpp"

namespace relpos {

std::string checkScheme(PositionScheme scheme, const T5BucketParams& t5, int headWidth) {
  if (schemeInfo(scheme) == nullptr) {
    return "positionScheme must be from 0 to " + std::to_string(kSchemeCount - 1);
  }
  if (scheme == PositionScheme::kT5) {
    if (t5.numBuckets < t5MinBuckets(t5.bidirectional)) {
      return "numBuckets must be at least " + std::to_string(t5MinBuckets(t5.bidirectional));
    }
    if (t5.maxDistance <= t5ExactBuckets(t5.numBuckets, t5.bidirectional)) {
      return "T5's maxDistance (the model's bucketDistance) must exceed the exact buckets "
             "(numBuckets / 4, one way: / 2)";
    }
  }
  if (schemeInfo(scheme)->evenWidth && headWidth % 2 != 0) {
    return std::string("position.scheme '") + schemeInfo(scheme)->name +
           "' needs an even head width dModel / heads, got " + std::to_string(headWidth);
  }
  return {};
}

std::string biasRegionReaders(const char* region) {
  std::vector<const char*> titles;
  for (const SchemeInfo& info : kSchemeTable) {
    if (info.biasRegion != nullptr && sameName(info.biasRegion, region))
      titles.push_back(info.title);
  }
  std::string readers;
  for (std::size_t i = 0; i < titles.size(); ++i) {
    readers += i == 0 ? "" : i + 1 == titles.size() ? " and " : ", ";
    readers += titles[i];
  }
  return "only " + readers + (titles.size() == 1 ? " reads it" : " read it");
}

const char* biasNumbersOutOfRange(PositionScheme scheme, const double* slopes, Index rows) {
  if (scheme != PositionScheme::kAlibi) return nullptr;
  for (Index h = 0; h < rows; ++h) {
    if (const char* name = outOfRange(Setting::kAlibiSlope, slopes[h])) return name;
  }
  return nullptr;
}

template <typename T>
void offsetBiases(PositionScheme scheme, const T5BucketParams& t5, const T* bucketBiases,
                  const double* slopes, Index rows, Index n, T* out) {
  for (Index row = 0; row < rows; ++row) {
    T* rowOut = out + row * (2 * n - 1);
    if (scheme == PositionScheme::kT5) {
      t5BiasByOffset<T>(t5, bucketBiases + row * t5.numBuckets, n, rowOut);
    } else {
      alibiBiasByOffset<T>(slopes[row], n, rowOut);
    }
  }
}

template void offsetBiases<float>(PositionScheme, const T5BucketParams&, const float*,
                                  const double*, Index, Index, float*);
template void offsetBiases<double>(PositionScheme, const T5BucketParams&, const double*,
                                   const double*, Index, Index, double*);

}  // namespace relpos
