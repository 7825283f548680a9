#!/usr/bin/env bash
# Installs what `npm run bench:train` compares against, and only that: Debian's PyTorch
# (python3-torch, CPU) and OpenBLAS (libopenblas0-pthread, which Debian's alternatives then select
# for numpy and PyTorch instead of the generic reference BLAS). Never run by `npm test`.
set -euo pipefail
missing=()
/usr/bin/python3 -c 'import torch' 2>/dev/null || missing+=(python3-torch)
dpkg -s libopenblas0-pthread >/dev/null 2>&1 || missing+=(libopenblas0-pthread)
if [ ${#missing[@]} -gt 0 ]; then
  echo "bench:train setup: installing Debian packages: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq -o DPkg::Lock::Timeout=900 \
    --no-install-recommends "${missing[@]}" >/dev/null
fi
