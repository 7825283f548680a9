#!/usr/bin/env bash
# Sanitizer and fuzzing run of the C++ core (the root CMakeLists.txt with RELPOS_FUZZ=ON, see
# tests/fuzz/CMakeLists.txt):
#   1. builds build/fuzz with clang: the libFuzzer targets (ASan + UBSan + libFuzzer), the
#      GoogleTest suite and the allocation test under ASan + UBSan, and runs the last two with ctest;
#   2. runs every reproducer in tests/fuzz/regressions/<target>/ once, then fuzzes each target
#      from its seeds (tests/fuzz/corpus/<target>/), as many targets at a time as there are
#      cores;
#   3. if Emscripten is installed, replays all of those inputs (and pseudo-random ones) on the
#      wasm32 build under UBSan in Node, where Eigen::Index is 32 bits as in the shipped module.
# Any crash, failed check or sanitizer report fails the run (non-zero exit).
#
#   scripts/sanitize.sh                 bounded: a fixed number of runs per target from seed 1, the
#                                       same inputs and the same work on any machine (~20 s each
#                                       on a quiet one)
#   scripts/sanitize.sh long [seconds]  each target for `seconds` (default 600); the inputs it
#                                       finds are kept in build/fuzz/corpus/ for the next run
# Environment: RELPOS_STRICT=ON or OFF (warnings are errors or not; npm test sets ON; unset: as
#   the build directory was configured),
#   RELPOS_FUZZ_BUILD (build directory, default build/fuzz; wasm: <it>-wasm),
#   RELPOS_ROOT (the checkout whose C++ is built, default this one; the corpora, the
#   regressions and this script are this checkout's),
#   RELPOS_FUZZ_WASM=0 (skip the wasm32 replay).
# A failing input is written to <build>/artifacts/<target>/; rerun it with
#   RELPOS_FUZZ_DESCRIBE=1 build/fuzz/<target> <file>      (prints the decoded input)
# and add it to tests/fuzz/regressions/<target>/ once understood.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

mode=${1:-default}
case "$mode" in
  default) ;;
  long) seconds=${2:-600} ;;
  *) echo "usage: scripts/sanitize.sh [long [seconds]]" >&2; exit 2 ;;
esac
started=$SECONDS
phase_started=$SECONDS
timings=()
phase_done() { timings+=("$1 $((SECONDS - phase_started)) s"); phase_started=$SECONDS; }
build=${RELPOS_FUZZ_BUILD:-build/fuzz}
jobs=$(nproc)
targets=(fuzz_attention fuzz_random fuzz_profile fuzz_offsets fuzz_softmax)
declare -A max_len=([fuzz_attention]=4096 [fuzz_random]=64 [fuzz_profile]=64 [fuzz_offsets]=32
                    [fuzz_softmax]=512)
# The bounded run's inputs per target: about 20 s each on a quiet machine of this kind.
declare -A bounded_runs=([fuzz_attention]=2000 [fuzz_random]=10000 [fuzz_profile]=15000
                         [fuzz_offsets]=8000 [fuzz_softmax]=20000)

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

# --- clang with its sanitizer and libFuzzer runtimes (Debian: libclang-rt-14-dev).
cxx=$(command -v clang++-14 || command -v clang++ || true)
if [ -z "$cxx" ]; then
  echo "sanitize: clang++ not found (apt-get install clang-14)" >&2
  exit 1
fi
fuzzer_runtime_works() {
  local dir status=0
  dir=$(mktemp -d)
  printf '%s\n' '#include <cstddef>' '#include <cstdint>' \
    'extern "C" int LLVMFuzzerTestOneInput(const uint8_t*, size_t) { return 0; }' >"$dir/probe.cpp"
  "$cxx" -fsanitize=fuzzer,address,undefined "$dir/probe.cpp" -o "$dir/probe" >/dev/null 2>&1 &&
    "$dir/probe" -runs=1 >/dev/null 2>&1 || status=1
  rm -rf "$dir"
  return $status
}
if ! fuzzer_runtime_works; then
  echo "sanitize: installing libclang-rt-14-dev (libFuzzer and LeakSanitizer runtimes)"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libclang-rt-14-dev >/dev/null
  fuzzer_runtime_works || { echo "sanitize: clang cannot build a libFuzzer target" >&2; exit 1; }
fi

# --- Build, and the GoogleTest suite under ASan + UBSan.
source_dir=$(realpath "${RELPOS_ROOT:-.}")
# A build directory configured from another source tree (or by an older layout) starts afresh.
fresh_build_dir() {
  if [ -f "$1/CMakeCache.txt" ] &&
    ! grep -qx "CMAKE_HOME_DIRECTORY:INTERNAL=$source_dir" "$1/CMakeCache.txt"; then
    rm -rf "$1"
  fi
  mkdir -p "$1"
}
echo "sanitize: building $build ($cxx, -fsanitize=fuzzer,address,undefined)"
fresh_build_dir "$build"
if ! { cmake -S "$source_dir" -B "$build" -DCMAKE_CXX_COMPILER="$cxx" -DRELPOS_FUZZ=ON \
  ${RELPOS_STRICT:+-DRELPOS_STRICT="$RELPOS_STRICT"} &&
  cmake --build "$build" -j "$jobs"; } >"$build/build.log" 2>&1; then
  tail -40 "$build/build.log"
  echo "sanitize: build failed (log: $build/build.log)" >&2
  exit 1
fi
phase_done build

failures=()
echo "sanitize: GoogleTest suite under ASan + UBSan (ctest)"
# Each program is one ctest test (CMakeLists.txt); their own output (-V) counts the test cases.
if ctest --test-dir "$build" --output-on-failure -V -j "$jobs" >"$build/ctest.log" 2>&1; then
  count_cases() {  # the sum of gtest's "[  PASSED  ] N tests" (or SKIPPED) lines
    { grep -oE "\\[ +$1 +\\] [0-9]+ test" "$build/ctest.log" || true; } | awk '{ n += $4 } END { print n + 0 }'
  }
  ctest_result="ok ($(count_cases PASSED) test cases passed, $(count_cases SKIPPED) skipped)"
else
  cat "$build/ctest.log"
  ctest_result="FAILED"
  failures+=("ctest")
fi
phase_done ctest

# --- Fuzzing: regressions once each, then the bounded (or long) run, one target per core.
logs="$build/logs"
mkdir -p "$logs"
if [ "$mode" = long ]; then
  fuzz_flags=(-max_total_time="$seconds" -use_value_profile=1)
else
  fuzz_flags=(-seed=1)  # with -runs below: a count, never a time
fi
fuzz_flags+=(-timeout=10 -rss_limit_mb=2048 -print_final_stats=1)
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}  # UBSan reports come with a stack

fuzz_target() {
  local t=$1 exe="$build/$1" log="$logs/$1.log" status=ok regressions=0 failed=0
  : >"$log"
  for input in "tests/fuzz/regressions/$t"/*; do
    [ -f "$input" ] || continue
    regressions=$((regressions + 1))
    if ! "$exe" "$input" >>"$log" 2>&1; then
      failed=$((failed + 1))
      status=FAILED
      echo "sanitize: regression failed: $input" >>"$log"
    fi
  done
  # libFuzzer writes new inputs to the first directory only: a work copy, never the seeds.
  local work="$build/corpus/$t"
  [ "$mode" = long ] || rm -rf "$work"
  mkdir -p "$work" "$build/artifacts/$t"
  local runs_flag=()
  [ "$mode" = long ] || runs_flag=(-runs="${bounded_runs[$t]}")
  "$exe" "${fuzz_flags[@]}" "${runs_flag[@]}" -max_len="${max_len[$t]}" -artifact_prefix="$build/artifacts/$t/" \
    "$work" "tests/fuzz/corpus/$t" >>"$log" 2>&1 || status=FAILED
  local runs
  runs=$(grep -oE 'number_of_executed_units: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+$' || true)
  echo "$status ${runs:-0} $regressions $failed" >"$logs/$t.status"
}

rm -f "$logs"/*.status
budget=$([ "$mode" = long ] && echo "$seconds s each" || echo "a fixed number of runs each from seed 1")
echo "sanitize: fuzzing ${targets[*]} ($budget)"
for t in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  fuzz_target "$t" &
done
wait
phase_done fuzzing

# --- wasm32 replay under UBSan: seeds, regressions, what the fuzzer found, random inputs.
wasm_result="skipped (no emcc)"
if [ "${RELPOS_FUZZ_WASM:-1}" = 0 ]; then
  wasm_result="skipped (RELPOS_FUZZ_WASM=0)"
elif command -v emcc >/dev/null; then
  echo "sanitize: wasm32 replay under UBSan (Emscripten, Node)"
  targets_wasm=("${targets[@]}")
  export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"  # Debian's emcc (see build.sh)
  wasm="$build-wasm"
  fresh_build_dir "$wasm"
  # Ninja where there is one: its one build graph keeps both cores busy through the fuzz targets'
  # links (32 s against 38–42 s with Makefiles here). A folder made by the other starts afresh.
  generator=$(command -v ninja >/dev/null && echo Ninja || echo "Unix Makefiles")
  if [ -f "$wasm/CMakeCache.txt" ] && ! grep -qx "CMAKE_GENERATOR:INTERNAL=$generator" "$wasm/CMakeCache.txt"; then
    rm -rf "$wasm" && mkdir -p "$wasm"
  fi
  if { emcmake cmake -G "$generator" -S "$source_dir" -B "$wasm" -DEigen3_DIR=/usr/share/eigen3/cmake \
    -DRELPOS_FUZZ=ON && cmake --build "$wasm" -j "$jobs"; } >"$wasm/build.log" 2>&1; then
    wasm_result=ok
  else
    tail -40 "$wasm/build.log"
    wasm_result="FAILED (build, log: $wasm/build.log)"
    failures+=("wasm32 build")
    targets_wasm=()
  fi
  random=$([ "$mode" = long ] && echo 20000 || echo 500)
  for t in "${targets_wasm[@]}"; do
    if node "$wasm/$t.js" "tests/fuzz/corpus/$t" "tests/fuzz/regressions/$t" "$build/corpus/$t" \
      -random="$random" -max_len="${max_len[$t]}" >"$logs/$t.wasm.log" 2>&1; then
      :
    else
      wasm_result=FAILED
      failures+=("$t (wasm32)")
      echo "sanitize: $t failed on wasm32; the last lines of $logs/$t.wasm.log:"
      grep -vE '^    at ' "$logs/$t.wasm.log" | tail -6
    fi
  done
  phase_done wasm32
fi

# --- Summary.
echo
phases=$(printf '%s, ' "${timings[@]}")
echo "sanitize: summary ($mode mode, $((SECONDS - started)) s: ${phases%, })"
printf '  %-16s %s\n' "ctest" "$ctest_result"
for t in "${targets[@]}"; do
  status=FAILED runs=0 regressions=? failed=?
  [ -f "$logs/$t.status" ] && read -r status runs regressions failed <"$logs/$t.status"
  printf '  %-16s %-7s %8s runs   regressions: %s, %s failed\n' "$t" "$status" "$runs" \
    "$regressions" "$failed"
  if [ "$status" != ok ]; then
    failures+=("$t")
    grep -E 'runtime error|ERROR: |fuzz check failed|regression failed|Test unit written' \
      "$logs/$t.log" | sort -u | head -8 | sed 's/^/      /'
  fi
done
printf '  %-16s %s\n' "wasm32 replay" "$wasm_result"
if [ ${#failures[@]} -gt 0 ]; then
  echo "sanitize: FAILED: ${failures[*]} (logs in $logs/)"
  exit 1
fi
echo "sanitize: all clean"
