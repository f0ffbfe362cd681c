#!/bin/sh
# pftrace_example.sh CLI MAKE_PFTRACE EXAMPLE_DIR OUT
# The bundled example as PyTorch's Cuspy profiler would write it (.pftrace.gz, by the test
# generator) gives what its Kineto JSON gives:
#  - the example itself: the same kernels (90: the 4 GPU annotations are not kernels) and
#    compiled regions; its forward ops carry no "Sequence number", so without the fwdbwd flows
#    Cuspy drops its backward regions find no forward region (backward_without_flow);
#  - the example with the Sequence numbers PyTorch gives its forward ops: summary --json and
#    hotspots --json equal the JSON's, but for what legitimately differs: "events" and "tracks"
#    (Cuspy writes no metadata events, instants, fwdbwd flows or profiler span), "trace" (the
#    path), the forward_by_sequence_number warning that says how each backward region found
#    its forward region, and the count of unrecognized_kernel warnings (the reference warns once
#    per path that reaches a kernel: the JSON's kernels are reached by flow and by External id,
#    the pftrace's only by their launch link, as Cuspy writes no External id on the GPU side);
#  - steps --json equal too (but for the first and last instants), and diff of the JSON run
#    against the pftrace run finds no change;
#  - kernel-code --trace gives the JSON's registers per thread;
#  - annotate writes it as Chrome JSON whose stacks give the JSON's hotspots with no kernel
#    information, and whose first step is at the JSON's absolute instant; --in-place is refused
#    (exit 2).
set -eu
cli=$1
make_pftrace=$2
example=$3
out=$4
rm -rf "$out"
mkdir -p "$out"
kinfo=$example/example.pt.trace.kernel_info.json
fail() {
    echo "$*"
    exit 1
}

# Drops the lines that legitimately differ.
strip() {
    grep -v -e '"events":' -e '"tracks":' -e '"trace":' -e '"forward_by_sequence_number":' \
        -e '"unrecognized_kernel":' "$1"
}

"$make_pftrace" "$example/example.pt.trace.json" "$out/example.pftrace.gz" >/dev/null
"$cli" summary --json --kernel-info "$kinfo" "$example/example.pt.trace.json" >"$out/json_summary.json" 2>/dev/null
"$cli" summary --json --kernel-info "$kinfo" "$out/example.pftrace.gz" >"$out/pf_summary.json" 2>/dev/null
for field in '"kernels": 90,' '"compiled_regions": 4,' '"backward_without_flow": 2'; do
    grep -q "$field" "$out/pf_summary.json" || fail "pftrace summary lacks $field"
done

# The forward CompiledFunction ops with their Sequence numbers (41, 42: their backward ops').
sed -e 's/"External id": 492, "Record function id": 0,/& "Sequence number": 41,/' \
    -e 's/"External id": 644, "Record function id": 0,/& "Sequence number": 42,/' \
    "$example/example.pt.trace.json" >"$out/seq.pt.trace.json"
[ "$(grep -c '"Sequence number": 4[12],  *"Ev Idx"' "$out/seq.pt.trace.json")" = 2 ] ||
    fail "the example changed: its forward CompiledFunction ops were not found"
"$make_pftrace" "$out/seq.pt.trace.json" "$out/seq.pftrace.gz" >/dev/null
for cmd in summary hotspots; do
    "$cli" $cmd --json --kernel-info "$kinfo" "$out/seq.pt.trace.json" >"$out/seq_json_$cmd.json" 2>/dev/null
    "$cli" $cmd --json --kernel-info "$kinfo" "$out/seq.pftrace.gz" >"$out/seq_pf_$cmd.json" 2>/dev/null
    strip "$out/seq_json_$cmd.json" >"$out/a.json"
    strip "$out/seq_pf_$cmd.json" >"$out/b.json"
    diff "$out/a.json" "$out/b.json" || fail "$cmd --json of the pftrace differs from the JSON's"
done
grep -q '"forward_by_sequence_number": 2' "$out/seq_pf_summary.json" ||
    fail "no forward_by_sequence_number warning"
# The JSON with Sequence numbers gives what the bundled JSON gives.
"$cli" hotspots --json --kernel-info "$kinfo" "$example/example.pt.trace.json" 2>/dev/null |
    grep -v '"trace":' >"$out/a.json"
grep -v '"trace":' "$out/seq_json_hotspots.json" >"$out/b.json"
diff "$out/a.json" "$out/b.json" || fail "the Sequence numbers changed the JSON's hotspots"
# steps: the same steps and times but for the trace's first and last instants (the JSON's
# profiler span and instants, which Cuspy does not write).
for f in seq.pt.trace.json seq.pftrace.gz; do
    "$cli" steps --json "$out/$f" 2>/dev/null |
        grep -v -e '"trace":' -e '"first_ns":' -e '"last_ns":' >"$out/steps_$f.json"
done
diff "$out/steps_seq.pt.trace.json.json" "$out/steps_seq.pftrace.gz.json" ||
    fail "steps --json of the pftrace differs from the JSON's"
# diff: the JSON run against the pftrace run, no line or kernel changed.
"$cli" diff --json --kernel-info-base "$kinfo" --kernel-info-new "$kinfo" \
    "$out/seq.pt.trace.json" "$out/seq.pftrace.gz" >"$out/diff.json" 2>/dev/null
grep -q '"delta_ns": 0' "$out/diff.json" || fail "diff --json compared no line"
! grep '"delta_ns": ' "$out/diff.json" | grep -qv '"delta_ns": 0,*$' ||
    fail "diff --json of the JSON against the pftrace finds a change"
# kernel-code --trace: the launches' registers per thread, from the render stages' launch
# configuration, are the JSON's (shared memory and occupancy Cuspy does not write).
for f in seq.pt.trace.json seq.pftrace.gz; do
    "$cli" kernel-code "$kinfo" --trace "$out/$f" --json 2>/dev/null |
        grep -e '"registers_per_thread"' -e '"name"' | tr -d , >"$out/registers_$f.txt"
done
[ "$(grep -c registers_per_thread "$out/registers_seq.pftrace.gz.txt")" -gt 0 ] ||
    fail "kernel-code finds no registers per thread in the pftrace"
diff "$out/registers_seq.pt.trace.json.txt" "$out/registers_seq.pftrace.gz.txt" ||
    fail "kernel-code's registers per thread of the pftrace differ from the JSON's"
# annotate: Chrome JSON, read by the Kineto reader, whose stacks are the JSON run's.
"$cli" annotate "$out/seq.pftrace.gz" --kernel-info "$kinfo" -o "$out/seq.annotated.json" 2>/dev/null
. "$(dirname "$0")/first_step_instant.sh"
[ -n "$(instant "$out/seq.pt.trace.json")" ] &&
    [ "$(instant "$out/seq.pt.trace.json")" = "$(instant "$out/seq.annotated.json")" ] ||
    fail "the annotated JSON's first step is not at the JSON's instant"
"$cli" hotspots --folded "$out/seq.annotated.json" >"$out/annotated.folded" 2>/dev/null
"$cli" hotspots --folded --kernel-info "$kinfo" "$out/seq.pt.trace.json" >"$out/json.folded" 2>/dev/null
diff "$out/json.folded" "$out/annotated.folded" ||
    fail "the annotated Chrome JSON's stacks give other hotspots than the JSON's"
code=0
"$cli" annotate "$out/seq.pftrace.gz" --kernel-info "$kinfo" --in-place -o "$out/seq.pftrace.gz" \
    2>"$out/in_place.err" || code=$?
[ "$code" = 2 ] && grep -q 'seq.pftrace.gz: .* not rewritten in place' "$out/in_place.err" ||
    fail "--in-place on a pftrace: exit $code, $(cat "$out/in_place.err")"
echo "pftrace example: summary, hotspots, steps and diff equal the JSON's; annotate writes them"
