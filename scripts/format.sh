#!/usr/bin/env bash
# npm run format: rewrites the tree in the project's style, JS, TS and CSS with Prettier
# (.prettierrc.json), C++ with clang-format (.clang-format). Deterministic: run it again after a
# merge and commit what it changes. scripts/lint.sh checks the same in npm test.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/setup.sh

npx prettier --write . --log-level warn
mapfile -t cxx_files < <(find cpp bench tests -name '*.cpp' -o -name '*.hpp' | sort)
clang-format -i "${cxx_files[@]}"
echo "format: done (git diff shows what changed)"
