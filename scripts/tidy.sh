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
# The headers every core file includes (CMakeLists.txt's precompiled ones) parsed once into GCC's
# precompiled header, as the build does: 19 CPU s for the core against 37 (docs/testing.md). A
# header that does not match a file's options is a -Winvalid-pch warning, so an error here.
pch_dir=$PWD/build/lint/gcc-pch
mkdir -p "$pch_dir"
printf '#include "%s"\n' "$PWD/build/native/CMakeFiles/relpos_core_objects.dir/cmake_pch.hxx" >"$pch_dir/core.hxx"
node -e "
  const all = JSON.parse(require('node:fs').readFileSync('build/lint/compile_commands.json', 'utf8'));
  const core = all.filter((e) => e.file.includes('/cpp/src/'));
  const header = (e) => e.command.replace(/ -o \\S+/, '').replace(/ -c \\S+$/, ' -x c++-header $pch_dir/core.hxx -o $pch_dir/core.hxx.gch');
  console.log(header(core[0]));
  for (const e of core)
    console.log(e.command.replace(/ -o \\S+/, '').replace(/ -c /, ' -include $pch_dir/core.hxx -Winvalid-pch -fsyntax-only -Werror '));
" >build/lint/gcc-commands.txt
if ! (cd build/native && head -1 ../lint/gcc-commands.txt | sh && tail -n +2 ../lint/gcc-commands.txt |
  xargs -P "$(nproc)" -d '\n' -n 1 sh -c) >build/lint/gcc.log 2>&1; then
  cat build/lint/gcc.log >&2
  echo "lint: GCC warned (above)" >&2
  exit 1
fi
echo "lint: GCC clean"
