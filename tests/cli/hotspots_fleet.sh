#!/bin/sh
# hotspots_fleet.sh CLI OUT TRACE...
# The README's cluster contract, run locally: one `hotspots --json` per trace, in parallel with
# xargs -P as a Slurm array's or an indexed Job's tasks would (the task index picks a line of the
# trace list), then `merge`. Checks that
#  - the merged result equals a multi-trace `hotspots --json` over the same traces, byte for byte;
#  - the multi-trace total of every line (self ns, total ns, launches) and the annotated and
#    unresolved time are the sums of the single-trace results, added up here by awk;
#  - merge refuses a truncated result and a trace given twice, naming the file, with status 2,
#    and so does hotspots given the same trace twice.
set -eu
cli=$1
out=$2
shift 2
rm -rf "$out"
mkdir -p "$out"
for trace in "$@"; do printf '%s\n' "$trace"; done >"$out/traces.txt"
count=$#

# The tasks: task i runs on line i+1 of the list, like SLURM_ARRAY_TASK_ID / JOB_COMPLETION_INDEX.
seq 0 $((count - 1)) | xargs -P 4 -I TASK sh -c \
    'trace=$(sed -n "$((TASK + 1))p" "$1/traces.txt") && "$2" hotspots "$trace" --json >"$1/TASK.json" 2>/dev/null' \
    sh "$out" "$cli"
results=$(seq 0 $((count - 1)) | sed "s|.*|$out/&.json|")
# shellcheck disable=SC2086 # one argument per result
"$cli" merge $results --json >"$out/merged.json"
"$cli" hotspots "$@" --jobs 2 --top 1 --json >"$out/multi.json" 2>/dev/null
cmp "$out/merged.json" "$out/multi.json" || {
    echo "merge of the per-trace results differs from hotspots over all traces"
    exit 1
}

# "file:line self total launches" for every line of a result; with "total", only the total's
# lines. Then the two unkeyed sums as lines of their own.
sums() {
    awk -v only="$1" '
        /^ "total": / { inTotal = 1 }
        only == "total" && !inTotal { next }
        /"file": / { file = $0; sub(/^ *"file": /, "", file) }
        /"line": / { line = $2 + 0 }
        /"self_ns": / { self[file ":" line] += $2 }
        /"total_ns": / { total[file ":" line] += $2 }
        /"launches": / { launches[file ":" line] += $2 }
        /^ *"annotated_gpu_ns": / { annotated += $2 }
        /^ *"unresolved_gpu_ns": / { unresolved += $2 }
        END {
            for (k in self) printf "%s %.0f %.0f %.0f\n", k, self[k], total[k], launches[k]
            printf "annotated %.0f\nunresolved %.0f\n", annotated, unresolved
        }' "$2" | sort
}
# shellcheck disable=SC2086
cat $results >"$out/singles.json"
sums all "$out/singles.json" >"$out/singles.sums"
sums total "$out/multi.json" >"$out/multi.sums"
grep -q "annotated [1-9]" "$out/multi.sums" || {
    echo "no annotated GPU time: the check would be trivial"
    exit 1
}
diff "$out/singles.sums" "$out/multi.sums" || {
    echo "the multi-trace total is not the sum of the single-trace results"
    exit 1
}

# Bad input: exit 2, naming the file.
first=$(echo "$results" | head -n 1)
grep -v '"self_ns"' "$first" >"$out/truncated.json"
for bad in "$out/truncated.json" "$first"; do
    status=0
    "$cli" merge "$first" "$bad" >/dev/null 2>"$out/error.txt" || status=$?
    if [ "$status" != 2 ] || ! grep -q "$bad" "$out/error.txt"; then
        echo "merge of $bad: status $status, message: $(cat "$out/error.txt")"
        exit 1
    fi
done
# hotspots itself refuses a trace given twice, by another path too.
status=0
"$cli" hotspots --json "$3" "$(dirname "$3")/./$(basename "$3")" >/dev/null 2>"$out/error.txt" ||
    status=$?
if [ "$status" != 2 ] || ! grep -q "given twice" "$out/error.txt"; then
    echo "hotspots of a trace given twice: status $status, message: $(cat "$out/error.txt")"
    exit 1
fi
echo "merge of $count per-trace results equals hotspots over all $count traces"
