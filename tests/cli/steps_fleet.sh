#!/bin/sh
# steps_fleet.sh CLI EXPECTED OUT PARAM_DIR
# stackline-cli steps on the 8 param ranks, and the cluster contract for it: one `steps --json`
# per trace, in parallel with xargs -P as a job array's tasks would, then `merge`. Checks that
#  - the text names rank 7 the straggler of step 10 (as the viewer's Steps tab does), and is
#    EXPECTED (tests/cli/expected/steps_param.txt) line for line;
#  - the merged result equals a multi-trace `steps --json` over the same traces, byte for byte,
#    and so does a merge of a 3-rank and a 5-rank result; merge's text equals steps' text;
#  - a subset of the ranks merges and says it is a partial job;
#  - a rank without steps, and one whose clock puts it apart from the others, are rows with an
#    explanation, not errors;
#  - merge refuses, with status 2, naming the file and printing nothing: another job's rank (world
#    size), a rank given twice, a hotspots result among steps results, a file that is not a
#    result, a truncated one.
set -eu
cli=$1
expected=$2
out=$3
param=$4
rm -rf "$out"
mkdir -p "$out"
ls "$param"/worker*.pt.trace.json.gz >"$out/traces.txt"
count=$(wc -l <"$out/traces.txt")
[ "$count" = 8 ] || {
    echo "$param: $count traces, expected the 8 param ranks"
    exit 1
}
# shellcheck disable=SC2046 # one argument per trace
set -- $(cat "$out/traces.txt")

fail() {
    echo "$*"
    exit 1
}

"$cli" steps "$@" >"$out/steps.txt" 2>/dev/null
grep -q '^step 10: straggler rank 7 (' "$out/steps.txt" || fail "step 10's straggler is not rank 7: $(cat "$out/steps.txt")"
diff "$expected" "$out/steps.txt" || fail "steps' text differs from $expected"

# The tasks: task i runs on line i+1 of the list, like SLURM_ARRAY_TASK_ID / JOB_COMPLETION_INDEX.
seq 0 $((count - 1)) | xargs -P 4 -I TASK sh -c \
    'trace=$(sed -n "$((TASK + 1))p" "$1/traces.txt") && "$2" steps "$trace" --json >"$1/TASK.json"' \
    sh "$out" "$cli"
results=$(seq 0 $((count - 1)) | sed "s|.*|$out/&.json|")
"$cli" steps "$@" --jobs 2 --json >"$out/multi.json"
# shellcheck disable=SC2086 # one argument per result
"$cli" merge $results --json >"$out/merged.json"
cmp "$out/merged.json" "$out/multi.json" || fail "merge of the per-trace results differs from steps over all traces"
# shellcheck disable=SC2086
"$cli" merge $results >"$out/merged.txt"
cmp "$out/merged.txt" "$out/steps.txt" || fail "merge's text differs from steps' text"
"$cli" steps "$1" "$2" "$3" --json >"$out/front.json"
shift 3
"$cli" steps "$@" --json >"$out/back.json"
"$cli" merge "$out/front.json" "$out/back.json" --json | cmp - "$out/multi.json" || fail "merge of a 3-rank and a 5-rank result differs from steps over all traces"

# A subset: a partial job, said so in both outputs.
"$cli" merge "$out/3.json" "$out/5.json" >"$out/partial.txt"
grep -q '^2 traces: ranks 3, 5 of a job of 8 ranks (a partial job: 6 ranks missing)$' "$out/partial.txt" || fail "a subset is not called partial: $(cat "$out/partial.txt")"
"$cli" merge "$out/3.json" "$out/5.json" --json | grep -q '"partial": true' || fail "a subset's JSON is not partial"

# Bad ranks are rows: rank 3 without its step, rank 7 on a clock a day away.
first=$(sed -n 1p "$out/traces.txt")
gzip -dc "$(sed -n 4p "$out/traces.txt")" | sed 's/ProfilerStep#10/NotAStep/' >"$out/nostep3.json"
gzip -dc "$(sed -n 8p "$out/traces.txt")" | sed '0,/^{/s//{"baseTimeNanoseconds": 86400000000000,/' >"$out/apart7.json"
"$cli" steps "$first" "$out/nostep3.json" "$out/apart7.json" >"$out/bad.txt" 2>&1 || fail "bad ranks are an error: $(cat "$out/bad.txt")"
grep -q '^rank 3: no ProfilerStep#N spans$' "$out/bad.txt" || fail "no note of rank 3's missing steps: $(cat "$out/bad.txt")"
grep -q '^rank 7: does not overlap the others in time' "$out/bad.txt" || fail "rank 7 apart is not reported: $(cat "$out/bad.txt")"

# Refusals: exit 2, naming the file, nothing printed.
sed 's/"world_size": 8/"world_size": 16/' "$out/1.json" >"$out/other_job.json"
sed 's/"rank": 1,/"rank": 0,/; s/worker1/copy_of_worker1/' "$out/1.json" >"$out/rank_again.json"
"$cli" hotspots "$first" --json >"$out/hotspots.json" 2>/dev/null
echo '{"traceEvents": []}' >"$out/not_ours.json"
head -c 2000 "$out/1.json" >"$out/truncated.json"
for bad in other_job rank_again hotspots not_ours truncated; do
    status=0
    "$cli" merge "$out/0.json" "$out/$bad.json" >"$out/refused.txt" 2>"$out/error.txt" || status=$?
    if [ "$status" != 2 ] || ! grep -q "$out/$bad.json" "$out/error.txt" || [ -s "$out/refused.txt" ]; then
        fail "merge of $bad.json: status $status, message: $(cat "$out/error.txt"), output: $(head -c 200 "$out/refused.txt")"
    fi
done
echo "steps names rank 7 for step 10; merge of $count per-trace results equals steps over all $count traces"
