#!/usr/bin/env bash
# bench_memory.sh BUILD_DIR [--dir DIR] [--sizes 1000,4400] [--shape kineto|deep] [--runs 2]
#                 [--step 25] [--no-viewer] [--no-search] [--keep]
# "Traces bigger than memory": stackline-cli annotate and the viewer on generated traces of each
# size (MiB, of make_trace's --shape; `.json` and its `gzip -1` `.json.gz`). Per case, one
# uncapped run gives the wall time, peak RSS and peak anonymous memory (tests/bench/peak_anon.py),
# also in bytes per event; then --runs runs inside a memory cgroup of the target (≤ 1500 MiB:
# CLI 400 MB, viewer 600 MB; bigger: 1536 MB and 2560 MB) and, unless --no-search, the smallest limit that
# still passes, to within --step MB. The cgroup is the honest measure: under its limit the page
# cache of file-backed mappings can be reclaimed, anonymous memory cannot (and swap is capped
# too). For the viewer, bench_viewer's interactions (and an export) also run inside the cgroup of
# its target, on both inputs.
# Prints a markdown table and one verdict per target; exits 0 only if every target is met.
# Needs root for the cgroups (v2 with the memory controller, else v1): without them the capped
# runs are skipped and the targets are not met. Traces go to --dir, and are reused from there on
# the next run; by default a new folder under /var/tmp, removed at the end unless --keep.
set -euo pipefail

usage() {
    echo "usage: $0 BUILD_DIR [--dir DIR] [--sizes 1000,4400] [--shape kineto|deep] [--runs 2]" \
        "[--step 25] [--no-viewer] [--no-search] [--keep]" >&2
    exit 2
}
die() {
    echo "bench_memory.sh: $*" >&2
    exit 2
}
progress() { echo "bench_memory.sh: $*" >&2; }

[[ $# -ge 1 && $1 != -* ]] || usage
build=$1
shift
dir='' sizes=1000,4400 shape=kineto runs=2 step=25 viewer=1 search=1 keep=0
while (($#)); do
    case $1 in
    --dir | --sizes | --shape | --runs | --step)
        (($# >= 2)) || usage
        case $1 in
        --dir) dir=$2 ;;
        --sizes) sizes=$2 ;;
        --shape) shape=$2 ;;
        --runs) runs=$2 ;;
        --step) step=$2 ;;
        esac
        shift
        ;;
    --no-viewer) viewer=0 ;;
    --no-search) search=0 ;;
    --keep) keep=1 ;;
    *) usage ;;
    esac
    shift
done
[[ $sizes =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ && $shape =~ ^(kineto|deep)$ ]] || usage
[[ $runs =~ ^[1-9][0-9]*$ && $step =~ ^[1-9][0-9]*$ ]] || usage
IFS=, read -ra size_list <<<"$sizes"

peak_anon=$(dirname "$0")/peak_anon.py
make_trace=$build/tests/bench/make_trace
cli=$build/app/stackline-cli/stackline-cli
viewer_bin=$build/app/stackline/stackline
bench_viewer=$build/tests/bench/bench_viewer
needed=("$make_trace" "$cli")
((!viewer)) || needed+=("$viewer_bin" "$bench_viewer")
for bin in "${needed[@]}"; do [[ -x $bin ]] || die "no $bin (build it first)"; done

made_dir=0
if [[ -z $dir ]]; then
    # Not /tmp: it may be tmpfs.
    dir=$(mktemp -d /var/tmp/stackline-bench-memory.XXXXXX)
    made_dir=1
fi
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
# Files on tmpfs sit in memory that no limit can reclaim (nor drop_caches drop): no fair measure.
[[ $(stat -f -c %T "$dir") != tmpfs ]] || die "$dir is on tmpfs: give a --dir on a disk"
scratch=$(mktemp -d) # time figures, the last run's output, the viewer's runtime dir
log=$scratch/log
mkdir -m 700 "$scratch/xdg"
export QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR=$scratch/xdg

cgroup='' # the cgroup of the run under way, removed on exit
cap_seconds=60
remove_outputs() { rm -f "$dir/out.json" "$dir/out.json.gz"; }
cleanup() {
    if [[ -n $cgroup ]]; then
        # What an interrupted run left running, before its cgroup and outputs can go.
        xargs -r kill -KILL <"$cgroup/cgroup.procs" 2>/dev/null || true
        remove_cgroup
    fi
    rm -rf "$scratch"
    remove_outputs
    if ((made_dir && !keep)); then
        rm -rf "$dir"
    elif ((made_dir)); then
        progress "kept $dir"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT # so that the EXIT trap runs
trap 'exit 143' TERM

# ---- Cgroups ----

# Sets cg_version and cg_parent (where each run's cgroup is made), else cg_reason.
detect_cgroups() {
    local mnt own v2
    ((EUID == 0)) || {
        cg_reason='not root'
        return 1
    }
    mnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
    if [[ -n $mnt ]] && grep -qw memory "$mnt/cgroup.controllers"; then
        cg_version=2
        # "No internal processes": our own cgroup holds processes, so it cannot hand the memory
        # controller down. The runs' cgroups are leaves under the nearest ancestor that does
        # (within the limits the caller has); at the top, the root may be asked to.
        own=$(sed -n 's/^0:://p' /proc/self/cgroup)
        cg_parent=$mnt${own%/}
        until grep -qsw memory "$cg_parent/cgroup.subtree_control"; do
            if [[ $cg_parent != "$mnt" ]]; then
                cg_parent=${cg_parent%/*}
            elif ! echo +memory >"$mnt/cgroup.subtree_control"; then
                cg_reason="cannot enable memory in $mnt/cgroup.subtree_control"
                return 1
            fi
        done
    else
        # Hybrid systems mount cgroup2 with no controllers beside the v1 hierarchies.
        v2=${mnt:+cgroup v2 at $mnt has no memory controller and }
        mnt=$(awk '$3 == "cgroup" && $4 ~ /(^|,)memory(,|$)/ { print $2; exit }' /proc/mounts)
        [[ -n $mnt ]] || {
            cg_reason="${v2}no cgroup v1 memory hierarchy is mounted"
            return 1
        }
        cg_version=1
        # Below our own memory cgroup (v1 allows processes beside children), so that its limits
        # still apply; its root when our path is not visible (a container's mount).
        own=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ { print $3 }' /proc/self/cgroup)
        cg_parent=$mnt${own%/}
        [[ -d $cg_parent ]] || cg_parent=$mnt
    fi
    make_cgroup 100 || {
        [[ -z $cgroup ]] || remove_cgroup
        cg_reason="cannot set up a cgroup under $cg_parent"
        return 1
    }
    remove_cgroup
}

# A new cgroup of $1 MB with no swap, in $cgroup. Checks each step itself: callers test it, which
# turns set -e off.
cg_count=0
make_cgroup() {
    local path=$cg_parent/stackline-bench-$$-$((++cg_count)) bytes=$(($1 << 20))
    mkdir "$path" || return 1
    cgroup=$path
    if ((cg_version == 2)); then
        echo "$bytes" >"$cgroup/memory.max" || return 1
        [[ ! -e $cgroup/memory.swap.max ]] || echo 0 >"$cgroup/memory.swap.max" || return 1
    else
        echo "$bytes" >"$cgroup/memory.limit_in_bytes" || return 1
        # memsw is memory + swap, so the same limit allows no swap; the file is there only with
        # swap accounting. Written second: it may never be below limit_in_bytes.
        [[ ! -e $cgroup/memory.memsw.limit_in_bytes ]] ||
            echo "$bytes" >"$cgroup/memory.memsw.limit_in_bytes" || return 1
    fi
}

# rmdir fails for a moment while a killed run's memory is still being uncharged. "return 0":
# a bare return in the EXIT trap would return the status of the exit, and set -e end the trap.
remove_cgroup() {
    local i
    for ((i = 0; i < 50; i++)); do
        if rmdir "$cgroup" 2>/dev/null; then
            cgroup=''
            return 0
        fi
        sleep 0.1
    done
    echo "warning: cannot remove the cgroup $cgroup" >&2
    cgroup=''
}

oom_kills() {
    local events=$cgroup/memory.oom_control
    ((cg_version == 1)) || events=$cgroup/memory.events
    awk '$1 == "oom_kill" { n = $2 } END { print n + 0 }' "$events"
}

# Pages cached by an earlier run stay charged to whoever read them first and would flatter the
# run in the cgroup: each capped run starts from a cold cache.
drop_caches() {
    sync
    { echo 1 >/proc/sys/vm/drop_caches; } 2>/dev/null || true
}

# Why a run failed, from its status and the cgroup's OOM kills.
failure() {
    if (($2 > 0)); then
        echo 'killed (OOM)'
    elif (($1 == 124)); then
        echo "timed out after $cap_seconds s"
    elif (($1 > 128)); then
        echo "killed (signal $(($1 - 128)))"
    else
        echo "exit $1"
    fi
}

# Runs the command in a new cgroup of $1 MB, its output in $log; on failure sets $why and shows
# the output's end unless the OOM killer ended it. A run that thrashes (re-reading its file pages
# from disk) at a limit just above what it needs can take minutes: after $cap_seconds (3x the
# uncapped run, plus 30 s for a cold page cache) it fails.
run_capped() {
    local limit=$1 status=0
    shift
    drop_caches
    make_cgroup "$limit" || die "cannot make a cgroup of $limit MB under $cg_parent"
    # The outer 2>/dev/null: bash's own "Killed" notice for each OOM kill.
    { sh -c 'echo $$ >"$0/cgroup.procs" && exec timeout "$@"' "$cgroup" "$cap_seconds" "$@" \
        >"$log" 2>&1; } 2>/dev/null || status=$?
    why=$(failure "$status" "$(oom_kills)")
    remove_cgroup
    ((status)) || return 0
    [[ $why == 'killed (OOM)' ]] || tail -n 3 "$log" | sed "s/^/    in $limit MB: /" >&2
    return "$status"
}

# The smallest limit that passes (one run each), to within --step MB, between 100 MB and 4× the
# target $1, by bisection; $2 says whether the target passed. Sets $smallest.
search_limit() {
    local target=$1 passed=$2 lo hi mid
    shift 2
    if ((passed)); then
        hi=$target
        if run_capped 100 "$@"; then
            smallest='even 100 MB yes'
            return
        fi
        lo=100
    else
        lo=$target hi=$((4 * target))
        if ! run_capped "$hi" "$@"; then
            smallest="not even $hi MB ($why)"
            return
        fi
    fi
    while ((hi - lo > step)); do
        # On multiples of the step, for round figures.
        mid=$(((lo + hi) / 2 / step * step))
        ((mid > lo)) || mid=$((lo + step))
        if run_capped "$mid" "$@"; then hi=$mid; else lo=$mid; fi
    done
    smallest="smallest $hi MB yes, $lo MB no"
}

# ---- The cases ----

# One table row for the input `$1` and the tool $2: the command uncapped, then in cgroups of
# $target MB. Clears $met when the target is missed.
bench_case() {
    local input=$1 tool=$2 status=0 wall kb passes=0 i capped first_why=''
    shift 2
    progress "$label $input, $tool: uncapped"
    /usr/bin/python3 "$peak_anon" "$scratch/anon" /usr/bin/time -f '%e %M' -o "$scratch/time" \
        "$@" >"$log" 2>&1 || status=$?
    remove_outputs
    read -r wall kb < <(tail -n 1 "$scratch/time")
    cap_seconds=$(awk -v s="$wall" 'BEGIN { printf "%d", s * 3 + 30 }')
    wall=$(awk -v s="$wall" 'BEGIN { printf "%.1f s", s }') # awk: a point whatever the locale
    if ((status)); then
        # A tool that fails with all the memory it wants has no figure worth capping.
        tail -n 3 "$log" | sed 's/^/    /' >&2
        wall+=" (failed: $(failure "$status" 0))"
        capped='not run: the uncapped run failed'
        met=0
    elif [[ -z $cg_version ]]; then
        capped='SKIPPED (no cgroup)'
    else
        for ((i = 1; i <= runs; i++)); do
            progress "$label $input, $tool: in $target MB (run $i/$runs)"
            if run_capped "$target" "$@"; then
                passes=$((passes + 1))
            elif [[ -z $first_why ]]; then
                first_why=$why
            fi
            remove_outputs
        done
        if ((passes == runs)); then
            capped="$target MB yes ($passes/$runs)"
        else
            capped="$target MB no ($passes/$runs; $first_why)"
            met=0
        fi
        if ((search)); then
            progress "$label $input, $tool: the smallest limit"
            search_limit "$target" "$((passes == runs))" "$@"
            remove_outputs
            capped+=", $smallest"
        fi
    fi
    # shellcheck disable=SC2016 # markdown's backquotes
    printf '| %s `%s` | `%s` | %s | %s | %s | %s |\n' "$label" "$input" "$tool" "$wall" \
        "$(awk -v kb="$kb" -v bytes="$bytes" \
            'BEGIN { printf "%.2f× (%.0f MB)", kb * 1024 / bytes, kb / 1024 }')" \
        "$(awk -v anon="$(cat "$scratch/anon")" -v events="$events" \
            'BEGIN { printf "%.0f MiB (%.1f B/event)", anon / 2^20, anon / events }')" "$capped"
}

# The verdict on $target for the tool $1, on both inputs (and the viewer's interactions).
verdict() {
    local what
    if [[ -z $cg_version ]]; then
        what='SKIPPED (not met)'
    elif ((met)); then
        what=met
    else
        what='NOT MET'
        all_met=0
    fi
    # shellcheck disable=SC2016 # markdown's backquotes
    printf -- '- %s, `%s` target: ≤ %s MB: %s\n' "$label" "$1" "$target" "$what" \
        >>"$scratch/verdicts"
}

cg_version='' cg_reason=''
detect_cgroups || true
if [[ -z $cg_version ]]; then
    echo "cannot create a memory cgroup ($cg_reason): capped runs SKIPPED, targets NOT MET"
    echo
elif [[ ! -w /proc/sys/vm/drop_caches ]]; then
    echo "cannot drop the page cache (/proc/sys/vm/drop_caches is not writable): capped runs" \
        "may be flattered by pages that earlier runs cached"
    echo
fi

all_met=1
[[ -n $cg_version ]] || all_met=0
: >"$scratch/verdicts"
: >"$scratch/interactions"
echo "make_trace --shape $shape"
echo
echo '| input | tool | wall | peak RSS | peak anonymous | runs inside a memory cgroup of |'
echo '|---|---|---|---|---|---|'
for size in "${size_list[@]}"; do
    # Generated once per --dir: a list of the paths, written last, says the files are complete;
    # make_trace counts the events ("N bytes, N events, ..." on its standard error).
    sub=$dir/$size-mib-$shape
    if [[ ! -s $sub/paths ]]; then
        progress "generating $size MiB of the $shape shape in $sub"
        rm -rf "$sub"
        mkdir "$sub"
        "$make_trace" "$sub" "$size" --shape "$shape" >"$sub/paths.new" 2>"$sub/made"
        gzip -1 -k "$(head -n 1 "$sub/paths.new")"
        sed -n 's/^[0-9]* bytes, \([0-9]*\) events,.*/\1/p' "$sub/made" >"$sub/events"
        mv "$sub/paths.new" "$sub/paths"
    fi
    { read -r json && read -r kinfo; } <"$sub/paths"
    events=$(cat "$sub/events")
    bytes=$(stat -c %s "$json")
    label=$(awk -v b="$bytes" \
        'BEGIN { if (b >= 1000 * 2^20) printf "%.1f GB", b / 2^30; else printf "%.0f MB", b / 2^20 }')

    target=$((size <= 1500 ? 400 : 1536))
    met=1
    for gz in '' .gz; do
        bench_case ".json$gz" 'stackline-cli annotate' \
            "$cli" annotate "$json$gz" --kernel-info "$kinfo" -o "$dir/out.json$gz" --timings
    done
    verdict 'stackline-cli annotate'

    ((viewer)) || continue
    target=$((size <= 1500 ? 600 : 2560))
    met=1
    for gz in '' .gz; do
        bench_case ".json$gz" stackline "$viewer_bin" "$json$gz" --kernel-info "$kinfo" --timings
    done
    for gz in '' .gz; do
        [[ -n $cg_version ]] || break
        progress "$label .json$gz: the viewer's interactions in $target MB"
        status=passed
        cap_seconds=900
        run_capped "$target" "$bench_viewer" --viewer "$viewer_bin" --cli "$cli" --skip-open \
            --skip-paint --interact-trace "$json$gz" --interact-kernel-info "$kinfo" \
            --repeats 5 --dir "$dir" || {
            status="FAILED: $why"
            met=0
        }
        {
            echo
            echo "The viewer's interactions on $label \`.json$gz\` in a cgroup of $target MB: $status"
            echo
            # Less the offscreen platform's warning for every window shown.
            sed -e '/does not support propagateSizeHints/d' -e 's/^/    /' "$log"
        } >>"$scratch/interactions"
    done
    verdict stackline
done
cat "$scratch/interactions"
echo
cat "$scratch/verdicts"
((all_met))
