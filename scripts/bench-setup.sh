#!/usr/bin/env bash
# Installs what `npm run bench` compares against, and only that: OpenBLAS (libopenblas0-pthread),
# which Debian's alternatives then select for numpy instead of the generic reference BLAS, so the
# numpy anchors are fair (README "Performance"); and the npm packages of bench/package.json
# (onnxruntime-web, pinned in bench/package-lock.json) into bench/node_modules, where only the
# benchmarks import them. Never run by `npm test`.
set -euo pipefail
if ! dpkg -s libopenblas0-pthread >/dev/null 2>&1; then
  echo "bench setup: installing libopenblas0-pthread"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq -o DPkg::Lock::Timeout=900 \
    --no-install-recommends libopenblas0-pthread >/dev/null
fi
if [ ! -f bench/node_modules/.package-lock.json ] || [ bench/package-lock.json -nt bench/node_modules/.package-lock.json ]; then
  echo "bench setup: npm ci in bench/ (onnxruntime-web)"
  npm ci --prefix bench --no-audit --no-fund --ignore-scripts --loglevel error
fi
