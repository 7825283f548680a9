#!/usr/bin/env bash
# The style checks (npm run lint; the last step of npm test), each of which fails the run:
#   the layers' import rule (scripts/check-imports.mjs: no import upward, no circle);
#   ESLint (eslint.config.js), Prettier (.prettierrc.json) for JS, TS and CSS;
#   clang-format (.clang-format) and clang-tidy (.clang-tidy, the core's sources: scripts/tidy.sh)
#   for C++. `lint.sh --no-tidy` leaves clang-tidy out (a quick check; npm test runs it all, last).
# `npm run format` (scripts/format.sh) writes what Prettier and clang-format want.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/setup.sh

echo "lint: imports (docs/architecture.md: no arrow upward, no circle)"
node scripts/check-imports.mjs

# ESLint and Prettier at once (each keeps one core busy): about 13 s against 16 one after the other.
echo "lint: ESLint and Prettier (npm run format fixes what Prettier finds)"
mkdir -p build/lint
npx eslint . >build/lint/eslint.log 2>&1 &
eslint_pid=$!
prettier_status=0
npx prettier --check . --log-level warn || prettier_status=$?
eslint_status=0
wait "$eslint_pid" || eslint_status=$?
cat build/lint/eslint.log
if [ "$eslint_status" -ne 0 ] || [ "$prettier_status" -ne 0 ]; then
  echo "lint: ESLint or Prettier found problems (above)" >&2
  exit 1
fi

echo "lint: clang-format (npm run format fixes this)"
mapfile -t cxx_files < <(find cpp bench tests -name '*.cpp' -o -name '*.hpp' | sort)
clang-format --dry-run -Werror "${cxx_files[@]}"

if [ "${1:-}" != --no-tidy ]; then
  bash scripts/tidy.sh
fi
echo "lint: all clean"
