#!/bin/bash
# Runs deploy/slurm/match.sbatch for real on a one-node Slurm cluster on this machine
# (slurmctld and slurmd on localhost, munge for authentication, every file and port private
# to this run), then checks that `arena merge` of the array's shard files gives exactly the
# table of the same match played in one process, game for game; then runs tune.sbatch and
# train.sbatch as two workers of one job each and checks that they end with the values and
# the network of the same run in one process.
#
#   ARENA=target/release/arena deploy/slurm/test-local.sh
#
# Needs Debian's slurm-wlm and munge (`cargo xtask ci` installs them where it runs this), and
# root: slurmd starts each job as the user who submitted it. Environment: ARENA (default
# target/release/arena), SHARDS (default 4), KEEP=1 to keep the work directory.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
ARENA=$(realpath "${ARENA:-$root/target/release/arena}")
SHARDS=${SHARDS:-4}
for tool in munged slurmctld slurmd sbatch sinfo "$ARENA"; do
    command -v "$tool" >/dev/null || { echo "test-local: $tool not found" >&2; exit 2; }
done
if [ "$(id -u)" != 0 ]; then
    echo "test-local: run as root (slurmd must be able to start jobs as their user)" >&2
    exit 2
fi

work=$(mktemp -d /tmp/arena-slurm.XXXXXX)
chmod 755 "$work"
pids=()
cleanup() {
    status=$?
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
    if [ "$status" != 0 ]; then
        for f in "$work"/slurmctld.log "$work"/slurmd.log "$work"/munged.log "$work"/job/*.log; do
            [ -f "$f" ] && { echo "--- $f (last lines)"; tail -n 20 "$f"; }
        done
    fi
    if [ "${KEEP:-0}" = 1 ]; then echo "work directory kept: $work"; else rm -rf "$work"; fi
    exit "$status"
}
trap cleanup EXIT

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# munge: a fresh key and a private socket.
mkdir -m 700 "$work/munge"
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge/munge.key"
munged --foreground --force \
    --socket="$work/munge/munge.socket" \
    --key-file="$work/munge/munge.key" \
    --pid-file="$work/munge/munged.pid" \
    --seed-file="$work/munge/munged.seed" \
    --log-file="$work/munged.log" >>"$work/munged.log" 2>&1 &
pids+=($!)

# A one-node cluster on localhost.
node=$(hostname -s)
cpus=$(nproc)
memory=$(awk '/MemTotal/ { print int($2 / 1024 * 0.9) }' /proc/meminfo)
mkdir -p "$work/state" "$work/spool" "$work/job" "$work/results"
export SLURM_CONF="$work/slurm.conf"
cat >"$SLURM_CONF" <<CONF
ClusterName=arena-test
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
AuthType=auth/munge
AuthInfo=socket=$work/munge/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
for i in $(seq 50); do [ -S "$work/munge/munge.socket" ] && break; sleep 0.1; done
slurmctld -D -i >>"$work/slurmctld.log" 2>&1 &
pids+=($!)
slurmd -D -N "$node" >>"$work/slurmd.log" 2>&1 &
pids+=($!)
for i in $(seq 60); do
    state=$(sinfo -h -N -o %t 2>/dev/null || true)
    [ "$state" = idle ] && break
    sleep 1
done
echo "== sinfo"
sinfo -N -o '%N %t %c %P'
[ "$(sinfo -h -N -o %t)" = idle ] || { echo "test-local: the node did not come up" >&2; exit 1; }

# The match: a job array of $SHARDS shards (fixed-depth engines: deterministic games).
match=(jumpy3 --engine engine,depth=4 --engine engine,depth=3 --games 24 --opening 3 --seed 7)
echo "== sbatch --array=1-$SHARDS match.sbatch ${match[*]}"
started=$(date +%s)
sbatch --wait --array="1-$SHARDS" --chdir="$work/job" \
    --output="$work/job/task-%a.log" \
    --export="ALL,ARENA=$ARENA,MATCH_DIR=$work/results" \
    "$here/match.sbatch" "${match[@]}"
echo "== the array ran in $(( $(date +%s) - started )) s; task logs:"
for f in "$work"/job/task-*.log; do echo "--- $(basename "$f")"; cat "$f"; done
echo "== shard files"
wc -l "$work"/results/*.jsonl

# A task killed in the middle of a write: shard 2 keeps its header, two games and half a
# line; run again alone, it resumes its file.
shard2="$work/results/shard-2.jsonl"
head -n 3 "$shard2" >"$work/cut.jsonl"
sed -n 4p "$shard2" | head -c 100 >>"$work/cut.jsonl"
mv "$work/cut.jsonl" "$shard2"
echo "== shard 2 cut to $(($(wc -l <"$shard2") - 1)) games and half a line; SHARDS=$SHARDS sbatch --array=2 again"
SHARDS=$SHARDS sbatch --wait --array=2 --chdir="$work/job" \
    --output="$work/job/rerun-%a.log" \
    --export="ALL,ARENA=$ARENA,MATCH_DIR=$work/results,SHARDS=$SHARDS" \
    "$here/match.sbatch" "${match[@]}"
grep -E "shard|games there already|games in" "$work/job/rerun-2.log"

# The merged shards against the same match in one process.
table() { sed -n '/ games \(in\|(\)/,$p' | tail -n +2 | grep -v -e '^speed:' -e '^merged match written' || true; }
echo "== arena merge"
NO_COLOR=1 "$ARENA" merge "$work"/results/*.jsonl --out "$work/merged.jsonl" | tee "$work/merged.txt"
NO_COLOR=1 "$ARENA" match "${match[@]}" --quiet --out "$work/whole.jsonl" >"$work/whole.txt"
if ! diff <(table <"$work/merged.txt") <(table <"$work/whole.txt"); then
    echo "test-local: the merged table differs from the unsharded match's" >&2
    exit 1
fi
# Game for game, without the times (which depend on the machine).
python3 - "$work/merged.jsonl" "$work/whole.jsonl" <<'PY'
import json, sys
def games(path):
    out = {}
    for line in open(path):
        v = json.loads(line)
        if v["type"] == "game":
            for k in ("time_ms", "setup_ms", "wall_ms"):
                v.pop(k)
            out[v["game"]] = v
    return out
a, b = games(sys.argv[1]), games(sys.argv[2])
if a != b:
    sys.exit("test-local: the merged games differ from the unsharded match's")
print(f"== OK: the {len(a)} games of the merged shards are the unsharded match's, and so is the table")
PY

# Runs deploy/slurm/NAME.sbatch as two workers, the tasks of one job, with their files in
# $work/NAME (given to the script as DIR_VARIABLE), and prints the job's log.
#   two_workers NAME DIR_VARIABLE ARGUMENTS...
two_workers() {
    local name=$1 dir_variable=$2 started
    shift 2
    echo "== sbatch --ntasks=2 $name.sbatch $*"
    mkdir -p "$work/$name"
    started=$(date +%s)
    sbatch --wait --ntasks=2 --chdir="$work/job" \
        --output="$work/job/$name.log" \
        --export="ALL,ARENA=$ARENA,$dir_variable=$work/$name" \
        "$here/$name.sbatch" "$@"
    echo "== the job ran in $(( $(date +%s) - started )) s; its log:"
    cat "$work/job/$name.log"
}

# A tuning run (deploy/slurm/tune.sbatch) by two workers, the tasks of one job: both must
# end with the values of the same run played in one process, and their files together hold
# each of its games once.
tune=(throne --engine engine,depth=2 --param tempo,mobility,prisoner_move --iterations 16 --pairs 2 --seed 5)
two_workers tune TUNE_DIR "${tune[@]}"
wc -l "$work"/tune/*.jsonl
finals() { sed -n '/iterations done/,/^tuned:/p' | tail -n +2; }
NO_COLOR=1 "$ARENA" tune "${tune[@]}" --out "$work/tune-whole.jsonl" >"$work/tune-whole.txt"
for k in 1 2; do
    if ! diff <(finals <"$work/tune/worker-$k.log") <(finals <"$work/tune-whole.txt"); then
        echo "test-local: worker $k's values differ from the one-process run's" >&2
        exit 1
    fi
done
[ -s "$work/tune/tune.svg" ] || { echo "test-local: worker 1 drew no picture" >&2; exit 1; }
python3 - "$work/tune" "$work/tune-whole.jsonl" <<'PY'
import glob, json, sys
def games(paths):
    out = {}
    for path in paths:
        for line in open(path):
            v = json.loads(line)
            if v["type"] == "tune-game":
                for k in ("time_ms", "setup_ms", "wall_ms"):
                    v["game"].pop(k)
                key = (v["iter"], v["index"])
                if key in out:
                    sys.exit(f"test-local: tune game {key} in two workers' files")
                out[key] = v
    return out
a = games(sorted(glob.glob(sys.argv[1] + "/worker-*.jsonl")))
b = games([sys.argv[2]])
if a != b:
    sys.exit("test-local: the workers' games differ from the one-process run's")
print(f"== OK: the two workers played the {len(a)} games of the one-process run, and end with its values")
PY

# A training run (deploy/slurm/train.sbatch) by two workers, the tasks of one job: both must
# write the network of the same run trained in one process, byte for byte, and their games
# files together hold each of its games once.
train=(jumpy3 --engine engine,depth=2 --games 24 --hidden 8 --epochs 3 --seed 5)
two_workers train TRAIN_DIR "${train[@]}"
NO_COLOR=1 "$ARENA" train "${train[@]}" --out "$work/train-whole.safetensors" >"$work/train-whole.txt"
for k in 1 2; do
    if ! cmp -s "$work/train/worker-$k.safetensors" "$work/train-whole.safetensors"; then
        echo "test-local: worker $k's network differs from the one-process run's" >&2
        exit 1
    fi
done
python3 - "$work/train" "$work/train-whole.safetensors.games.jsonl" <<'PY'
import glob, json, sys
def games(paths):
    out = {}
    for path in paths:
        for line in open(path):
            v = json.loads(line)
            if v["type"] == "train-game":
                if v["index"] in out:
                    sys.exit(f"test-local: training game {v['index']} in two workers' files")
                out[v["index"]] = v
    return out
a = games(sorted(glob.glob(sys.argv[1] + "/worker-*.safetensors.games.jsonl")))
b = games([sys.argv[2]])
if a != b:
    sys.exit("test-local: the workers' games differ from the one-process run's")
print(f"== OK: the two workers played the {len(a)} games of the one-process run, and wrote its network")
PY
