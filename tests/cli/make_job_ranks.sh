#!/bin/sh
# make_job_ranks.sh MAKE_TRACE PARAM_DIR OUT [WORLD]
# Writes the WORLD ranks (default 16) of one job as OUT/rankNN.pt.trace.json.gz (NN = 00, 01, ...
# as wide as WORLD needs), every trace's distributedInfo saying its rank and the world size, in
# blocks of 8:
#  - ranks 0-7, 16-23, ...: the 8 real DLRM ranks of PARAM_DIR (tests/data/param: profiler steps
#    and NCCL collectives, no Python stacks), their bytes unchanged but for the rank and world size;
#  - ranks 8-15, 24-31, ...: torch.compile steps written by the project's generator (make_trace,
#    the rank as its seed), each with its kernel information beside it as
#    rankNN.pt.trace.kernel_info.json, so that hotspots finds it there and attributes their kernels
#    to Python lines.
# 16 ranks: about 1.3 MB in all, in well under a second.
set -eu
make_trace=$1
param=$2
out=$3
world=${4:-16}
width=$(printf '%s' "$((world - 1))" | wc -c)
[ "$width" -ge 2 ] || width=2
mkdir -p "$out"
set -- "$param"/worker*.pt.trace.json.gz
if [ "$#" != 8 ]; then
    echo "$param: $# ranks, expected the 8 of the param job" >&2
    exit 1
fi

generated=$(mktemp -d "$out/generated.XXXXXX")
rank=0
while [ "$rank" -lt "$world" ]; do
    name=$(printf "rank%0${width}d" "$rank")
    if [ $((rank / 8 % 2)) = 0 ]; then
        worker=$((rank % 8))
        eval "trace=\${$((worker + 1))}"
        from="\"distributedInfo\": {\"backend\": \"nccl\", \"rank\": $worker, \"world_size\": 8}"
        to="\"distributedInfo\": {\"backend\": \"nccl\", \"rank\": $rank, \"world_size\": $world}"
        gzip -dc "$trace" | sed "s/$from/$to/" | gzip -n >"$out/$name.pt.trace.json.gz"
        gzip -dc "$out/$name.pt.trace.json.gz" | grep -q "$to" || {
            echo "$trace: no \"$from\" to rewrite" >&2
            exit 1
        }
    else
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
    fi
    rank=$((rank + 1))
done
rm -r "$generated"
