#!/usr/bin/env bash
# Installs every tool bagsim needs on a fresh machine of this kind. Idempotent: a second run only checks.
# Uses only crates.io, Debian's packages, the npm registry and PyPI (evalys for the tests, in .venv/). With
# --browser it also installs Chromium and chromedriver (for the tests); serving the page does not need them. With
# --slurm it also installs Debian's slurm-wlm and munge (for scripts/slurm/test.sh, which starts daemons of its
# own in a temporary directory, not the system's).
set -euo pipefail
cd "$(dirname "$0")/.."

WASM_BINDGEN_VERSION=0.2.130   # must equal the `wasm-bindgen` pin in Cargo.toml
TRUNK_VERSION=0.22.1
LEPTOSFMT_VERSION=0.1.33
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"

step() { printf '[setup] %s\n' "$*"; }

if ! rustup target list --installed | grep -q wasm32-unknown-unknown; then
  step "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

browser=0
slurm=0
for arg in "$@"; do
  case "$arg" in
    --browser) browser=1 ;;
    --slurm) slurm=1 ;;
    *) echo "usage: $0 [--browser] [--slurm]" >&2; exit 2 ;;
  esac
done

if [ "$browser" = 1 ] && { ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; }; then
  step "installing Debian chromium and chromium-driver"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium chromium-driver >/dev/null
fi

if [ "$slurm" = 1 ] && ! { command -v slurmctld && command -v slurmd && command -v sbatch && command -v munged; } >/dev/null; then
  step "installing Debian slurm-wlm and munge"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq slurm-wlm munge >/dev/null
fi

if ! wasm-bindgen --version 2>/dev/null | grep -q " $WASM_BINDGEN_VERSION"; then
  step "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (a few minutes)"
  # no --locked: its lock file names a crate version the registry lacks
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi

if ! leptosfmt --version 2>/dev/null | grep -q " $LEPTOSFMT_VERSION"; then
  step "installing leptosfmt $LEPTOSFMT_VERSION (the view! formatter the test command checks; a few minutes)"
  cargo install leptosfmt --version "$LEPTOSFMT_VERSION" --locked --force
fi

if ! trunk --version 2>/dev/null | grep -q " $TRUNK_VERSION"; then
  step "installing trunk $TRUNK_VERSION (about 15 minutes on 2 cores)"
  # trunk 0.22 asks for rustc 1.96 but builds and runs on 1.95
  cargo install trunk --version "$TRUNK_VERSION" --locked --ignore-rust-version --force
fi

if ! wasm-opt --version 2>/dev/null | grep -q "version 132" || [ ! -f node_modules/axe-core/axe.min.js ] \
  || [ ! -x node_modules/.bin/lighthouse ]; then
  step "installing binaryen 132 (wasm-opt), axe-core and lighthouse from npm, pinned in package-lock.json"
  # Debian's binaryen 108 silently breaks the page; the npm one is pinned here. axe-core is injected into the page
  # by the browser tests; lighthouse is for scripts/lighthouse.sh.
  npm ci --no-audit --no-fund --silent
fi

# The tests load `bagsim run --jobs` output with evalys (docs/jobs.md): a venv under the project, every package
# pinned in scripts/python/requirements.txt; made again only when that file changes.
if ! cmp -s scripts/python/requirements.txt .venv/requirements.txt || ! .venv/bin/python -c 'import evalys' 2>/dev/null; then
  step "creating .venv with evalys and its dependencies (scripts/python/requirements.txt)"
  if ! python3 -m venv --help >/dev/null 2>&1 || ! python3 -c 'import ensurepip' 2>/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq python3-venv >/dev/null
  fi
  rm -rf .venv
  python3 -m venv .venv
  .venv/bin/pip install --quiet --disable-pip-version-check -r scripts/python/requirements.txt
  cp scripts/python/requirements.txt .venv/requirements.txt
fi

step "fetching crates"
cargo fetch --locked >/dev/null 2>&1 || cargo fetch
step "ready"
