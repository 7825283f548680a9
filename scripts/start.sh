#!/usr/bin/env bash
# Sets everything up, builds the module and the page, and serves the page on localhost.
# PORT=9000 npm start picks another port.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/build.sh
port="${PORT:-8080}"
echo
echo "relpos: serving the page at http://localhost:${port}/  (Ctrl+C stops)"
exec npx vite preview --host localhost --port "$port" --strictPort
