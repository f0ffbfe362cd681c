#!/bin/sh
# Retakes every screenshot of the README (resources/screenshots/) with a built viewer, under Xvfb
# (Debian's xvfb), from the bundled example and the traces in tests/data: no network, nothing
# outside the repository. Run it whenever the viewer's look changes, then look at the images.
# usage: tools/readme_screenshots.sh BUILD_DIR
set -eu
cd "$(dirname "$0")/.."
build=$(realpath "${1:?usage: tools/readme_screenshots.sh BUILD_DIR}")
viewer=$build/app/stackline/stackline
out=resources/screenshots
example=resources/example/example.pt.trace.json
corpus=tests/data/corpus
bert() { echo "$corpus/$1_gaunernst_bert-small-uncased__1016001/trace.json.gz"; }
XDG_RUNTIME_DIR=$(mktemp -d)
chmod 0700 "$XDG_RUNTIME_DIR"
export XDG_RUNTIME_DIR
# A fresh settings folder: no remembered layout or recent files change the pictures.
XDG_CONFIG_HOME=$(mktemp -d)
export XDG_CONFIG_HOME
job=$(mktemp -d)
trap 'rm -rf "$XDG_RUNTIME_DIR" "$XDG_CONFIG_HOME" "$job"' EXIT

shot() {  # shot NAME.png ARGS...: the viewer's window once loaded
    png=$1
    shift
    xvfb-run -a -s "-screen 0 1920x1200x24" "$viewer" "$@" --screenshot "$out/$png"
    echo "$out/$png"
}

shot kernel-stack.png "$example" --select 348  # the GPU kernel, not its launcher op
shot hotspots.png "$example" --tab hotspots --hotspot 1
shot selection.png "$example" --range 0:2400 --marker 600 --marker 1500 --show-flows \
    --tab selection
shot flame.png "$example" --tab flame
shot kernel-code.png "$example" --kernel-info resources/example/example.torch_trace.log \
    --select 348 --tab code
shot memory.png "$corpus/before_fix_trace/trace.json" --tab flame
shot eager-stack.png "$(bert h100)" --select 2145 --tab flame
shot steps.png tests/data/param --tab steps --window-size 1400x850
shot diff.png "$(bert h100)" --compare "$(bert mi300)" --tab diff --window-size 1400x850
# The job view of a 1,024-rank job (tests/cli/make_job_ranks.sh's ranks, about a minute to write
# and summarize): one steps --json over all of them, as merge of per-rank results gives it.
sh tests/cli/make_job_ranks.sh "$build/tests/bench/make_trace" tests/data/param "$job/traces" 1024
"$build/app/stackline-cli/stackline-cli" steps "$job"/traces/*.pt.trace.json.gz --jobs 2 --json \
    >"$job/param-1024-ranks.job.json"
shot job.png "$job/param-1024-ranks.job.json" --window-size 1400x850
