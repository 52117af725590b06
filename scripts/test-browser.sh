#!/usr/bin/env bash
# Builds the page for the /bagsim/ sub-path and runs every browser test:
#   1. trunk build --release --public-url /bagsim/          (dist/, as deployed to GitHub Pages)
#   2. cargo test -p e2e --release                          (the page in headless Chromium through chromedriver:
#      e2e/tests/page.rs, trace.rs, desktop_grid.rs and classroom.rs, the last with axe-core from node_modules/)
#   3. cargo test --target wasm32-unknown-unknown --test web (wasm-bindgen-test in headless Chromium)
# Idempotent; exits non-zero if the build or any test fails (steps 2 and 3 both run, so one report shows both).
# Extra arguments go to the e2e test binary, e.g. `scripts/test-browser.sh shared_link`.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
export PATH="$ROOT/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"

step() { printf '\n[test-browser] %s\n' "$*"; }
die() { printf '[test-browser] error: %s\n' "$*" >&2; exit 1; }

for tool in trunk wasm-bindgen-test-runner wasm-opt; do
  command -v "$tool" >/dev/null || die "$tool is not on PATH: run scripts/setup.sh"
done
[ -x "$CHROMEDRIVER" ] || die "no chromedriver at $CHROMEDRIVER: run scripts/setup.sh"
# Debian's wasm-opt 108 silently breaks the page; trunk --release uses the first wasm-opt on PATH.
wasm-opt --version | grep -q "version 132" || die "wasm-opt on PATH is not binaryen 132 ($(command -v wasm-opt)): run npm ci"
[ -f node_modules/axe-core/axe.min.js ] || die "axe-core is missing from node_modules: run scripts/setup.sh"

step "building the page: trunk build --release --public-url /bagsim/"
trunk build --release --public-url /bagsim/
grep -q 'href="/bagsim/"' dist/index.html || die "dist/index.html was not built for /bagsim/"
# The page's own wasm, what every visitor downloads before the first screen works, stays within 600 KB gzip (the
# parts below the first screen come with the second module, ui/lazy.rs). Sizes of both, as README quotes them.
page_gz=$(gzip -9c dist/app-*_bg.wasm | wc -c)
panels_gz=$(gzip -9c dist/panels_bg.wasm | wc -c)
step "page wasm: $page_gz B gzip (second module: $panels_gz B, loaded when first shown)"
[ "$page_gz" -le 600000 ] || die "the page's wasm is $page_gz B gzip, over 600 000: move a part below the first screen to the second module (ui/lazy.rs)"

failed=()

step "end-to-end tests: cargo test -p e2e --release -- --test-threads=1"
if ! BAGSIM_DIST="$ROOT/dist" cargo test -p e2e --release -- --test-threads=1 "$@"; then
  failed+=("e2e")
fi

step "wasm-bindgen tests: cargo test --target wasm32-unknown-unknown --test web"
# A private Chromium profile per run, so that parallel runs (or a leftover Chromium) cannot collide.
profile=$(mktemp -d /tmp/bagsim-wbt-chrome-XXXXXX)
wdjson=$(mktemp /tmp/bagsim-webdriver-XXXXXX.json)
trap 'rm -rf "$profile" "$wdjson"' EXIT
sed "s#--user-data-dir=[^\"]*#--user-data-dir=$profile#" webdriver.json >"$wdjson"
grep -q -- "--user-data-dir=$profile" "$wdjson" || die "webdriver.json has no --user-data-dir argument to replace"
if ! CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  WASM_BINDGEN_TEST_WEBDRIVER_JSON="$wdjson" \
  WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-300}" \
  cargo test -p bagsim --target wasm32-unknown-unknown --test web; then
  failed+=("wasm-bindgen-test")
fi

if [ ${#failed[@]} -gt 0 ]; then
  step "FAILED: ${failed[*]}"
  exit 1
fi
step "all browser tests passed (screenshots in target/e2e/)"
