#!/bin/sh
# nsight_example.sh CLI MAKE_NSYS_EXPORT OUT TRACE KINFO
# The bundled example as an Nsight Systems SQLite export (written by tests/nsight's generator, as
# `nsys profile --trace=cuda,nvtx --pytorch=autograd-nvtx` would profile the same run) gives the
# JSON's answers: summary --json but for "events" and "tracks", hotspots --json but for "trace",
# and hotspots --folded byte for byte. The event and track counts differ by design: the JSON also
# has metadata, profiler-span and instant events and their "Spans"/"Traces" tracks, which an
# export has no counterpart of. annotate writes the export as Chrome JSON whose stacks give the
# same hotspots --folded with no kernel information and the JSON's absolute instants (its base
# time is the session start's); --in-place is refused (exit 2).
set -eu
cli=$1
make_export=$2
out=$3
trace=$4
kinfo=$5
rm -rf "$out"
mkdir -p "$out"
"$make_export" "$trace" "$out/example.sqlite" >/dev/null
for input in json:"$trace" sqlite:"$out/example.sqlite"; do
    name=${input%%:*}
    file=${input#*:}
    "$cli" summary "$file" --kernel-info "$kinfo" --json 2>/dev/null |
        grep -v -E '^ *"(events|tracks)"' >"$out/summary.$name"
    "$cli" hotspots "$file" --kernel-info "$kinfo" --json 2>/dev/null |
        grep -v -E '^ *"trace"' >"$out/hotspots.$name"
    "$cli" hotspots "$file" --kernel-info "$kinfo" --folded 2>/dev/null >"$out/folded.$name"
done
status=0
for what in summary hotspots folded; do
    if ! cmp -s "$out/$what.json" "$out/$what.sqlite"; then
        echo "the export's $what differs from the JSON's:"
        diff "$out/$what.json" "$out/$what.sqlite" | head -20
        status=1
    fi
done
grep -q '"annotated_kernels": 70' "$out/summary.sqlite" || {
    echo "the example's 70 annotated kernels are not found in the export"
    status=1
}
"$cli" annotate "$out/example.sqlite" --kernel-info "$kinfo" -o "$out/annotated.json.gz" 2>/dev/null
"$cli" hotspots "$out/annotated.json.gz" --folded 2>/dev/null >"$out/folded.annotated"
if ! cmp -s "$out/folded.json" "$out/folded.annotated"; then
    echo "the annotated Chrome JSON's stacks give other hotspots than the JSON's:"
    diff "$out/folded.json" "$out/folded.annotated" | head -20
    status=1
fi
# Its instants are the JSON's: baseTimeNanoseconds + ts of the first profiler step, in ns.
. "$(dirname "$0")/first_step_instant.sh"
gzip -dc "$out/annotated.json.gz" >"$out/annotated.json"
if [ -z "$(instant "$trace")" ] || [ "$(instant "$trace")" != "$(instant "$out/annotated.json")" ]; then
    echo "the annotated JSON's first step is at $(instant "$out/annotated.json") ns, the JSON's at $(instant "$trace")"
    status=1
fi
code=0
"$cli" annotate "$out/example.sqlite" --kernel-info "$kinfo" --in-place -o "$out/example.sqlite" \
    2>"$out/in_place.err" || code=$?
if [ "$code" != 2 ] || ! grep -q 'example.sqlite: .* not rewritten in place' "$out/in_place.err"; then
    echo "--in-place on an export: exit $code, $(cat "$out/in_place.err")"
    status=1
fi
exit $status
