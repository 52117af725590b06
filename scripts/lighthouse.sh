#!/usr/bin/env bash
# Lighthouse (npm, pinned in package-lock.json) on the built page, served gzip-compressed under /bagsim/ as on
# GitHub Pages, in Debian's Chromium: mobile emulation (Lighthouse's default: a mid-range phone, slow 4G, 4× CPU
# slowdown, simulated) and desktop emulation. Prints the scores and the metrics; the reports go to
# target/lighthouse/. Not part of scripts/test.sh (about a minute per run). Usage:
#   scripts/lighthouse.sh            # builds dist/ if it is missing, then mobile and desktop
#   RUNS=3 scripts/lighthouse.sh     # the median of 3 runs each
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
export PATH="$ROOT/node_modules/.bin:$HOME/.cargo/bin:$PATH" TRUNK_SKIP_VERSION_CHECK=true
export CHROME_PATH="${CHROME_PATH:-/usr/bin/chromium}"
command -v lighthouse >/dev/null || { echo "lighthouse is not installed: run scripts/setup.sh" >&2; exit 1; }
if [ ! -f dist/index.html ] || ! grep -q 'href="/bagsim/"' dist/index.html; then
  trunk build --release --public-url /bagsim/
fi
out="$ROOT/target/lighthouse"
mkdir -p "$out"
port=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
node scripts/serve-dist.mjs "$ROOT/dist" "$port" /bagsim/ &
server=$!
# A fresh Chromium profile per run, as Lighthouse itself launches Chromium: every run is a new visitor's first
# open. (With one profile shared by the runs, the runs after the first scored up to 15 points lower, for a reason
# not pinned down.)
profiles=$(mktemp -d /tmp/bagsim-lighthouse-XXXXXX)
trap 'kill $server 2>/dev/null; rm -rf "$profiles"' EXIT
sleep 0.5
url="http://127.0.0.1:$port/bagsim/"
# Compress every file once before measuring (the server keeps the compressed copies).
for f in $(cd dist && find . -type f -printf '%P\n'); do
  curl -s -o /dev/null -H 'Accept-Encoding: gzip' "$url$f"
done
flags="--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run --disable-background-networking --disable-component-update --disable-sync"
for form in mobile desktop; do
  preset=()
  [ "$form" = desktop ] && preset=(--preset=desktop)
  for i in $(seq 1 "${RUNS:-1}"); do
    lighthouse "$url" "${preset[@]}" --quiet --chrome-flags="$flags --user-data-dir=$(mktemp -d "$profiles/$form-$i-XXXX")" \
      --only-categories=performance,accessibility,best-practices \
      --output=json --output=html --output-path="$out/$form-$i" >/dev/null
  done
  node -e '
    const [form, n, dir] = process.argv.slice(1);
    const runs = [];
    for (let i = 1; i <= +n; i++) runs.push(require(`${dir}/${form}-${i}.report.json`));
    const med = f => { const v = runs.map(f).sort((a, b) => a - b); return v[Math.floor(v.length / 2)]; };
    const c = k => Math.round(100 * med(r => r.categories[k].score));
    const a = (k, d = 0) => (med(r => r.audits[k].numericValue) / (d ? 1000 : 1)).toFixed(d ? 2 : 0);
    console.log(`${form}: accessibility ${c("accessibility")}, best practices ${c("best-practices")}, performance ${c("performance")}` +
      ` (FCP ${a("first-contentful-paint", 1)} s, LCP ${a("largest-contentful-paint", 1)} s, TBT ${a("total-blocking-time")} ms,` +
      ` CLS ${med(r => r.audits["cumulative-layout-shift"].numericValue).toFixed(3)}, SI ${a("speed-index", 1)} s)` +
      (n > 1 ? `, median of ${n}` : ""));
    for (const r of runs) for (const cat of ["accessibility", "best-practices", "performance"])
      for (const ref of r.categories[cat].auditRefs)
        if (ref.weight > 0 && r.audits[ref.id].score !== null && r.audits[ref.id].score < 0.9 && cat !== "performance")
          console.log(`  ${cat}: ${ref.id}: ${r.audits[ref.id].title}`);
  ' "$form" "${RUNS:-1}" "$out"
done
echo "reports: $out/{mobile,desktop}-N.report.html"
