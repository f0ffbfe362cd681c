#!/bin/sh
# make_job_ranks.sh MAKE_TRACE PARAM_DIR OUT
# Writes the 16 ranks of one job as OUT/rankNN.pt.trace.json.gz (NN = 00..15), every trace's
# distributedInfo saying its rank and a world size of 16:
#  - ranks 0-7: the 8 real DLRM ranks of PARAM_DIR (tests/data/param: profiler steps and NCCL
#    collectives, no Python stacks), their bytes unchanged but for the world size;
#  - ranks 8-15: torch.compile steps written by the project's generator (make_trace, seeds 8-15),
#    each with its kernel information beside it as rankNN.pt.trace.kernel_info.json, so that
#    hotspots finds it there and attributes their kernels to Python lines.
# About 1.3 MB in all, in well under a second.
set -eu
make_trace=$1
param=$2
out=$3
world=16
mkdir -p "$out"

rank=0
for trace in "$param"/worker*.pt.trace.json.gz; do
    name=$(printf 'rank%02d' "$rank")
    from="\"distributedInfo\": {\"backend\": \"nccl\", \"rank\": $rank, \"world_size\": 8}"
    to="\"distributedInfo\": {\"backend\": \"nccl\", \"rank\": $rank, \"world_size\": $world}"
    gzip -dc "$trace" | sed "s/$from/$to/" | gzip -n >"$out/$name.pt.trace.json.gz"
    gzip -dc "$out/$name.pt.trace.json.gz" | grep -q "$to" || {
        echo "$trace: no \"$from\" to rewrite" >&2
        exit 1
    }
    rank=$((rank + 1))
done
if [ "$rank" != 8 ]; then
    echo "$param: $rank ranks, expected the 8 of the param job" >&2
    exit 1
fi

generated=$(mktemp -d "$out/generated.XXXXXX")
while [ "$rank" -lt "$world" ]; do
    name=$(printf 'rank%02d' "$rank")
    "$make_trace" "$generated" 0.3 --seed "$rank" >"$generated/paths" 2>/dev/null
    trace=$(sed -n 1p "$generated/paths")
    # The generator's trace opens with a line "{": the rank goes in as the first member.
    sed "1s/^{\$/{\"distributedInfo\": {\"backend\": \"nccl\", \"rank\": $rank, \"world_size\": $world},/" \
        "$trace" | gzip -n >"$out/$name.pt.trace.json.gz"
    gzip -dc "$out/$name.pt.trace.json.gz" | head -n 1 | grep -q '"distributedInfo"' || {
        echo "$trace: does not open with a line \"{\"" >&2
        exit 1
    }
    mv "$(sed -n 2p "$generated/paths")" "$out/$name.pt.trace.kernel_info.json"
    rm -f "$trace"
    rank=$((rank + 1))
done
rm -r "$generated"
