// The position schemes in one table (docs/schemes.md): each scheme's name, what computeAttention
// adds for it (PositionKind), whether attention() takes it, the request region its bias by offset
// reads, and the rules its settings obey.
// attention()'s bindings and the training engine read this table alone; the bindings register the
// names for JavaScript (PositionScheme) and hand the table and the rules to the JS API
// (coreContract(), written into web/api/core-contract.js at build time).
#pragma once

#include <string>

#include "relpos/attention_shapes.hpp"
#include "relpos/matrix_types.hpp"
#include "relpos/position_schemes.hpp"
#include "relpos/position_term.hpp"

namespace relpos {

// The position schemes (docs/schemes.md), for attention() and the training engine alike; each
// has its row in kSchemeTable below, in this order. Every scheme but kShaw has no a^K / a^V tables.
enum class PositionScheme : int {
  kShaw = 0,        // Shaw et al.'s a^K, a^V, clipped at k
  kT5 = 1,          // a bias per bucket of the offset (T5); the model learns one per layer and head
  kAlibi = 2,       // -m_h |j - i|, the ALiBi paper's slopes for the heads
  kRope = 3,        // queries and keys rotated by position
  kSinusoidal = 4,  // Vaswani et al.'s encoding added to x
  kAbsolute = 5,    // a learned seqLen x dModel table added to x (the training engine)
  kNone = 6,        // no position at all
};

struct SchemeInfo {
  PositionScheme scheme;
  const char* name;   // the name JavaScript knows it by
  PositionKind kind;  // what computeAttention adds (kAbsolute: x + p is computed before)
  bool attention;     // attention() takes it (the learned table is the model's alone)
  bool evenWidth;     // a head's width must be even (RoPE rotates pairs)
  const char* title;  // how attention()'s messages name it ("only T5 reads it")
  // kOffsetBias: the request region (a row of relpos/attention_shapes.hpp, Role::kPosition) its
  // numbers come from, one side 1 or heads: the rows of its bias by offset; nullptr for none (one
  // row, shared by every head) and for the other kinds.
  const char* biasRegion;
};

inline constexpr SchemeInfo kSchemeTable[] = {
    {PositionScheme::kShaw, "shaw", PositionKind::kShaw, true, false, "Shaw's scheme", nullptr},
    {PositionScheme::kT5, "t5", PositionKind::kOffsetBias, true, false, "T5", "bucketBiases"},
    {PositionScheme::kAlibi, "alibi", PositionKind::kOffsetBias, true, false, "ALiBi", "slopes"},
    {PositionScheme::kRope, "rope", PositionKind::kRotation, true, true, "RoPE", nullptr},
    {PositionScheme::kSinusoidal, "sinusoidal", PositionKind::kAbsolute, true, false,
     "the sinusoidal scheme", nullptr},
    {PositionScheme::kAbsolute, "absolute", PositionKind::kAbsolute, false, false,
     "the learned absolute table", nullptr},
    {PositionScheme::kNone, "none", PositionKind::kNone, true, false, "no position", nullptr},
};
inline constexpr int kSchemeCount = sizeof(kSchemeTable) / sizeof(kSchemeTable[0]);

// Row i is the scheme of value i.
constexpr bool schemeTableInOrder() {
  for (int i = 0; i < kSchemeCount; ++i) {
    if (static_cast<int>(kSchemeTable[i].scheme) != i) return false;
  }
  return true;
}
static_assert(schemeTableInOrder(), "kSchemeTable's rows must follow PositionScheme's values");

// The side of a position region that counts the rows of a bias by offset (1 or heads).
constexpr bool hasHeadSide(const RegionShape& shape) {
  return shape.rows == Extent::kOneOrHeads || shape.cols == Extent::kOneOrHeads;
}

// Every biasRegion is a scheme of kind kOffsetBias's, a position region of the shape table with a
// side of 1 or heads; every position region is some scheme's biasRegion.
constexpr bool biasRegionsInShapeTable() {
  for (const SchemeInfo& info : kSchemeTable) {
    if (info.biasRegion == nullptr) continue;
    const RegionShape* shape = attentionShape(info.biasRegion);
    if (info.kind != PositionKind::kOffsetBias || shape == nullptr ||
        shape->role != Role::kPosition || !hasHeadSide(*shape)) {
      return false;
    }
  }
  for (const RegionShape& shape : kAttentionShapes) {
    if (shape.role != Role::kPosition) continue;
    bool read = false;
    for (const SchemeInfo& info : kSchemeTable) {
      read = read || sameName(info.biasRegion, shape.name);
    }
    if (!read) return false;
  }
  return true;
}
static_assert(biasRegionsInShapeTable(),
              "a biasRegion must be a position region of kAttentionShapes with a side of 1 or "
              "heads, read by a bias by offset, and every position region some scheme's");

// The table's row for `scheme`, or nullptr for a value outside the enum.
inline const SchemeInfo* schemeInfo(PositionScheme scheme) {
  const int index = static_cast<int>(scheme);
  if (index < 0 || index >= kSchemeCount) return nullptr;
  return &kSchemeTable[index];
}

// T5's bucket rules (docs/schemes.md §1): at least minBuckets buckets, and maxDistance past the
// exact buckets, numBuckets / exactDivisor of them (a half a side, halved again: 4 when
// bidirectional, 2 one way).
struct T5Rules {
  int minBucketsBidirectional = 4;
  int minBucketsOneWay = 2;
  int exactDivisorBidirectional = 4;
  int exactDivisorOneWay = 2;
};
inline constexpr T5Rules kT5Rules{};

inline int t5MinBuckets(bool bidirectional) {
  return bidirectional ? kT5Rules.minBucketsBidirectional : kT5Rules.minBucketsOneWay;
}
// The exact buckets a side: maxDistance must exceed them.
inline int t5ExactBuckets(int numBuckets, bool bidirectional) {
  return numBuckets /
         (bidirectional ? kT5Rules.exactDivisorBidirectional : kT5Rules.exactDivisorOneWay);
}

// The rows of `info`'s bias by offset when its biasRegion is `regionRows` x `regionCols`: that
// region's side of 1 or heads (T5's biases' rows, ALiBi's slopes' columns); 1 with no biasRegion.
constexpr Index offsetBiasRows(const SchemeInfo& info, Index regionRows, Index regionCols) {
  const RegionShape* shape = attentionShape(info.biasRegion);
  if (shape == nullptr) return 1;
  return shape->rows == Extent::kOneOrHeads ? regionRows : regionCols;
}

// Why a request whose scheme reads no position region `region` must leave it out: the schemes
// whose biasRegion it is, by title ("only T5 reads it").
std::string biasRegionReaders(const char* region);

// What is wrong with a scheme and its settings for heads `headWidth` wide, or an empty string:
// a scheme outside the table, T5's bucket rules, an even width where the table asks for one.
std::string checkScheme(PositionScheme scheme, const T5BucketParams& t5, int headWidth);

// The numbers a scheme's bias by offset reads, each in its setting's range (ALiBi's slopes:
// relpos/setting_ranges.hpp), `rows` of them: the setting's name if one is out of it, or nullptr.
const char* biasNumbersOutOfRange(PositionScheme scheme, const double* slopes, Index rows);

// PositionKind::kOffsetBias's biases by offset for n keys (relpos/position_term.hpp), `rows` rows
// of 2n − 1 side by side: T5's from `rows` rows of numBuckets bucket biases, ALiBi's from `rows`
// slopes (docs/schemes.md §1, §2).
template <typename T>
void offsetBiases(PositionScheme scheme, const T5BucketParams& t5, const T* bucketBiases,
                  const double* slopes, Index rows, Index n, T* out);

}  // namespace relpos
