// attention()'s shape rules in one table: each region an attention call reads or writes, and what
// its rows and columns must equal. The bindings check every request by it (checkAttention,
// cpp/bindings/attention.cpp) and hand it to the JS API (coreContract(), written into
// web/api/core-contract.js at build time), which checks its arguments by the same rows.
#pragma once

namespace relpos {

// What one side of a region must be. n: keys; n_q: query rows; d_k, d_v: every head's columns
// side by side; heads: the heads.
enum class Extent : int {
  kAny = 0,        // any
  kOne,            // 1
  kKeys,           // n
  kQueries,        // n_q
  kHeadQueries,    // heads * n_q: a panel, head by head
  kKeyWidth,       // d_k
  kValueWidth,     // d_v
  kKeyTable,       // d_k / heads (one table shared by every head) or d_k (one per head)
  kValueTable,     // d_v / heads or d_v
  kOddRows,        // 2k + 1, odd: a table of offsets -k ... k
  kTableRows,      // relativeKeys' rows
  kOneOrHeads,     // 1 (shared by every head) or heads
  kBuckets,        // T5's numBuckets
  kModelWidth,     // x's columns (the sinusoidal scheme's d_model)
  kProjectedWidth  // queryWeights' columns
};

// The names of Extent's values, in its order, as the contract gives them to JavaScript.
inline constexpr const char* kExtentNames[] = {
    "any",       "one",        "keys",     "queries",    "headQueries",
    "keyWidth",  "valueWidth", "keyTable", "valueTable", "oddRows",
    "tableRows", "oneOrHeads", "buckets",  "modelWidth", "projectedWidth"};

// How a region's elements are stored: the call's scalar, float64, or bytes (flags).
enum class Element : int { kScalar = 0, kFloat64, kByte };

// The names of Element's values, in its order, as the contract gives them to JavaScript.
inline constexpr const char* kElementNames[] = {"scalar", "float64", "byte"};

// What a region is to the caller: a matrix argument (q, k, …), a position scheme's numbers
// (position.biases, position.slope), a mask, or a result.
enum class Role : int { kInput = 0, kPosition, kMask, kOutput };

// The names of Role's values, in its order, as the contract gives them to JavaScript.
inline constexpr const char* kRoleNames[] = {"input", "position", "mask", "output"};

struct RegionShape {
  const char* name;    // the field of the request (AttentionRequest)
  const char* jsName;  // the argument the JS API knows it by
  Extent rows;
  Extent cols;
  bool headColumns;  // its columns are heads side by side: a multiple of heads
  Element element;
  Role role;
};

inline constexpr RegionShape kAttentionShapes[] = {
    {"queries", "q", Extent::kQueries, Extent::kAny, true, Element::kScalar, Role::kInput},
    {"keys", "k", Extent::kKeys, Extent::kKeyWidth, false, Element::kScalar, Role::kInput},
    {"values", "v", Extent::kKeys, Extent::kAny, true, Element::kScalar, Role::kInput},
    {"relativeKeys", "relKeys", Extent::kOddRows, Extent::kKeyTable, false, Element::kScalar,
     Role::kInput},
    {"relativeValues", "relValues", Extent::kTableRows, Extent::kValueTable, false,
     Element::kScalar, Role::kInput},
    {"x", "x", Extent::kKeys, Extent::kAny, false, Element::kScalar, Role::kInput},
    {"queryWeights", "wQ", Extent::kModelWidth, Extent::kAny, true, Element::kScalar, Role::kInput},
    {"keyWeights", "wK", Extent::kModelWidth, Extent::kProjectedWidth, false, Element::kScalar,
     Role::kInput},
    {"valueWeights", "wV", Extent::kModelWidth, Extent::kAny, true, Element::kScalar, Role::kInput},
    {"bucketBiases", "position.biases", Extent::kOneOrHeads, Extent::kBuckets, false,
     Element::kScalar, Role::kPosition},
    {"slopes", "position.slope", Extent::kOne, Extent::kOneOrHeads, false, Element::kFloat64,
     Role::kPosition},
    {"keyPadding", "keyPadding", Extent::kOne, Extent::kKeys, false, Element::kByte, Role::kMask},
    {"allowed", "allowed", Extent::kQueries, Extent::kKeys, false, Element::kByte, Role::kMask},
    {"contentScores", "contentScores", Extent::kHeadQueries, Extent::kKeys, false, Element::kScalar,
     Role::kOutput},
    {"positionBiases", "positionBiases", Extent::kHeadQueries, Extent::kKeys, false,
     Element::kScalar, Role::kOutput},
    {"combinedScores", "combinedScores", Extent::kHeadQueries, Extent::kKeys, false,
     Element::kScalar, Role::kOutput},
    {"contentWeights", "contentWeights", Extent::kHeadQueries, Extent::kKeys, false,
     Element::kScalar, Role::kOutput},
    {"combinedWeights", "combinedWeights", Extent::kHeadQueries, Extent::kKeys, false,
     Element::kScalar, Role::kOutput},
    {"output", "output", Extent::kQueries, Extent::kValueWidth, false, Element::kScalar,
     Role::kOutput},
};

// The numbers a request's extents stand for.
struct AttentionExtents {
  int heads;
  int keys;            // n
  int queries;         // n_q
  int keyWidth;        // d_k
  int valueWidth;      // d_v (0: no values)
  int tableRows;       // relativeKeys' rows
  int buckets;         // numBuckets
  int modelWidth;      // x's columns
  int projectedWidth;  // queryWeights' columns
};

// The one value `e` stands for, or -1 where any value or one of several fits.
constexpr int extentValue(Extent e, const AttentionExtents& d) {
  switch (e) {
    case Extent::kOne:
      return 1;
    case Extent::kKeys:
      return d.keys;
    case Extent::kQueries:
      return d.queries;
    case Extent::kHeadQueries:
      return d.heads * d.queries;
    case Extent::kKeyWidth:
      return d.keyWidth;
    case Extent::kValueWidth:
      return d.valueWidth;
    case Extent::kTableRows:
      return d.tableRows;
    case Extent::kBuckets:
      return d.buckets;
    case Extent::kModelWidth:
      return d.modelWidth;
    case Extent::kProjectedWidth:
      return d.projectedWidth;
    default:
      return -1;
  }
}

// Whether a side of `value` is what `e` asks for.
constexpr bool fitsExtent(Extent e, int value, const AttentionExtents& d) {
  switch (e) {
    case Extent::kAny:
      return true;
    case Extent::kKeyTable:
      return value == d.keyWidth / d.heads || value == d.keyWidth;
    case Extent::kValueTable:
      return value == d.valueWidth / d.heads || value == d.valueWidth;
    case Extent::kOddRows:
      return value % 2 == 1;
    case Extent::kOneOrHeads:
      return value == 1 || value == d.heads;
    default:
      return value == extentValue(e, d);
  }
}

// What `e` asks for, in words, where it is not one number.
constexpr const char* extentWords(Extent e) {
  switch (e) {
    case Extent::kKeyTable:
      return "d_k / heads or d_k";
    case Extent::kValueTable:
      return "d_v / heads or d_v";
    case Extent::kOddRows:
      return "2k + 1";
    case Extent::kOneOrHeads:
      return "1 or heads";
    default:
      return "any";
  }
}

// Whether `a` and `b` are the same name (two nullptrs are; a nullptr and a name are not).
constexpr bool sameName(const char* a, const char* b) {
  if (a == nullptr || b == nullptr) return a == b;
  while (*a != '\0' && *a == *b) {
    ++a;
    ++b;
  }
  return *a == *b;
}

// The table's row for the request field `name`, or nullptr.
constexpr const RegionShape* attentionShape(const char* name) {
  for (const RegionShape& shape : kAttentionShapes) {
    if (sameName(shape.name, name)) return &shape;
  }
  return nullptr;
}

}  // namespace relpos
