#!/bin/sh
# slurm_job_array.sh CLI MAKE_TRACE PARAM_DIR README
# The README's Slurm recipe, run as it is written against a real single-node cluster that this
# script starts here: Debian 12's munged, slurmctld and slurmd, as root, every file under one
# mktemp folder, a munge key and socket of their own, the daemons on free ports of 127.0.0.1, so
# the machine's own Slurm or munge (if any) is neither used nor disturbed. It runs in a network
# namespace of its own whose only interface is loopback (unshare, ip), so that the daemons, which
# listen on every interface, are reachable from this namespace's 127.0.0.1 only; where no such
# namespace can be made, it says so and runs in the machine's.
#
# The job is 16 ranks (make_job_ranks.sh: the 8 param ranks and 8 generated ones). The recipe's
# array runs one task per trace; each command it merges must then print, byte for byte, what the
# same command prints here over all 16 traces in the order of traces.txt (CHECKS below).
#
# Without root or without the packages it skips (status 77) saying why; where CI=true it fails
# instead, as CI installs the packages (.ci/install-deps) and runs as root. The daemons are
# stopped by their pid files and the folder is removed on every exit, failures included (after
# printing the daemons' logs).
set -eu
cli=$1
make_trace=$2
param=$3
readme=$4

# Each line: a command the recipe runs per trace, and the file its merge writes.
CHECKS='hotspots total.json
steps job_steps.json'

skip() {
    echo "cli.slurm_job_array skipped: $*"
    if [ "${CI:-}" = true ]; then
        echo "(CI=true: a failure, not a skip)"
        exit 1
    fi
    exit 77
}
PATH=$PATH:/usr/sbin:/sbin # the daemons' folders, in case a root shell's PATH lacks them
[ "$(id -u)" = 0 ] || skip "it runs munged, slurmctld and slurmd as root (this is uid $(id -u))"
for program in munged mungekey slurmctld slurmd sbatch scontrol sinfo squeue scancel; do
    command -v "$program" >/dev/null ||
        skip "no $program: install Debian 12's slurm-wlm and munge (.ci/install-deps does)"
done

# Again in a network namespace of its own, with its loopback up.
if [ -z "${STACKLINE_SLURM_NETNS:-}" ]; then
    if unshare --net true 2>/dev/null && command -v ip >/dev/null; then
        STACKLINE_SLURM_NETNS=1 exec unshare --net -- sh "$0" "$@"
    fi
    echo "note: no private network namespace (unshare --net, ip); the daemons listen on all" \
        "of this machine's interfaces, on free ports"
else
    ip link set lo up
    # Slurm asks getaddrinfo for IPv4 addresses with AI_ADDRCONFIG, which finds none where
    # loopback is the only interface; asking for either family finds 127.0.0.1.
    netns_parameters=CommunicationParameters=EnableIPv6
fi

# Seconds from $1 to $2 (default: now), both of date +%s.%N.
since() { awk -v a="$1" -v b="${2:-$(date +%s.%N)}" 'BEGIN { printf "%.1f", b - a }'; }
started=$(date +%s.%N)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/stackline-slurm.XXXXXX")
export SLURM_CONF="$scratch/slurm.conf"

# stop PIDFILE:NAME...: sends TERM to the daemon of each pid file, if it is still that daemon,
# and waits for them all to end; one still there after 10 s is killed.
stop() {
    pids=
    for daemon in "$@"; do
        file=${daemon%:*}
        [ -s "$file" ] || continue
        pid=$(cat "$file")
        [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "${daemon#*:}" ] || continue
        kill "$pid" 2>/dev/null && pids="$pids $pid"
    done
    tries=0
    for pid in $pids; do
        while [ -d "/proc/$pid" ] && [ $tries -lt 100 ]; do
            sleep 0.1
            tries=$((tries + 1))
        done
        if [ -d "/proc/$pid" ]; then
            echo "$(cat "/proc/$pid/comm") (pid $pid) did not stop on TERM: killed"
            kill -9 "$pid" 2>/dev/null || true
        fi
    done
}
cleanup() {
    status=$?
    trap - EXIT
    trap '' INT TERM HUP # a signal now would leave daemons behind: finish (bounded by timeouts)
    set +e               # and clean up whatever fails here
    if [ "$status" != 0 ]; then
        echo "--- failed (status $status); the cluster's state and logs:"
        if [ -s "$scratch/slurmctld.pid" ]; then
            timeout 10 squeue --all 2>&1 || true
            timeout 10 sinfo --Node --long 2>&1 || true
        fi
        for log in "$scratch"/log/*; do
            [ -f "$log" ] || continue
            echo "--- $log (last 40 lines)"
            tail -n 40 "$log"
        done
        shown=0 # the array tasks' output: the first 3 that are not empty
        for log in "$scratch"/work/slurm-*.out; do
            if [ -s "$log" ] && [ $shown -lt 3 ]; then
                echo "--- $log (last 20 lines)"
                tail -n 20 "$log"
                shown=$((shown + 1))
            fi
        done
    fi
    if [ -s "$scratch/slurmctld.pid" ]; then
        timeout 10 scancel --quiet --user=root 2>/dev/null || true
    fi
    stop "$scratch/slurmd.pid:slurmd" "$scratch/slurmctld.pid:slurmctld"
    stop "$scratch/munge/munged.pid:munged" # last: the Slurm daemons use it until they end
    rm -rf "$scratch"
    echo "cost: $(since "$started") s"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# A TCP port of 20000-59999 that nothing on this machine uses (listening or connected) and that
# is not among $1.
free_port() {
    while :; do
        port=$((20000 + $(od -An -N2 -tu2 /dev/urandom) % 40000))
        case " $1 " in *" $port "*) continue ;; esac
        hex=$(printf ':%04X$' "$port")
        awk -v hex="$hex" '$2 ~ hex { used = 1 } END { exit !used }' /proc/net/tcp \
            /proc/net/tcp6 2>/dev/null || break
    done
    echo "$port"
}
ctld_port=$(free_port "")
slurmd_port=$(free_port "$ctld_port")

# Waits up to $1 seconds for the command after it to succeed.
wait_for() {
    limit=$(($1 * 10))
    shift
    tries=0
    until "$@"; do
        tries=$((tries + 1))
        if [ $tries -ge $limit ]; then
            echo "gave up waiting for: $*"
            return 1
        fi
        sleep 0.1
    done
}

# The job's traces, where the recipe's /data/run42 is.
sh "$(dirname "$0")/make_job_ranks.sh" "$make_trace" "$param" "$scratch/run42"
made=$(date +%s.%N)

# munge: its own key, socket, pid, log and seed files. munged wants everyone to be able to reach
# its socket (execute permission on the folders); the key is readable by root only.
chmod 0711 "$scratch"
mkdir -m 0711 "$scratch/munge"
mkdir "$scratch/log"
mungekey --create --keyfile="$scratch/munge/munge.key"
munged --key-file="$scratch/munge/munge.key" --socket="$scratch/munge/munge.socket" \
    --pid-file="$scratch/munge/munged.pid" --log-file="$scratch/log/munged.log" \
    --seed-file="$scratch/munge/munged.seed" </dev/null
wait_for 10 test -s "$scratch/munge/munged.pid"
wait_for 10 test -S "$scratch/munge/munge.socket"

# Slurm: one node, this host, reached at 127.0.0.1. Without systemd's cgroups: process tracking
# by the process tree, no task confinement, no accounting. For speed: the node is declared with
# 32 CPUs (config_overrides: whatever this machine has) so that the 16 tasks of 2 CPUs each, a
# fraction of a second apiece, run at once as on 16 nodes; batch_sched_delay=0 schedules them as
# soon as they are submitted (by default up to 3 s later); MinJobAge=4 keeps sbatch --wait
# polling every 2 s (it backs off to 32 s when ended jobs are kept longer).
host=$(hostname -s)
mkdir -p "$scratch/state" "$scratch/spool" "$scratch/work"
cat >"$SLURM_CONF" <<EOF
ClusterName=stackline
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$scratch/munge/munge.socket
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$scratch/state
SlurmdSpoolDir=$scratch/spool
SlurmctldPidFile=$scratch/slurmctld.pid
SlurmdPidFile=$scratch/slurmd.pid
SlurmctldLogFile=$scratch/log/slurmctld.log
SlurmdLogFile=$scratch/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
ReturnToService=2
SchedulerParameters=batch_sched_delay=0
MinJobAge=4
MailProg=/bin/true
${netns_parameters:-}
NodeName=$host NodeAddr=127.0.0.1 CPUs=32 State=UNKNOWN
PartitionName=stackline Nodes=$host Default=YES MaxTime=10 State=UP
EOF
# Each daemon forks and writes its pid file: wait for it, so that cleanup can stop the daemon.
slurmctld </dev/null >>"$scratch/log/slurmctld.out" 2>&1
wait_for 10 test -s "$scratch/slurmctld.pid"
slurmd </dev/null >>"$scratch/log/slurmd.out" 2>&1
wait_for 10 test -s "$scratch/slurmd.pid"
node_idle() { [ "$(sinfo --noheader --nodes="$host" --format=%t 2>/dev/null)" = idle ]; }
wait_for 30 node_idle
ready=$(date +%s.%N)

# The recipe: the indented block after "With Slurm," in the README, with /data/run42 here.
awk '/With Slurm,/ { found = 1; next }
     found && /^    / { print substr($0, 5); inBlock = 1; next }
     found && inBlock && /^[^ ]/ { exit }' "$readme" |
    sed "s|/data/run42|$scratch/run42|g" >"$scratch/recipe.sh"
if ! grep -q sbatch "$scratch/recipe.sh" || ! grep -q 'stackline-cli merge' "$scratch/recipe.sh"
then
    echo "$readme: no Slurm recipe (sbatch, then stackline-cli merge) after \"With Slurm,\""
    exit 1
fi
PATH="$(cd "$(dirname "$cli")" && pwd):$PATH"
export PATH
cd "$scratch/work"
timeout 120 sh -eu "$scratch/recipe.sh"
ran=$(date +%s.%N)

# The array really ran one task per trace, on the cluster (Slurm wrote each task's output).
tasks=$(find . -maxdepth 1 -name 'slurm-*_*.out' | wc -l)
traces=$(wc -l <traces.txt)
if [ "$traces" != 16 ] || [ "$tasks" != "$traces" ]; then
    echo "$traces traces, $tasks array tasks: expected 16 of each"
    exit 1
fi
echo "$CHECKS" | while read -r command merged; do
    # shellcheck disable=SC2046 # one argument per line of traces.txt
    "$cli" "$command" $(cat traces.txt) --json >"local.$command.json"
    cmp "$merged" "local.$command.json" || {
        echo "$command: the merge of the array's results differs from $command over all traces"
        exit 1
    }
    echo "$command: the merge of $tasks array tasks' results equals $command over the $traces traces"
done
grep -q '"annotated_gpu_ns": [1-9]' total.json || {
    echo "no annotated GPU time in total.json: the comparison would be trivial"
    exit 1
}
grep -q '"straggler": {' job_steps.json || {
    echo "no step with a straggler in job_steps.json: the comparison would be trivial"
    exit 1
}
echo "traces made in $(since "$started" "$made") s, cluster up in $(since "$made" "$ready") s," \
    "recipe run in $(since "$ready" "$ran") s, checked in $(since "$ran") s"
