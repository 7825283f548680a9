// A built model allocates nothing in a step: every workspace reaches its largest size in the
// constructor. Counts every call into the C allocator (malloc and its kin, which operator new and
// Eigen both reach) while the model trains, evaluates and reads a head, for every position
// scheme, causal or not, in both precisions. Under AddressSanitizer (scripts/sanitize.sh) its
// allocator reports each allocation to a hook; natively without it (glibc) the test program
// stands in for malloc and hands each call on to glibc's own.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "relpos/synthetic_tasks.hpp"
#include "relpos/transformer_model.hpp"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RELPOS_COUNT_BY_SANITIZER_HOOK 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(RELPOS_COUNT_BY_SANITIZER_HOOK)
#define RELPOS_COUNT_BY_SANITIZER_HOOK 1
#endif

#ifdef RELPOS_COUNT_BY_SANITIZER_HOOK
#include <sanitizer/allocator_interface.h>
#else
extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* pointer, std::size_t size);
void* __libc_memalign(std::size_t alignment, std::size_t size);
}
#endif

namespace {

// Allocations counted while `counting` is set.
bool counting = false;
long allocations = 0;

#ifdef RELPOS_COUNT_BY_SANITIZER_HOOK
// AddressSanitizer's allocator serves malloc, calloc, realloc, the aligned kinds and operator new,
// and calls this hook for each allocation it makes.
void countAllocation(const volatile void* /*pointer*/, std::size_t /*size*/) {
  if (counting) ++allocations;
}
void ignoreRelease(const volatile void* /*pointer*/) {}
const int hooksInstalled =
    __sanitizer_install_malloc_and_free_hooks(countAllocation, ignoreRelease);
#else
void* counted(void* pointer) {
  if (counting) ++allocations;
  return pointer;
}
#endif

}  // namespace

#ifndef RELPOS_COUNT_BY_SANITIZER_HOOK
extern "C" {
void* malloc(std::size_t size) { return counted(__libc_malloc(size)); }
void* calloc(std::size_t count, std::size_t size) { return counted(__libc_calloc(count, size)); }
void* realloc(void* pointer, std::size_t size) { return counted(__libc_realloc(pointer, size)); }
void* memalign(std::size_t alignment, std::size_t size) {
  return counted(__libc_memalign(alignment, size));
}
void* aligned_alloc(std::size_t alignment, std::size_t size) {
  return counted(__libc_memalign(alignment, size));
}
int posix_memalign(void** out, std::size_t alignment, std::size_t size) {
  *out = counted(__libc_memalign(alignment, size));
  return *out == nullptr ? 12 : 0;  // ENOMEM
}
}
#endif

namespace relpos {
namespace {

// Allocations made by body().
template <typename Body>
long allocationsOf(Body body) {
  allocations = 0;
  counting = true;
  body();
  counting = false;
  return allocations;
}

struct AllocationCase {
  const char* name;
  PositionScheme scheme;
  bool causal;
};

class ModelAllocations : public ::testing::TestWithParam<AllocationCase> {};

template <typename T>
void expectNoAllocation(const AllocationCase& c) {
  ModelConfig config;
  config.vocabSize = 11;
  config.dModel = 8;
  config.heads = 2;
  config.layers = 2;
  config.ffnWidth = 12;
  config.maxDistance = 3;
  config.seqLen = 10;
  config.maxBatchSize = 3;
  config.causal = c.causal;
  config.positionScheme = c.scheme;
  config.numBuckets = 8;
  config.bucketDistance = 8;
  // A batch larger than maxBatchSize (it runs in chunks) at the longest sequence, and a shorter
  // one.
  SyntheticBatchOptions options;
  options.vocabSize = config.vocabSize;
  options.seqLen = config.seqLen;
  options.batchSize = 5;
  std::vector<std::int32_t> tokens(50), targets(50), queries(80), keys(80), values(80);
  syntheticBatch(options, tokens.data(), targets.data());
  std::vector<T> q(40), k(40), v(40);
  AdamOptions adam;
  adam.maxGradNorm = 1;
  TransformerModel<T> model(config);
  const long made = allocationsOf([&] {
    model.trainStep(BatchView{tokens.data(), targets.data(), 5, 10}, adam);
    model.trainStep(BatchView{tokens.data(), targets.data(), 2, 7}, adam);
    model.evaluate(BatchView{tokens.data(), targets.data(), 5, 10});
    model.forwardSequence(tokens.data(), 4);
    model.headInputs(1, 1, q.data(), k.data(), v.data());
  });
  EXPECT_EQ(made, 0);
}

TEST_P(ModelAllocations, NoneInTrainingAfterConstruction) {
  expectNoAllocation<float>(GetParam());
  expectNoAllocation<double>(GetParam());
}

TEST(ModelAllocations, TheCounterSeesEigenAndOperatorNew) {
#ifdef RELPOS_COUNT_BY_SANITIZER_HOOK
  ASSERT_NE(hooksInstalled, 0) << "the sanitizer's allocation hook is not installed";
#endif
  EXPECT_EQ(allocationsOf([] {}), 0);
  EXPECT_EQ(allocationsOf([] { Matrix<double> m(3, 3); }), 1);
  EXPECT_EQ(allocationsOf([] { std::vector<int> v(3); }), 1);
}

std::vector<AllocationCase> allocationCases() {
  std::vector<AllocationCase> cases;
  const std::pair<const char*, PositionScheme> schemes[] = {
      {"Shaw", PositionScheme::kShaw},
      {"T5", PositionScheme::kT5},
      {"Alibi", PositionScheme::kAlibi},
      {"Rope", PositionScheme::kRope},
      {"Sinusoidal", PositionScheme::kSinusoidal},
      {"Absolute", PositionScheme::kAbsolute},
      {"None", PositionScheme::kNone}};
  for (const auto& [name, scheme] : schemes) {
    for (bool causal : {false, true}) cases.push_back({name, scheme, causal});
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(EveryScheme, ModelAllocations, ::testing::ValuesIn(allocationCases()),
                         [](const ::testing::TestParamInfo<AllocationCase>& info) {
                           return std::string(info.param.name) +
                                  (info.param.causal ? "Causal" : "Bidirectional");
                         });

}  // namespace
}  // namespace relpos
