#!/usr/bin/env bash
# Sets everything up and runs every test: the GoogleTest suite (ctest) compiled to WASM SIMD and
# natively under AddressSanitizer + UndefinedBehaviorSanitizer with the allocation test, a bounded
# libFuzzer run of every fuzz target (scripts/sanitize.sh); the type check of the published
# .d.ts; and Vitest (the JS API on the real WASM module in Node, the page in headless Chromium,
# the npm package); then the style checks (scripts/lint.sh). One stage at a time: run beside Vitest,
# even at nice 19, the sanitizers and clang-tidy slowed it by half (docs/testing.md). Exits non-zero
# if anything fails.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# The compilers' heaps in 2 MiB pages (docs/testing.md: 7 % less CPU for a build), as setup.sh.
export GLIBC_TUNABLES=${GLIBC_TUNABLES:-glibc.malloc.hugetlb=1}

# Each stage's wall time, printed as a table at the end (docs/testing.md quotes it).
stage_times=()
stage_started=$SECONDS
stage_done() { stage_times+=("$(printf '%-44s %5d s' "$1" $((SECONDS - stage_started)))"); stage_started=$SECONDS; }
print_stage_times() {
  echo "test: time per stage"
  printf '  %s\n' "${stage_times[@]}"
  echo "  total                                        $SECONDS s"
}

RELPOS_STRICT=ON bash scripts/build.sh test
stage_done "setup and build (scripts/build.sh test)"

echo "test: the core's suite compiled to WASM SIMD, run by Node (ctest)"
ctest --test-dir build/wasm --output-on-failure
stage_done "the core's suite in WASM (ctest)"

echo "test: the core's suite natively under the sanitizers, and the fuzzers (scripts/sanitize.sh)"
RELPOS_STRICT=ON bash scripts/sanitize.sh
stage_done "sanitizers and fuzzers (scripts/sanitize.sh)"

echo "test: TypeScript declarations (tsc)"
npx tsc -p tests/types
stage_done "TypeScript declarations (tsc)"

echo "test: JS API and page (vitest)"
npx vitest run
stage_done "JS API, page and package (vitest)"

echo "test: style (scripts/lint.sh: imports, ESLint, Prettier, clang-format, clang-tidy)"
bash scripts/lint.sh
stage_done "style (scripts/lint.sh)"
print_stage_times
