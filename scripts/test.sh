#!/usr/bin/env bash
# Sets everything up and runs every test: the GoogleTest suite (ctest) compiled to WASM SIMD and
# natively under AddressSanitizer + UndefinedBehaviorSanitizer, the native allocation test, a bounded
# libFuzzer run of every fuzz target (scripts/sanitize.sh); the type check of the published
# .d.ts; and Vitest (the JS API on the real WASM module in Node, the page in headless Chromium,
# the npm package); then the style checks (scripts/lint.sh). The sanitizers, fuzzers and clang-tidy
# run beside tsc and Vitest at the lowest priority. Exits non-zero if anything fails.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

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

echo "test: no allocation in a training step, native and unsanitized (GoogleTest)"
build/native/relpos_allocation_tests --gtest_brief=1
stage_done "the allocation test (native)"

# The sanitizers and fuzzers and clang-tidy need only the CPU: they run at the lowest priority
# beside tsc and Vitest, whose page tests leave a core idle much of the time while Chromium waits
# for frames, and their log is printed when they end (docs/testing.md).
background_log=build/test-beside-vitest.log
echo "test: beside Vitest, at the lowest priority: the core's suite natively under the sanitizers, the fuzzers (scripts/sanitize.sh) and clang-tidy (scripts/tidy.sh); log: $background_log"
# In a process group of its own (job control on for this one command), so that a failure elsewhere
# stops it and all it started. Not a session of its own (setsid): where the kernel groups tasks by
# session (autogroup), nice would not hold against another session.
set -m
bash -c 'set -e
  started=$SECONDS
  nice -n 19 bash scripts/sanitize.sh
  echo "beside Vitest: the sanitizers and fuzzers took $((SECONDS - started)) s"
  started=$SECONDS
  nice -n 19 bash scripts/tidy.sh
  echo "beside Vitest: clang-tidy took $((SECONDS - started)) s"' </dev/null >"$background_log" 2>&1 &
background=$!
set +m
trap 'kill -- -$background 2>/dev/null || true' EXIT
stage_done "(the sanitizers, fuzzers and clang-tidy started)"

echo "test: TypeScript declarations (tsc)"
npx tsc -p tests/types
stage_done "TypeScript declarations (tsc)"

echo "test: JS API and page (vitest)"
npx vitest run
stage_done "JS API, page and package (vitest)"

echo "test: style (scripts/lint.sh --no-tidy: imports, ESLint, Prettier, clang-format)"
bash scripts/lint.sh --no-tidy
stage_done "style (scripts/lint.sh --no-tidy)"

echo "test: waiting for the sanitizers, fuzzers and clang-tidy"
status=0
wait "$background" || status=$?
trap - EXIT
cat "$background_log"
stage_done "the rest of the sanitizers, fuzzers and clang-tidy"
print_stage_times
if [ "$status" -ne 0 ]; then
  echo "test: the sanitizers, fuzzers or clang-tidy failed (above; log: $background_log)" >&2
  exit "$status"
fi
