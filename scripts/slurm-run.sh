#!/usr/bin/env bash
# A real Slurm run of a sharded self-play study on this one machine (docs/selfplay.md, "Beyond
# one machine"): installs Debian's slurm-wlm and munge when missing, starts munged, slurmctld
# and slurmd as plain daemons (no systemd needed) with a one-node configuration made from this
# machine (its host name, CPUs and memory as `slurmd -C` reads them), submits the job array of
# scripts/slurm/selfplay.sbatch over SHARDS shards, waits for it, merges the shards with
# `boardlab report`, plays the same study in one process, and checks that the two reports are
# equal but for their speed line and that the games recorded are the same.
#
# Usage (as root, on Debian): scripts/slurm-run.sh [VARIANT [SELFPLAY OPTIONS…]]
#   the study, as `boardlab selfplay` takes it (default: connect-four --games 400 --seed 7),
#   without --threads, --shard or --jsonl, which the job array gives each shard.
# Environment: SHARDS (8), SCRATCH (/tmp/boardlab-slurm), TIMEOUT (seconds to wait for the
# array, 600), SLURMCTLD_PORT (6817), SLURMD_PORT (6818), BOARDLAB (the binary; default:
# $CARGO_TARGET_DIR/release/boardlab, built when missing).
#
# Everything it writes is under SCRATCH (configuration, munge key, state, logs, results) but
# the packages themselves; SCRATCH is emptied at the start of each run, so it can be run again.
# The daemons it started are stopped on exit, whatever the outcome.
set -euo pipefail

die() { echo "slurm-run: error: $*" >&2; exit 1; }
say() { echo "slurm-run: $*"; }
# A signal ends the script through `exit`, so the EXIT trap (clean-up) always runs.
trap 'exit 130' INT
trap 'exit 143' TERM

repo=$(cd "$(dirname "$0")/.." && pwd)
scratch=${SCRATCH:-/tmp/boardlab-slurm}
if (($#)); then args=("$@"); else args=(connect-four --games 400 --seed 7); fi
for a in "${args[@]}"; do
  case $a in --threads* | --shard* | --jsonl* | --resume-from*)
    die "give the study without $a: the job array gives each shard its own" ;;
  esac
done
shards=${SHARDS:-8}
timeout=${TIMEOUT:-600}
ctld_port=${SLURMCTLD_PORT:-6817}
d_port=${SLURMD_PORT:-6818}
for n in "$shards" "$timeout" "$ctld_port" "$d_port"; do
  [[ $n =~ ^[0-9]+$ ]] || die "SHARDS, TIMEOUT and the ports must be whole numbers (got '$n')"
done
((shards >= 1)) || die "SHARDS must be at least 1"
[ "$(id -u)" -eq 0 ] || die "run as root: it installs packages and starts slurmd, which needs root"
command -v apt-get >/dev/null || die "this script installs Slurm with apt-get (Debian); not found"

# --- the scratch directory: ours (marked) or new; emptied at each run -------------------------
marker=.boardlab-slurm-scratch
case $scratch in /* ) ;; *) scratch=$PWD/$scratch ;; esac
if [ -e "$scratch" ] && [ ! -e "$scratch/$marker" ]; then
  if [ -d "$scratch" ] && [ -z "$(ls -A "$scratch")" ]; then :; else
    die "$scratch exists and was not made by this script (no $marker): give another SCRATCH"
  fi
fi

# --- packages ------------------------------------------------------------------------------------
installed() { [ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" = installed ]; }
policy=/usr/sbin/policy-rc.d
policy_ours=""
cleanup_policy() { if [ -n "$policy_ours" ]; then rm -f "$policy"; policy_ours=""; fi; }
missing=()
for p in slurm-wlm slurmctld slurmd slurm-client munge; do installed "$p" || missing+=("$p"); done
if ((${#missing[@]})); then
  say "installing ${missing[*]} (apt-get)"
  # The packages would start their services on a machine with an init system; this run starts
  # its own daemons with its own configuration, so a policy-rc.d refuses those starts for the
  # time of the install (unless one is already there), and goes away with it.
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod 755 "$policy" && policy_ours=1
    trap cleanup_policy EXIT
  fi
  log=$(mktemp)
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends slurm-wlm munge; } >"$log" 2>&1; then
    tail -n 20 "$log" >&2; rm -f "$log"
    die "apt-get could not install slurm-wlm and munge (its last lines above)"
  fi
  rm -f "$log"
  cleanup_policy
  trap - EXIT
fi
for b in munged mungekey slurmctld slurmd sbatch squeue scontrol sinfo scancel; do
  command -v "$b" >/dev/null || die "$b not found after installing slurm-wlm and munge"
done
say "$(slurmctld -V), $(munged --version 2>&1 | awk '{print $1; exit}')"

# --- the boardlab binary ---------------------------------------------------------------------------
bin=${BOARDLAB:-${CARGO_TARGET_DIR:-$repo/target}/release/boardlab}
if [ ! -x "$bin" ]; then
  say "building $bin (cargo build --release)"
  (cd "$repo" && cargo build --release --quiet) || die "cargo build --release failed"
fi
[ -x "$bin" ] || die "no boardlab binary at $bin (set BOARDLAB)"
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")

# Nothing of ours may be listening on the ports we need: another Slurm would answer instead.
port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for p in "$ctld_port" "$d_port"; do
  if port_busy "$p"; then
    left=$(cat "$scratch"/run/*.pid 2>/dev/null | tr '\n' ' ' || true)
    die "port $p is in use: another Slurm${left:+, or the daemons of a run that was killed (pids $left)}; stop it or set SLURMCTLD_PORT / SLURMD_PORT"
  fi
done

rm -rf "$scratch"
mkdir -p "$scratch"/{etc,munge,state/ctld,state/d,log,run,study/results}
chmod 755 "$scratch"   # munged wants its socket reachable by every user
touch "$scratch/$marker"
# The batch script runs `boardlab` from PATH: a binary under another name is linked as that.
if [ "$(basename "$bin")" != boardlab ]; then
  mkdir -p "$scratch/bin" && ln -sf "$bin" "$scratch/bin/boardlab" && bin=$scratch/bin/boardlab
fi

# --- stop what we started, on any exit --------------------------------------------------------------
pids=()   # pid files of the daemons this run started, in the order they started
stop_daemons() {
  local i pidfile pid t
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    pidfile=${pids[i]}
    [ -s "$pidfile" ] || continue
    pid=$(cat "$pidfile")
    kill -0 "$pid" 2>/dev/null || continue
    kill "$pid" 2>/dev/null || true
    for ((t = 0; t < 100; t++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then kill -9 "$pid" 2>/dev/null || true; fi
  done
}
on_exit() {
  local rc=$?
  trap - EXIT
  [ -n "${job:-}" ] && [ "$rc" -ne 0 ] && scancel "$job" 2>/dev/null
  stop_daemons
  if [ "$rc" -eq 130 ] || [ "$rc" -eq 143 ]; then
    echo "slurm-run: interrupted; the daemons it started are stopped" >&2
  elif [ "$rc" -ne 0 ]; then
    echo "slurm-run: failed (status $rc); logs are in $scratch/log" >&2
  else
    say "daemons stopped"
  fi
  exit "$rc"
}
trap on_exit EXIT

wait_for() { # SECONDS DESCRIPTION COMMAND…: poll COMMAND every half second
  local limit=$1 what=$2 t
  shift 2
  for ((t = 0; t < limit * 2; t++)); do "$@" && return 0; sleep 0.5; done
  die "timed out after ${limit}s waiting for $what"
}

# --- munge: a key of our own and a daemon on a socket in the scratch directory ----------------
key=$scratch/munge/munge.key
mungekey --create --keyfile="$key" >/dev/null 2>&1 || dd if=/dev/urandom of="$key" bs=1024 count=1 status=none
chmod 400 "$key"
sock=$scratch/munge/munge.socket
munged --force --key-file="$key" --socket="$sock" --pid-file="$scratch/run/munged.pid" \
  --log-file="$scratch/log/munged.log" --seed-file="$scratch/munge/munged.seed" \
  || die "munged did not start (see $scratch/log/munged.log)"
pids+=("$scratch/run/munged.pid")
wait_for 10 "munged's socket" test -S "$sock"
echo ok | munge --socket="$sock" | unmunge --socket="$sock" >/dev/null \
  || die "munge cannot encode and decode a credential on $sock"

# --- slurm.conf: one node, this machine ------------------------------------------------------
node=$(slurmd -C | head -n 1)
[[ $node == NodeName=* ]] || die "slurmd -C did not describe this machine: $node"
host=${node%% *}
host=${host#NodeName=}
conf=$scratch/etc/slurm.conf
cat >"$conf" <<EOF
# Written by boardlab's scripts/slurm-run.sh: a one-node cluster on $host.
ClusterName=boardlab
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
StateSaveLocation=$scratch/state/ctld
SlurmdSpoolDir=$scratch/state/d
SlurmctldPidFile=$scratch/run/slurmctld.pid
SlurmdPidFile=$scratch/run/slurmd.pid
SlurmctldLogFile=$scratch/log/slurmctld.log
SlurmdLogFile=$scratch/log/slurmd.log
# No cgroups and no accounting database: a container may have neither.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$scratch/log/jobcomp.txt
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
# No mail is sent; without this slurmctld logs "Configured MailProg is invalid" (no mailutils).
MailProg=/bin/true
ReturnToService=2
# Finished jobs stay visible to scontrol for ten minutes (no sacct without slurmdbd).
MinJobAge=600
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=main Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$conf
say "node: $node"

slurmctld -f "$conf" || die "slurmctld did not start (see $scratch/log/slurmctld.log)"
pids+=("$scratch/run/slurmctld.pid")
ctld_up() { scontrol ping 2>/dev/null | grep -q UP; }
wait_for 30 "slurmctld to answer (scontrol ping)" ctld_up
slurmd -f "$conf" || die "slurmd did not start (see $scratch/log/slurmd.log)"
pids+=("$scratch/run/slurmd.pid")
node_idle() { [ "$(sinfo -h -n "$host" -o %T)" = idle ]; }
wait_for 60 "node $host to be idle ($(sinfo -h -n "$host" -o %T 2>/dev/null))" node_idle
say "cluster up: $(sinfo -h -o '%P %a %D %T %c CPUs %m MB')"

# --- the job array ----------------------------------------------------------------------------------
study=$scratch/study
cd "$study"
job=$(sbatch --parsable --array="0-$((shards - 1))" --chdir="$study" \
  --export="ALL,PATH=$(dirname "$bin"):$PATH" "$repo/scripts/slurm/selfplay.sbatch" "${args[@]}") \
  || die "sbatch refused the job array"
job=${job%%;*}
say "submitted job array $job: $shards shards of 'selfplay ${args[*]}'"
start=$SECONDS
while [ -n "$(squeue -h -j "$job" -o %i 2>/dev/null)" ]; do
  ((SECONDS - start < timeout)) || die "job array $job still running after ${timeout}s (cancelled)"
  sleep 1
done
say "job array $job left the queue after $((SECONDS - start))s"
scontrol -o show job "$job" >"$scratch/log/job.txt" || die "scontrol has no record of job $job"
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<" $2"; }
printf '%-12s %-10s %-9s %-9s %s\n' JOBID STATE EXITCODE ELAPSED NODE
failed=0
while read -r line; do
  state=$(field JobState "$line"); code=$(field ExitCode "$line")
  printf '%-12s %-10s %-9s %-9s %s\n' "${job}_$(field ArrayTaskId "$line")" "$state" "$code" \
    "$(field RunTime "$line")" "$(field NodeList "$line")"
  if [ "$state" != COMPLETED ] || [ "$code" != 0:0 ]; then failed=$((failed + 1)); fi
done < <(grep "ArrayJobId=$job " "$scratch/log/job.txt" | sed 's/.* ArrayTaskId=\([0-9]*\) .*/\1 &/' | sort -n)
tasks=$(grep -c "ArrayJobId=$job " "$scratch/log/job.txt" || true)
[ "$tasks" -eq "$shards" ] || die "scontrol shows $tasks tasks of job $job, not $shards"
if ((failed)); then
  for f in results/slurm-"${job}"_*.out; do
    [ -s "$f" ] && { echo "----- $study/$f" >&2; tail -n 5 "$f" >&2; break; }
  done
  die "$failed of $shards tasks did not complete (their output: $study/results/slurm-${job}_*.out)"
fi

files=()
for ((i = 0; i < shards; i++)); do
  f=results/shard-$i.jsonl
  [ -s "$f" ] || die "shard $i wrote no games ($study/$f)"
  files+=("$f")
done
say "shards: $(wc -l "${files[@]}" | tail -n 1 | awk '{print $1}') games in ${#files[@]} files"

# --- merge, play in one process, compare ------------------------------------------------------------
"$bin" report "${files[@]}" >merged.txt 2>merged.err || { cat merged.err >&2; die "boardlab report failed"; }
"$bin" selfplay "${args[@]}" --threads 1 --jsonl one.jsonl >one.txt 2>one.err \
  || { cat one.err >&2; die "the one-process run failed"; }
# The speed line is the only one that depends on the run (docs/selfplay.md, "Deterministic and
# parallel"; with --compare, one per rule set); a merged report has none to give.
grep -Ev '^(A |B )?speed: ' merged.txt >merged.cmp
grep -Ev '^(A |B )?speed: ' one.txt >one.cmp
if ! diff -u one.cmp merged.cmp >report.diff; then
  cat report.diff >&2
  die "the merged report differs from the one-process report (above; $study)"
fi
# The games themselves: the shards' records are the single run's but for the shard they name.
sed 's/,"shard":"[0-9]*\/[0-9]*"//' "${files[@]}" | sort >merged.games
sort one.jsonl >one.games
cmp -s one.games merged.games || die "the shards' games differ from the one-process run's ($study)"
say "merged report of $shards shards == one-process report (all $(wc -l <one.cmp) lines but speed); games identical"
echo "----- merged report ($study/merged.txt)"
cat merged.txt
echo "----- one-process speed line"
grep -E '^(A |B )?speed: ' one.txt || true
