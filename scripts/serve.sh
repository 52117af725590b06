#!/usr/bin/env bash
# Sets up a fresh machine (scripts/setup.sh) and serves the page at http://127.0.0.1:8080/ (release build;
# rebuilds on change). PUBLIC_URL=/bagsim/ serves it under a sub-path as GitHub Pages would.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH" TRUNK_SKIP_VERSION_CHECK=true
exec trunk serve --release --public-url "${PUBLIC_URL:-/}" --address 127.0.0.1 --port "${PORT:-8080}"
