#!/usr/bin/env bash
# Installs what relpos needs to build, test and serve, and only what is missing: Debian
# packages (Emscripten, Eigen, Chromium, the native toolchain, clang-19 and lld-19 for the kernels, clang-format and clang-tidy; MkDocs,
# nbconvert and an IPython kernel for the recipes' tests) and
# the npm packages pinned in package-lock.json. Safe to run again; sourced by build.sh (which
# test.sh and start.sh run), lint.sh, tidy.sh, format.sh and corpus-languages.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# glibc's malloc asks for transparent huge pages (where the kernel gives them on request): a C++
# compile's heap then takes one page fault per 2 MiB instead of per 4 KiB, 7 % less CPU for the
# sanitizers' build (docs/testing.md). Ignored by a glibc older than 2.35.
export GLIBC_TUNABLES=${GLIBC_TUNABLES:-glibc.malloc.hugetlb=1}

missing=()
command -v emcc >/dev/null || missing+=(emscripten)
[ -f /usr/include/eigen3/Eigen/Core ] || missing+=(libeigen3-dev)
[ -x /usr/bin/chromium ] || missing+=(chromium)
# The tests' browser (tests/page/browser.js): Chromium's headless shell.
[ -x /usr/bin/chromium-headless-shell ] || missing+=(chromium-headless-shell)
command -v cmake >/dev/null || missing+=(cmake)
# Ninja for the wasm32 fuzz replay's build (scripts/sanitize.sh): one build graph, both cores busy.
command -v ninja >/dev/null || missing+=(ninja-build)
# The GEMM kernels' relaxed-SIMD module (Emscripten 3.1.6's clang emits pre-standard opcodes).
command -v clang-19 >/dev/null || missing+=(clang-19)
command -v wasm-ld-19 >/dev/null || missing+=(lld-19)
command -v g++ >/dev/null || missing+=(g++)
[ -f /usr/include/gtest/gtest.h ] || missing+=(libgtest-dev)
command -v clang-format >/dev/null || missing+=(clang-format)
command -v clang-tidy >/dev/null || missing+=(clang-tidy)
# The course-tool recipes (examples/recipes, tests/page/recipes.test.js) build with the real tools.
command -v mkdocs >/dev/null || missing+=(mkdocs)
command -v jupyter-nbconvert >/dev/null || missing+=(jupyter-nbconvert)
/usr/bin/python3 -c 'import ipykernel' 2>/dev/null || missing+=(python3-ipykernel)
# The checkpoint tests write their safetensors files with numpy (tests/fixtures/make_checkpoints.py).
/usr/bin/python3 -c 'import numpy' 2>/dev/null || missing+=(python3-numpy)
# Debian's nbconvert HTML loads these from /usr/share/javascript (its Recommends).
[ -f /usr/share/javascript/requirejs/require.min.js ] || missing+=(libjs-requirejs)
[ -f /usr/share/javascript/mathjax/MathJax.js ] || missing+=(libjs-mathjax)
# The training corpus's text (scripts/make-corpus.mjs): the World English Bible and mod2imp to read it.
[ -f /usr/share/sword/mods.d/engWEB2015eb.conf ] || missing+=(sword-text-web)
command -v mod2imp >/dev/null || missing+=(libsword-utils)
# The other languages' corpora (scripts/corpus-languages.sh, tests/js/language-corpora.test.js):
# the Reina-Valera 1909 and the Debian Reference in Japanese and English.
[ -f /usr/share/sword/mods.d/spaRV1909eb.conf ] || missing+=(sword-text-sparv)
[ -f /usr/share/debian-reference/debian-reference.ja.txt.gz ] || missing+=(debian-reference-ja)
[ -f /usr/share/debian-reference/debian-reference.en.txt.gz ] || missing+=(debian-reference-en)

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" -lt 20 ]; then
  echo "setup: relpos needs Node.js 20.19 or newer (found $(node --version))" >&2
  exit 1
fi

# RELPOS_NPM_CI_BESIDE=1 (build.sh): npm ci runs in the background while the caller builds the
# C++, which needs no npm package; the caller calls npm_packages_ready before its first use of one.
npm_ci_pid=""
if [ -L node_modules ]; then
  # A git worktree sharing another checkout's packages: npm ci would empty that checkout's folder.
  echo "setup: node_modules is a link ($(readlink node_modules)): its packages are used as they are, not reinstalled"
elif [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  if [ "${RELPOS_NPM_CI_BESIDE:-}" = 1 ]; then
    echo "setup: installing npm packages (npm ci) beside the C++ build"
    npm_ci_log=$(mktemp)
    # Then what needs only the packages (RELPOS_AFTER_NPM_CI, a command of the sourcing script).
    { npm ci --no-audit --no-fund --loglevel=error && ${RELPOS_AFTER_NPM_CI:-true}; } >"$npm_ci_log" 2>&1 &
    npm_ci_pid=$!
    # A build that stops early stops it too (an unfinished node_modules is installed again next time).
    trap '[ -z "$npm_ci_pid" ] || kill "$npm_ci_pid" 2>/dev/null || true' EXIT
  else
    echo "setup: installing npm packages (npm ci)"
    npm ci --no-audit --no-fund --loglevel=error
  fi
fi

# Waits for a background npm ci (RELPOS_NPM_CI_BESIDE), and stops the caller if it failed.
# Waits for the packages (and RELPOS_AFTER_NPM_CI) when they are installed beside; otherwise runs
# RELPOS_AFTER_NPM_CI now.
npm_packages_ready() {
  if [ -z "$npm_ci_pid" ]; then
    ${RELPOS_AFTER_NPM_CI:-true}
    return
  fi
  local status=0
  wait "$npm_ci_pid" || status=$?
  npm_ci_pid=""
  cat "$npm_ci_log"
  rm -f "$npm_ci_log"
  if [ "$status" -ne 0 ]; then
    echo "setup: npm ci${RELPOS_AFTER_NPM_CI:+ or $RELPOS_AFTER_NPM_CI} failed (exit $status)" >&2
    exit 1
  fi
}
