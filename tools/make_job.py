#!/usr/bin/env python3
"""Writes a small distributed job, one Kineto trace per rank, and what its Steps view must show,
from the job's own model (not from Stackline's output): tests/data/job/.

usage: make_job.py OUT_FOLDER

The model, in integer ns on one global clock: 4 ranks run 3 profiler steps (ProfilerStep#4..6).
Each rank's host clock has its own baseTimeNanoseconds, and its trace records ts = global time -
its base. In each step the CPU launches, within its short ProfilerStep span, the rank's compute
kernels (a chain on stream 7, one more on stream 8 overlapping it) and then two NCCL all-reduces
on stream 20; the CPU step ends long before its kernels run, and the next step's CPU span starts
while they still run, so only their launches say which step they belong to. An all-reduce starts
on a rank when its compute is done and ends on every rank at once, when the last rank has joined
plus its transfer time. So the rank with the most compute in a step joins last: it is the step's
straggler (rank 2, then 0, then 3) and waits least.

expected.json holds, per step and rank, the CPU step's duration, the union of its compute kernels
and of its all-reduces, the first all-reduce's start (own time) and the straggler; and the offsets
that put every rank on one axis by clock, by the start of step 5 and by the first collective.
"""
import json
import os
import sys

RANKS = 4
STEPS = [4, 5, 6]
US = 1000
BASE = 1_700_000_000_000_000_000
# Each host's clock: its own base; the recorded ts are global time minus it.
BASES = [BASE + r * 1_000_000_000 + r * 123_457 for r in range(RANKS)]
GLOBAL_START = BASE + 5_000_000_000
# Compute per step and rank (µs): the largest of a step is its straggler.
COMPUTE_US = [[1000, 1200, 2500, 1100], [2600, 1000, 1300, 1200], [1100, 1000, 1200, 2700]]
CHAIN = [0.5, 0.3, 0.2]  # how a rank's compute splits into the kernels of stream 7
TRANSFER_US = [150, 90]  # the two all-reduces' own time once every rank has joined
CPU_STEP_US = 200  # about each ProfilerStep span (longer on later ranks); the next follows it
LAUNCH_US = 5  # a cudaLaunchKernel's own duration
LAUNCH_GAP_US = 10  # between launches
QUEUE_US = 3  # from a launch to the earliest start of its kernel


def union(spans):
    total, end = 0, None
    for b, e in sorted(spans):
        if end is None or b > end:
            total, end = total + e - b, e
        elif e > end:
            total, end = total + e - end, e
    return total


def ts(ns):  # µs with three decimals: exact in ns
    return f"{ns // 1000}.{ns % 1000:03d}"


class Rank:
    def __init__(self, r):
        self.r, self.events, self.correlation = r, [], 1000 * (r + 1)
        self.pid = self.tid = 4000 + r

    def x(self, name, cat, pid, tid, start, dur, args=None):
        e = f'{{"ph": "X", "cat": "{cat}", "name": "{name}", "pid": {pid}, "tid": {tid}, ' \
            f'"ts": {ts(start - BASES[self.r])}, "dur": {ts(dur)}'
        self.events.append(e + (f', "args": {json.dumps(args)}}}' if args else "}"))

    def launch(self, at, kernel, stream, start, dur, extra=None):
        """A runtime call at global time `at` launching `kernel`, run at `start` for `dur`."""
        self.correlation += 1
        c = self.correlation
        self.x("cudaLaunchKernel", "cuda_runtime", self.pid, self.tid, at, LAUNCH_US * US,
               {"External id": c, "correlation": c})
        self.events.append(f'{{"ph": "s", "id": {c}, "pid": {self.pid}, "tid": {self.tid}, '
                           f'"ts": {ts(at - BASES[self.r])}, "cat": "ac2g", "name": "ac2g"}}')
        self.x(kernel, "kernel", 0, stream, start, dur,
               {"External id": c, "correlation": c, "device": 0, "stream": stream, **(extra or {})})
        self.events.append(f'{{"ph": "f", "id": {c}, "pid": 0, "tid": {stream}, '
                           f'"ts": {ts(start - BASES[self.r])}, "cat": "ac2g", "name": "ac2g", '
                           f'"bp": "e"}}')

    def write(self, path):
        top = [f'"distributedInfo": {{"backend": "nccl", "rank": {self.r}, "world_size": {RANKS}}}',
               f'"baseTimeNanoseconds": {BASES[self.r]}']
        events = '"traceEvents": [\n' + ",\n".join(self.events) + "\n]"
        # Key order varies between writers: half the ranks put their members after the events.
        members = ['"schemaVersion": 1'] + (top + [events] if self.r % 2 == 0 else [events] + top)
        with open(path, "w") as f:
            f.write("{\n" + ",\n".join(members) + ',\n"traceName": "rank' + str(self.r) + '"\n}\n')


def main():
    out = sys.argv[1]
    ranks = [Rank(r) for r in range(RANKS)]
    gpu_free = [GLOBAL_START] * RANKS  # when each rank's streams are done with earlier work
    expected = {"steps": [], "offsets": {}}
    first_collective = [None] * RANKS
    step5_start = [0] * RANKS
    seq = 0
    cpu_start = [GLOBAL_START + r * 7 * US for r in range(RANKS)]
    for s, step in enumerate(STEPS):
        cpu_step = [(CPU_STEP_US + 13 * r + 5 * s) * US for r in range(RANKS)]
        figures = [{} for _ in range(RANKS)]
        joined = [[0] * len(TRANSFER_US) for _ in range(RANKS)]
        collective_launch = [[0] * len(TRANSFER_US) for _ in range(RANKS)]
        for r, rank in enumerate(ranks):
            at = cpu_start[r] + LAUNCH_GAP_US * US
            rank.x(f"ProfilerStep#{step}", "user_annotation", rank.pid, rank.tid, cpu_start[r],
                   cpu_step[r])
            if step == 5:
                step5_start[r] = cpu_start[r] - BASES[r]
            compute, t = [], gpu_free[r]
            for i, share in enumerate(CHAIN):
                dur = int(COMPUTE_US[s][r] * share) * US
                start = max(t, at + QUEUE_US * US)
                rank.launch(at, f"void gemm_kernel_{i}<float>(float*)", 7, start, dur)
                compute.append((start, start + dur))
                if i == 0:  # a side kernel on stream 8 that outlasts the chain's first kernel
                    side = (start + 100 * US, start + 100 * US + dur)
                    rank.launch(at + US, "void side_kernel<float>(float*)", 8, side[0], dur)
                    compute.append(side)
                t = start + dur
                at += LAUNCH_GAP_US * US
            figures[r]["compute"] = union(compute)
            figures[r]["duration"] = cpu_step[r]
            joined[r][0] = max(t, at + QUEUE_US * US)
            for k in range(len(TRANSFER_US)):
                collective_launch[r][k] = at
                at += LAUNCH_GAP_US * US
        # The all-reduces: each starts on a rank when it joins and ends when the last rank has.
        for k, transfer in enumerate(TRANSFER_US):
            end = max(joined[r][k] for r in range(RANKS)) + transfer * US
            for r, rank in enumerate(ranks):
                start = joined[r][k]
                rank.launch(collective_launch[r][k],
                            "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
                            20, start, end - start,
                            {"Collective name": "allreduce", "Process Group Name": "0",
                             "Seq": seq, "In msg nelems": 1 << 20})
                figures[r].setdefault("collectives", []).append((start, end))
                if k + 1 < len(TRANSFER_US):
                    joined[r][k + 1] = end
                if first_collective[r] is None:
                    first_collective[r] = start - BASES[r]
            seq += 1
            for r in range(RANKS):
                gpu_free[r] = end
        cpu_start = [cpu_start[r] + cpu_step[r] for r in range(RANKS)]
        straggler = max(range(RANKS), key=lambda r: COMPUTE_US[s][r])
        expected["steps"].append({"step": step, "straggler": straggler, "ranks": [{
            "duration_ns": f["duration"], "compute_ns": f["compute"],
            "collective_ns": union(f["collectives"]),
            "first_collective_start_ns": min(b for b, _ in f["collectives"]) - BASES[r],
            "collectives": len(f["collectives"])} for r, f in enumerate(figures)]})
    expected["offsets"] = {
        "clock": BASES,
        "step": 5,
        "step_offsets": [step5_start[0] + BASES[0] - step5_start[r] for r in range(RANKS)],
        "first_collective": [first_collective[0] + BASES[0] - first_collective[r]
                             for r in range(RANKS)],
    }
    os.makedirs(out, exist_ok=True)
    for r, rank in enumerate(ranks):
        rank.write(os.path.join(out, f"rank{r}.json"))
    with open(os.path.join(out, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
