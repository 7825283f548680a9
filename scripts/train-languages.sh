#!/usr/bin/env bash
# The reference run on each language's corpus (docs/corpus.md, "Other languages"):
# `npm run train:languages` [-- --jobs N] [-- other options of train-reference.mjs, e.g. --steps 2000].
# The principal reference's model, budget and seeds (scripts/train-reference.mjs) at the languages' peak learning rate (LANGUAGES_PEAK), on the shipped
# English corpus and on build/corpora/<source>.bin (npm run corpus:languages), without the longer
# runs of the convergence check (--no-check); every (corpus, seed) pair is one process, N at a time
# (default: the cores), each kept in build/reference-seeds/; then one pass per corpus reads them
# back and writes build/reference-runs/<name>.js, and scripts/compare-languages.mjs writes the
# readings the training section draws (web/train/language-readings.js). One language alone:
#   node scripts/train-reference.mjs --corpus build/corpora/debian-reference-ja.bin --out build/reference-runs/debian-reference-ja.js --word-order --no-check
# About 6 minutes of CPU per seed and corpus on a quiet machine here (12 in all); never part of npm test.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
jobs=$(nproc)
options=()
while [ $# -gt 0 ]; do
  case "$1" in
    --jobs) jobs=$2; shift 2 ;;
    *) options+=("$1"); shift ;;
  esac
done
sources=(debian-reference-ja debian-reference-en reina-valera bible)
corpus_of() { if [ "$1" = bible ]; then echo dist/training-corpus.bin; else echo "build/corpora/$1.bin"; fi; }
for source in "${sources[@]}"; do
  [ -f "$(corpus_of "$source")" ] || bash scripts/corpus-languages.sh
done
mkdir -p build/reference-runs build/reference-runs/one-seed
seeds=$(node -e "import('./web/train/reference.js').then((m) => console.log(m.REFERENCE_RECIPE.seeds.join(' ')))")
# The languages' own peak learning rate (web/train/language-comparison.js, LANGUAGES_PEAK).
peak=$(node -e "import('./web/train/language-comparison.js').then((m) => console.log(m.LANGUAGES_PEAK))")
options=(--peak "$peak" "${options[@]}")
pairs=()
for seed in $seeds; do
  for source in "${sources[@]}"; do pairs+=("$source $seed"); done
done
export -f corpus_of
export TRAIN_OPTIONS="${options[*]:-}"
# shellcheck disable=SC2016 # expanded by the inner bash
printf '%s\n' "${pairs[@]}" | xargs -P "$jobs" -L 1 bash -c '
  # shellcheck disable=SC2086 # the options are words
  node scripts/train-reference.mjs --corpus "$(corpus_of "$1")" --out "build/reference-runs/one-seed/$1.$2.js" \
    --word-order --no-check --seeds "$2" --jobs 1 $TRAIN_OPTIONS' _
for source in "${sources[@]}"; do
  node scripts/train-reference.mjs --corpus "$(corpus_of "$source")" --out "build/reference-runs/$source.js" \
    --word-order --no-check --jobs 1 "${options[@]}"
done
node scripts/compare-languages.mjs
