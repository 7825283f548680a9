#!/usr/bin/env bash
# The style checks (npm run lint; the last step of npm test), each of which fails the run:
#   the layers' import rule (scripts/check-imports.mjs: no import upward, no circle);
#   ESLint (eslint.config.js), Prettier (.prettierrc.json) for JS, TS and CSS;
#   clang-format (.clang-format) and clang-tidy (.clang-tidy, the core's sources) for C++.
# `npm run format` (scripts/format.sh) writes what Prettier and clang-format want.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/setup.sh

echo "lint: imports (docs/architecture.md: no arrow upward, no circle)"
node scripts/check-imports.mjs

echo "lint: ESLint"
npx eslint .

echo "lint: Prettier (npm run format fixes this)"
npx prettier --check . --log-level warn

echo "lint: clang-format (npm run format fixes this)"
mapfile -t cxx_files < <(find cpp bench tests -name '*.cpp' -o -name '*.hpp' | sort)
clang-format --dry-run -Werror "${cxx_files[@]}"

echo "lint: clang-tidy (the core)"
if [ ! -f build/native/compile_commands.json ]; then
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
# One compile command per file: the library's (the benchmark's copies of the core add
# -march flags and a GCC-only warning option that clang does not know).
mkdir -p build/lint
node -e "
  const fs = require('node:fs');
  const seen = new Set();
  const all = JSON.parse(fs.readFileSync('build/native/compile_commands.json', 'utf8'));
  fs.writeFileSync('build/lint/compile_commands.json', JSON.stringify(all.filter((e) => !seen.has(e.file) && seen.add(e.file))));
"
if ! find cpp/src -name '*.cpp' | sort |
  xargs -P "$(nproc)" -n 1 clang-tidy -p build/lint --quiet >build/lint/clang-tidy.log 2>&1; then
  grep -vE '^[0-9]+ warnings? (and [0-9]+ errors? )?generated' build/lint/clang-tidy.log >&2
  echo "lint: clang-tidy found problems (above)" >&2
  exit 1
fi
echo "lint: all clean"
