#!/usr/bin/env bash
# clang-tidy (.clang-tidy) over the core's sources, one file per core at a time, and GCC's warnings
# over the same sources (-fsyntax-only: the core's other compilers, Emscripten's clang and clang
# under the sanitizers, build it in npm test); any finding fails the run. Part of scripts/lint.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/setup.sh

echo "lint: clang-tidy (the core)"
if [ ! -f build/native/compile_commands.json ]; then
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
# One compile command per file: the library's (the benchmark's copies of the core add
# -march flags and a GCC-only warning option that clang does not know), without the precompiled
# header (CMakeLists.txt): each file is checked with what it includes itself, and clang cannot
# read GCC's .gch that a native build leaves beside the header.
mkdir -p build/lint
node -e "
  const fs = require('node:fs');
  const seen = new Set();
  const all = JSON.parse(fs.readFileSync('build/native/compile_commands.json', 'utf8'));
  const withoutPch = (e) => ({ ...e, command: e.command.replace(/ -Winvalid-pch| -include \\S+cmake_pch\\.hxx/g, '') });
  fs.writeFileSync('build/lint/compile_commands.json', JSON.stringify(all.filter((e) => !seen.has(e.file) && seen.add(e.file)).map(withoutPch)));
"
if ! find cpp/src -name '*.cpp' | sort |
  xargs -P "$(nproc)" -n 1 clang-tidy -p build/lint --quiet >build/lint/clang-tidy.log 2>&1; then
  grep -vE '^[0-9]+ warnings? (and [0-9]+ errors? )?generated' build/lint/clang-tidy.log >&2
  echo "lint: clang-tidy found problems (above)" >&2
  exit 1
fi
echo "lint: clang-tidy clean"

echo "lint: GCC's warnings (the core, -fsyntax-only, every warning an error)"
node -e "
  const all = JSON.parse(require('node:fs').readFileSync('build/lint/compile_commands.json', 'utf8'));
  for (const e of all)
    if (e.file.includes('/cpp/src/')) console.log(e.command.replace(/ -o \\S+/, '').replace(/ -c /, ' -fsyntax-only -Werror '));
" >build/lint/gcc-commands.txt
if ! (cd build/native && xargs -P "$(nproc)" -d '\n' -n 1 sh -c <../lint/gcc-commands.txt) >build/lint/gcc.log 2>&1; then
  cat build/lint/gcc.log >&2
  echo "lint: GCC warned (above)" >&2
  exit 1
fi
echo "lint: GCC clean"
