#!/bin/sh
# bench_job_steps.sh BUILD_DIR [--ranks N] [--dir DIR] [--trace TRACE]...
# The job-of-many-ranks figures of the README: a job of N ranks (default 1,024) written by
# tests/cli/make_job_ranks.sh (the 8 param ranks with their rank and world size rewritten, and
# generated torch.compile ranks, in blocks of 8); per rank, `steps --json` against `summary --json`
# on the same trace (wall time, median of 5, on the first 16 ranks, then on each --trace, such as
# a real or a large one); every rank's `steps --json`,
# 2 at a time; then `merge` of the N results: wall time, peak RSS and the merged file's size; then
# the viewer's job view on the merged result (tests/ui/bench_job_view: open and interaction times).
set -eu
build=$(realpath "$1")
shift
ranks=1024
dir=
traces=
while [ $# -gt 0 ]; do
    case $1 in
    --ranks) ranks=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --trace) traces="$traces $(realpath "$2")"; shift 2 ;;
    *) echo "usage: bench_job_steps.sh BUILD_DIR [--ranks N] [--dir DIR] [--trace TRACE]..." >&2; exit 2 ;;
    esac
done
here=$(dirname "$(realpath "$0")")
cli=$build/app/stackline-cli/stackline-cli
dir=${dir:-$(mktemp -d)}
mkdir -p "$dir/results"
now() { date +%s.%N; }
median5() { sort -g | sed -n 3p; }
# ratio TRACE: the median wall time of `steps --json` over that of `summary --json`.
ratio() {
    for command in steps summary; do
        for i in 1 2 3 4 5; do
            started=$(now)
            "$cli" "$command" "$1" --json >/dev/null 2>&1
            echo "$(now) - $started" | bc
        done | median5 >"$dir/$command.time"
    done
    echo "$(cat "$dir/steps.time") / $(cat "$dir/summary.time")" | bc -l
}

t0=$(now)
sh "$here/../cli/make_job_ranks.sh" "$build/tests/bench/make_trace" "$here/../data/param" \
    "$dir/job" "$ranks"
t1=$(now)
bytes=$(cat "$dir"/job/*.pt.trace.json.gz | wc -c)
echo "job: $ranks ranks, $(echo "scale=1; $bytes / 1000000" | bc) MB of .json.gz, written in $(echo "$t1 - $t0" | bc) s"

ratio_sum=0
n=0
for trace in $(ls "$dir"/job/*.pt.trace.json.gz | head -16); do
    ratio_sum=$(echo "$ratio_sum + $(ratio "$trace")" | bc -l)
    n=$((n + 1))
done
printf 'per rank (first %d): steps --json / summary --json = %.2fx (mean of the medians)\n' \
    "$n" "$(echo "$ratio_sum / $n" | bc -l)"
for trace in $traces; do
    printf '%s (%s MB): steps --json / summary --json = %.2fx\n' "$(basename "$trace")" \
        "$(echo "scale=1; $(wc -c <"$trace") / 1000000" | bc)" "$(ratio "$trace")"
done

s=$(now)
ls "$dir"/job/*.pt.trace.json.gz | sort | awk '{printf "%s %05d\n", $0, NR - 1}' |
    xargs -P 2 -n 2 sh -c '"$0" steps "$1" --json >"'"$dir"'/results/$2.json"' "$cli"
e=$(now)
echo "steps --json of every rank, 2 at a time: $(echo "$e - $s" | bc) s"

s=$(now)
/usr/bin/time -f '%M' -o "$dir/merge.rss" "$cli" merge $(ls "$dir"/results/*.json | sort) --json \
    >"$dir/merged.json"
e=$(now)
mb() { echo "scale=1; $1 / 1000000" | bc; }
echo "merge of $ranks results: $(echo "$e - $s" | bc) s, peak RSS $(mb "$(($(cat "$dir/merge.rss") * 1024))") MB;" \
    "$(mb "$(cat "$dir"/results/*.json | wc -c)") MB of results in, $(mb "$(wc -c <"$dir/merged.json")") MB out"

viewer_bench=$build/tests/ui/bench_job_view
if [ -x "$viewer_bench" ]; then
    echo "job view of the merged $ranks ranks (bench_job_view):"
    runtime=$(mktemp -d)
    chmod 0700 "$runtime"
    QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR=$runtime "$viewer_bench" "$dir/merged.json" 2>/dev/null |
        sed 's/^/  /'
    rm -rf "$runtime"
else
    echo "no $viewer_bench (build the viewer for the job view's figures)"
fi
