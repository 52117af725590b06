#!/usr/bin/env bash
# A real single-node Slurm cluster on 127.0.0.1 for the tests, with every file in one directory:
#   scripts/slurm/cluster.sh start DIR   starts munged, slurmctld and slurmd (2 CPUs) and waits until the node is idle;
#                                        prints `export SLURM_CONF=DIR/slurm.conf` for the client commands
#   scripts/slurm/cluster.sh stop DIR    stops the daemons it started, by the process ids in DIR, and removes DIR
# Needs Debian's slurm-wlm and munge (scripts/setup.sh --slurm). Touches nothing outside DIR: its own munge key and
# socket, its own ports, state and spool directories; the system's munge and Slurm services are not used.
set -euo pipefail

die() { printf '[slurm-cluster] error: %s\n' "$*" >&2; exit 1; }

stop() {
  local dir=$1 pid
  [ -d "$dir" ] || return 0
  # slurmd first, so that it does not try to register with a controller that is gone.
  for name in slurmd slurmctld munged; do
    [ -f "$dir/$name.pid" ] || continue
    pid=$(cat "$dir/$name.pid")
    if kill -0 "$pid" 2>/dev/null; then
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2>/dev/null || true
    fi
  done
  rm -rf "$dir"
}

free_port() {
  local p
  for p in $(shuf -i 20000-40000 -n 50); do
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return; fi
  done
  die "no free port found"
}

start() {
  local dir=$1
  for tool in munged mungekey slurmctld slurmd sinfo; do
    command -v "$tool" >/dev/null || die "$tool is missing: run scripts/setup.sh --slurm"
  done
  mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
  dir=$(cd "$dir" && pwd)
  chmod 700 "$dir/munge"
  mungekey --create --keyfile="$dir/munge/munge.key" --force
  chmod 400 "$dir/munge/munge.key"
  munged --foreground --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munge/seed" \
    </dev/null >/dev/null 2>&1 &
  echo $! >"$dir/munged.pid"
  for _ in $(seq 50); do [ -S "$dir/munge/munge.socket" ] && break; sleep 0.1; done
  [ -S "$dir/munge/munge.socket" ] || die "munged did not start: $(tail -5 "$dir/munged.log" 2>/dev/null)"

  local ctld_port slurmd_port
  ctld_port=$(free_port)
  slurmd_port=$(free_port)
  cat >"$dir/slurm.conf" <<EOF
ClusterName=bagsim
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pidfile
SlurmdPidFile=$dir/slurmd.pidfile
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
PlugStackConfig=$dir/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
ReturnToService=2
MinJobAge=600
NodeName=localhost NodeAddr=127.0.0.1 CPUs=2 RealMemory=1000 State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
  : >"$dir/plugstack.conf"
  export SLURM_CONF="$dir/slurm.conf"
  slurmctld -D -i </dev/null >"$dir/slurmctld.out" 2>&1 &
  echo $! >"$dir/slurmctld.pid"
  slurmd -D -N localhost </dev/null >"$dir/slurmd.out" 2>&1 &
  echo $! >"$dir/slurmd.pid"
  local state=""
  for _ in $(seq 120); do
    state=$(sinfo -h -n localhost -o %T 2>/dev/null || true)
    [ "$state" = "idle" ] && break
    sleep 0.5
  done
  if [ "$state" != "idle" ]; then
    tail -20 "$dir/slurmctld.log" "$dir/slurmd.log" "$dir/slurmctld.out" "$dir/slurmd.out" >&2 2>/dev/null || true
    die "the node is '$state', not idle, after 60 s"
  fi
  echo "export SLURM_CONF=$dir/slurm.conf"
}

case "${1:-}" in
  start) [ -n "${2:-}" ] || die "usage: $0 start DIR"; start "$2" ;;
  stop) [ -n "${2:-}" ] || die "usage: $0 stop DIR"; stop "$2" ;;
  *) die "usage: $0 start|stop DIR" ;;
esac
