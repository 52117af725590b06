#!/usr/bin/env bash
# A bagsim study on a real Slurm (single node on 127.0.0.1, scripts/slurm/cluster.sh), as the README tells a user:
#   1. plan a small sweep in 3 shards, `bagsim slurm`, submit: the array runs the shards, the merge job follows
#      (afterok); the merged CSV and JSON equal a local `bagsim sweep` byte for byte but for wall times; one value
#      of the scheduling axis is a script file (examples/policies/fplt.rhai, carried in the manifest), whose rows
#      equal the built-in FPLT's but for their label; with `bagsim slurm --jobs-csv` each shard writes its points'
#      per-task records, byte for byte those of `bagsim sweep --jobs-csv`;
#   2. a second study submitted held, one array index cancelled (scancel JOB_1), the rest released: the merge job
#      never starts, `bagsim merge` names shard 1 and exits non-zero; `sbatch --array=1` re-runs it and `bagsim
#      merge` completes the study, equal to the local sweep again.
# Every wait is bounded; the daemons are stopped by their process ids and the directory removed, whatever happens.
# Usage: scripts/slurm/test.sh [BAGSIM]   (default: the debug build in the cargo target directory, built first)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
say() { printf '[slurm-test] %s\n' "$*"; }
die() { printf '[slurm-test] FAILED: %s\n' "$*" >&2; exit 1; }

BAGSIM=${1:-}
if [ -z "$BAGSIM" ]; then
  cargo build --locked --bin bagsim
  BAGSIM="${CARGO_TARGET_DIR:-$ROOT/target}/debug/bagsim"
fi
[ -x "$BAGSIM" ] || die "no bagsim at $BAGSIM"

work=$(mktemp -d /tmp/bagsim-slurm-test-XXXXXX)
cluster="$work/cluster"
cleanup() {
  if [ -n "${SLURM_CONF:-}" ]; then scancel --user=root 2>/dev/null || true; fi
  scripts/slurm/cluster.sh stop "$cluster" || true
  rm -rf "$work"
}
trap cleanup EXIT
eval "$(scripts/slurm/cluster.sh start "$cluster")"
say "single-node cluster up: $(sinfo -h -o '%P %D node, %c CPUs, %T')"

# Waits until no task of job $1 is pending or running (at most $2 seconds).
wait_done() {
  local job=$1 limit=$2 i
  for i in $(seq $((limit * 2))); do
    [ -z "$(squeue -h -j "$job" -t PENDING,RUNNING,CONFIGURING,COMPLETING 2>/dev/null)" ] && return 0
    sleep 0.5
  done
  squeue -j "$job" >&2 || true
  die "job $job still queued or running after $limit s"
}

# A CSV without its wall_time_s column, a JSON without its wall_time_s lines.
no_wall_csv() {
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "wall_time_s") w = i }
    { out = ""; for (i = 1; i <= NF; i++) if (i != w) out = out (out == "" && i == 1 ? "" : ",") $i; print out }' "$1"
}
same_as_local() {
  local stem=$1
  cmp <(no_wall_csv "$work/local.csv") <(no_wall_csv "$stem.csv") || die "$stem.csv differs from the local sweep"
  cmp <(grep -v '"wall_time_s"' "$work/local.json") <(grep -v '"wall_time_s"' "$stem.json") \
    || die "$stem.json differs from the local sweep"
  grep -q wall_time_s "$stem.csv" || die "$stem.csv has no wall_time_s column: the comparison would be empty"
}

cat >"$work/base.json" <<'EOF'
{"workload": {"submission_period": 21600}}
EOF
script=examples/policies/fplt.rhai
sets=(--set load=0.3,0.9 --set "scheduling=ECT,FPLT,$script")
"$BAGSIM" sweep "$work/base.json" "${sets[@]}" --jobs 2 --out "$work/local" --jobs-csv "$work/local" 2>/dev/null

say "1. a study of 6 runs in 3 shards, submitted as bagsim slurm writes it"
"$BAGSIM" sweep "$work/base.json" "${sets[@]}" --plan 3 --out "$work/a" >/dev/null
"$BAGSIM" slurm "$work/a.manifest.json" --time 00:05:00 --jobs-csv >/dev/null
submitted=$(sh "$work/a.submit.sh")
say "$submitted"
merge=$(printf '%s\n' "$submitted" | sed -n 's/.*merge: job \([0-9]*\).*/\1/p')
[ -n "$merge" ] || die "the submit script printed no merge job"
wait_done "$merge" 120
[ -f "$work/a.csv" ] || die "the merge job wrote no a.csv: $(cat "$work/a.merge.log" 2>/dev/null)"
same_as_local "$work/a"
say "   merged by the afterok job; equal to the local sweep but for wall times"
for k in 0 1 2 3 4 5; do
  cmp "$work/a.point-$k.jobs.csv" "$work/local.point-$k.jobs.csv" || die "point $k's per-task records differ from the local sweep's"
done
say "   each shard wrote its points' per-task records (--jobs-csv), byte for byte the local sweep's"
# The rows of a policy, without their scheduling label (column 2) and wall time.
rows_of() { no_wall_csv "$1" | awk -F, -v p="$2" 'NR > 1 && $2 == p' | cut -d, -f1,3-; }
[ "$(rows_of "$work/a.csv" FPLT | wc -l)" -eq 2 ] || die "a.csv has not the two FPLT rows"
cmp <(rows_of "$work/a.csv" FPLT) <(rows_of "$work/a.csv" "$script") || die "the FPLT script's rows differ from FPLT's"
say "   the script file's rows, run by Slurm from the manifest, equal the built-in FPLT's"

say "2. one array task cancelled"
"$BAGSIM" sweep "$work/base.json" "${sets[@]}" --plan 3 --out "$work/b" >/dev/null
"$BAGSIM" slurm "$work/b.manifest.json" --time 00:05:00 >/dev/null
array=$(sbatch --parsable --hold "$work/b.sbatch"); array=${array%%;*}
merge=$(sbatch --parsable --dependency=afterok:"$array" "$work/b.merge.sbatch"); merge=${merge%%;*}
scancel "${array}_1"
scontrol release "$array"
wait_done "$array" 120
[ -f "$work/b.shard-0.json" ] && [ -f "$work/b.shard-2.json" ] || die "shards 0 and 2 did not run"
[ ! -f "$work/b.shard-1.json" ] || die "the cancelled shard 1 left an output"
# slurmctld re-evaluates dependencies in its scheduling loop: give it up to 60 s to see that afterok cannot hold.
for _ in $(seq 120); do
  reason=$(squeue -h -j "$merge" -o %r)
  [ "$reason" = DependencyNeverSatisfied ] && break
  sleep 0.5
done
state=$(squeue -h -j "$merge" -o %T)
case "$state/$reason" in
  PENDING/DependencyNeverSatisfied | PENDING/Dependency) say "   the merge job has not started ($state, $reason)"; scancel "$merge" ;;
  *) die "the merge job is $state ($reason), not pending on its dependency" ;;
esac
if out=$("$BAGSIM" merge "$work/b.manifest.json" 2>&1); then die "merge of an incomplete study succeeded: $out"; fi
printf '%s\n' "$out" | grep -q "missing shards: 1 " || die "merge did not name shard 1: $out"
[ ! -f "$work/b.csv" ] || die "an incomplete merge wrote b.csv"
say "   bagsim merge refuses: $(printf '%s' "$out" | sed -n 2p)"
again=$(sbatch --parsable --array=1 "$work/b.sbatch"); again=${again%%;*}
wait_done "$again" 120
"$BAGSIM" merge "$work/b.manifest.json" >/dev/null
same_as_local "$work/b"
say "   shard 1 re-submitted alone; the merge completes the study, equal to the local sweep"
say "passed"
