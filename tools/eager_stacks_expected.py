#!/usr/bin/env python3
"""Expected eager stacks of a with_stack=True trace, computed from the JSON alone (independently of
Stackline), for tests/core/analysis/tst_eager_stacks.cpp.

A GPU kernel outside compiled regions is launched by the runtime call with the same correlation id;
its stack is the python_function slices enclosing that call on its thread. Writes the number of
such kernels, their total GPU time (us) and, per kernel name, a frame that every kernel of that
name has in its stack (the innermost one they share).

Usage: eager_stacks_expected.py TRACE.json[.gz] > expected.json
"""
import gzip
import json
import sys


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def ns(x):
    return round(float(x) * 1000)


def main():
    events = load(sys.argv[1])["traceEvents"]
    runtime_by_corr = {}
    slices_by_thread = {}
    for e in events:
        if e.get("ph") != "X":
            continue
        cat = e.get("cat")
        key = (e.get("pid"), e.get("tid"))
        if cat in ("cuda_runtime", "cuda_driver"):
            runtime_by_corr.setdefault(e.get("args", {}).get("correlation"), e)
        if cat in ("python_function", "cpu_op"):
            slices_by_thread.setdefault(key, []).append(e)

    def enclosing(e, cat):
        s, t = ns(e["ts"]), ns(e["ts"]) + ns(e.get("dur", 0))
        out = [x for x in slices_by_thread.get((e.get("pid"), e.get("tid")), [])
               if x.get("cat") == cat and ns(x["ts"]) <= s and ns(x["ts"]) + ns(x["dur"]) >= t]
        # innermost first: the latest start, then the shortest
        out.sort(key=lambda x: (-ns(x["ts"]), ns(x["dur"])))
        return out

    count, total, stacks_by_name = 0, 0.0, {}
    for e in events:
        if e.get("ph") != "X" or e.get("cat") != "kernel":
            continue
        launch = runtime_by_corr.get(e.get("args", {}).get("correlation"))
        if launch is None:
            continue
        if any(op["name"].startswith("Torch-Compiled Region") for op in enclosing(launch, "cpu_op")):
            continue
        frames = [x["name"] for x in enclosing(launch, "python_function")]
        if not frames:
            continue
        count += 1
        total += float(e["dur"])
        stacks_by_name.setdefault(e["name"], []).append(frames)

    frame_by_name = {}
    for name, stacks in stacks_by_name.items():
        shared = set(stacks[0]).intersection(*map(set, stacks[1:]))
        frame_by_name[name] = next(f for f in stacks[0] if f in shared)
    json.dump({"trace": sys.argv[1], "count": count, "total_gpu_us": round(total, 3),
               "frame_by_kernel_name": frame_by_name}, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
