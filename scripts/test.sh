#!/usr/bin/env bash
# Sets everything up and runs every test: the GoogleTest suite (ctest) compiled to WASM SIMD and
# natively under AddressSanitizer + UndefinedBehaviorSanitizer, the native allocation test, a bounded
# libFuzzer run of every fuzz target (scripts/sanitize.sh); the type check of the published
# .d.ts; and Vitest (the JS API on the real WASM module in Node, the page in headless Chromium,
# the npm package); then the style checks (scripts/lint.sh). Exits non-zero if anything fails.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

RELPOS_STRICT=ON bash scripts/build.sh test

echo "test: the core's suite compiled to WASM SIMD, run by Node (ctest)"
ctest --test-dir build/wasm --output-on-failure

echo "test: no allocation in a training step, native and unsanitized (GoogleTest)"
build/native/relpos_allocation_tests --gtest_brief=1

echo "test: the core's suite natively under the sanitizers, and the fuzzers (scripts/sanitize.sh)"
bash scripts/sanitize.sh

echo "test: TypeScript declarations (tsc)"
npx tsc -p tests/types

echo "test: JS API and page (vitest)"
npx vitest run

echo "test: style (scripts/lint.sh: ESLint, Prettier, clang-format, clang-tidy)"
bash scripts/lint.sh
