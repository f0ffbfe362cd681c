#!/usr/bin/env python3
"""Per-step figures of the ranks of one job, computed from the traces' JSON alone (no Stackline
code), for the figures tests/core/analysis/tst_job_steps.cpp hard-codes.

usage: job_steps_expected.py FOLDER    (every *.json.gz in it is one rank, by file name)

Definitions (core/analysis/job_steps.h), in integer ns: a step is a ProfilerStep#N span; a kernel belongs
to the step holding its launch, the cuda_runtime call with the same args.correlation (Stackline
follows the ac2g flow instead), else to the step holding its start; collective kernels are the
NCCL/RCCL ones; compute and collective times are the unions of their kernels' spans; idle time is
the step's span less the time in it when any kernel of the trace runs; the
collectives of a step are matched across ranks by their order, and the straggler is the rank that
alone starts the most of them last on the clock axis (baseTimeNanoseconds + ts), then the one latest in
total; a collective's skew is its last rank's start minus its first's on that axis.
"""
import glob
import gzip
import json
import sys


def union(spans):
    total, end = 0, None
    for b, e in sorted(spans):
        if end is None or b > end:
            total, end = total + e - b, e
        elif e > end:
            total, end = total + e - end, e
    return total


def collective(name):
    return "nccl" in name.lower() or "rccl" in name.lower()


def rank_steps(path):
    with gzip.open(path) as f:
        trace = json.load(f)
    events = trace["traceEvents"]
    steps = [(e["ts"] * 1000, (e["ts"] + e["dur"]) * 1000, int(e["name"].split("#")[1]))
             for e in events
             if e.get("ph") == "X" and e.get("name", "").startswith("ProfilerStep#")]
    launches = {e["args"]["correlation"]: e["ts"] * 1000 for e in events
                if e.get("ph") == "X" and e.get("cat") == "cuda_runtime"
                and "correlation" in e.get("args", {})}

    def step_at(t):
        return next((n for b, e, n in steps if b <= t < e), None)

    kernels, busy = {}, []
    for e in events:
        if e.get("ph") != "X" or e.get("cat") not in ("kernel", "Kernel"):
            continue
        start, end = e["ts"] * 1000, (e["ts"] + e["dur"]) * 1000
        busy.append((start, end))
        launch = launches.get(e.get("args", {}).get("correlation"))
        step = step_at(launch) if launch is not None else None
        step = step if step is not None else step_at(start)
        if step is not None:
            kind = "collective" if collective(e["name"]) else "compute"
            kernels.setdefault(step, {"compute": [], "collective": []})[kind].append((start, end))
    out = {}
    for b, e, n in steps:
        k = kernels.get(n, {"compute": [], "collective": []})
        starts = sorted(s for s, _ in k["collective"])
        out[n] = {"duration": e - b, "compute": union(k["compute"]),
                  "collective": union(k["collective"]), "first": starts[0] if starts else 0,
                  "idle": e - b - union([(max(s, b), min(t, e)) for s, t in busy if s < e and t > b]),
                  "starts": starts}
    return trace.get("distributedInfo", {}).get("rank"), trace.get("baseTimeNanoseconds", 0), out


def main():
    ranks = [rank_steps(p) for p in sorted(glob.glob(sys.argv[1] + "/*.json.gz"))]
    for n in sorted({n for _, _, steps in ranks for n in steps}):
        have = [(i, base, steps[n]) for i, (_, base, steps) in enumerate(ranks) if n in steps]
        last, late, skews = [0] * len(ranks), [0] * len(ranks), []
        for k in range(max(len(s["starts"]) for _, _, s in have)):
            starts = [(s["starts"][k] + base, i) for i, base, s in have if k < len(s["starts"])]
            if len(starts) < 2:
                continue
            earliest = min(t for t, _ in starts)
            latest = max(t for t, _ in starts)
            skews.append(latest - earliest)
            if [t for t, _ in starts].count(latest) == 1:
                last[next(i for t, i in starts if t == latest)] += 1
            for t, i in starts:
                late[i] += t - earliest
        straggler = max((i for i, _, _ in have), key=lambda i: (last[i], late[i], -i))
        print(f"step {n}: straggler {straggler}, collective skews {skews}")
        for i, _, s in have:
            print(f"  trace {i} (rank {ranks[i][0]}): duration {s['duration']} compute "
                  f"{s['compute']} collective {s['collective']} idle {s['idle']} first collective "
                  f"{s['first']}")


if __name__ == "__main__":
    main()
