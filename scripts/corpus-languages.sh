#!/usr/bin/env bash
# Builds the other languages' corpora (docs/corpus.md, "Other languages"): `npm run corpus:languages`.
# Installs their Debian sources if missing (the Reina-Valera 1909 in sword-text-sparv, the Debian
# Reference in Japanese and English), then writes build/corpora/<source>.bin with
# scripts/make-corpus.mjs (kuromoji, the Japanese tagger, is a pinned devDependency). Built, never
# shipped; the same bytes from a fresh clone. Never run by `npm test`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/setup.sh
missing=()
[ -f /usr/share/sword/mods.d/spaRV1909eb.conf ] || missing+=(sword-text-sparv)
[ -f /usr/share/debian-reference/debian-reference.ja.txt.gz ] || missing+=(debian-reference-ja)
[ -f /usr/share/debian-reference/debian-reference.en.txt.gz ] || missing+=(debian-reference-en)
if [ ${#missing[@]} -gt 0 ]; then
  echo "corpus:languages: installing Debian packages: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq -o DPkg::Lock::Timeout=900 \
    --no-install-recommends "${missing[@]}" >/dev/null
fi
mkdir -p build/corpora
for source in reina-valera debian-reference-ja debian-reference-en; do
  node scripts/make-corpus.mjs --source "$source" --out "build/corpora/$source.bin"
done
