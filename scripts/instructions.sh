#!/usr/bin/env bash
# Instructions per event of the simulation loop, counted by callgrind (hardware counters are not available on
# every machine; callgrind's counts repeat exactly).
#   scripts/instructions.sh [POLICY] [LOAD]     the Avg month on DAS-2 + Grid'5000 (default FPLT 0.95)
#   scripts/instructions.sh --growth [POLICY]   the overloaded run from 16k to 256k tasks, with ratios
#   scripts/instructions.sh --dg [MIX] [BOT_SELECTION]
#                                               desktop grid, Low-Avail Heterogeneous at load 0.95 (default
#                                               uniform rr_nrf), 125 to 1 000 BoTs, with ratios
#   scripts/instructions.sh --dd [POLICY] [JOBS…]
#                                               data grid, the bench's high load (HPC2N repeated, runtimes × 3),
#                                               every scheme under POLICY (default conservative) at 5 000 and
#                                               10 000 jobs (or JOBS…), with ratios
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench --bench engine --no-run 2>/dev/null
target=${CARGO_TARGET_DIR:-target}
bin=$(ls -t "$target"/release/deps/engine-* | grep -v '\.d$' | head -1)
count() { # toggle, then args for the bench binary; prints "instructions events"
  local out; out=$(mktemp -d)
  local toggle=$1; shift
  valgrind --tool=callgrind --callgrind-out-file="$out/cg" --toggle-collect="$toggle" \
    "$bin" "$@" 2>"$out/log" >"$out/stdout"
  echo "$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$out/log") $(sed -n 's/.* \([0-9]*\) events.*/\1/p' "$out/stdout")"
  rm -rf "$out"
}
# Every family's loop is the engine's Model::run (one symbol name for every model; each count runs one family).
mc='bagsim::engine::model::Model::run'
dg='bagsim::engine::model::Model::run'
# The data grid's run loop is inlined into the run contract's step.
dd='*DdRun*step*'
if [ "${1:-}" = "--growth" ]; then
  policy=${2:-FPLT}
  first=""
  echo "| policy | target tasks | events | instructions/event | ratio to the smallest |"
  echo "|---|---|---|---|---|"
  for n in 16000 32000 64000 128000 256000; do
    read -r instr events < <(count "$mc" --growth-one "$policy" "$n")
    per=$((instr / events))
    [ -z "$first" ] && first=$per
    echo "| $policy | $n | $events | $per | $(awk "BEGIN{printf \"%.2f\", $per/$first}") |"
  done
elif [ "${1:-}" = "--dd" ]; then
  policy=${2:-conservative}
  sizes=("${@:3}")
  [ ${#sizes[@]} -eq 0 ] && sizes=(5000 10000)
  echo "| scheme | local policy | jobs | events | instructions/event | ratio to the smallest |"
  echo "|---|---|---|---|---|---|"
  for scheme in start_time_no_data_aware finish_time_no_overlap finish_time_data_aware; do
    first=""
    for n in "${sizes[@]}"; do
      read -r instr events < <(count "$dd" --dd-one "$scheme" "$n" "$policy")
      per=$((instr / events))
      [ -z "$first" ] && first=$per
      echo "| $scheme | $policy | $n | $events | $per | $(awk "BEGIN{printf \"%.2f\", $per/$first}") |"
    done
  done
elif [ "${1:-}" = "--dg" ]; then
  mix=${2:-uniform}
  policy=${3:-rr_nrf}
  first=""
  echo "| mix | BoT selection | BoTs | events | instructions/event | ratio to the smallest |"
  echo "|---|---|---|---|---|---|"
  for n in 125 250 500 1000; do
    read -r instr events < <(count "$dg" --dg-one "$mix" "$policy" "$n")
    per=$((instr / events))
    [ -z "$first" ] && first=$per
    echo "| $mix | $policy | $n | $events | $per | $(awk "BEGIN{printf \"%.2f\", $per/$first}") |"
  done
else
  policy=${1:-FPLT}
  load=${2:-0.95}
  read -r instr events < <(count "$mc" --only "$policy" "$load")
  echo "$policy at load $load: $instr instructions in Simulation::run, $events events, $((instr / events)) instructions/event"
fi
