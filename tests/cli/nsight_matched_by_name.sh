#!/bin/sh
# nsight_matched_by_name.sh CLI MAKE_NSYS_EXPORT OUT TRACE KINFO
# The bundled example as an Nsight Systems export profiled without --pytorch (no NVTX ranges, so
# no compiled region): the Triton kernels that exactly one graph of the kernel information names
# get their stacks by name, and summary, hotspots and annotate's notes say so; the other Triton
# kernels get a no_compiled_region warning saying to profile with --pytorch=autograd-nvtx; the
# annotated Chrome JSON carries none of these stacks, and gives them again when read back with the
# kernel information.
set -eu
cli=$1
make_export=$2
out=$3
trace=$4
kinfo=$5
rm -rf "$out"
mkdir -p "$out"
"$make_export" "$trace" "$out/no_ranges.sqlite" --no-pytorch-ranges >/dev/null
status=0
fail() {
    echo "$1"
    status=1
}
"$cli" summary "$out/no_ranges.sqlite" --kernel-info "$kinfo" --json >"$out/summary.json" 2>/dev/null
"$cli" summary "$out/no_ranges.sqlite" --kernel-info "$kinfo" >"$out/summary.txt" 2>/dev/null
# 17 Triton kernel names of the example are named by one graph each, launched twice; the 3 others
# (6 launches) by none.
for want in '"compiled_regions": 0' '"annotated_kernels": 34' '"matched_by_name_kernels": 34' \
    '"matched_by_name": 1' '"no_compiled_region": 1' \
    '34 Triton kernels got their stacks matched by name' \
    '6 Triton kernels are launched one by one without a stack' '--pytorch=autograd-nvtx'; do
    grep -q -e "$want" "$out/summary.json" || fail "summary --json lacks $want"
done
grep -q '^  matched by name:  34 ' "$out/summary.txt" || fail "summary's text lacks the count matched by name"
"$cli" hotspots "$out/no_ranges.sqlite" --kernel-info "$kinfo" --json >"$out/hotspots.json" 2>/dev/null
grep -q '"matched_by_name_gpu_ns"' "$out/hotspots.json" || fail "hotspots --json lacks matched_by_name_gpu_ns"
grep -q '"matched_by_name_launches"' "$out/hotspots.json" || fail "hotspots --json lacks matched_by_name_launches"
"$cli" hotspots "$out/no_ranges.sqlite" --kernel-info "$kinfo" >"$out/hotspots.txt" 2>/dev/null
grep -q 'matched by name' "$out/hotspots.txt" || fail "hotspots' text does not mark the lines matched by name"
# annotate writes none of them, and says what it did not write.
"$cli" annotate "$out/no_ranges.sqlite" --kernel-info "$kinfo" -o "$out/annotated.json" 2>"$out/annotate.err"
if grep -q '"stack"' "$out/annotated.json"; then fail "the annotated Chrome JSON carries stacks matched by name"; fi
grep -q ' 0 of [0-9]* GPU kernels carry a stack' "$out/annotate.err" || fail "annotate counts stacks it did not write: $(head -1 "$out/annotate.err")"
grep -q 'note: 34 Triton kernels got their stacks matched by name' "$out/annotate.err" || fail "annotate does not say what was matched by name"
grep -q 'note: 6 Triton kernels .*--pytorch=autograd-nvtx' "$out/annotate.err" || fail "annotate does not say how to profile"
# Read back with the kernel information, the output gives the same stacks by name again.
"$cli" hotspots "$out/no_ranges.sqlite" --kernel-info "$kinfo" --folded >"$out/folded.sqlite" 2>/dev/null
"$cli" hotspots "$out/annotated.json" --kernel-info "$kinfo" --folded >"$out/folded.annotated" 2>/dev/null
[ -s "$out/folded.sqlite" ] && cmp -s "$out/folded.sqlite" "$out/folded.annotated" ||
    fail "the annotated output read back with the kernel information gives other stacks by name"
exit $status
