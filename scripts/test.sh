#!/usr/bin/env bash
# Sets up a fresh machine and runs every check CI runs: formatting, clippy (native and wasm32), the native tests
# (unit + the one integration binary), a study as a Slurm job array on a real single-node Slurm, the benchmark
# build, and the browser tests (built page in headless
# Chromium, and wasm-bindgen-test of the worker protocol). `.ci/run` calls exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --browser --slurm
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH" TRUNK_SKIP_VERSION_CHECK=true
# A fresh clone gains nothing from incremental compilation and its caches cost gigabytes of CI's disk; a developer
# re-running the tests may keep it with CARGO_INCREMENTAL=1.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"
step() { printf '\n== %s\n' "$*"; }
step "format"
cargo fmt --all -- --check
step "leptosfmt (the page's view! bodies, width 120 as rustfmt)"
leptosfmt --check --max-width 120 src/ui
step "clippy (native, all targets)"
cargo clippy --workspace --all-targets --locked -- -D warnings
step "clippy (wasm32: page and worker)"
cargo clippy --target wasm32-unknown-unknown --lib --bins --locked -- -D warnings
step "clippy (wasm32: the page as trunk builds it, without the script engine)"
cargo clippy --target wasm32-unknown-unknown --no-default-features --bin app --bin panels --locked -- -D warnings
step "native tests"
cargo test --locked
cargo test --locked -p docs-html
step "native tests without the script engine (as the page's own wasm is built)"
cargo test --locked --no-default-features --lib without_the_engine
step "a study on a real Slurm (single node on 127.0.0.1)"
scripts/slurm/test.sh
step "benchmark builds"
cargo bench --bench engine --no-run --locked
step "browser tests"
scripts/test-browser.sh
