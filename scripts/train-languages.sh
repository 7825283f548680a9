#!/usr/bin/env bash
# The reference run on each language's corpus (docs/corpus.md, "Other languages"):
# `npm run train:languages` [-- options of train-reference.mjs, e.g. --jobs 1]. The principal
# reference's model, budget and seeds (scripts/train-reference.mjs) on the shipped English corpus
# and on build/corpora/<source>.bin (npm run corpus:languages), each written to
# build/reference-runs/<name>.js; then scripts/compare-languages.mjs writes the readings the
# training section draws (web/train/language-readings.js). One language alone:
#   node scripts/train-reference.mjs --corpus build/corpora/debian-reference-ja.bin --out build/reference-runs/debian-reference-ja.js --word-order
# About 2.5 minutes of CPU per seed and corpus; never part of npm test.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mkdir -p build/reference-runs
for source in debian-reference-ja debian-reference-en reina-valera; do
  [ -f "build/corpora/$source.bin" ] || bash scripts/corpus-languages.sh
  node scripts/train-reference.mjs --corpus "build/corpora/$source.bin" --out "build/reference-runs/$source.js" --word-order --no-check "$@"
done
node scripts/train-reference.mjs --corpus dist/training-corpus.bin --out build/reference-runs/bible.js --word-order --no-check "$@"
node scripts/compare-languages.mjs
