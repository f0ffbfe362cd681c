#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan, in build-fuzz), seeds their corpora from
# tests/data, and runs each target for SECONDS, printing its executions from libFuzzer's final
# stats.
#
#   tests/fuzz/run.sh SECONDS [TARGET...]     TARGET: trace_loader kernel_info graph_key annotate
#
# Environment: FUZZ_RUNS=N also stops a target after N executions; FUZZ_BUILD=dir (build-fuzz);
# FUZZ_NICE=n (10); FUZZ_NO_BUILD=1 runs the targets as built (for runs side by side: build once). The working corpora stay in $FUZZ_BUILD/corpus/<target> between runs. Crash,
# timeout and OOM inputs are written to $FUZZ_BUILD/artifacts/<target>/: minimise one with
#   $FUZZ_BUILD/tests/fuzz/fuzz_<target> -minimize_crash=1 -runs=100000 <artifact>
# and keep it in tests/data/malformed/fuzz-regressions/<target>/ (core.fuzz_regressions loads them all).
set -euo pipefail
cd "$(dirname "$0")/../.."

seconds=${1:?usage: tests/fuzz/run.sh SECONDS [TARGET...]}
shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(trace_loader kernel_info graph_key annotate)
build=${FUZZ_BUILD:-build-fuzz}
nice_level=${FUZZ_NICE:-10}

if [ -z "${FUZZ_NO_BUILD:-}" ]; then
    CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DSTACKLINE_FUZZ=ON -DSTACKLINE_GUI=OFF >/dev/null
    nice -n "$nice_level" ninja -C "$build" fuzzers
fi

data=tests/data
seeds=$(mktemp -d "$build/seeds.XXXXXX")  # one per run, so that runs can go side by side
trap 'rm -rf "$seeds"' EXIT
mkdir -p "$seeds"/{trace_loader,kernel_info,graph_key,annotate}

# Traces: golden inputs and outputs, the real-trace corpus as it is (gzip included), bad inputs.
for d in "$data"/golden/*/; do
    c=$(basename "$d")
    cp "$d/trace.json" "$seeds/trace_loader/golden-$c.json"
    [ -f "$d/expected.json" ] && cp "$d/expected.json" "$seeds/trace_loader/golden-$c.expected.json"
    cp "$d/kernel_info.json" "$seeds/kernel_info/golden-$c.json"
    { cat "$d/trace.json"; printf '#KI#'; cat "$d/kernel_info.json"; } >"$seeds/annotate/golden-$c"
done
# Small gzip files (the real traces below are too big for max_len): single and multi-member.
n=0
for d in "$data"/golden/basic_*/ "$data"/golden/flow_*/; do
    c=$(basename "$d")
    gzip -9c "$d/trace.json" >"$seeds/trace_loader/golden-$c.json.gz"
    [ $((n++ % 4)) -eq 0 ] && { head -c 40 "$d/trace.json" | gzip -c; tail -c +41 "$d/trace.json" | gzip -c; } \
        >"$seeds/trace_loader/golden-$c.multimember.json.gz"
done
for d in "$data"/corpus/*/; do
    c=$(basename "$d")
    for t in "$d"trace.json*; do [ -f "$t" ] && cp "$t" "$seeds/trace_loader/corpus-$c-$(basename "$t")"; done
    [ -f "$d/kernel_info.json" ] && cp "$d/kernel_info.json" "$seeds/kernel_info/corpus-$c.json"
done
if [ -d "$data/malformed" ]; then
    find "$data/malformed" -maxdepth 1 -type f \( -name '*.json*' -o -name '*.bin' \) -exec cp -t "$seeds/trace_loader" {} +
fi
# TORCH_TRACE structured logs, cut down to the records kernel information is rebuilt from.
if command -v python3 >/dev/null && [ -d "$data/torch_trace" ]; then
    python3 - "$seeds/kernel_info" $(find "$data/torch_trace" -name '*.txt') <<'PY'
import json, os, re, sys
out = sys.argv[1]
glog = re.compile(r"^[VIWEF]\d{4} ")
def shrink(v):
    if isinstance(v, str): return v[:48]
    if isinstance(v, list): return [shrink(x) for x in v[:3]]
    if isinstance(v, dict): return {k[:60]: shrink(x) for k, x in list(v.items())[:6]}
    return v
for path in sys.argv[2:]:
    records, current = [], None
    for line in open(path, encoding="utf-8", errors="surrogateescape"):
        if glog.match(line):
            current = [line]
            records.append(current)
        elif current is not None:
            current.append(line)
    text = ""
    for r in records:
        head, body = r[0], "".join(r[1:])
        if '"artifact"' in head and "inductor_provenance" in head or \
                '"chromium_event"' in head and ("inductor_compile" in body or "compiler" in body):
            try:
                body = "\t" + json.dumps(shrink(json.loads(body))) + "\n"
            except ValueError:
                pass
            text += head + body
        elif re.search(r'\{"aot_\w+_graph"', head):
            text += head + "".join(r[1:3])
    if text:
        open(os.path.join(out, "log-" + os.path.basename(path)), "w", encoding="utf-8",
             errors="surrogateescape").write(text)
PY
    for l in "$seeds"/kernel_info/log-*; do
        [ -f "$l" ] || continue
        { cat "$data/golden/basic_flow_triton/trace.json"; printf '#KI#'; cat "$l"; } >"$seeds/annotate/$(basename "$l")"
    done
fi
# Graph keys, one per file, from every kernel information file.
if command -v python3 >/dev/null; then
    python3 - "$seeds/graph_key" "$data"/golden/*/kernel_info.json "$data"/corpus/*/kernel_info.json <<'PY'
import json, sys, hashlib, os
out = sys.argv[1]
for path in sys.argv[2:]:
    try:
        keys = json.load(open(path, encoding="utf-8"))
    except Exception:
        continue
    if not isinstance(keys, dict):
        continue
    for k in keys:
        b = k.encode("utf-8", "surrogatepass")
        open(os.path.join(out, hashlib.sha1(b).hexdigest()), "wb").write(b)
PY
else
    grep -ohE '"\([^"]*\)"' "$data"/golden/*/kernel_info.json | sort -u | while read -r k; do
        k=${k#\"}; printf '%s' "${k%\"}" >"$seeds/graph_key/$(printf '%s' "$k" | sha1sum | cut -c1-40)"
    done
fi
# Every crash input kept so far.
for t in trace_loader kernel_info graph_key annotate; do
    r=$data/malformed/fuzz-regressions/$t
    [ -d "$r" ] && find "$r" -type f -exec cp -t "$seeds/$t" {} +
done

declare -A max_len=([trace_loader]=16384 [kernel_info]=12288 [graph_key]=1024 [annotate]=16384)
declare -A dict=([trace_loader]=json.dict [kernel_info]=json.dict [graph_key]=graph_key.dict [annotate]=json.dict)
status=0
summary=""
for t in "${targets[@]}"; do
    bin=$build/tests/fuzz/fuzz_$t
    corpus=$build/corpus/$t
    artifacts=$build/artifacts/$t
    mkdir -p "$corpus" "$artifacts"
    log=$build/fuzz_$t.log
    extra=()
    [ -n "${FUZZ_RUNS:-}" ] && extra+=(-runs="$FUZZ_RUNS")
    echo "== fuzz_$t: ${seconds}s ${FUZZ_RUNS:+or $FUZZ_RUNS runs}; log $log"
    set +e
    ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1:malloc_context_size=0 UBSAN_OPTIONS=print_stacktrace=1 \
        nice -n "$nice_level" "$bin" -max_total_time="$seconds" "${extra[@]}" \
        -max_len="${max_len[$t]}" -dict="tests/fuzz/${dict[$t]}" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$artifacts/" "$corpus" "$seeds/$t" >"$log" 2>&1
    rc=$?
    set -e
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    speed=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1)
    line="fuzz_$t: ${execs:-?} executions (${speed:-?}/s), ${cov:-no coverage line}, exit $rc"
    if [ $rc -ne 0 ]; then
        status=1
        line+="; FOUND: $(grep -m1 -oE 'ERROR: (AddressSanitizer|UndefinedBehaviorSanitizer|libFuzzer)[^\n]*|FUZZ PROPERTY VIOLATED.*|runtime error.*' "$log" || echo see log)"
        line+=" -> $(ls -t "$artifacts" | head -1)"
    fi
    echo "$line"
    summary+="$line"$'\n'
done
echo
echo "$summary"
exit $status
