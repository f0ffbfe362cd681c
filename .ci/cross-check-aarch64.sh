#!/usr/bin/env bash
# cross-check-aarch64.sh NATIVE_CLI AARCH64_CLI MAKE_TRACE
# Runs the native stackline-cli and the aarch64 one (under qemu-aarch64) on the same inputs and
# compares, run by run, the exit status, stdout, stderr and every file written, byte for byte:
# - annotate (with its report) on every golden and corpus case of tests/data,
# - summary --json and hotspots --json on the corpus cases and the bundled example,
# - annotate (one thread and all, .json and .json.gz inflated), summary on a generated 40 MB
#   trace, so that the parallel chunk loader runs,
# - annotate and kernel-info on every malformed input, the fuzz regressions among them.
# Prints "aarch64: N outputs equal, M differ" and fails when M > 0.
set -euo pipefail
native=$(realpath "$1")
cross=$(realpath "$2")
make_trace=$(realpath "$3")
cd "$(dirname "$0")/.."
data=$PWD/tests/data
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

runs=0 equal=0 differ=0
# check NAME ARGS...: runs both builds in their own empty folders (outputs named relatively, so
# that messages naming them are alike) and compares what they leave.
check() {
    local name=$1
    shift
    local side
    for side in native cross; do
        local dir=$work/$side
        rm -rf "$dir" && mkdir "$dir"
        local status=0
        if [ "$side" = native ]; then
            (cd "$dir" && "$native" "$@" >stdout 2>stderr) || status=$?
        else
            (cd "$dir" && qemu-aarch64 "$cross" "$@" >stdout 2>stderr) || status=$?
        fi
        echo "$status" >"$dir/status"
        # A gzip output is compared inflated: only its content is promised across machines.
        local gz
        for gz in "$dir"/*.gz; do
            [ -e "$gz" ] && gzip -dc "$gz" >"${gz%.gz}.inflated" && rm "$gz"
        done
    done
    runs=$((runs + 1))
    if diff -r "$work/native" "$work/cross" >"$work/diff" 2>&1; then
        equal=$((equal + 1))
    else
        differ=$((differ + 1))
        echo "aarch64 differs: $name" >&2
        head -c 2000 "$work/diff" >&2
    fi
}

start=$SECONDS
traces=()
for case in "$data"/golden/* "$data"/corpus/*; do
    for trace in "$case"/trace.json "$case"/trace.json.gz; do
        [ -f "$trace" ] && traces+=("$trace")
    done
done
for trace in "${traces[@]}"; do
    check "annotate $trace" annotate "$trace" --kernel-info "$(dirname "$trace")/kernel_info.json" \
        -o out.json --report report.json
done
for trace in "$data"/corpus/*/trace.json* "$PWD/resources/example/example.pt.trace.json"; do
    info=$(dirname "$trace")/kernel_info.json
    [ -f "$info" ] || info=${trace%.json}.kernel_info.json
    check "summary $trace" summary "$trace" --kernel-info "$info" --json
    check "hotspots $trace" hotspots "$trace" --kernel-info "$info" --json
done

"$make_trace" "$work/big" 40 >/dev/null 2>&1
big=$(ls "$work"/big/*.json | grep -v kernel_info)
bigInfo=$(ls "$work"/big/*kernel_info*.json)
check "annotate 40 MB" annotate "$big" --kernel-info "$bigInfo" -o out.json --report report.json
check "annotate 40 MB, 1 thread" annotate "$big" --kernel-info "$bigInfo" -o out.json --threads 1
check "annotate 40 MB to .gz" annotate "$big" --kernel-info "$bigInfo" -o out.json.gz
check "summary 40 MB" summary "$big" --kernel-info "$bigInfo" --json

while IFS= read -r -d '' input; do
    check "annotate $input" annotate "$input" -o out.json
    check "kernel-info $input" kernel-info "$input" -o out.json
done < <(find "$data/malformed" -type f ! -name README.md -print0 | sort -z)

echo "aarch64: $equal outputs equal, $differ differ ($runs runs of each build, $((SECONDS - start)) s)"
[ "$differ" -eq 0 ]
