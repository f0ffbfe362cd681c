#!/bin/sh
# nsight_python_backtraces.sh CLI MAKE_NSYS_EXPORT OUT TRACE KINFO
# A with_stack Kineto trace as the Nsight Systems export `nsys profile --python-backtrace=cuda`
# would give (tests/nsight's generator, --python-backtraces: each runtime call's enclosing
# python_function frames as its CUDA_CALLCHAINS backtrace) gives the JSON's eager hotspots:
# hotspots --eager --json but for "trace", and hotspots --eager --folded byte for byte. Without
# the backtraces the export's eager kernels have no Python line.
set -eu
cli=$1
make_export=$2
out=$3
trace=$4
kinfo=$5
rm -rf "$out"
mkdir -p "$out"
"$make_export" "$trace" "$out/python.sqlite" --python-backtraces >/dev/null
"$make_export" "$trace" "$out/plain.sqlite" >/dev/null
for input in json:"$trace" sqlite:"$out/python.sqlite" plain:"$out/plain.sqlite"; do
    name=${input%%:*}
    file=${input#*:}
    "$cli" hotspots "$file" --kernel-info "$kinfo" --eager --json 2>/dev/null |
        grep -v -E '^ *"trace"' >"$out/hotspots.$name"
    "$cli" hotspots "$file" --kernel-info "$kinfo" --eager --folded 2>/dev/null >"$out/folded.$name"
done
status=0
for what in hotspots folded; do
    if ! cmp -s "$out/$what.json" "$out/$what.sqlite"; then
        echo "the export's eager $what differs from the JSON's:"
        diff "$out/$what.json" "$out/$what.sqlite" | head -20
        status=1
    fi
done
if ! grep -q '\.py' "$out/folded.sqlite"; then
    echo "the export's eager hotspots name no Python file"
    status=1
fi
if grep -q '\.py' "$out/folded.plain"; then
    echo "an export without backtraces gave eager kernels Python lines"
    status=1
fi
exit $status
