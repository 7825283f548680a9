#!/usr/bin/env bash
# Builds the other languages' corpora (docs/corpus.md, "Other languages"): `npm run corpus:languages`.
# Its Debian sources (the Reina-Valera 1909 in sword-text-sparv, the Debian Reference in Japanese
# and English) are installed by scripts/setup.sh if missing; it writes build/corpora/<source>.bin with
# scripts/make-corpus.mjs (kuromoji, the Japanese tagger, is a pinned devDependency). Built, never
# shipped; the same bytes from a fresh clone. Never run by `npm test`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/setup.sh
mkdir -p build/corpora
for source in reina-valera debian-reference-ja debian-reference-en; do
  node scripts/make-corpus.mjs --source "$source" --out "build/corpora/$source.bin"
done
