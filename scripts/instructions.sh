#!/usr/bin/env bash
# Instructions per event of the simulation loop, counted by callgrind (hardware counters are not available on
# every machine; callgrind's counts repeat exactly). Usage: scripts/instructions.sh [POLICY] [LOAD]
set -euo pipefail
cd "$(dirname "$0")/.."
policy=${1:-FPLT}
load=${2:-0.95}
cargo bench --bench engine --no-run 2>/dev/null
bin=$(ls -t target/release/deps/engine-* | grep -v '\.d$' | head -1)
out=$(mktemp -d)
valgrind --tool=callgrind --callgrind-out-file="$out/cg" --toggle-collect='bagsim::simulation::Simulation::run' \
  "$bin" --only "$policy" "$load" 2>"$out/log" | tee "$out/stdout"
events=$(sed -n 's/.* \([0-9]*\) events.*/\1/p' "$out/stdout")
instr=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$out/log")
echo "instructions in Simulation::run: $instr; events: $events; instructions/event: $((instr / events))"
