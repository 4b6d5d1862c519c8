#!/usr/bin/env bash
# A single-node Slurm on this machine, for the opt-in test of conformance/cluster/ (tests/golden/
# golden_slurm.rs): Debian's slurm-wlm (slurmctld, slurmd, slurm-client) and munge, installed
# with apt-get when missing, configured for localhost with this machine's CPUs and memory, and
# started; stopped again by `stop`. Nothing outside its folder is configured: the daemons and
# the commands read $DIR/slurm.conf (SLURM_CONF), and only the daemons it started are stopped.
#
# Usage: scripts/slurm-local.sh start|stop|status
#   DIR: EUREF_SLURM_DIR (default /tmp/euref-slurm). After `start`, `. $DIR/env` sets
#   SLURM_CONF for sbatch, squeue, sinfo and scontrol.
# Needs root (apt-get, the daemons); Debian or Ubuntu.
set -euo pipefail

DIR=${EUREF_SLURM_DIR:-/tmp/euref-slurm}
CONF=$DIR/slurm.conf

say() { echo "slurm-local: $*" >&2; }

install_missing() {
  local missing=()
  command -v slurmctld >/dev/null 2>&1 || missing+=(slurmctld)
  command -v slurmd >/dev/null 2>&1 || missing+=(slurmd)
  command -v sbatch >/dev/null 2>&1 || missing+=(slurm-client)
  command -v munged >/dev/null 2>&1 || missing+=(munge)
  [ ${#missing[@]} -eq 0 ] && return 0
  command -v apt-get >/dev/null 2>&1 || { say "missing ${missing[*]} and no apt-get"; exit 1; }
  say "installing ${missing[*]} (apt-get)"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
}

# munged: started here (and stopped by `stop`) unless one already answers.
start_munge() {
  if munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; then
    say "munged already running"
    return 0
  fi
  if [ ! -s /etc/munge/munge.key ]; then
    mungekey --create --keyfile=/etc/munge/munge.key
  fi
  chown munge:munge /etc/munge/munge.key 2>/dev/null || true
  chmod 0400 /etc/munge/munge.key
  mkdir -p /run/munge /var/log/munge /var/lib/munge
  chown munge:munge /run/munge /var/log/munge /var/lib/munge 2>/dev/null || true
  # (As its own user, as the Debian service runs it; --force: it starts where an earlier
  # munged left its socket behind.)
  runuser -u munge -- munged --force
  for _ in $(seq 50); do
    [ -s /run/munge/munged.pid ] && break
    sleep 0.1
  done
  cat /run/munge/munged.pid >"$DIR/munged.pid"
  munge -n </dev/null | unmunge >/dev/null
}

write_conf() {
  local host cpus mem
  host=$(hostname -s)
  cpus=$(nproc)
  # (MB of memory, less a margin, so that slurmd's own count is not below it.)
  mem=$(awk '/^MemTotal:/ { print int($2 / 1024 * 0.9) }' /proc/meminfo)
  mkdir -p "$DIR/state" "$DIR/spool" "$DIR/log"
  cat >"$CONF" <<CONF
# Written by scripts/slurm-local.sh: a single-node cluster on localhost.
ClusterName=euref-local
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/log/slurmctld.log
SlurmdLogFile=$DIR/log/slurmd.log
SlurmctldPort=6817
SlurmdPort=6818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
  echo "export SLURM_CONF=$CONF" >"$DIR/env"
}

start() {
  mkdir -p "$DIR"
  install_missing
  start_munge
  write_conf
  export SLURM_CONF=$CONF
  # -c: a fresh controller state (no jobs of an earlier run); -i: ignore a stale state.
  slurmctld -f "$CONF" -c -i
  slurmd -f "$CONF"
  local host state=""
  host=$(hostname -s)
  for _ in $(seq 120); do
    state=$(sinfo -h -n "$host" -o %T 2>/dev/null || true)
    case $state in
      idle*|mixed*|allocated*) say "node $host is $state (SLURM_CONF=$CONF)"; return 0 ;;
      down*|drain*) scontrol update nodename="$host" state=resume 2>/dev/null || true ;;
    esac
    sleep 0.5
  done
  say "node $host not up after 60 s (state: ${state:-none}); logs in $DIR/log"
  exit 1
}

stop_pid() {
  local f=$1 pid
  [ -s "$f" ] || return 0
  pid=$(cat "$f")
  if kill "$pid" 2>/dev/null; then
    for _ in $(seq 100); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
  fi
  rm -f "$f"
}

stop() {
  stop_pid "$DIR/slurmd.pid"
  stop_pid "$DIR/slurmctld.pid"
  stop_pid "$DIR/munged.pid"
  say "stopped"
}

status() {
  export SLURM_CONF=$CONF
  sinfo
  squeue
}

case ${1:-} in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
