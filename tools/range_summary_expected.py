#!/usr/bin/env python3
"""Expected figures of `stackline-cli summary TRACE --range START_US:END_US --json`, computed
from the trace's JSON alone (no Stackline code), for tests/core/analysis/tst_range_summary.cpp.

usage: range_summary_expected.py TRACE START_US END_US > tests/data/range_summary/NAME.json

Definitions (README "Range summary"): times in integer ns; the origin is the smallest ts of the
events other than metadata; an X slice counts when it overlaps [start, end) and is clipped to it;
self time is the clipped wall time minus that of the slices nested directly inside it on its
(pid, tid), never below 0; a stream is a (pid, tid) with kernels, memory copies or sets; its
compute/communication overlap is the time its non-NCCL/RCCL kernels run while an NCCL/RCCL kernel
runs on any stream of the same pid.
"""
import gzip
import json
import sys
from decimal import ROUND_HALF_EVEN, Decimal

KERNEL = {"kernel", "Kernel"}
MEMORY = {"gpu_memcpy", "gpu_memset", "Memcpy", "Memset"}


def ns(value):
    if isinstance(value, bool) or not isinstance(value, (int, Decimal)):
        return None
    return int((Decimal(value) * 1000).to_integral_value(ROUND_HALF_EVEN))


def key(value):
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return value


def union(intervals):
    out = []
    for b, e in sorted(intervals):
        if e <= b:
            continue
        if out and b <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([b, e])
    return out


def measure(intervals):
    return sum(e - b for b, e in intervals)


def intersect(a, b):
    return sum(max(0, min(x[1], y[1]) - max(x[0], y[0])) for x in a for y in b)


def is_comm(name):
    return "nccl" in name.lower() or "rccl" in name.lower()


def main():
    path, start_us, end_us = sys.argv[1], Decimal(sys.argv[2]), Decimal(sys.argv[3])
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        events = json.load(f, parse_float=Decimal)["traceEvents"]
    timed = [e for e in events if e.get("ph") != "M" and ns(e.get("ts")) is not None]
    origin = min(ns(e["ts"]) for e in timed)
    lo, hi = origin + ns(start_us), origin + ns(end_us)

    tracks = {}
    for row, e in enumerate(timed):
        if e.get("ph") != "X":
            continue
        b = ns(e["ts"])
        d = max(0, ns(e.get("dur")) or 0)
        name = e.get("name") if isinstance(e.get("name"), str) else ""
        cat = e.get("cat") if isinstance(e.get("cat"), str) else ""
        tracks.setdefault((key(e.get("pid")), key(e.get("tid"))), []).append((b, b + d, row, name, cat))

    def overlaps(b, e):
        return b < hi and e >= lo and (e > b or b >= lo)

    def clip(b, e):
        return max(0, min(hi, e) - max(lo, b))

    totals = {}
    for (pid, _), slices in tracks.items():
        inside = sorted((s for s in slices if overlaps(s[0], s[1])), key=lambda s: (s[0], -s[1], s[2]))
        for i, s in enumerate(inside):
            # Direct children: enclosed by s with no other enclosing slice between them.
            children = 0
            for j in range(i + 1, len(inside)):
                c = inside[j]
                if c[0] > s[1]:
                    break
                if c[1] > s[1]:
                    continue
                parents = [p for p in inside[:j] if p[0] <= c[0] and c[1] <= p[1]]
                if parents and parents[-1] is s:
                    children += clip(c[0], c[1])
            t = totals.setdefault((str(pid), s[3]), {"count": 0, "wall_ns": 0, "self_ns": 0})
            wall = clip(s[0], s[1])
            t["count"] += 1
            t["wall_ns"] += wall
            t["self_ns"] += max(0, wall - children)

    comm = {}
    for (pid, _), slices in tracks.items():
        comm.setdefault(pid, []).extend(
            (max(lo, b), min(hi, e)) for b, e, _, name, cat in slices if cat in KERNEL and is_comm(name))
    streams = []
    for (pid, tid), slices in sorted(tracks.items(), key=lambda kv: (str(kv[0][0]), str(kv[0][1]))):
        if not any(s[4] in KERNEL or s[4] in MEMORY for s in slices):
            continue
        busy = measure(union((max(lo, b), min(hi, e)) for b, e, _, _, cat in slices if cat in KERNEL | MEMORY))
        compute = union((max(lo, b), min(hi, e)) for b, e, _, name, cat in slices
                        if cat in KERNEL and not is_comm(name))
        streams.append({"pid": str(pid), "tid": str(tid), "busy_ns": busy, "idle_ns": hi - lo - busy,
                        "comm_overlap_ns": intersect(compute, union(comm[pid]))})

    slices = [{"pid": pid, "name": name, "count": t["count"], "wall_ns": t["wall_ns"],
               "average_ns": t["wall_ns"] // t["count"], "self_ns": t["self_ns"]}
              for (pid, name), t in sorted(totals.items())]
    json.dump({"range": f"{start_us}:{end_us}", "origin_ns": origin, "slices": slices, "streams": streams},
              sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
