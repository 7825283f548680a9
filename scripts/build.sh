#!/usr/bin/env bash
# Builds relpos: `build.sh` builds the WASM module (dist/relpos-core*.mjs, dist/relpos-core.wasm),
# the page and its examples (build/site), the self-contained page (dist/relpos.html), the elements
# bundles (dist/relpos-elements.js, and dist/relpos-elements.iife.js as a classic script), the
# training widget (dist/relpos-train.js), the slim API (dist/relpos-slim.js), the training corpus
# (dist/training-corpus.bin), the licence banners and the elements' manifest (dist/custom-elements.json).
#   build.sh test    also what npm test runs here: the suite compiled to WASM (scripts/sanitize.sh
#                    builds the native suite and the allocation test, under the sanitizers)
#   build.sh all     also the native library and its whole suite (build/native)
#   build.sh bench   also the benchmark's native ceilings (npm run bench, bench:train)
# RELPOS_STRICT=ON (as scripts/test.sh sets it) makes C++ warnings errors.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# A build/ copied or moved from another checkout: its CMake caches name that folder, and CMake
# would stop on them with a cache error. Say what to remove instead.
for cache in build/wasm/CMakeCache.txt build/native/CMakeCache.txt; do
  [ -f "$cache" ] || continue
  made_in=$(sed -n 's/^CMAKE_CACHEFILE_DIR:INTERNAL=//p' "$cache")
  here="$(dirname "$cache")"
  if [ -n "$made_in" ] && [ "$made_in" != "$PWD/$here" ] && [ "$made_in" != "$(pwd -P)/$here" ]; then
    echo "build: $cache was made in $made_in, not in this folder ($PWD): build/ came from another checkout. Remove it (rm -rf build) and build again." >&2
    exit 1
  fi
done

# What needs only the npm packages (no WASM): made beside the C++ build when npm ci runs there.
build_package_inputs() {
  echo "build: colour tables from d3-scale-chromatic (web/render/colour-tables.js)"
  node scripts/make-colour-tables.mjs
  echo "build: the training corpus (dist/training-corpus.bin; RELPOS_CORPUS=brown for the Brown Corpus)"
  # Rebuilt when its code changed or a source is asked for (it takes a while: the text is tagged).
  if [ -n "${RELPOS_CORPUS:-}" ] || [ ! -f dist/training-corpus.bin ] || [ scripts/make-corpus.mjs -nt dist/training-corpus.bin ] ||
    [ web/train/build-corpus.js -nt dist/training-corpus.bin ] || [ web/train/corpus-format.js -nt dist/training-corpus.bin ]; then
    node scripts/make-corpus.mjs
  fi
}
RELPOS_AFTER_NPM_CI=build_package_inputs  # run by npm_packages_ready below, or beside
RELPOS_NPM_CI_BESIDE=1 source scripts/setup.sh

# Debian's emcc needs Node to find acorn & co. under /usr/share/nodejs (docs/architecture.md, toolchain notes).
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
jobs=$(nproc)
# Warnings as errors: as asked (RELPOS_STRICT), else as the build folder was last configured (so
# `npm start` after `npm test` does not recompile the core with other flags), else off.
strict_of() { sed -n 's/^RELPOS_STRICT:BOOL=//p' "$1/CMakeCache.txt" 2>/dev/null || true; }
native_strict=${RELPOS_STRICT:-$(strict_of build/native)}
native_strict=${native_strict:-OFF}
wasm_strict=${RELPOS_STRICT:-$(strict_of build/wasm)}
wasm_strict=${wasm_strict:-OFF}

mode=${1:-}
case "$mode" in
  "" | test | all | bench) ;;
  *) echo "usage: scripts/build.sh [test | all | bench]" >&2; exit 2 ;;
esac
if [ "$mode" = all ] || [ "$mode" = bench ]; then
  echo "build: native core (build/native)"
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release -DRELPOS_STRICT="$native_strict" >/dev/null
  case "$mode" in
    all) cmake --build build/native -j "$jobs" ;;
    bench) cmake --build build/native -j "$jobs" --target relpos_benches ;;
  esac
fi

echo "build: WebAssembly module (dist/relpos-core.mjs)"
if [ ! -f build/wasm/CMakeCache.txt ]; then
  emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release \
    -DEigen3_DIR=/usr/share/eigen3/cmake -DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/node \
    -DRELPOS_STRICT="$wasm_strict" >/dev/null
else
  cmake -S . -B build/wasm -DRELPOS_STRICT="$wasm_strict" >/dev/null
fi
target=relpos_modules  # the two modules (CMakeLists.txt), and with test or all the suite
[ "$mode" = test ] || [ "$mode" = all ] && target=relpos_modules_and_suite
cmake --build build/wasm -j "$jobs" --target "$target"

echo "build: the API's defaults from the core's structs (web/api/core-defaults.js)"
node scripts/make-defaults.mjs

npm_packages_ready  # and build_package_inputs

echo "build: page and examples (build/site)"
npx vite build --logLevel warn

echo "build: self-contained page (dist/relpos.html) and elements bundle (dist/relpos-elements.js)"
npx vite build --config vite.bundles.config.js --mode single --logLevel warn
node scripts/make-single-html.mjs
npx vite build --config vite.bundles.config.js --mode elements --logLevel warn
cp build/elements/relpos-elements.js dist/relpos-elements.js
npx vite build --config vite.bundles.config.js --mode elements-iife --logLevel warn
cp build/elements-iife/relpos-elements.iife.js dist/relpos-elements.iife.js

echo "build: the training widget in one file (dist/relpos-train.js, dist/relpos-train.iife.js) and the slim API (dist/relpos-slim.js)"
npx vite build --config vite.bundles.config.js --mode train --logLevel warn
cp build/train/relpos-train.js dist/relpos-train.js
npx vite build --config vite.bundles.config.js --mode train-iife --logLevel warn
cp build/train-iife/relpos-train.iife.js dist/relpos-train.iife.js
npx vite build --config vite.bundles.config.js --mode slim --logLevel warn
cp build/slim/relpos-slim.js dist/relpos-slim.js

echo "build: licence banners (scripts/licence-banner.mjs)"
node scripts/licence-banner.mjs
cp dist/relpos-elements.js dist/relpos-elements.iife.js dist/relpos-train.js dist/relpos-train.iife.js dist/relpos.html build/site/

echo "build: custom elements manifest (dist/custom-elements.json)"
node scripts/make-custom-elements.mjs dist/custom-elements.json
