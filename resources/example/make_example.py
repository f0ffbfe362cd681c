#!/usr/bin/env python3
"""Regenerates Stackline's bundled example (Python stdlib only, deterministic).

    python3 make_example.py            # writes example.pt.trace.json,
                                       # example.pt.trace.kernel_info.json and
                                       # example.torch_trace.log beside this script
    python3 make_example.py --check    # exits 1 if the committed files differ from a fresh run
    python3 make_example.py --out DIR  # writes into DIR instead

The trace is synthetic but laid out as Kineto (torch.profiler) writes it on an NVIDIA GPU:
pretty-printed events, float microsecond timestamps with 3 decimals, the CPU block (autograd
thread first, then the main thread, each sorted by ts, fwdbwd flows right after their ops),
then the GPU + runtime block in launch order as [gpu activity][f][runtime][s] quads, then
the metadata trailer. It profiles two steps (ProfilerStep#2 and #3) of train() in model.py.

The kernel information has the shape of Inductor's provenance registry
(torch._inductor.debug.get_kernel_information_jsons()): graph keys
"('Torch-Compiled Region: 0/0', False|True)", kernel keys "name:debug_handle", values
{"stack_traces", "post_grad_nodes", "pre_grad_nodes"}. Every stack string is built from
model.py, so line numbers and code always match the bundled source. The stacks use the
path /home/alice/proj/model.py, as if recorded on the author's machine.

example.torch_trace.log is the TORCH_TRACE log of the same compile (example_output_code.py): the
generated module with each kernel's Triton source, autotuning, node mappings and the kernel stack
traces; read as kernel information it gives the registry above.

Deliberate features (see README.md):
- the forward kernels triton_poi_fused_clone_3 and triton_poi_fused_clone_5 and the
  backward kernel triton_poi_fused_clone_6 are left out of the kernel information, so they
  are "unresolved";
- rms_scale_kernel_0 is a hand-written Triton kernel listed by name; its name does not start
  with "triton_", so the reference cannot place it and logs "Kernel rms_scale_kernel_0
  cannot be recognized as a custom kernel or triton kernel..." (twice per step: it is reached
  from its launcher cpu_op and from its cuLaunchKernel);
- the eager input copies, mse_loss, its backward and the AdamW step are outside any compiled
  region;
- the attention softmax line dominates GPU time (forward + backward ~1 ms of ~2 ms per step).
"""
import argparse
import base64
import hashlib
import json
import os
import random
import sys
from contextlib import contextmanager

from example_output_code import LOG_NAME, torch_trace_log
from example_workload import (BACKWARD, BASE_TIME_NS, BATCH_BYTES, BWD_KEY, BWD_TID, FORWARD, FWD_KEY, GPU_PID, HERE,
                              K_ADAMW, K_FILL, K_FOREACH_ADD, K_MEAN, K_MSE, K_MSE_BWD, MAIN_TID, N_PARAMS, PID, STREAM, US)

TRACE_NAME = "example.pt.trace.json"
KINFO_NAME = "example.pt.trace.kernel_info.json"

# ----------------------------------------------------------------------------------------------
# Event model


def kernel_args(regs, smem, blocks_per_sm, warps_per_sm, grid, block, occupancy):
    """A kernel's launch geometry and achieved occupancy, as Kineto writes them in its args."""
    return {"registers per thread": regs, "shared memory": smem, "blocks per SM": blocks_per_sm,
            "warps per SM": warps_per_sm, "grid": grid, "block": block,
            "est. achieved occupancy %": occupancy}


def fmt_us(ns):
    return f"{ns // 1000}.{ns % 1000:03d}"


def inductor_hash(name):
    digest = base64.b32encode(hashlib.sha256(name.encode()).digest()).decode().lower()
    return "c" + digest[:51]


class Ev:
    __slots__ = ("fields", "ts", "dur", "args", "seq", "after")
    _seq = 0

    def __init__(self, fields, ts, dur=None, args=None):
        self.fields, self.ts, self.dur, self.args = fields, ts, dur, args
        Ev._seq += 1
        self.seq = Ev._seq
        self.after = []  # flow events written right after this one


class Gen:
    def __init__(self):
        self.rng = random.Random(20241211)
        self.ext = 480          # External id counter (cpu ops and user annotations)
        self.ev_idx = 0
        self.corr = 18432       # CUPTI correlation id counter
        self.flow = 0           # fwdbwd flow ids
        self.cpu = {MAIN_TID: [], BWD_TID: []}
        self.launches = []      # (runtime event, GPU activity it launched or None), in call order
        self.gpu_free = 0
        self.gpu_annotations = []  # (first launch index, launch count, name, External id)
        self.now = {}
        self.stack = {MAIN_TID: [], BWD_TID: []}

    def jitter(self, us, spread=0.04):
        return int(round(us * US * (1 + self.rng.uniform(-spread, spread))))

    def gap(self, tid, us):
        self.now[tid] += self.jitter(us, 0.25)

    # -- CPU ops ------------------------------------------------------------------------------
    @contextmanager
    def op(self, tid, name, cat="cpu_op", lead=1.0, tail=1.0, extra=None):
        self.gap(tid, lead)
        self.ext += 1
        args = {"External id": self.ext, "Record function id": 0}
        if extra:
            args.update(extra)
        args["Ev Idx"] = self.ev_idx
        self.ev_idx += 1
        fields = {"ph": "X", "cat": cat, "name": name, "pid": PID, "tid": tid}
        ev = Ev(fields, self.now[tid], None, args)
        self.cpu[tid].append(ev)
        self.stack[tid].append(ev)
        yield ev
        self.stack[tid].pop()
        self.gap(tid, tail)
        ev.dur = self.now[tid] - ev.ts

    def leaf(self, tid, name, us, cat="cpu_op", lead=1.0, extra=None):
        with self.op(tid, name, cat, lead=lead, tail=0.0, extra=extra) as ev:
            self.now[tid] += self.jitter(us)
        return ev

    def fwdbwd(self, ev, phase, flow_id):
        f = {"ph": phase, "id": flow_id, "pid": PID, "tid": ev.fields["tid"], "ts": ev.ts,
             "cat": "fwdbwd", "name": "fwdbwd"}
        if phase == "f":
            f["bp"] = "e"
        ev.after.append(f)

    # -- runtime calls and GPU activities -------------------------------------------------------
    def runtime(self, tid, name, us, cat="cuda_runtime", cbid=211, gpu=None, lead=0.8, wait_gpu=False):
        """A CUDA runtime/driver call on `tid`. gpu = (kind, name, µs, extra args) launches a GPU
        activity on the stream (linked by an ac2g flow). wait_gpu: the call returns only after the
        GPU activity has finished (a synchronous copy)."""
        self.gap(tid, lead)
        self.corr += 1
        corr = self.corr
        args = {}
        if self.stack[tid]:
            args["External id"] = self.stack[tid][-1].args["External id"]
        args.update({"cbid": cbid, "correlation": corr})
        rt = Ev({"ph": "X", "cat": cat, "name": name, "pid": PID, "tid": tid}, self.now[tid], None, args)
        gpu_ev = None
        if gpu:
            kind, gname, gus, gargs = gpu
            start = max(rt.ts + self.jitter(4.6, 0.2), self.gpu_free + self.jitter(1.4, 0.3))
            dur = self.jitter(gus, 0.015)
            self.gpu_free = start + dur
            a = {}
            if "External id" in args:
                a["External id"] = args["External id"]
            a.update({"queued": 0, "device": 0, "context": 1, "stream": STREAM, "correlation": corr})
            a.update(gargs)
            gpu_ev = Ev({"ph": "X", "cat": kind, "name": gname, "pid": GPU_PID, "tid": STREAM}, start, dur, a)
        self.now[tid] += self.jitter(us)
        if wait_gpu and gpu_ev is not None:
            self.now[tid] = max(self.now[tid], gpu_ev.ts + gpu_ev.dur + self.jitter(2.5))
        rt.dur = self.now[tid] - rt.ts
        self.launches.append((rt, gpu_ev))
        return rt, gpu_ev

    def eager_kernel(self, tid, us, kernel, gpu_us, geometry):
        """cudaLaunchKernel of an eager ATen kernel; geometry as kernel_args gives it."""
        return self.runtime(tid, "cudaLaunchKernel", us, gpu=("kernel", kernel, gpu_us, geometry))

    def gpu_annotation(self, name, first_launch, count, ext):
        """A gpu_user_annotation spanning the kernels of launches [first_launch, +count)."""
        self.gpu_annotations.append((first_launch, count, name, ext))

    # -- one compiled graph -------------------------------------------------------------------
    def graph(self, tid, kernels):
        first = len(self.launches)
        for kind, name, _handle, us, _stacks, _post, _pre, shape in kernels:
            gx, gy, gz, threads, regs, smem = shape
            occupancy = kernel_args(regs, smem, round(gx * gy * gz / 108, 6),
                                    round(gx * gy * gz * threads / 32 / 108, 6), [gx, gy, gz],
                                    [threads, 1, 1],
                                    min(100, max(6, int(2048 * 100 // max(1, regs * threads)))))
            if kind in ("triton", "user"):
                h = inductor_hash(name)
                warps = threads // 32
                extra = {"kernel_backend": "triton", "kernel_name": name, "grid": f"grid({gx * gy * gz},)",
                         "stream": 0, "num_warps": warps, "num_stages": 1,
                         "kernel_kwargs": "XBLOCK=1" if "_red_" in name or "_per_" in name else "XBLOCK=256",
                         "kernel_file": f"/tmp/torchinductor_alice/{h[1:3]}/{h}.py", "kernel_hash": h}
                if "_red_" in name:
                    extra["kernel_kwargs"] = "XBLOCK=1,R0_BLOCK=2048"
                if kind == "user":
                    extra["kernel_kwargs"] = "BLOCK=256"
                with self.op(tid, name, lead=2.5, tail=1.2, extra=extra):
                    self.now[tid] += self.jitter(14.0, 0.15)
                    self.runtime(tid, "cuLaunchKernel", 6.2, cat="cuda_driver", cbid=307,
                                 gpu=("kernel", name, us, occupancy))
            else:
                aten = "aten::" + kind
                with self.op(tid, "extern_kernels." + kind, lead=2.0, tail=0.9):
                    with self.op(tid, aten, lead=1.6, tail=0.7):
                        self.now[tid] += self.jitter(5.5, 0.2)
                        self.runtime(tid, "cudaLaunchKernel", 5.4, cbid=211,
                                     gpu=("kernel", name, us, occupancy))
            if self.rng.random() < 0.35:  # Inductor allocating the next buffer
                self.leaf(tid, "aten::empty_strided", 2.6, lead=1.0)
        return first

    # -- the training step --------------------------------------------------------------------
    def step(self, n):
        m, b = MAIN_TID, BWD_TID
        with self.op(m, f"ProfilerStep#{n}", cat="user_annotation", lead=3.0, tail=4.0):
            for _ in ("x", "y"):
                with self.op(m, "aten::to", lead=6.0, tail=0.8):
                    with self.op(m, "aten::_to_copy", lead=1.1, tail=0.6):
                        self.leaf(m, "aten::empty_strided", 3.4)
                        with self.op(m, "aten::copy_", lead=1.0, tail=0.7):
                            self.now[m] += self.jitter(2.2)
                            self.runtime(m, "cudaMemcpyAsync", 7.8, cbid=41,
                                         gpu=("gpu_memcpy", "Memcpy HtoD (Pinned -> Device)",
                                              BATCH_BYTES / 24.6e3, {"bytes": BATCH_BYTES,
                                                                     "memory bandwidth (GB/s)": 24.6}))
            self.leaf(m, "TorchDynamo Cache Lookup", 13.8, lead=9.0)
            with self.op(m, "Torch-Compiled Region: 0/0", lead=1.9, tail=5.2):
                with self.op(m, "CompiledFunction", lead=24.0, tail=6.4) as cf:
                    self.flow += 1
                    fwd_flow = self.flow
                    self.fwdbwd(cf, "s", fwd_flow)
                    key = "## Call CompiledFxGraph f5rnz3kqpwjgxo2tlvn3oq4x6mb7dxwiqeuhwzkla6d2yyqcxvhp ##"
                    with self.op(m, key, cat="user_annotation", lead=8.0, tail=2.0, extra={"scope": "user_scope"}) as ann:
                        first = self.graph(m, FORWARD)
                    self.gpu_annotation(key, first, len(FORWARD), ann.args["External id"])
            with self.op(m, "aten::mse_loss", lead=21.0, tail=1.5) as mse:
                self.flow += 1
                mse_flow = self.flow
                self.fwdbwd(mse, "s", mse_flow)
                self.leaf(m, "aten::empty", 1.9)
                self.eager_kernel(m, 5.1, K_MSE, 10.4, kernel_args(16, 0, 37.925926, 151.703705, [4096, 1, 1], [128, 1, 1], 100))
                with self.op(m, "aten::mean", lead=1.4, tail=0.9):
                    self.now[m] += self.jitter(4.0)
                    self.eager_kernel(m, 4.9, K_MEAN, 8.3, kernel_args(32, 16, 1.185185, 18.962963, [128, 1, 1], [32, 16, 1], 30))
            with self.op(m, "aten::ones_like", lead=38.0, tail=0.8):
                with self.op(m, "aten::empty_like", lead=1.0, tail=0.4):
                    self.leaf(m, "aten::empty_strided", 2.3)
                with self.op(m, "aten::fill_", lead=0.8, tail=0.6):
                    self.eager_kernel(m, 4.4, K_FILL, 1.6, kernel_args(16, 0, 0.009259, 0.037037, [1, 1, 1], [128, 1, 1], 0))

            # loss.backward(): the autograd engine's device thread runs it, the main thread waits
            self.now[b] = max(self.now.get(b, 0), self.now[m] + self.jitter(17.0))
            with self.op(b, "autograd::engine::evaluate_function: MseLossBackward0", lead=1.0, tail=1.1,
                         extra={"Sequence number": 40 + n, "Fwd thread id": 0}):
                with self.op(b, "MseLossBackward0", lead=0.9, tail=0.7,
                             extra={"Sequence number": 40 + n, "Fwd thread id": 0}) as mb:
                    self.fwdbwd(mb, "f", mse_flow)
                    with self.op(b, "aten::mse_loss_backward", lead=2.2, tail=0.8):
                        self.leaf(b, "aten::zeros_like", 2.1)
                        self.eager_kernel(b, 5.0, K_MSE_BWD, 12.1,
                                          kernel_args(18, 0, 37.925926, 151.703705, [4096, 1, 1], [128, 1, 1], 100))
            with self.op(b, "autograd::engine::evaluate_function: CompiledFunctionBackward", lead=3.5, tail=2.7,
                         extra={"Sequence number": 39 + n, "Fwd thread id": 0}):
                with self.op(b, "CompiledFunctionBackward", lead=1.3, tail=3.1,
                             extra={"Sequence number": 39 + n, "Fwd thread id": 0}) as cfb:
                    self.fwdbwd(cfb, "f", fwd_flow)
                    key = "## Call CompiledFxGraph fq7hyd2lmu4vcyy6uak3spzr5wnoqbg2tl3ivkcxjhs5mzvxo4fe ##"
                    with self.op(b, key, cat="user_annotation", lead=11.0, tail=2.2, extra={"scope": "user_scope"}) as ann:
                        first = self.graph(b, BACKWARD)
                    self.gpu_annotation(key, first, len(BACKWARD), ann.args["External id"])
            for _ in range(N_PARAMS):
                with self.op(b, "autograd::engine::evaluate_function: torch::autograd::AccumulateGrad", lead=1.6, tail=0.6):
                    with self.op(b, "torch::autograd::AccumulateGrad", lead=0.7, tail=0.5):
                        with self.op(b, "aten::detach", lead=0.9, tail=0.3):
                            self.leaf(b, "detach", 0.8, lead=0.5)
            self.now[m] = max(self.now[m], self.now[b]) + self.jitter(14.0)

            with self.op(m, "Optimizer.step#AdamW.step", cat="user_annotation", lead=6.0, tail=3.0):
                with self.op(m, "aten::_foreach_add_", lead=9.0, tail=1.0):
                    self.now[m] += self.jitter(6.0)
                    self.eager_kernel(m, 5.2, K_FOREACH_ADD, 2.2,
                                      kernel_args(30, 0, 0.009259, 0.148148, [1, 1, 1], [512, 1, 1], 0))
                with self.op(m, "aten::_fused_adamw_", lead=4.0, tail=1.5):
                    self.now[m] += self.jitter(11.0)
                    self.eager_kernel(m, 5.6, K_ADAMW, 24.8, kernel_args(56, 0, 0.296296, 4.740741, [32, 1, 1], [512, 1, 1], 7))
            with self.op(m, "Optimizer.zero_grad#AdamW.zero_grad", cat="user_annotation", lead=5.0, tail=1.0):
                self.now[m] += self.jitter(11.0)
            if n % 2:  # print(f"step {step}: loss {loss.item():.4f}")
                with self.op(m, "aten::item", lead=7.0, tail=0.7):
                    with self.op(m, "aten::_local_scalar_dense", lead=1.2, tail=0.9):
                        self.runtime(m, "cudaMemcpyAsync", 6.0, cbid=41, wait_gpu=True,
                                     gpu=("gpu_memcpy", "Memcpy DtoH (Device -> Pageable)", 1.3,
                                          {"bytes": 4, "memory bandwidth (GB/s)": 0.003}))
                        self.runtime(m, "cudaStreamSynchronize", 2.1, cbid=131)
        self.now[m] += self.jitter(28.0)  # prof.step()

    # -- output -------------------------------------------------------------------------------
    def build(self):
        t0 = 3917402218453127  # ns: first event of the profile window
        self.now = {MAIN_TID: t0, BWD_TID: t0}
        window_start = t0 - 412_318
        for n in (2, 3):
            self.step(n)
        end = max(max(self.now.values()), self.gpu_free) + 311_904

        events = []
        for tid in (BWD_TID, MAIN_TID):  # Kineto writes the autograd thread's block first
            for ev in sorted(self.cpu[tid], key=lambda e: (e.ts, e.seq)):
                events.append(ev)
        order = sorted(range(len(self.launches)), key=lambda i: (self.launches[i][0].ts, self.launches[i][0].seq))
        graph_ranges = self._graph_ranges()
        for i in order:
            rt, gpu = self.launches[i]
            if i in graph_ranges:
                name, ext, lo, hi = graph_ranges[i]
                events.append(Ev({"ph": "X", "cat": "gpu_user_annotation", "name": name, "pid": GPU_PID,
                                  "tid": STREAM}, lo - 1, hi - lo + 2, {"External id": ext}))
            if gpu is not None:
                gpu.after.append({"ph": "f", "id": gpu.args["correlation"], "pid": GPU_PID, "tid": STREAM,
                                  "ts": gpu.ts, "cat": "ac2g", "name": "ac2g", "bp": "e"})
                rt.after.append({"ph": "s", "id": rt.args["correlation"], "pid": PID, "tid": rt.fields["tid"],
                                 "ts": rt.ts, "cat": "ac2g", "name": "ac2g"})
                events.append(gpu)
            events.append(rt)
        return self._document(events, window_start, end)

    def _graph_ranges(self):
        out = {}
        for first, n, name, ext in self.gpu_annotations:
            kernels = [g for _, g in self.launches[first:first + n]]
            lo = min(g.ts for g in kernels)
            hi = max(g.ts + g.dur for g in kernels)
            out[first] = (name, ext, lo, hi)
        return out

    def _document(self, events, window_start, end):
        meta_ts = window_start + 377_552
        trailer = []

        def meta(name, pid, tid, key, value):
            trailer.append({"name": name, "ph": "M", "ts": meta_ts, "pid": pid, "tid": tid, "args": {key: value}})

        meta("process_name", PID, 0, "name", "python3")
        meta("process_labels", PID, 0, "labels", "CPU")
        meta("process_sort_index", PID, 0, "sort_index", PID)
        meta("process_name", GPU_PID, 0, "name", "python3")
        meta("process_labels", GPU_PID, 0, "labels", "GPU 0")
        meta("process_sort_index", GPU_PID, 0, "sort_index", 5000000)
        meta("thread_name", GPU_PID, STREAM, "name", f"stream {STREAM} ")
        meta("thread_sort_index", GPU_PID, STREAM, "sort_index", STREAM)
        for tid in (MAIN_TID, BWD_TID):
            meta("thread_name", PID, tid, "name", f"thread {tid} (python3)")
            meta("thread_sort_index", PID, tid, "sort_index", tid)

        out = []
        for ev in events:
            out.append(render_event(ev))
            out.extend(render_plain(f) for f in ev.after)
        out.extend(render_plain(t) for t in trailer)
        out.append(render_event(Ev({"ph": "X", "cat": "Trace", "pid": "Spans",
                                    "tid": "PyTorch Profiler", "name": "PyTorch Profiler (0)"},
                                   window_start, end - window_start, {"Op count": 0})))
        out.append(render_plain({"name": "process_sort_index", "ph": "M", "ts": window_start, "pid": "Spans",
                                 "tid": 0, "args": {"sort_index": 536870912}}))
        out.append(render_plain({"name": "Iteration Start: PyTorch Profiler", "ph": "i", "s": "g",
                                 "pid": "Traces", "tid": "Trace PyTorch Profiler", "ts": window_start}))
        out.append(render_plain({"name": "Record Window End", "ph": "i", "s": "g", "pid": "", "tid": "",
                                 "ts": end}))

        device = ('    {\n'
                  '      "id": 0, "name": "NVIDIA A100-SXM4-40GB", "totalGlobalMem": 42298834944,\n'
                  '      "computeMajor": 8, "computeMinor": 0,\n'
                  '      "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048,\n'
                  '      "regsPerBlock": 65536, "warpSize": 32,\n'
                  '      "sharedMemPerBlock": 49152, "numSms": 108\n'
                  '    , "regsPerMultiprocessor": 65536, "sharedMemPerBlockOptin": 166912, '
                  '"sharedMemPerMultiprocessor": 167936\n'
                  '    }\n')
        head = ('{\n  "schemaVersion": 1,\n  "deviceProperties": [\n' + device + '  ],\n'
                '  "cupti_version": 22,\n  "cuda_runtime_version": 12040,\n  "cuda_driver_version": 12040,\n'
                '  "trace_id": "8F1C2E5A0B7D4C39A6E0D2F41B9C7E13",\n'
                '  "displayTimeUnit": "ms",\n  "baseTimeNanoseconds": ' + str(BASE_TIME_NS) + ',\n'
                '  "traceEvents": [\n')
        # inductor_trace_handler names the file "<worker>.<time.time_ns()>.pt.trace.json" right after the window
        written_ns = BASE_TIME_NS + end + 412_337_901
        tail = f'\n  ],\n  "traceName": "traces/example.{written_ns}.pt.trace.json"\n}}\n'
        return head + ",\n".join(out) + tail


def _value(v):
    return json.dumps(v, ensure_ascii=True)


def render_event(ev):
    f = dict(ev.fields)
    head = ", ".join(f"{json.dumps(k)}: {_value(v)}" for k, v in f.items() if k not in ("ts", "dur"))
    lines = ["  {", f"    {head},", f'    "ts": {fmt_us(ev.ts)}, "dur": {fmt_us(ev.dur)}']
    if ev.args is not None:
        lines[-1] += ","
        body = ", ".join(f"{json.dumps(k)}: {_value(v)}" for k, v in ev.args.items())
        lines += ['    "args": {', f"      {body}", "    }"]
    lines.append("  }")
    return "\n".join(lines)


def render_plain(d):
    parts = []
    for k, v in d.items():
        if k == "args":
            continue
        parts.append(f"{json.dumps(k)}: {fmt_us(v) if k == 'ts' else _value(v)}")
    lines = ["  {", "    " + ", ".join(parts) + ("," if "args" in d else "")]
    if "args" in d:
        body = ", ".join(f"{json.dumps(k)}: {_value(v)}" for k, v in d["args"].items())
        lines += ['    "args": {', f"      {body}", "    }"]
    lines.append("  }")
    return "\n".join(lines)


def kernel_info():
    def graph(kernels):
        out = {}
        for kind, name, handle, _us, stacks, post, pre, _shape in kernels:
            if handle is None:
                continue  # deliberately left out: the kernel stays unresolved
            key = f"{name if kind in ('triton', 'user') else 'extern_kernels.' + kind}:{handle}"
            out[key] = {"stack_traces": stacks, "post_grad_nodes": post, "pre_grad_nodes": pre}
        return out
    return {FWD_KEY: graph(FORWARD), BWD_KEY: graph(BACKWARD)}


def render_all():
    trace = Gen().build()
    kinfo = json.dumps(kernel_info(), indent=2) + "\n"
    log = torch_trace_log(lambda name: f"/tmp/torchinductor_alice/{inductor_hash(name)[1:3]}/{inductor_hash(name)}.py")
    return {TRACE_NAME: trace, KINFO_NAME: kinfo, LOG_NAME: log}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=HERE, help="output folder (default: beside this script)")
    ap.add_argument("--check", action="store_true", help="compare with the files in --out instead of writing")
    a = ap.parse_args()
    files = render_all()
    for name, text in files.items():
        if name.endswith(".json"):
            json.loads(text)  # the trace and the registry must be valid JSON
        path = os.path.join(a.out, name)
        if a.check:
            try:
                with open(path, encoding="utf-8") as f:
                    same = f.read() == text
            except OSError:
                same = False
            if not same:
                print(f"{path} differs from a fresh run of make_example.py", file=sys.stderr)
                return 1
        else:
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
            print(f"wrote {path} ({len(text.encode())} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
