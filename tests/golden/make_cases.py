#!/usr/bin/env python3
"""Generate the golden provenance cases in tests/data/golden/.

Each case directory holds
  trace.json        the input Chrome trace (compact JSON; a few are pretty-printed Kineto-style)
  kernel_info.json  the kernel-information registry (graph key -> {kernel key -> value})
  expected.json     the reference oracle's output trace (oracle.py --indent -1)
  result.json       the oracle's --result file (status, error, warnings, annotated)
  about.txt         one line: the quirk / branch the case exercises

The expected files are produced by running the unchanged reference post-processor the project was
given, through its command-line wrapper oracle.py (pass its path); nothing here re-implements it. Hand-written cases also carry
an expectation (status, error type, warning count, which events get which args.stack) that is
asserted against the oracle's output, so a case that stops exercising its quirk fails loudly.

Run from the repository root:
    python3 tests/golden/make_cases.py --oracle PATH/TO/oracle.py
The output directory is wiped and regenerated; the result is deterministic (fixed seeds).
Python 3 standard library only.
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys

OMIT = object()          # "leave this key out of the event"
TAG = "__tag"            # generator-only marker, stripped before writing

R00 = "Torch-Compiled Region: 0/0"


def G(name, backward=False):
    """The reference's graph key: Python repr of a (str, bool) tuple."""
    return str((name, backward))


FW0, BW0 = G(R00), G(R00, True)


def _ev(pairs, extra, tag):
    e = {}
    for k, v in pairs:
        if v is not OMIT:
            e[k] = v
    e.update(extra)
    if tag is not None:
        e[TAG] = tag
    return e


def X(name, ts, dur=OMIT, cat="cpu_op", tid=1, pid=1, args=OMIT, tag=None, ph="X", **extra):
    """A complete ('X') event; any field may be OMIT to leave it out."""
    return _ev((("ph", ph), ("cat", cat), ("name", name), ("pid", pid), ("tid", tid),
                ("ts", ts), ("dur", dur), ("args", args)), extra, tag)


def S(fid, ts=0, tid=1, pid=1, cat="ac2g", name=None, tag=None, ph="s", **extra):
    """A flow start (Kineto writeFlowEvent layout)."""
    return _ev((("ph", ph), ("id", fid), ("pid", pid), ("tid", tid), ("ts", ts), ("cat", cat),
                ("name", cat if name is None else name)), extra, tag)


def F(fid, ts=0, tid=7, pid=0, cat="ac2g", name=None, tag=None, **extra):
    """A flow finish (with bp:e, as Kineto writes it)."""
    return S(fid, ts, tid, pid, cat, name, tag, ph="f", bp="e", **extra)


def region(name=R00, ts=0, dur=1000, tid=1, pid=1, **kw):
    return X(name, ts, dur, tid=tid, pid=pid, **kw)


def launch(kname, ts, ext, corr, tid=1, pid=1, kts=None, kdur=3, ktid=7, kpid=0,
           rt="cuLaunchKernel", rtcat="cuda_driver", launcher=True, ktag=None, ltag=None,
           rtag=None, order="nv"):
    """A triton-style launch: launcher cpu_op, runtime/driver call + ac2g s, GPU kernel + ac2g f.

    order "nv": [launcher][kernel][f][runtime][s] (CUPTI quad); "amd": [launcher][runtime][s][kernel][f].
    """
    kts = ts + 50 if kts is None else kts
    lau = [X(kname, ts, 10, tid=tid, pid=pid, args={"External id": ext}, tag=ltag)] if launcher else []
    kern = [X(kname, kts, kdur, cat="kernel", tid=ktid, pid=kpid,
              args={"External id": ext, "correlation": corr}, tag=ktag),
            F(corr, kts, ktid, kpid)]
    run = [X(rt, ts + 2, 5, cat=rtcat, tid=tid, pid=pid, args={"External id": ext, "correlation": corr},
             tag=rtag),
           S(corr, ts + 2, tid, pid)]
    return lau + (kern + run if order == "nv" else run + kern)


def ops_a_b(a, b, kernels, kdur=1, ktags=(None, "kb")):
    """Ops aten::a and aten::b ((ts, dur) each) and the kernels triton_poi_a and triton_poi_b they
    launch (at the two ts of kernels), linked by External id alone: no runtime call, no flow."""
    return [X("aten::a", *a, args={"External id": 1}),
            X("aten::b", *b, args={"External id": 2}),
            X("triton_poi_a", kernels[0], kdur, cat="kernel", tid=7, pid=0, args={"External id": 1},
              tag=ktags[0]),
            X("triton_poi_b", kernels[1], kdur, cat="kernel", tid=7, pid=0, args={"External id": 2},
              tag=ktags[1])]


def st(*lines):
    return list(lines)


def top(events, layout="kineto", extra=None):
    """Wrap events in a top-level object with one of several key layouts."""
    dev = [{"id": 0, "name": "NVIDIA A100-SXM4-80GB", "totalGlobalMem": 85049802752,
            "computeMajor": 8, "computeMinor": 0}]
    if layout == "plain":
        t = {"traceEvents": events}
    elif layout == "kineto":
        t = {"schemaVersion": 1, "deviceProperties": dev, "cupti_version": 24,
             "cuda_runtime_version": 12060, "with_stack": False, "displayTimeUnit": "ms",
             "baseTimeNanoseconds": 1727743122000000000, "traceEvents": events,
             "traceName": "golden.pt.trace.json"}
    elif layout == "events_first":
        t = {"traceEvents": events, "deviceProperties": dev, "schemaVersion": 1,
             "distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 2},
             "traceName": "golden.pt.trace.json"}
    elif layout == "meta_first":
        t = {"metadata": {"model": "bert", "batch": [1, 2, None], "ok": True},
             "deviceProperties": [], "traceEvents": events, "INFO": ["line a", "line b"],
             "record_shapes": False, "trace_id": None}
    else:
        raise ValueError(layout)
    if extra:
        t.update(extra)
    return t


# --------------------------------------------------------------------------------------------
# Case registry
# --------------------------------------------------------------------------------------------

CASES = []


class Case:
    def __init__(self, name, about, trace, kinfo, expect=None, pretty=False, utf8=False):
        assert name not in {c.name for c in CASES}, name
        assert "\n" not in about
        self.name, self.about, self.trace, self.kinfo = name, about, trace, kinfo
        self.expect, self.pretty, self.utf8 = expect, pretty, utf8
        self.tags = {}
        evs = trace.get("traceEvents") if isinstance(trace, dict) else None
        if isinstance(evs, list):
            for i, e in enumerate(evs):
                if isinstance(e, dict) and TAG in e:
                    t = e.pop(TAG)
                    assert t not in self.tags, (name, t)
                    self.tags[t] = i


def case(name, about, events, kinfo, expect=None, layout="kineto", extra=None, pretty=False, utf8=False):
    c = Case(name, about, top(events, layout, extra), kinfo, expect, pretty, utf8)
    CASES.append(c)
    return c


def ok(stacks=None, warnings=0, **kw):
    d = {"status": "ok", "stacks": stacks or {}, "warnings": warnings}
    d.update(kw)
    return d


def err(prefix):
    return {"status": "error", "error": prefix}


# --------------------------------------------------------------------------------------------
# Hand-written cases
# --------------------------------------------------------------------------------------------

def hand_cases():
    A, B, C, D = st("model.py:7 in forward"), st("model.py:9 in backward"), st("C"), st("D")

    # ---------------------------------------------------------------- basic_ (PyTorch's tests)
    case("basic_flow_triton",
         "PyTorch test: region > aten op > ac2g s > kernel (cat cuda_driver) > ac2g f; exact kernel key",
         [region(ts=0, dur=100),
          X("aten::add", 10, 5),
          S(0, 15, tid=1),
          X("triton_poi_fused_add_0", 20, 5, cat="cuda_driver", tid=2, tag="k"),
          F(0, 20, tid=2)],
         {FW0: {"triton_poi_fused_add_0": {"stack_traces": A, "post_grad_nodes": ["add"],
                                           "pre_grad_nodes": ["add"]}}},
         ok({"k": A}), pretty=True)

    case("basic_external_id_prefix",
         "PyTorch test: kernel found by External id (no flows); kernel key 'name:1' matched by prefix",
         [region(ts=0, dur=100),
          X("triton_poi_fused_add_0", 10, 5, args={"External id": 6}),
          X("triton_poi_fused_add_0", 20, 5, cat="kernel", tid=2, args={"External id": 6}, tag="k")],
         {FW0: {"triton_poi_fused_add_0:1": {"stack_traces": A}}},
         ok({"k": A}))

    case("basic_external_id_single_stack",
         "PyTorch test: hipLaunchKernel op + non-triton kernel 'kernel' gets the graph's only stack (single-stack path)",
         [region(ts=0, dur=100),
          X("hipLaunchKernel", 10, 5, cat="cuda_runtime", args={"External id": 6}),
          X("kernel", 20, 5, cat="kernel", tid=2, args={"External id": 6}, tag="k")],
         {FW0: {"triton_poi_fused_add_0:1": {"stack_traces": A}}},
         ok({"k": A}))

    case("basic_skips_missing_stack",
         "PyTorch test: kernel info dict without stack_traces gives no args.stack",
         [region(ts=0, dur=100),
          X("triton_poi_fused_add_0", 10, 5, args={"External id": 6}),
          X("triton_poi_fused_add_0", 20, 5, cat="kernel", tid=2, args={"External id": 6})],
         {FW0: {"triton_poi_fused_add_0": {"post_grad_nodes": ["add"]}}},
         ok({}))

    qname = "Torch-Compiled Region: odd', True) name"
    case("basic_backward_quoted_region",
         "PyTorch test: region name containing \"', True) \"; backward key str((name+'_backward_0', True)) found by literal_eval prefix scan; CompiledFunctionBackward (fwdbwd dst of the forward op) also gets the single stack",
         [region(qname, ts=0, dur=100),
          X("aten::add", 10, 5),
          S(1, 10, cat="fwdbwd"),
          X("CompiledFunctionBackward", 200, 100, tid=3, tag="cfb"),
          F(1, 200, tid=3, pid=1, cat="fwdbwd"),
          X("aten::mul", 210, 10, tid=3, args={"External id": 6}),
          X("triton_poi_fused_mul_0", 230, 5, cat="kernel", tid=2, args={"External id": 6}, tag="k")],
         {G(qname + "_backward_0", True): {"triton_poi_fused_mul_0": {"stack_traces": B}}},
         ok({"k": B, "cfb": B}), pretty=True)

    case("basic_sparse_flow_ids",
         "PyTorch test: flow id 1_000_000_000 pairs aten::add (src) with the kernel (dst)",
         [region(ts=0, dur=100),
          X("aten::add", 10, 5),
          S(1000000000, 10),
          X("triton_poi_fused_add_0", 20, 5, cat="kernel", tid=2, tag="k"),
          F(1000000000, 20, tid=2)],
         {FW0: {"triton_poi_fused_add_0": A}},
         ok({"k": A}))

    case("basic_kineto_quad",
         "realistic NVIDIA quad [kernel][f][cuLaunchKernel][s] plus launcher cpu_op with shared External id; M trailer",
         [X("TorchDynamo Cache Lookup", 2413669096101.2, 30.5, tid=1670242, pid=1670242),
          region(ts=2413669096141.794, dur=1352.964, tid=1670242, pid=1670242, args={"External id": 2}),
          X("triton_poi_fused_add_cos_sin_0", 2413669097354.058, 95.812, tid=1670242, pid=1670242,
            args={"External id": 3, "kernel_backend": "triton", "grid": "grid(100,)"}),
          X("triton_poi_fused_add_cos_sin_0", 2413669097444.592, 1.76, cat="kernel", pid=0, tid=7,
            args={"External id": 3, "device": 0, "stream": 7, "correlation": 35}, tag="k"),
          F(35, 2413669097444.592, tid=7, pid=0),
          X("cuLaunchKernel", 2413669097399.166, 47.768, cat="cuda_driver", tid=1670242, pid=1670242,
            args={"External id": 3, "cbid": 307, "correlation": 35}),
          S(35, 2413669097399.166, tid=1670242, pid=1670242),
          X("cudaDeviceSynchronize", 2413669097604.098, 16.846, cat="cuda_runtime", tid=1670242,
            pid=1670242, args={"cbid": 165, "correlation": 39}),
          S(39, 2413669097604.098, tid=1670242, pid=1670242),
          X("process_name", 2413669096000.0, OMIT, cat=OMIT, ph="M", pid=0, tid=0, args={"name": "python"}),
          X("thread_name", 2413669096000.0, OMIT, cat=OMIT, ph="M", pid=0, tid=7, args={"name": "stream 7 "}),
          X("PyTorch Profiler (0)", 2413669096038.437, 13123.186, cat="Trace", pid="Spans",
            tid="PyTorch Profiler", args={"Op count": 0}),
          X("Record Window End", 2413669099322.061, OMIT, cat=OMIT, ph="i", pid="", tid="", s="g")],
         {G("Torch-Compiled Region: 0/0"): {"triton_poi_fused_add_cos_sin_0:1": {
             "stack_traces": st('  File "/tmp/x.py", line 5, in fn\n    return torch.sin(x) + torch.cos(x)\n')}}},
         ok({"k": st('  File "/tmp/x.py", line 5, in fn\n    return torch.sin(x) + torch.cos(x)\n')}),
         pretty=True)

    # ---------------------------------------------------------------- empty_ / registry level
    evs = [region(ts=0, dur=100), *launch("triton_poi_fused_add_0", 10, 6, 35)]
    case("empty_registry",
         "empty registry {}: trace returned untouched (no uid, no uid_assigned)",
         evs, {}, ok({}, no_uid=True), pretty=True)
    case("empty_registry_uid_assigned_false",
         "empty registry with uid_assigned:false and stale args.stack in input: everything left as is",
         [region(ts=0, dur=100, args={"stack": ["stale"]}, tag="r"), *launch("triton_poi_fused_add_0", 10, 6, 35)],
         {}, ok({"r": ["stale"]}, no_uid=True), extra={"uid_assigned": False})
    case("empty_trace_events",
         "non-empty registry and traceEvents []: only uid_assigned:true is added",
         [], {FW0: {"triton_poi_fused_add_0": A}}, ok({}), layout="events_first")
    case("empty_graph_dicts",
         "registry whose graph values are empty dicts: region passes the key test, nothing assigned",
         [region(ts=0, dur=100), *launch("triton_poi_fused_add_0", 10, 6, 35)],
         {FW0: {}, BW0: {}}, ok({}))
    case("nomatch_registry_keys",
         "registry keys match no region (other compile id, bare name without tuple, wrong bool): uids only",
         [region(ts=0, dur=100), *launch("triton_poi_fused_add_0", 10, 6, 35)],
         {G("Torch-Compiled Region: 1/0"): {"triton_poi_fused_add_0": A},
          R00: {"triton_poi_fused_add_0": A},
          "('Torch-Compiled Region: 0/0', 0)": {"triton_poi_fused_add_0": A},
          "(\"Torch-Compiled Region: 0/0\", False)": {"triton_poi_fused_add_0": A}},
         ok({}), layout="meta_first")
    case("noflow_external_id_only",
         "no flow events at all (_build_flow_mapping early return); kernels reached by External id only",
         [region(ts=0, dur=100),
          X("triton_poi_fused_add_0", 10, 5, args={"External id": 6}),
          X("triton_poi_fused_add_0", 20, 5, cat="kernel", tid=7, pid=0, args={"External id": 6}, tag="k"),
          X("aten::mm", 30, 5, args={"External id": 7}),
          X("aten::relu", 40, 5)],
         {FW0: {"triton_poi_fused_add_0": A}}, ok({"k": A}))

    # ---------------------------------------------------------------- region_
    case("region_no_compile_id",
         "region named exactly 'Torch-Compiled Region' (no frame id): key ('Torch-Compiled Region', False)",
         [region("Torch-Compiled Region", ts=0, dur=100), *launch("triton_poi_a", 10, 6, 35, ktag="k")],
         {G("Torch-Compiled Region"): {"triton_poi_a": A}}, ok({"k": A}))
    case("region_key_without_false",
         "registry key 'Torch-Compiled Region: 0/0' (not a tuple repr) never matches; region skipped",
         [region(ts=0, dur=100), *launch("triton_poi_a", 10, 6, 35)],
         {R00: {"triton_poi_a": A}, "Torch-Compiled Region: 0/0, False": {"triton_poi_a": A}}, ok({}))
    case("region_name_substring",
         "'Torch-Compiled Region' is a substring test: 'ProfilerStep > Torch-Compiled Region: 0/0 (x)' is a region keyed by its full name",
         [region("pre Torch-Compiled Region: 0/0 (x)", ts=0, dur=100), *launch("triton_poi_a", 10, 6, 35, ktag="k")],
         {G("pre Torch-Compiled Region: 0/0 (x)"): {"triton_poi_a": A}, FW0: {"triton_poi_a": B}},
         ok({"k": A}))
    case("region_cat_not_cpu_op",
         "a 'Torch-Compiled Region' event with cat user_annotation / python_function is not a region",
         [region(ts=0, dur=100, cat="user_annotation"), region(ts=200, dur=100, cat="python_function"),
          *launch("triton_poi_a", 10, 6, 35), *launch("triton_poi_b", 210, 7, 36)],
         {FW0: {"triton_poi_a": A, "triton_poi_b": A}}, ok({}))
    names = ["Torch-Compiled Region: it's 0/0", "Torch-Compiled Region: a\"b'c",
             "Torch-Compiled Region: tab\there\\ é", "Torch-Compiled Region: \x7f\u200b😀 0/1",
             "Torch-Compiled Region: \"dq\" 0/2", "Torch-Compiled Region: \n\r 0/3"]
    evs, ki, exp = [], {}, {}
    for i, n in enumerate(names):
        kn = "triton_poi_r%d" % i
        evs += [region(n, ts=1000 * i, dur=100), *launch(kn, 1000 * i + 10, 10 + i, 40 + i, ktag="k%d" % i)]
        ki[G(n)] = {kn: st("repr %d" % i)}
        exp["k%d" % i] = st("repr %d" % i)
    case("region_name_repr_escapes",
         "graph keys are Python repr: double quotes when name has ' only, \\' when both, \\t \\\\ \\x7f \\u200b \\n \\r escapes, printable unicode kept",
         evs, ki, ok(exp))
    case("region_backward_in_name_no_flow_skipped_empty",
         "region whose name contains 'Backward' but covers nothing: never looked up, no KeyError",
         [region("Torch-Compiled Region: Backward 0/0", ts=0, dur=100), region(ts=200, dur=100),
          *launch("triton_poi_a", 210, 6, 35, ktag="k")],
         {FW0: {"triton_poi_a": A}}, ok({"k": A}))
    case("region_only_bw_key_present",
         "forward region with only its (name, True) key in the registry: not skipped, bw key used first",
         [region(ts=0, dur=100), *launch("triton_poi_a", 10, 6, 35, ktag="k")],
         {BW0: {"triton_poi_a": B}}, ok({"k": B}))
    case("region_forward_tries_bw_first",
         "forward region: _assign_stack tries (name, True) before (name, False), so the bw stack wins",
         [region(ts=0, dur=100), *launch("triton_poi_a", 10, 6, 35, ktag="k")],
         {FW0: {"triton_poi_a": A}, BW0: {"triton_poi_a": B}}, ok({"k": B}))
    case("region_two_graphs_last_write_wins",
         "one kernel reached from two regions (shared External id): the later region in map order overwrites args.stack",
         [region(ts=0, dur=100), region("Torch-Compiled Region: 1/0", ts=200, dur=100),
          X("triton_poi_a", 10, 5, args={"External id": 6}),
          X("triton_poi_a", 210, 5, args={"External id": 6}),
          X("triton_poi_a", 400, 5, cat="kernel", tid=7, pid=0, args={"External id": 6}, tag="k")],
         {FW0: {"triton_poi_a": A}, G("Torch-Compiled Region: 1/0"): {"triton_poi_a": C}},
         ok({"k": C}))
    case("region_map_order_first_cover",
         "regions are processed in the order they first covered an event in file order, not by ts",
         [X("triton_poi_a", 210, 5, args={"External id": 6}),
          X("triton_poi_a", 10, 5, args={"External id": 6}),
          region(ts=0, dur=100), region("Torch-Compiled Region: 1/0", ts=200, dur=100),
          X("triton_poi_a", 400, 5, cat="kernel", tid=7, pid=0, args={"External id": 6}, tag="k")],
         {FW0: {"triton_poi_a": A}, G("Torch-Compiled Region: 1/0"): {"triton_poi_a": C}},
         ok({"k": A}))

    # ---------------------------------------------------------------- tid_
    case("tid_only_grouping_ignores_pid",
         "covered-event grouping uses tid only: op on pid 2 tid 5 is covered by region on pid 1 tid 5",
         [region(ts=0, dur=100, tid=5, pid=1),
          *launch("triton_poi_a", 10, 6, 35, tid=5, pid=2, launcher=False, ktag="ka"),
          *launch("triton_poi_b", 20, 7, 36, tid=6, pid=1, ktag="kb")],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"ka": A}))
    case("tid_gpu_stream_equals_cpu_tid",
         "region on CPU tid 7; gpu_memset on GPU pid 0 stream tid 7 inside its time range is covered (External id -> kernel)",
         [region(ts=0, dur=1000, tid=7, pid=4242),
          X("Memset (Device)", 100, 5, cat="gpu_memset", tid=7, pid=0, args={"External id": 9}),
          X("triton_poi_a", 120, 5, cat="kernel", tid=7, pid=0, args={"External id": 9}, tag="k")],
         {FW0: {"triton_poi_a": A}}, ok({"k": A}))
    case("tid_int_float_equal",
         "tid Python equality: op tid 7.0 is grouped with region tid 7 (and region tid 8.0 with op tid 8)",
         [region(ts=0, dur=100, tid=7),
          *launch("triton_poi_a", 10, 6, 35, tid=7.0, launcher=False, ktag="ka"),
          region(ts=0, dur=100, tid=8.0),
          *launch("triton_poi_b", 10, 7, 36, tid=8, launcher=False, ktag="kb")],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"ka": A, "kb": B}))
    case("tid_string_vs_int",
         "tid '7' (string) differs from 7: op with tid 7 not covered by region tid '7'; op with tid '7' is",
         [region(ts=0, dur=100, tid="7"),
          *launch("triton_poi_a", 10, 6, 35, tid=7, launcher=False, ktag="ka"),
          *launch("triton_poi_b", 20, 7, 36, tid="7", launcher=False, ktag="kb")],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"kb": B}))
    case("tid_bool_equals_one",
         "tid true == 1 in Python: op with tid true covered by region tid 1",
         [region(ts=0, dur=100, tid=1),
          *launch("triton_poi_a", 10, 6, 35, tid=True, launcher=False, ktag="ka")],
         {FW0: {"triton_poi_a": A}}, ok({"ka": A}))
    case("tid_null_groups_missing",
         "region with tid null groups under None, so ops without a tid key (get -> None) are covered",
         [region(ts=0, dur=100, tid=None),
          X("aten::add", 10, 5, tid=OMIT, args={"External id": 6}),
          X("triton_poi_a", 20, 5, cat="kernel", tid=7, pid=0, args={"External id": 6}, tag="k")],
         {FW0: {"triton_poi_a": A}}, ok({"k": A}))
    case("tid_missing_on_op",
         "ops without tid on a trace whose regions have int tids are skipped",
         [region(ts=0, dur=100),
          X("aten::add", 10, 5, tid=OMIT, args={"External id": 6}),
          X("triton_poi_a", 20, 5, cat="kernel", tid=7, pid=0, args={"External id": 6})],
         {FW0: {"triton_poi_a": A}}, ok({}))
    case("tid_string_pids_trailer",
         "Kineto trailer events with string pid/tid ('Spans', '') and a region on string tid 'PyTorch Profiler'",
         [region(ts=0, dur=100, tid="PyTorch Profiler", pid="Spans"),
          X("aten::x", 10, 5, tid="PyTorch Profiler", pid="Spans", args={"External id": 3}),
          X("triton_poi_a", 20, 5, cat="kernel", tid=7, pid=0, args={"External id": 3}, tag="k"),
          X("Record Window End", 50, OMIT, cat=OMIT, ph="i", pid="", tid="", s="g")],
         {FW0: {"triton_poi_a": A}}, ok({"k": A}))

    # ---------------------------------------------------------------- bisect_ (containment)
    case("bisect_same_ts_not_covered",
         "event starting at the same ts as the region is not covered (bisect_left - 1); one 1us later is",
         [region(ts=100, dur=100),
          X("cuLaunchKernel", 100, 5, cat="cuda_driver"), S(35, 100),
          X("cuLaunchKernel", 101, 5, cat="cuda_driver"), S(36, 101),
          X("triton_poi_a", 300, 1, cat="kernel", tid=7, pid=0), F(35, 300),
          X("triton_poi_b", 301, 1, cat="kernel", tid=7, pid=0, tag="kb"), F(36, 301)],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"kb": B}))
    case("bisect_before_first_region",
         "event before the first region on its tid (idx < 0) is not covered",
         [region(ts=100, dur=100), *launch("triton_poi_a", 50, 6, 35)],
         {FW0: {"triton_poi_a": A}}, ok({}))
    case("bisect_nested_only_nearest",
         "nested regions: only the nearest region starting before the op is tested; op outside inner but inside outer is dropped",
         [region(ts=0, dur=1000), region("Torch-Compiled Region: 1/0", ts=100, dur=100),
          *launch("triton_poi_a", 500, 6, 35, launcher=False, ktag="ka"),
          *launch("triton_poi_b", 150, 7, 36, launcher=False, ktag="kb"),
          *launch("triton_poi_c", 50, 8, 37, launcher=False, ktag="kc")],
         {FW0: {"triton_poi_a": A, "triton_poi_b": A, "triton_poi_c": A},
          G("Torch-Compiled Region: 1/0"): {"triton_poi_a": C, "triton_poi_b": C, "triton_poi_c": C}},
         ok({"kb": C, "kc": A}))
    case("bisect_equal_starts_last_wins",
         "two regions with equal ts keep file order after the stable sort; the last one (shorter) is tested, so op is dropped",
         [region(ts=0, dur=1000), region("Torch-Compiled Region: 1/0", ts=0, dur=50),
          *launch("triton_poi_a", 100, 6, 35, launcher=False),
          *launch("triton_poi_b", 10, 7, 36, launcher=False, ktag="kb")],
         {FW0: {"triton_poi_a": A, "triton_poi_b": A},
          G("Torch-Compiled Region: 1/0"): {"triton_poi_a": C, "triton_poi_b": C}},
         ok({"kb": C}))
    case("bisect_equal_starts_last_wins_swapped",
         "same as bisect_equal_starts_last_wins with the file order swapped: the long region is last and covers both ops",
         [region("Torch-Compiled Region: 1/0", ts=0, dur=50), region(ts=0, dur=1000),
          *launch("triton_poi_a", 100, 6, 35, launcher=False, ktag="ka"),
          *launch("triton_poi_b", 10, 7, 36, launcher=False, ktag="kb")],
         {FW0: {"triton_poi_a": A, "triton_poi_b": A},
          G("Torch-Compiled Region: 1/0"): {"triton_poi_a": C, "triton_poi_b": C}},
         ok({"ka": A, "kb": A}))
    case("bisect_end_boundary",
         "containment is ev.end <= region.end: op ending exactly at region end is covered, one ending 0.001 later is not",
         [region(ts=0, dur=100),
          *ops_a_b((90, 10), (90.5, 9.501), (200, 210), kdur=5, ktags=("ka", "kb"))],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"ka": A}))
    case("bisect_dur_missing",
         "dur defaults to 0: op without dur at region end ts is covered; region without dur covers nothing",
         [region(ts=0, dur=100),
          X("aten::a", 100, OMIT, args={"External id": 1}),
          region("Torch-Compiled Region: 1/0", ts=500, dur=OMIT),
          X("aten::b", 500.5, OMIT, args={"External id": 2}),
          X("triton_poi_a", 200, 5, cat="kernel", tid=7, pid=0, args={"External id": 1}, tag="ka"),
          X("triton_poi_b", 510, 5, cat="kernel", tid=7, pid=0, args={"External id": 2}, tag="kb")],
         {FW0: {"triton_poi_a": A}, G("Torch-Compiled Region: 1/0"): {"triton_poi_b": B}},
         ok({"ka": A}))
    case("bisect_unsorted_file",
         "regions and ops appear out of ts order in the file; regions are sorted by start per tid",
         [*launch("triton_poi_c", 2010, 8, 37, launcher=False, ktag="kc"),
          region("Torch-Compiled Region: 2/0", ts=2000, dur=100),
          *launch("triton_poi_a", 10, 6, 35, launcher=False, ktag="ka"),
          region(ts=0, dur=100),
          region("Torch-Compiled Region: 1/0", ts=1000, dur=100),
          *launch("triton_poi_b", 1010, 7, 36, launcher=False, ktag="kb")],
         {FW0: {"triton_poi_a": A}, G("Torch-Compiled Region: 1/0"): {"triton_poi_b": B},
          G("Torch-Compiled Region: 2/0"): {"triton_poi_c": C}},
         ok({"ka": A, "kb": B, "kc": C}))
    nan = float("nan")

    def regions_at(starts):
        return [region("Torch-Compiled Region: %d/0" % i, ts=t, dur=10.0) for i, t in enumerate(starts)]

    def stacks_of(n):
        return {G("Torch-Compiled Region: %d/0" % i): {"triton_poi_a": st("r%d.py:1" % i)} for i in range(n)}

    def launched_at(times):
        evs = []
        for j, t in enumerate(times):
            evs.append(X("triton_poi_a", t, 0.1, args={"External id": 100 + j}))
            evs.append(X("triton_poi_a", t + 100, 0.1, cat="kernel", tid=7, pid=0,
                         args={"External id": 100 + j}, tag="k%d" % j))
        return evs
    case("bisect_nan_starts_insertion",
         "NaN region starts: where Python's sort (an ascending run, then binary insertion) puts them decides which region bisect finds",
         regions_at([nan, 3.0, 3.0, 5.0, nan, 1.0, 3.0, 0.5]) + launched_at([6.0, 3.5, 0.7]),
         stacks_of(8), ok({"k0": st("r6.py:1"), "k1": st("r2.py:1"), "k2": st("r7.py:1")}))
    case("bisect_nan_starts_descending",
         "NaN region starts after a strictly descending run, which Python's sort reverses before inserting the rest",
         regions_at([8.0, 2.0, 2.0, 1.0, nan, nan, 2.0]) + launched_at([9.0, 3.5, 3.5]),
         stacks_of(7), ok({"k0": st("r0.py:1"), "k1": st("r6.py:1"), "k2": st("r6.py:1")}))
    case("bisect_region_covers_region",
         "an inner region is itself a covered cpu_op of the outer one: its External id links a kernel that gets the outer graph's stack",
         [region(ts=0, dur=1000),
          region("Torch-Compiled Region: 1/0", ts=100, dur=100, args={"External id": 5}),
          X("triton_poi_a", 300, 5, cat="kernel", tid=7, pid=0, args={"External id": 5}, tag="k")],
         {FW0: {"triton_poi_a": A}, G("Torch-Compiled Region: 1/0"): {"triton_poi_a": C}},
         ok({"k": A}))

    # ---------------------------------------------------------------- callfrom_ / cat_
    case("callfrom_skip",
         "ops whose args contain the key CallFrom (any value, even null) are never covered",
         [region(ts=0, dur=100),
          X("aten::a", 10, 5, args={"External id": 1, "CallFrom": "x"}),
          X("aten::b", 20, 5, args={"External id": 2, "CallFrom": None}),
          X("aten::c", 30, 5, args={"External id": 3, "callfrom": 1}),
          *[X("triton_poi_%s" % n, 200 + i, 1, cat="kernel", tid=7, pid=0, args={"External id": i + 1},
              tag="k" + n) for i, n in enumerate("abc")]],
         {FW0: {"triton_poi_a": A, "triton_poi_b": A, "triton_poi_c": A}}, ok({"kc": A}))
    case("callfrom_args_string_and_list",
         "'CallFrom' in args also works as substring/list membership: args string containing it or list holding it skip the op",
         [region(ts=0, dur=100),
          X("aten::a", 10, 5, args="see CallFrom here"), S(1, 10),
          X("aten::b", 20, 5, args=["CallFrom"]), S(2, 20),
          X("aten::c", 30, 5, args=[1, 2]), S(3, 30),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, tag="ka"), F(1, 200),
          X("triton_poi_b", 201, 1, cat="kernel", tid=7, pid=0, tag="kb"), F(2, 201),
          X("triton_poi_c", 202, 1, cat="kernel", tid=7, pid=0, tag="kc"), F(3, 202)],
         {FW0: {"triton_poi_a": A, "triton_poi_b": A, "triton_poi_c": A}}, ok({"kc": A}))
    cats = ["cuda_runtime", "cuLaunchKernel", "cpu_op", "cuda_driver", "gpu_memset", "python_function",
            "kernel", "gpu_memcpy", "user_annotation", "gpu_user_annotation", "cpu_instant_event",
            "Kernel", "CPU_OP", OMIT, None]
    evs, ki, exp = [region(ts=0, dur=1000)], {}, {}
    for i, c in enumerate(cats):
        kn = "triton_poi_c%d" % i
        evs += [X("op%d" % i, 10 + 10 * i, 5, cat=c), S(100 + i, 10 + 10 * i),
                X(kn, 2000 + i, 1, cat="kernel", tid=7, pid=0, tag="k%d" % i), F(100 + i, 2000 + i)]
        ki[kn] = st("cat %d" % i)
        if i < 6:
            exp["k%d" % i] = st("cat %d" % i)
    case("cat_covered_list",
         "only cats cuda_runtime, cuLaunchKernel, cpu_op, cuda_driver, gpu_memset, python_function are covered; kernel, gpu_memcpy, others, missing, null are not",
         evs, {FW0: ki}, ok(exp))
    case("cat_culaunchkernel_name",
         "cuLaunchKernel is a name in real traces: name cuLaunchKernel with cat cuda_driver is covered, with cat 'cuda_launch' it is not",
         [region(ts=0, dur=100),
          X("cuLaunchKernel", 10, 5, cat="cuda_driver"), S(1, 10),
          X("cuLaunchKernel", 20, 5, cat="cuda_launch"), S(2, 20),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, tag="ka"), F(1, 200),
          X("triton_poi_b", 201, 1, cat="kernel", tid=7, pid=0), F(2, 201)],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"ka": A}))
    case("cat_kernel_on_cpu_tid_not_covered",
         "kernel and gpu_memcpy events on the region's own tid are never scoped ops (their External ids are not followed)",
         [region(ts=0, dur=100),
          X("triton_poi_x", 10, 5, cat="kernel", args={"External id": 1}),
          X("Memcpy HtoD", 20, 5, cat="gpu_memcpy", args={"External id": 2}),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, args={"External id": 1}),
          X("triton_poi_b", 201, 1, cat="kernel", tid=7, pid=0, args={"External id": 2})],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B, "triton_poi_x": C}}, ok({}))

    # ---------------------------------------------------------------- flow_
    case("flow_nvidia_quad_many",
         "several NVIDIA quads [kernel][f][runtime][s] without launcher ops: every kernel via ac2g",
         [region(ts=0, dur=1000)] + sum([launch("triton_poi_%d" % i, 10 + 20 * i, 10 + i, 50 + i, launcher=False,
                                                ktag="k%d" % i) for i in range(4)], []),
         {FW0: {"triton_poi_%d" % i: st("q%d" % i) for i in range(4)}},
         ok({"k%d" % i: st("q%d" % i) for i in range(4)}))
    evs = [region(ts=0, dur=1000, tid=6240, pid=6240)]
    rt, kk = [], []
    for i in range(3):
        rt += [X("hipModuleLaunchKernel", 10 + 20 * i, 5, cat="cuda_runtime", tid=6240, pid=6240,
                 args={"External id": 9 + i, "correlation": 802 + i}), S(802 + i, 10 + 20 * i, tid=6240, pid=6240)]
        kk += [X("triton_red_%d" % i, 500 + 10 * i, 3, cat="kernel", tid=0, pid=2,
                 args={"correlation": 802 + i}, tag="k%d" % i), F(802 + i, 500 + 10 * i, tid=0, pid=2)]
    case("flow_amd_order",
         "AMD ROCm layout: runtime+s block, then kernel+f block far apart (s before f); stream tid 0",
         evs + rt + [X("aten::other", 900, 1, tid=6240, pid=6240)] + kk,
         {FW0: {"triton_red_%d:%d" % (i, i + 1): st("amd%d" % i) for i in range(3)}},
         ok({"k%d" % i: st("amd%d" % i) for i in range(3)}), pretty=True)
    case("flow_after_flow_f_then_s",
         "TraceLens-style adjacent f,s at the end: the s binds to the f flow event, so the runtime op is not a source",
         [region(ts=0, dur=100),
          X("cuLaunchKernel", 10, 5, cat="cuda_driver"),
          X("triton_poi_a", 50, 5, cat="kernel", tid=7, pid=0),
          F(35, 50), S(35, 10)],
         {FW0: {"triton_poi_a": A}}, ok({}))
    case("flow_after_flow_s_then_f",
         "adjacent s,f: the f binds to the s flow event, which becomes the op's 'kernel' and receives args.stack (args created) via the single-stack path",
         [region(ts=0, dur=100),
          X("cuLaunchKernel", 10, 5, cat="cuda_driver"),
          S(35, 10, tag="flow"), F(35, 10, tid=1, pid=1)],
         {FW0: {"triton_poi_a": A}}, ok({"flow": A}))
    case("flow_after_flow_f_then_s_adjacent",
         "adjacent f,s right after the runtime op: the op becomes a dst and the f flow event the src; nothing is annotated",
         [region(ts=0, dur=100),
          X("cuLaunchKernel", 10, 5, cat="cuda_driver"),
          F(35, 10, tid=1, pid=1), S(35, 10)],
         {FW0: {"triton_poi_a": A}}, ok({}))
    case("flow_first_in_file_ignored",
         "flow events first in the file have no previous event and are ignored (prev stays None for both s and f)",
         [S(5, 0), F(6, 0), region(ts=0, dur=100), X("aten::a", 10, 5), F(5, 10),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0), S(6, 200)],
         {FW0: {"triton_poi_a": A}}, ok({}))
    case("flow_first_f_then_pair",
         "f first in file is ignored; a later complete pair with the same id still links",
         [F(5, 0), region(ts=0, dur=100), X("aten::a", 10, 5), S(5, 10),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, tag="k"), F(5, 200)],
         {FW0: {"triton_poi_a": A}}, ok({"k": A}))
    case("flow_id_collision_ac2g_fwdbwd",
         "ids keyed by int(id) only: fwdbwd id 1 and ac2g id 1 share a slot; the later f overwrites the dst",
         [region(ts=0, dur=100),
          X("aten::a", 10, 5), S(1, 10),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0), F(1, 200),
          X("triton_poi_b", 300, 1, cat="kernel", tid=7, pid=0, tag="kb"), F(1, 300, cat="fwdbwd")],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"kb": B}))
    case("flow_later_s_overwrites",
         "two s with the same id: the later s becomes the source; the earlier op has no flow and no External id",
         [region(ts=0, dur=100),
          X("aten::a", 10, 5), S(4, 10),
          X("aten::b", 20, 5), S(4, 20),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, tag="k"), F(4, 200),
          region("Torch-Compiled Region: 1/0", ts=1000, dur=100), X("aten::c", 1010, 5)],
         {FW0: {"triton_poi_a": A}, G("Torch-Compiled Region: 1/0"): {"triton_poi_a": B}}, ok({"k": A}))
    case("flow_missing_side_dropped",
         "s without f and f without s are dropped; cudaFuncGetAttributes+f and cudaDeviceSynchronize+s link nothing",
         [region(ts=0, dur=100),
          X("cudaFuncGetAttributes", 10, 1, cat="cuda_runtime"), F(8365, 10, tid=1, pid=1),
          X("cudaDeviceSynchronize", 20, 1, cat="cuda_runtime"), S(39, 20),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0), F(40, 200)],
         {FW0: {"triton_poi_a": A, "cudaFuncGetAttributes": A}}, ok({}))
    case("flow_one_src_many_dst",
         "one s and several f (cudaGraphLaunch): the last f wins, earlier kernels get nothing",
         [region(ts=0, dur=100),
          X("triton_poi_a", 5, 1, cat="kernel", tid=7, pid=0), F(9, 5),
          X("triton_poi_b", 6, 1, cat="kernel", tid=7, pid=0, tag="kb"), F(9, 6),
          X("cudaGraphLaunch", 10, 5, cat="cuda_runtime"), S(9, 10)],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"kb": B}))
    case("flow_id_string_numeric",
         "flow id '12' (string) is int('12') == 12 and pairs with int id 12",
         [region(ts=0, dur=100), X("aten::a", 10, 5), S("12", 10),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, tag="k"), F(12, 200)],
         {FW0: {"triton_poi_a": A}}, ok({"k": A}))
    case("flow_id_string_python_int_forms",
         "int() accepts ' 13 ', '1_4', '+15', '-16' and Unicode digits '١٧' (=17): each pairs with its int id",
         [region(ts=0, dur=1000)] + sum([[X("aten::%d" % i, 10 + 10 * i, 5), S(sid, 10 + 10 * i),
                                          X("triton_poi_%d" % i, 200 + i, 1, cat="kernel", tid=7, pid=0,
                                            tag="k%d" % i), F(iid, 200 + i)]
                                         for i, (sid, iid) in enumerate([(" 13 ", 13), ("1_4", 14), ("+15", 15),
                                                                         ("-16", -16), ("١٧", 17)])], []),
         {FW0: {"triton_poi_%d" % i: st("s%d" % i) for i in range(5)}},
         ok({"k%d" % i: st("s%d" % i) for i in range(5)}))
    case("flow_id_float_truncates",
         "float flow id 3.7 -> int 3 pairs with id 3; -0.5 -> 0 pairs with 0",
         [region(ts=0, dur=100), X("aten::a", 10, 5), S(3.7, 10),
          X("aten::b", 20, 5), S(0, 20),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, tag="ka"), F(3, 200),
          X("triton_poi_b", 201, 1, cat="kernel", tid=7, pid=0, tag="kb"), F(-0.5, 201)],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"ka": A, "kb": B}))
    case("flow_id_bool",
         "bool flow ids: true -> 1 pairs with 1, false -> 0 pairs with 0",
         [region(ts=0, dur=100), X("aten::a", 10, 5), S(True, 10),
          X("aten::b", 20, 5), S(0, 20),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, tag="ka"), F(1, 200),
          X("triton_poi_b", 201, 1, cat="kernel", tid=7, pid=0, tag="kb"), F(False, 201)],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"ka": A, "kb": B}))
    case("flow_id_big",
         "big ids are Python ints: 2**64+1 does not collide with 1; float 1e20 equals int 10**20",
         [region(ts=0, dur=100), X("aten::a", 10, 5), S(2 ** 64 + 1, 10),
          X("aten::b", 20, 5), S(1e20, 20),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, tag="ka"), F(2 ** 64 + 1, 200),
          X("triton_poi_b", 201, 1, cat="kernel", tid=7, pid=0, tag="kb"), F(10 ** 20, 201),
          X("triton_poi_c", 202, 1, cat="kernel", tid=7, pid=0), F(1, 202)],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B, "triton_poi_c": C}}, ok({"ka": A, "kb": B}))
    case("flow_ph_other_and_x_flow",
         "flow-typed events with ph other than s/f (ph 't', ph 'X' with cat fwdbwd) become the previous event",
         [region(ts=0, dur=100),
          X("aten::a", 10, 5), S(7, 10, ph="t"), S(7, 10),
          X("aten::b", 20, 5), X("fwd", 20, 1, cat="fwdbwd"), S(8, 20),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0), F(7, 200),
          X("triton_poi_b", 201, 1, cat="kernel", tid=7, pid=0), F(8, 201)],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({}))
    case("flow_name_or_cat",
         "flow detection by name OR cat: name ac2g/cat async and cat fwdbwd/name other are flows; cat ac2g_x is not",
         [region(ts=0, dur=100),
          X("aten::a", 10, 5), S(1, 10, cat="async", name="ac2g"),
          X("aten::b", 20, 5), S(2, 20, cat="fwdbwd", name="link"),
          X("aten::c", 30, 5), S(3, 30, cat="ac2g_x", name="launch"),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, tag="ka"), F(1, 200, cat="x", name="ac2g"),
          X("triton_poi_b", 201, 1, cat="kernel", tid=7, pid=0, tag="kb"), F(2, 201, cat="fwdbwd"),
          X("triton_poi_c", 202, 1, cat="kernel", tid=7, pid=0), F(3, 202)],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B, "triton_poi_c": C}}, ok({"ka": A, "kb": B}))
    case("flow_dst_any_category",
         "flow destinations are used whatever their category: op -> ac2g -> cuda_runtime dst, non-triton, gets single stack",
         [region(ts=0, dur=100), X("aten::a", 10, 5), S(1, 10),
          X("cudaStreamSynchronize", 200, 1, cat="cuda_runtime", tid=3, tag="d"), F(1, 200, tid=3, pid=1)],
         {FW0: {"triton_poi_a": A}}, ok({"d": A}))
    case("flow_src_precedes_external_id",
         "an op that is a flow source uses only its dst, not the kernels sharing its External id",
         [region(ts=0, dur=100), X("aten::a", 10, 5, args={"External id": 3}), S(1, 10),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, tag="ka"), F(1, 200),
          X("triton_poi_b", 201, 1, cat="kernel", tid=7, pid=0, args={"External id": 3})],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"ka": A}))
    case("flow_s_on_metadata_prev",
         "prev_event is any non-flow event (here an M event) : the s binds to it, so the real op is not linked",
         [region(ts=0, dur=100), X("aten::a", 10, 5),
          X("thread_name", 0, OMIT, cat=OMIT, ph="M", args={"name": "t"}), S(1, 10),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0), F(1, 200)],
         {FW0: {"triton_poi_a": A}}, ok({}))

    # ---------------------------------------------------------------- extid_
    case("extid_python_equality",
         "External id dict semantics: op id 1 finds kernels with 1, 1.0 and true; '1' is a different key",
         [region(ts=0, dur=100), X("aten::a", 10, 5, args={"External id": 1}),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, args={"External id": 1}, tag="ka"),
          X("triton_poi_b", 201, 1, cat="kernel", tid=7, pid=0, args={"External id": 1.0}, tag="kb"),
          X("triton_poi_c", 202, 1, cat="kernel", tid=7, pid=0, args={"External id": True}, tag="kc"),
          X("triton_poi_d", 203, 1, cat="kernel", tid=7, pid=0, args={"External id": "1"})],
         {FW0: {"triton_poi_%s" % n: st(n) for n in "abcd"}},
         ok({"ka": st("a"), "kb": st("b"), "kc": st("c")}))
    case("extid_string_key",
         "op External id '1' (string) finds only the kernel with '1'; op id 2.0 finds kernel 2",
         [region(ts=0, dur=100), X("aten::a", 10, 5, args={"External id": "1"}),
          X("aten::b", 20, 5, args={"External id": 2.0}),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, args={"External id": 1}),
          X("triton_poi_b", 201, 1, cat="kernel", tid=7, pid=0, args={"External id": "1"}, tag="kb"),
          X("triton_poi_c", 202, 1, cat="kernel", tid=7, pid=0, args={"External id": 2}, tag="kc")],
         {FW0: {"triton_poi_%s" % n: st(n) for n in "abc"}}, ok({"kb": st("b"), "kc": st("c")}))
    case("extid_null_and_zero",
         "External id null on op or kernel is ignored; 0 is a valid id (only None is skipped); lower-case 'external id' is not read",
         [region(ts=0, dur=100), X("aten::a", 10, 5, args={"External id": None}),
          X("aten::b", 20, 5, args={"External id": 0}),
          X("aten::c", 30, 5, args={"external id": 5}),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, args={"External id": None}),
          X("triton_poi_b", 201, 1, cat="kernel", tid=7, pid=0, args={"External id": 0}, tag="kb"),
          X("triton_poi_c", 202, 1, cat="kernel", tid=7, pid=0, args={"external id": 5})],
         {FW0: {"triton_poi_%s" % n: st(n) for n in "abc"}}, ok({"kb": st("b")}))
    case("extid_many_kernels_file_order",
         "one External id, several kernels (file order), one in cat cuda_driver which is not indexed",
         [region(ts=0, dur=100), X("aten::a", 10, 5, args={"External id": 4}),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, args={"External id": 4}, tag="ka"),
          X("triton_poi_b", 201, 1, cat="cuda_driver", tid=7, pid=0, args={"External id": 4}),
          X("sm80_gemm", 202, 1, cat="kernel", tid=7, pid=0, args={"External id": 4}, tag="kc"),
          X("triton_poi_c", 203, 1, cat="kernel", tid=7, pid=0, args={"External id": 4}, tag="kd")],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B, "triton_poi_c": C}},
         ok({"ka": A, "kd": C}, warnings=0))
    case("extid_kernel_args_missing",
         "kernel without args (get default {}) is not indexed; op without args has no External id",
         [region(ts=0, dur=100), X("aten::a", 10, 5), X("aten::b", 20, 5, args={"External id": 9}),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0),
          X("triton_poi_b", 201, 1, cat="kernel", tid=7, pid=0, args={"External id": 9}, tag="kb")],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"kb": B}))

    # ---------------------------------------------------------------- extern_
    def extern_trace(ext_name, kname="sm80_xmma_gemm_f32f32_tn_n", cat="cpu_op", rt_cat="cuda_runtime"):
        return [region(ts=0, dur=1000),
                X(ext_name, 100, 100, cat=cat),
                X("cudaLaunchKernel", 120, 10, cat=rt_cat, args={"External id": 11}), S(70, 120),
                X(kname, 400, 20, cat="kernel", tid=7, pid=0, args={"External id": 11}, tag="k"), F(70, 400)]

    two = {"triton_poi_x": C, "triton_poi_y": D}
    case("extern_regex_no_match_whole_name",
         "extern region 'extern_kernels.mm' (regex needs a comma, no match) uses the whole name; key 'extern_kernels.mm:2' by prefix",
         extern_trace("extern_kernels.mm"),
         {FW0: dict(two, **{"extern_kernels.mm:2": A})}, ok({"k": A}), pretty=True)
    case("extern_regex_match",
         "regex \\b(extern\\w+)\\s*, extracts 'extern_kernels_addmm' from a python_function name",
         extern_trace("graph.py(12): extern_kernels_addmm, (buf0, arg1)", cat="python_function"),
         {FW0: dict(two, **{"extern_kernels_addmm:3": A,
                            "graph.py(12): extern_kernels_addmm, (buf0, arg1)": B})}, ok({"k": A}))
    case("extern_regex_unicode_word",
         "\\w is Unicode in Python: 'extern_kernels_ü, x' gives 'extern_kernels_ü'",
         extern_trace("extern_kernels_ü, x"),
         {FW0: dict(two, **{"extern_kernels_ü": A, "extern_kernels_": B})}, ok({"k": A}), utf8=True)
    case("extern_regex_no_word_boundary",
         "no \\b before 'extern' in 'call_extern_kernels_mm, x': no match, the whole name is the lookup key",
         extern_trace("call_extern_kernels_mm, x"),
         {FW0: dict(two, **{"extern_kernels_mm": B, "call_extern_kernels_mm, x": A})}, ok({"k": A}))
    case("extern_regex_unicode_boundary",
         "'ñ' is a word char, so 'ñextern_kernels_mm, x' has no boundary: no match, nothing found, two stacks -> nothing",
         extern_trace("ñextern_kernels_mm, x"),
         {FW0: dict(two, **{"extern_kernels_mm": B})}, ok({}))
    case("extern_regex_space_before_comma",
         "whitespace (spaces, newline) before the comma is allowed: 'x.extern_kernels_mm \\n ,'",
         extern_trace("x.extern_kernels_mm \n ,"),
         {FW0: dict(two, **{"extern_kernels_mm": A})}, ok({"k": A}))
    case("extern_regex_first_match",
         "re.search returns the first match: 'extern_a, extern_kernels_b,' gives 'extern_a'",
         extern_trace("extern_a, extern_kernels_b,"),
         {FW0: dict(two, **{"extern_a": A, "extern_kernels_b": B})}, ok({"k": A}))
    case("extern_fallback_single_stack",
         "extern name not in registry: falls back to the single stack of the graph",
         extern_trace("extern_kernels.bmm"),
         {FW0: {"triton_poi_x": A, "triton_poi_y": None, "z": {"post_grad_nodes": []}}}, ok({"k": A}))
    case("extern_no_region_single_stack",
         "kernel not in registry and op not under any extern region: single-stack fallback, no warning",
         [region(ts=0, dur=1000),
          X("cudaLaunchKernel", 120, 10, cat="cuda_runtime"), S(70, 120),
          X("void at::native::vectorized_elementwise_kernel<4>", 400, 20, cat="kernel", tid=7, pid=0, tag="k"),
          F(70, 400)],
         {FW0: {"triton_poi_x": A}}, ok({"k": A}))
    case("extern_no_stack_no_warning",
         "extern kernel with no key and a graph of two stacks: no annotation and no warning",
         extern_trace("extern_kernels.mm"), {FW0: two}, ok({}, warnings=0))
    case("extern_other_region_not_containing",
         "several extern regions: only the one covering the op is used (loop skips the others)",
         [region(ts=0, dur=1000),
          X("extern_kernels.addmm", 20, 50),
          X("extern_kernels.mm", 100, 100),
          X("cudaLaunchKernel", 120, 10, cat="cuda_runtime"), S(70, 120),
          X("extern_kernels.bmm", 300, 50),
          X("sm80_gemm", 400, 20, cat="kernel", tid=7, pid=0, tag="k"), F(70, 400)],
         {FW0: {"extern_kernels.addmm": A, "extern_kernels.mm": B, "extern_kernels.bmm": C}},
         ok({"k": B}))
    case("extern_cat_not_extern_region",
         "'extern_kernels' in a user_annotation name is not an extern region: two stacks -> nothing",
         extern_trace("extern_kernels.mm", cat="user_annotation"),
         {FW0: {"extern_kernels.mm": A, "x": B}}, ok({}))
    case("extern_forward_checks_only_fw",
         "forward region: extern test only looks at (name, False); kernel only in (name, True) is still extern, and bw key is tried first for the extern name",
         extern_trace("extern_kernels.mm"),
         {FW0: {"triton_poi_x": A, "extern_kernels.mm": A},
          BW0: {"sm80_xmma_gemm_f32f32_tn_n": C, "extern_kernels.mm": B}}, ok({"k": B}))
    case("extern_nested_region_is_op",
         "an extern region is a covered cpu_op of the compiled region too; its own External id links a kernel",
         [region(ts=0, dur=1000),
          X("extern_kernels.mm", 100, 100, args={"External id": 12}),
          X("sm80_gemm", 400, 20, cat="kernel", tid=7, pid=0, args={"External id": 12}, tag="k")],
         {FW0: {"extern_kernels.mm": A, "x": B}}, ok({}))
    case("extern_region_on_other_tid",
         "extern region on another tid than the op: the op is not in its covered set, single-stack fallback",
         [region(ts=0, dur=1000),
          X("extern_kernels.mm", 100, 100, tid=2),
          X("cudaLaunchKernel", 120, 10, cat="cuda_runtime"), S(70, 120),
          X("sm80_gemm", 400, 20, cat="kernel", tid=7, pid=0, tag="k"), F(70, 400)],
         {FW0: {"extern_kernels.mm": A, "triton_poi_x": None}}, ok({"k": A}))

    # ---------------------------------------------------------------- prefix_ (name:handle)
    def one_kernel(kn="triton_poi_a", tag="k"):
        return [region(ts=0, dur=100), *launch(kn, 10, 6, 35, launcher=False, ktag=tag)]

    case("prefix_first_key_wins",
         "several 'name:N' keys: the first in registry (file) order wins, not the lowest handle",
         one_kernel(), {FW0: {"triton_poi_a:7": C, "triton_poi_a:2": A}}, ok({"k": C}))
    case("prefix_first_null_no_stack",
         "first 'name:' key has value null: the search stops there, no stack even though a later key has one",
         one_kernel(), {FW0: {"triton_poi_a:1": None, "triton_poi_a:2": A}}, ok({}))
    case("prefix_exact_null_then_prefix",
         "exact key with value null counts as missing: the 'name:' prefix search continues",
         one_kernel(), {FW0: {"triton_poi_a": None, "triton_poi_a:5": A}}, ok({"k": A}))
    case("prefix_exact_dict_no_stack",
         "exact key with a dict lacking stack_traces is found (not None): no prefix search, no stack",
         one_kernel(), {FW0: {"triton_poi_a": {"post_grad_nodes": ["x"]}, "triton_poi_a:5": A}}, ok({}))
    case("prefix_needs_colon",
         "prefix is name + ':': 'triton_poi_a_1' and 'triton_poi_ab:1' do not match 'triton_poi_a'",
         one_kernel(), {FW0: {"triton_poi_a_1": A, "triton_poi_ab:1": A, "other": B}}, ok({}))
    case("prefix_colons_in_names",
         "kernel names with colons: 'triton_poi:x' matches key 'triton_poi:x:3'; key 'triton_poi_a:1:2' matches 'triton_poi_a'",
         [region(ts=0, dur=100), *launch("triton_poi:x", 10, 6, 35, launcher=False, ktag="kx"),
          *launch("triton_poi_a", 20, 7, 36, launcher=False, ktag="ka")],
         {FW0: {"triton_poi:x:3": A, "triton_poi_a:1:2": B}}, ok({"kx": A, "ka": B}))
    case("prefix_exact_beats_prefix",
         "exact key present with a stack: used before any 'name:' key",
         one_kernel(), {FW0: {"triton_poi_a:1": A, "triton_poi_a": B}}, ok({"k": B}))

    # ---------------------------------------------------------------- kval_ (kernel values)
    vals = [("bare_list", A, A), ("empty_list", [], []), ("string", "model.py:3", "model.py:3"),
            ("number", 7, 7), ("zero", 0, 0), ("false", False, False), ("empty_string", "", ""),
            ("stack_traces_string", {"stack_traces": "s"}, "s"),
            ("stack_traces_null", {"stack_traces": None}, None),
            ("stack_traces_nested", {"stack_traces": [["a"], {"b": 1}]}, [["a"], {"b": 1}]),
            ("dict_extra_fields", {"stack_traces": A, "extern_semantic_key": None, "input_shapes": [[2, 3]]}, A)]
    for nm, v, exp in vals:
        case("kval_" + nm,
             "kernel value %s is used as the stack as is (only None means no stack)" % nm
             if exp is not None else "kernel value %s: dict whose stack_traces is null gives no stack" % nm,
             one_kernel(), {FW0: {"triton_poi_a": v}}, ok({"k": exp} if exp is not None else {}))

    # ---------------------------------------------------------------- bwkey_ (backward keys)
    def bw_trace(rname=R00, kernels=("triton_poi_bw",), name_tag="k"):
        evs = [region(rname, ts=0, dur=100),
               X("CompiledFunction", 10, 50, args={"Sequence number": 1}), S(1, 10, cat="fwdbwd"),
               X("CompiledFunctionBackward", 200, 100, tid=3, tag="cfb"),
               F(1, 200, tid=3, pid=1, cat="fwdbwd")]
        for i, kn in enumerate(kernels):
            evs += launch(kn, 210 + 5 * i, 20 + i, 60 + i, tid=3, launcher=False, ktag="%s%d" % (name_tag, i))
        return evs

    case("bwkey_exact_present_only",
         "exact (name, True) key present: prefix keys ('name_backward_0', True) are not added",
         bw_trace(kernels=("triton_poi_bw", "triton_poi_only_prefix")),
         {BW0: {"triton_poi_bw": B, "x": C},
          G(R00 + "_backward_0", True): {"triton_poi_bw": C, "triton_poi_only_prefix": D}},
         ok({"k0": B}))
    case("bwkey_prefix_suffix",
         "exact bw key absent: ('Torch-Compiled Region: 0/0_backward_0', True) found by the literal_eval prefix scan",
         bw_trace(), {G(R00 + "_backward_0", True): {"triton_poi_bw": B, "x": C}}, ok({"k0": B}), pretty=True)
    cands = [
        ("dq", "(\"Torch-Compiled Region: 0/0_bw'dq\", True)", True),
        ("escq", "('Torch-Compiled Region: 0/0_bw\\'esc\"', True)", True),
        ("concat", "('Torch-Compiled Region: 0/0' '_backward_1', True)", True),
        ("noparen", "'Torch-Compiled Region: 0/0_np', True", True),
        ("lead_ws", "  ('Torch-Compiled Region: 0/0_ws', True)", True),
        ("comment", "('Torch-Compiled Region: 0/0_cm', True)  # note", True),
        ("raw", "(r'Torch-Compiled Region: 0/0_raw\\d', True)", True),
        ("uesc", "('Torch-Compiled Region: 0/0_\\u00e9', True)", True),
        ("extra_parens", "((('Torch-Compiled Region: 0/0_pp', True)))", True),
        ("int_bool", "('Torch-Compiled Region: 0/0_int', 1)", False),
        ("false", "('Torch-Compiled Region: 0/0_false', False)", False),
        ("list", "['Torch-Compiled Region: 0/0_list', True]", False),
        ("triple", "('Torch-Compiled Region: 0/0_tri', True, 1)", False),
        ("bytes", "(b'Torch-Compiled Region: 0/0_bytes', True)", False),
        ("none", "('Torch-Compiled Region: 0/0_none', None)", False),
        ("syntax", "('Torch-Compiled Region: 0/0_syn', True", False),
        ("bare", "Torch-Compiled Region: 0/0_bare", False),
        ("no_underscore", "('Torch-Compiled Region: 0/0x', True)", False),
        ("other_region", "('Torch-Compiled Region: 1/0_backward_0', True)", False),
        ("name_expr", "('Torch-Compiled Region: 0/0_' + 'x', True)", False),
        ("nullbyte", "('Torch-Compiled Region: 0/0_nb', True)\x00", False),
    ]
    kins = ["triton_poi_%s" % c[0] for c in cands]
    ki = {FW0: {"dummy1": C, "dummy2": D}}
    exp = {}
    for i, (nm, key, accepted) in enumerate(cands):
        ki[key] = {kins[i]: st("bw " + nm), "dummy": C}
        if accepted:
            exp["k%d" % i] = st("bw " + nm)
    case("bwkey_literal_eval_forms",
         "prefix scan via ast.literal_eval: double quotes, \\' escapes, implicit concatenation, no parens, leading space, comment, r'', \\u escape, extra parens accepted; (str,int), False, list, 3-tuple, bytes, None, syntax errors, non-prefix, expressions, NUL ignored",
         bw_trace(kernels=kins), ki, ok(exp))
    dn = "Torch-Compiled Region: it's 0/0"
    case("bwkey_double_quoted_region",
         "region name containing ' makes repr use double quotes; the prefix key is double-quoted too",
         bw_trace(dn), {G(dn): {"x": A, "y": C}, G(dn + "_backward_0", True): {"triton_poi_bw": B, "z": C}},
         ok({"k0": B}))
    mixed = "Torch-Compiled Region: a'b\"c"
    case("bwkey_escaped_quotes_region",
         "region name with both quote kinds: repr is single-quoted with \\'; exact bw key built from it matches",
         bw_trace(mixed), {G(mixed): {"x": A, "y": C}, G(mixed, True): {"triton_poi_bw": B, "z": C}},
         ok({"k0": B}))
    case("bwkey_true_paren_in_name",
         "region name 'Torch-Compiled Region: odd', True) name' with prefix bw key; splitting on \"', \" would break it",
         bw_trace(qname), {G(qname): {"x": A, "y": C},
                           G(qname + "_backward_7", True): {"triton_poi_bw": B, "z": C}},
         ok({"k0": B}))
    case("bwkey_empty_infos_skipped",
         "prefix keys with empty info ({} [] null '' 0) are skipped; otherwise null would crash later",
         bw_trace(), {G(R00 + "_backward_0", True): None, G(R00 + "_backward_1", True): [],
                      G(R00 + "_backward_2", True): {}, G(R00 + "_backward_3", True): "",
                      G(R00 + "_backward_4", True): 0,
                      G(R00 + "_backward_5", True): {"triton_poi_bw": B, "z": C}},
         ok({"k0": B}))
    case("bwkey_prefix_order",
         "several prefix bw keys: tried in registry order, the first with a stack for the kernel wins",
         bw_trace(), {G(R00 + "_backward_2", True): {"other": A, "z": C},
                      G(R00 + "_backward_1", True): {"triton_poi_bw:4": B, "z": C},
                      G(R00 + "_backward_0", True): {"triton_poi_bw": D, "z": C}},
         ok({"k0": B}))
    case("bwkey_exact_absent_still_listed",
         "the exact bw key is always in the list even when absent; fw key used when no bw key has the kernel",
         bw_trace(), {FW0: {"triton_poi_bw": A, "z": C}}, ok({"k0": A}))
    case("bwkey_region_skipped_no_keys",
         "backward region whose forward region name has no fw, exact bw or prefix key: skipped",
         bw_trace(), {G("Torch-Compiled Region: 0/1"): {"triton_poi_bw": A},
                      G("Torch-Compiled Region: 0/00_backward_0", True): {"triton_poi_bw": A}}, ok({}))

    # ---------------------------------------------------------------- bw_ (backward regions)
    case("bw_with_fwdbwd_f_before_s",
         "autograd block first: fwdbwd f (after CompiledFunctionBackward) precedes the s (after CompiledFunction); CompiledFunctionBackward gets the bw graph's single stack",
         [X("CompiledFunctionBackward", 200, 100, tid=3, tag="cfb"), F(1, 200, tid=3, pid=1, cat="fwdbwd"),
          *launch("triton_poi_bw", 210, 20, 60, tid=3, ktag="kb"),
          region(ts=0, dur=100),
          X("CompiledFunction", 10, 50), S(1, 10, cat="fwdbwd"),
          *launch("triton_poi_fw", 20, 21, 61, ktag="kf")],
         {FW0: {"triton_poi_fw": A}, BW0: {"triton_poi_bw": B}},
         ok({"kb": B, "kf": A, "cfb": B}), pretty=True)
    case("bw_compiled_function_dst_annotated",
         "forward region covers CompiledFunction (fwdbwd src): its 'kernel' is CompiledFunctionBackward, which gets the single stack",
         [region(ts=0, dur=100),
          X("CompiledFunction", 10, 50), S(1, 10, cat="fwdbwd"),
          X("CompiledFunctionBackward", 200, 100, tid=3, tag="cfb"), F(1, 200, tid=3, pid=1, cat="fwdbwd")],
         {FW0: {"triton_poi_fw": A}}, ok({"cfb": A}))
    case("bw_not_strictly_contained_skipped",
         "fwdbwd src starts at the region start: strict containment fails, walk back finds nothing -> ValueError caught, region skipped",
         [region(ts=0, dur=100),
          X("CompiledFunction", 0, 50), S(1, 0, cat="fwdbwd"),
          X("CompiledFunctionBackward", 200, 100, tid=3), F(1, 200, tid=3, pid=1, cat="fwdbwd"),
          *launch("triton_poi_bw", 210, 20, 60, tid=3, launcher=False)],
         {FW0: {"triton_poi_bw": A}, BW0: {"triton_poi_bw": B}}, ok({}))
    case("bw_src_end_equal_skipped",
         "fwdbwd src ending exactly at the region end: covered (<=) by the forward region, so CompiledFunctionBackward gets a stack, but not strictly contained, so the backward region is skipped",
         [region(ts=0, dur=100),
          X("CompiledFunction", 50, 50), S(1, 50, cat="fwdbwd"),
          X("CompiledFunctionBackward", 200, 100, tid=3, tag="cfb"), F(1, 200, tid=3, pid=1, cat="fwdbwd"),
          *launch("triton_poi_bw", 210, 20, 60, tid=3, launcher=False)],
         {BW0: {"triton_poi_bw": B}}, ok({"cfb": B}))
    case("bw_src_before_all_regions",
         "fwdbwd src before every compiled event: the while loop is never entered, region skipped",
         [X("CompiledFunction", 5, 50), S(1, 5, cat="fwdbwd"),
          region(ts=100, dur=100),
          X("CompiledFunctionBackward", 200, 100, tid=3), F(1, 200, tid=3, pid=1, cat="fwdbwd"),
          *launch("triton_poi_bw", 210, 20, 60, tid=3, launcher=False)],
         {BW0: {"triton_poi_bw": B}}, ok({}))
    case("bw_walk_back_outer",
         "nearest preceding region does not strictly contain the src; walking back finds the outer region 0/0",
         [region(ts=0, dur=1000), region("Torch-Compiled Region: 1/0", ts=100, dur=100),
          X("CompiledFunction", 150, 100, tid=2), S(1, 150, tid=2, cat="fwdbwd"),
          X("CompiledFunctionBackward", 2000, 100, tid=3), F(1, 2000, tid=3, pid=1, cat="fwdbwd"),
          *launch("triton_poi_bw", 2010, 20, 60, tid=3, launcher=False, ktag="k")],
         {BW0: {"triton_poi_bw": B}, G("Torch-Compiled Region: 1/0", True): {"triton_poi_bw": C}},
         ok({"k": B}))
    case("bw_related_any_tid",
         "related-region search ignores tid: the src on tid 2 resolves to a region on tid 9 that contains it in time",
         [region(ts=0, dur=1000, tid=9), region("Torch-Compiled Region: 1/0", ts=10, dur=2000, tid=2),
          X("CompiledFunction", 100, 100, tid=2), S(1, 100, tid=2, cat="fwdbwd"),
          X("CompiledFunctionBackward", 3000, 100, tid=3, tag="cfb"), F(1, 3000, tid=3, pid=1, cat="fwdbwd"),
          *launch("triton_poi_bw", 3010, 20, 60, tid=3, launcher=False, ktag="k")],
         {G("Torch-Compiled Region: 1/0", True): {"triton_poi_bw": B}, BW0: {"triton_poi_bw": A}},
         ok({"k": B, "cfb": B}))
    case("bw_related_is_backward_region",
         "the nearest strictly-containing compiled event is a CompiledFunctionBackward: its name keys the lookup",
         [region(ts=0, dur=100),
          X("CompiledFunctionBackward", 500, 1000, tid=4, tag="cfb0"), F(2, 500, tid=4, pid=1, cat="fwdbwd"),
          X("aten::x", 600, 10, tid=5), S(1, 600, tid=5, cat="fwdbwd"),
          X("CompiledFunctionBackward", 2000, 100, tid=3), F(1, 2000, tid=3, pid=1, cat="fwdbwd"),
          *launch("triton_poi_bw", 2010, 20, 60, tid=3, launcher=False, ktag="k"),
          X("CompiledFunction", 10, 50), S(2, 10, cat="fwdbwd")],
         {G("CompiledFunctionBackward", True): {"triton_poi_bw": C}, BW0: {"triton_poi_bw": B}},
         ok({"k": C, "cfb0": B}))
    case("bw_backward_in_region_name",
         "a Torch-Compiled Region whose name contains 'Backward' is treated as backward (needs a fwdbwd dst)",
         [region(ts=0, dur=100),
          X("CompiledFunction", 10, 50), S(1, 10, cat="fwdbwd"),
          region("Torch-Compiled Region: Backward 0/0", ts=200, dur=100, tid=3, tag="bwr"),
          F(1, 200, tid=3, pid=1, cat="fwdbwd"),
          *launch("triton_poi_bw", 210, 20, 60, tid=3, launcher=False, ktag="k")],
         {BW0: {"triton_poi_bw": B}, G("Torch-Compiled Region: Backward 0/0"): {"triton_poi_bw": C}},
         ok({"k": B, "bwr": B}))
    case("bw_cfb_not_cpu_op",
         "CompiledFunctionBackward with cat python_function is not a region (its ops are not scoped)",
         [region(ts=0, dur=100),
          X("CompiledFunctionBackward", 200, 100, tid=3, cat="python_function"),
          *launch("triton_poi_bw", 210, 20, 60, tid=3, launcher=False)],
         {BW0: {"triton_poi_bw": B}}, ok({}))
    case("bw_extern_checks_all_bw_keys",
         "backward region: a kernel present in any bw key is not extern; non-triton ones then use single stack and warn",
         bw_trace(kernels=("triton_poi_bw", "sm80_gemm_bw", "triton_poi_fwonly")),
         {FW0: {"triton_poi_fwonly": A, "x": C},
          G(R00 + "_backward_0", True): {"triton_poi_bw": B, "sm80_gemm_bw": D}},
         ok({"k0": B, "k2": A}, warnings=1))
    case("bw_extern_kernel_in_backward",
         "backward region with an extern region around the launch: extern name looked up in bw keys first",
         [region(ts=0, dur=100),
          X("CompiledFunction", 10, 50), S(1, 10, cat="fwdbwd"),
          X("CompiledFunctionBackward", 200, 300, tid=3), F(1, 200, tid=3, pid=1, cat="fwdbwd"),
          X("extern_kernels.mm", 220, 100, tid=3),
          X("cudaLaunchKernel", 230, 10, cat="cuda_runtime", tid=3), S(70, 230, tid=3),
          X("sm80_gemm", 400, 20, cat="kernel", tid=7, pid=0, tag="k"), F(70, 400)],
         {FW0: {"extern_kernels.mm:1": A, "x": C}, BW0: {"extern_kernels.mm:2": B, "y": C}},
         ok({"k": B}))
    case("bw_single_stack_bw_then_fw",
         "single-stack path in a backward region: bw graph with two stacks fails, fw graph with one stack succeeds",
         bw_trace(kernels=("sm80_gemm",)),
         {FW0: {"a": A, "b": None}, BW0: {"sm80_gemm": B, "c": C}}, ok({"k0": A, "cfb": A}, warnings=0))

    # ---------------------------------------------------------------- single_ / warnings
    case("single_non_triton_by_name_warns",
         "non-triton kernel present by name: single-stack path, graph has 2 stacks -> no stack + warning",
         one_kernel("sm80_xmma_gemm"), {FW0: {"sm80_xmma_gemm": A, "triton_poi_b": B}}, ok({}, warnings=1))
    case("single_non_triton_by_prefix_one_stack",
         "non-triton kernel present as 'name:3': single-stack path finds the only stack (not the name lookup)",
         one_kernel("cpp_fused_gelu_1"), {FW0: {"cpp_fused_gelu_1:3": A, "other": None}}, ok({"k": A}))
    case("single_non_triton_own_stack_ignored",
         "non-triton kernel with its own stack but another kernel's stack in graph: own stack not used, warning",
         one_kernel("aoti_torch_cuda_mm_out"), {FW0: {"aoti_torch_cuda_mm_out:2": B, "z": []}}, ok({}, warnings=1))
    case("single_warning_count",
         "warnings are counted per (op, kernel) visit: one kernel reached by launcher and flow warns twice, another once",
         [region(ts=0, dur=1000),
          *launch("cutlass_gemm", 10, 6, 35),
          *launch("void gemv", 100, 7, 36, launcher=False),
          *launch("triton_poi_ok", 200, 8, 37, launcher=False, ktag="k")],
         {FW0: {"cutlass_gemm": A, "void gemv": B, "triton_poi_ok": C}}, ok({"k": C}, warnings=3))
    case("single_empty_list_counts",
         "an empty list [] is a non-None stack: graph {k: [], k2: null, k3: {}} has exactly one stack, []",
         one_kernel("sm80_gemm"), {FW0: {"k": [], "k2": None, "k3": {}}}, ok({"k": []}))
    case("single_zero_stack_counts",
         "stack value 0 is not None: it is the single stack and is written as args.stack 0",
         one_kernel("sm80_gemm"), {FW0: {"k": 0, "k2": {"stack_traces": None}}}, ok({"k": 0}))
    case("single_two_stacks_none",
         "two non-None stacks (one of them []) in the graph: single-stack path gives nothing; extern kernel, no warning",
         one_kernel("sm80_gemm"), {FW0: {"k": [], "k2": A}}, ok({}, warnings=0))
    case("triton_no_key_no_warning",
         "triton kernel with the graph missing its entry goes through the extern path, single stack fails silently",
         one_kernel("triton_poi_missing"), {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({}, warnings=0))
    case("triton_key_null_no_stack",
         "triton kernel key present with null: not extern (membership) and name lookup gives None: no stack, no warning",
         one_kernel("triton_poi_a"), {FW0: {"triton_poi_a": None, "x": A}}, ok({}, warnings=0))

    # ---------------------------------------------------------------- uid_
    evs = [region(ts=0, dur=100), *launch("triton_poi_a", 10, 6, 35, ktag="k")]
    for i, e in enumerate(evs):
        e["uid"] = 1000 - 7 * i
    case("uid_preassigned_ints",
         "uid_assigned:true: existing (non-index) uids are used as is and not rewritten",
         evs, {FW0: {"triton_poi_a": A}}, ok({"k": A}), extra={"uid_assigned": True})
    evs = [region(ts=0, dur=100, uid=0),
           X("aten::a", 10, 5, uid=1), S(35, 10, uid=2),
           X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, uid=3), F(35, 200, uid=4),
           X("triton_poi_b", 201, 1, cat="kernel", tid=7, pid=0, uid=3, tag="kb")]
    case("uid_preassigned_duplicates",
         "duplicate uids: uid_2_events keeps the last event per uid, so the flow dst uid 3 resolves to the later kernel",
         evs, {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"kb": B}), extra={"uid_assigned": True})
    evs = [region(ts=0, dur=100, uid="r"),
           X("aten::a", 10, 5, uid="op"), S(35, 10, uid="s"),
           X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, uid="kern", tag="k"), F(35, 200, uid=None)]
    case("uid_preassigned_strings",
         "non-integer uids (strings, null) work as dict keys",
         evs, {FW0: {"triton_poi_a": A}}, ok({"k": A}), extra={"uid_assigned": True})
    evs = [region(ts=0, dur=100, uid=0),
           X("aten::a", 10, 5, uid=1), S(35, 10, uid=2),
           X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, uid=3.0), F(35, 200, uid=4),
           X("triton_poi_b", 201, 1, cat="kernel", tid=7, pid=0, uid=3, tag="kb"),
           X("aten::b", 20, 5, uid=True, args={"External id": 1}),
           X("triton_poi_c", 202, 1, cat="kernel", tid=7, pid=0, uid=5, args={"External id": 1})]
    case("uid_preassigned_numeric_equal",
         "uids 3.0 and 3 are one dict key (last wins); uid true collides with uid 1 so aten::a's flow resolves through aten::b",
         evs, {FW0: {"triton_poi_a": A, "triton_poi_b": B, "triton_poi_c": C}},
         ok({"kb": B}), extra={"uid_assigned": True})
    evs = [region(ts=0, dur=100, uid=55), *launch("triton_poi_a", 10, 6, 35, ktag="k")]
    for e in evs:
        e["uid"] = 99
    case("uid_assigned_false_reassigned",
         "uid_assigned:false with stale uids: uids are reassigned to indices and uid_assigned set to true in place",
         evs, {FW0: {"triton_poi_a": A}}, ok({"k": A}), extra={"uid_assigned": False}, layout="events_first")
    case("uid_assigned_zero",
         "uid_assigned:0 is falsy: uids assigned, the key keeps its position with value true",
         [region(ts=0, dur=100), *launch("triton_poi_a", 10, 6, 35, ktag="k")],
         {FW0: {"triton_poi_a": A}}, ok({"k": A}), extra={"uid_assigned": 0}, layout="plain")
    evs = [region(ts=0, dur=100), *launch("triton_poi_a", 10, 6, 35, ktag="k")]
    for i, e in enumerate(evs):
        e["uid"] = i
    case("uid_assigned_truthy_string",
         "uid_assigned:'no' is truthy: existing uids used, flag left as 'no'",
         evs, {FW0: {"triton_poi_a": A}}, ok({"k": A}), extra={"uid_assigned": "no"})
    evs = [region(ts=0, dur=100), *launch("triton_poi_a", 10, 6, 35, ktag="k")]
    for i, e in enumerate(evs):
        e["uid"] = i
    t = {"uid_assigned": True, "schemaVersion": 1, "traceEvents": evs, "deviceProperties": []}
    c = Case("uid_preassigned_at_front",
             "uid_assigned:true placed before traceEvents (top-level key order preserved), events keep uids",
             t, {FW0: {"triton_poi_a": A}}, ok({"k": A}))
    CASES.append(c)

    # ---------------------------------------------------------------- args_
    evs = [region(ts=0, dur=100),
           X("aten::a", 10, 5), S(1, 10),
           X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, args={"stack": ["old"], "x": 1}, tag="ka"),
           F(1, 200),
           X("triton_poi_b", 500, 1, cat="kernel", tid=7, pid=0, args={"stack": ["stale b"]}, tag="kb")]
    case("args_existing_stack_overwritten",
         "kernel with args.stack already present: replaced in place; unreached event keeps its stale stack",
         evs, {FW0: {"triton_poi_a": A}}, ok({"ka": A, "kb": ["stale b"]}))
    case("args_missing_created",
         "kernel without args: args {'stack': ...} is created after uid",
         [region(ts=0, dur=100), X("aten::a", 10, 5), S(1, 10),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, tag="ka"), F(1, 200)],
         {FW0: {"triton_poi_a": A}}, ok({"ka": A}), pretty=True)
    case("args_op_list_flow_src",
         "op with args as a list (no CallFrom) that is a flow src: dst found without reading its args",
         [region(ts=0, dur=100), X("aten::a", 10, 5, args=[1, 2]), S(1, 10),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, tag="ka"), F(1, 200)],
         {FW0: {"triton_poi_a": A}}, ok({"ka": A}))

    # ---------------------------------------------------------------- ts_ (numbers)
    case("ts_int_and_float3",
         "int timestamps mixed with Kineto 3-decimal floats on one thread",
         [region(ts=2413669096141, dur=1353),
          *launch("triton_poi_a", 2413669097354.058, 6, 35, launcher=False, ktag="ka"),
          X("aten::b", 2413669097400, 10, args={"External id": 7}),
          X("triton_poi_b", 2413669097500.5, 1, cat="kernel", tid=7, pid=0, args={"External id": 7}, tag="kb")],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"ka": A, "kb": B}))
    case("ts_epoch16_float_rounds_to_region_start",
         "16-digit epoch: region ts int 1712195495519689, op ts 1712195495519689.047 parses to the same double -> equal start, not covered",
         [region(ts=1712195495519689, dur=100),
          *ops_a_b((1712195495519689.047, 5), (1712195495519689.3, 5), (1712195495519800, 1712195495519801))],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"kb": B}))
    case("ts_epoch16_float_end_rounding",
         "16-digit float ts+dur rounds (0.25us spacing): op end equals region end in decimal (..151.186) but is larger in doubles: not covered",
         [region(ts=1712195495519132.853, dur=18.333),
          *ops_a_b((1712195495519133.911, 17.275), (1712195495519133.911, 17.0), (1712195495519800, 1712195495519801))],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"kb": B}))
    case("ts_int_float_mix_2p53",
         "int vs float compared exactly: region end int 2**53+3 < op end float 2**53+4 (not covered) though double(2**53+3) == 2**53+4",
         [region(ts=9007199254740990, dur=5),
          *ops_a_b((9007199254740992.0, 4), (9007199254740992.0, 2), (9007199254741100, 9007199254741101))],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"kb": B}))
    case("ts_float_sum_not_exact",
         "3-decimal float sums: region 2413669097927.716+1998.001 < op 2413669098535.433+1390.284 in doubles (equal in decimal): not covered",
         [region(ts=2413669097927.716, dur=1998.001),
          *ops_a_b((2413669098535.433, 1390.284), (2413669098535.433, 1390.283), (2413669099999, 2413669099999))],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"kb": B}))
    case("ts_small_float_sum",
         "0.7 + 0.1 = 0.7999999999999999 < 0.75 + 0.05 = 0.8: op not covered although the decimal ends are equal",
         [region(ts=0.7, dur=0.1),
          *ops_a_b((0.75, 0.05), (0.71, 0.02), (5, 6))],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"kb": B}))
    case("ts_exponent_negative_zero",
         "ts written with exponent (1.5e3), negative ts and dur 0 ops",
         [region(ts=-100, dur=1.7e3),
          *ops_a_b((1.5e3, 0), (-50, 0), (2e3, 2e3), ktags=("ka", "kb"))],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"ka": A, "kb": B}))
    case("ts_bw_strict_float",
         "backward related-region test with 16-digit floats: src start rounds onto the region start -> not strict -> region skipped",
         [region(ts=1712195495519689, dur=100),
          X("CompiledFunction", 1712195495519689.1, 50), S(1, 1712195495519689.1, cat="fwdbwd"),
          X("CompiledFunctionBackward", 1712195495519900, 100, tid=3),
          F(1, 1712195495519900, tid=3, pid=1, cat="fwdbwd"),
          *launch("triton_poi_bw", 1712195495519910, 20, 60, tid=3, launcher=False)],
         {BW0: {"triton_poi_bw": B}, FW0: {"x": A, "y": C}}, ok({}))

    # ---------------------------------------------------------------- kinfo_ (graph values)
    case("kinfo_graph_null_unreached",
         "graph values that are null/list/string for keys never looked up are harmless",
         one_kernel(), {G("Torch-Compiled Region: 5/5"): None, G("Torch-Compiled Region: 5/6"): [1],
                        G("Torch-Compiled Region: 5/7", True): "x", FW0: {"triton_poi_a": A}},
         ok({"k": A}))
    case("kinfo_unicode_kernel_names",
         "kernel names and stacks with non-ASCII characters, input files in raw UTF-8 (output is \\u-escaped by json.dump)",
         one_kernel("triton_poi_fused_ä_0"), {FW0: {"triton_poi_fused_ä_0:1": st("modèle.py:3 in forward ✓")}},
         ok({"k": st("modèle.py:3 in forward ✓")}), utf8=True)

    # ---------------------------------------------------------------- err_ (reference raises)
    case("err_bw_no_fwdbwd",
         "ERROR: backward region covering ops without an incoming fwdbwd flow -> KeyError in dst2src",
         [region(ts=0, dur=100), X("CompiledFunctionBackward", 200, 100, tid=3),
          *launch("triton_poi_bw", 210, 20, 60, tid=3)],
         {BW0: {"triton_poi_bw": B}}, err("KeyError"), pretty=True)
    case("err_bw_no_flows_at_all",
         "ERROR: backward region covering ops in a trace with no flow events at all -> KeyError",
         [region(ts=0, dur=100), X("CompiledFunctionBackward", 200, 100, tid=3),
          X("aten::mm", 210, 10, tid=3)],
         {BW0: {"triton_poi_bw": B}}, err("KeyError"))
    case("err_flow_no_id",
         "ERROR: s flow event without id -> KeyError",
         [region(ts=0, dur=100), X("aten::a", 10, 5), S(OMIT, 10)], {FW0: {"x": A}}, err("KeyError"))
    case("err_flow_f_no_id",
         "ERROR: f flow event without id -> KeyError",
         [region(ts=0, dur=100), X("aten::a", 10, 5), F(OMIT, 10)], {FW0: {"x": A}}, err("KeyError"))
    case("err_flow_id_abc",
         "ERROR: flow id 'abc' -> ValueError from int()",
         [region(ts=0, dur=100), X("aten::a", 10, 5), S("abc", 10)], {FW0: {"x": A}}, err("ValueError"))
    case("err_flow_id_float_string",
         "ERROR: flow id '3.7' (string) -> ValueError from int()",
         [region(ts=0, dur=100), X("aten::a", 10, 5), S("3.7", 10)], {FW0: {"x": A}}, err("ValueError"))
    case("err_flow_id_null",
         "ERROR: flow id null -> TypeError from int(None)",
         [region(ts=0, dur=100), X("aten::a", 10, 5), F(None, 10)], {FW0: {"x": A}}, err("TypeError"))
    case("err_flow_id_list",
         "ERROR: flow id [1] -> TypeError from int()",
         [region(ts=0, dur=100), X("aten::a", 10, 5), S([1], 10)], {FW0: {"x": A}}, err("TypeError"))
    case("err_region_no_tid",
         "ERROR: compiled region without tid -> KeyError",
         [region(ts=0, dur=100, tid=OMIT), X("aten::a", 10, 5)], {FW0: {"x": A}}, err("KeyError"))
    case("err_region_no_ts",
         "ERROR: compiled region without ts -> KeyError",
         [region(ts=OMIT, dur=100), X("aten::a", 10, 5)], {FW0: {"x": A}}, err("KeyError"))
    case("err_region_ts_null",
         "ERROR: compiled region with ts null -> TypeError (None + dur)",
         [region(ts=None, dur=100), X("aten::a", 10, 5)], {FW0: {"x": A}}, err("TypeError"))
    case("err_op_no_ts",
         "ERROR: covered-category event without ts on a tid that has regions -> KeyError",
         [region(ts=0, dur=100), X("cudaLaunchKernel", OMIT, 5, cat="cuda_runtime")], {FW0: {"x": A}},
         err("KeyError"))
    case("err_op_dur_null",
         "ERROR: covered-category event with dur null -> TypeError (ts + None)",
         [region(ts=0, dur=100), X("aten::a", 10, None)], {FW0: {"x": A}}, err("TypeError"))
    case("err_op_ts_string",
         "ERROR: ts as a string on a covered op -> TypeError ('10' + 5)",
         [region(ts=0, dur=100), X("aten::a", "10", 5)], {FW0: {"x": A}}, err("TypeError"))
    case("err_args_null_covered",
         "ERROR: args null on a covered-category event -> TypeError ('CallFrom' in None)",
         [region(ts=0, dur=100), X("aten::a", 10, 5, args=None)], {FW0: {"x": A}}, err("TypeError"))
    case("err_args_null_kernel",
         "ERROR: args null on a kernel event -> AttributeError (None.get)",
         [region(ts=0, dur=100), X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, args=None)],
         {FW0: {"x": A}}, err("AttributeError"))
    case("err_args_null_op_lookup_external",
         "ERROR: op covered with args [] (no CallFrom) and not a flow source -> AttributeError on list.get for External id",
         [region(ts=0, dur=100), X("aten::a", 10, 5, args=[])], {FW0: {"x": A}}, err("AttributeError"))
    case("err_dst_args_list",
         "ERROR: flow dst whose args is a list gets setdefault('args')['stack'] -> TypeError",
         [region(ts=0, dur=100), X("aten::a", 10, 5), S(1, 10),
          X("cudaStreamSync", 200, 1, cat="cuda_runtime", tid=3, args=["x"]), F(1, 200, tid=3, pid=1)],
         {FW0: {"x": A}}, err("TypeError"))
    case("err_uid_missing",
         "ERROR: uid_assigned:true but an event lacks uid -> KeyError",
         [dict(region(ts=0, dur=100), uid=0), X("aten::a", 10, 5)], {FW0: {"x": A}}, err("KeyError"),
         extra={"uid_assigned": True})
    case("err_uid_unhashable",
         "ERROR: uid_assigned:true with a list uid -> TypeError (unhashable)",
         [dict(region(ts=0, dur=100), uid=[0])], {FW0: {"x": A}}, err("TypeError"),
         extra={"uid_assigned": True})
    case("err_kernel_no_name",
         "ERROR: kernel event without name reached from a region -> KeyError in _maybe_extern_call",
         [region(ts=0, dur=100), X("aten::a", 10, 5), S(1, 10),
          X(OMIT, 200, 1, cat="kernel", tid=7, pid=0), F(1, 200)], {FW0: {"x": A}}, err("KeyError"))
    case("err_kernel_name_null",
         "ERROR: kernel name null reached from a region -> TypeError (None + ':')",
         [region(ts=0, dur=100), X("aten::a", 10, 5), S(1, 10),
          X(None, 200, 1, cat="kernel", tid=7, pid=0), F(1, 200)], {FW0: {"x": A}}, err("TypeError"))
    case("err_nondict_event_number",
         "ERROR: a number in traceEvents -> TypeError when assigning uid",
         [region(ts=0, dur=100), 42], {FW0: {"x": A}}, err("TypeError"))
    case("err_nondict_event_null",
         "ERROR: a null in traceEvents -> TypeError when assigning uid",
         [region(ts=0, dur=100), None, X("aten::a", 10, 5)], {FW0: {"x": A}}, err("TypeError"))
    case("err_nondict_event_uid_assigned",
         "ERROR: a string in traceEvents with uid_assigned:true -> TypeError reading its uid",
         [dict(region(ts=0, dur=100), uid=0), "oops"], {FW0: {"x": A}}, err("TypeError"),
         extra={"uid_assigned": True})
    case("err_region_name_int",
         "ERROR: cpu_op with a numeric name -> TypeError ('Torch-Compiled Region' in 5)",
         [region(ts=0, dur=100), X(5, 10, 5)], {FW0: {"x": A}}, err("TypeError"))
    case("err_cat_list",
         "ERROR: cat as a list -> TypeError (unhashable in flow-type set)",
         [region(ts=0, dur=100), X("aten::a", 10, 5, cat=["cpu_op"])], {FW0: {"x": A}}, err("TypeError"))
    case("err_tid_list",
         "ERROR: covered op with a list tid -> TypeError (unhashable dict lookup)",
         [region(ts=0, dur=100), X("aten::a", 10, 5, tid=[1])], {FW0: {"x": A}}, err("TypeError"))
    case("err_extid_unhashable",
         "ERROR: kernel External id is a list -> TypeError (unhashable)",
         [region(ts=0, dur=100), X("k", 10, 5, cat="kernel", tid=7, args={"External id": [1]})],
         {FW0: {"x": A}}, err("TypeError"))
    case("err_graph_value_null_fw",
         "ERROR: fw graph value null reached by a kernel -> TypeError ('name' in None)",
         one_kernel(), {FW0: None}, err("TypeError"))
    case("err_graph_value_list_fw",
         "ERROR: fw graph value a non-empty list: membership works, then list.values() fails -> AttributeError",
         one_kernel(), {FW0: ["triton_poi_b"]}, err("AttributeError"))
    case("err_bw_exact_null",
         "ERROR: exact bw key present with null value (presence check only) -> TypeError on the forward region's bw lookup",
         one_kernel(), {FW0: {"triton_poi_a": A}, BW0: None}, err("AttributeError"))
    case("err_bw_prefix_list_info",
         "ERROR: prefix bw key whose info is a non-empty list is kept, then list.get fails -> AttributeError",
         bw_trace(), {G(R00 + "_backward_0", True): ["triton_poi_bw"]}, err("AttributeError"))
    case("err_bw_key_unhashable_literal",
         "ERROR: registry key '{[]: 1}' makes ast.literal_eval raise TypeError (not caught) during the bw prefix scan",
         one_kernel(), {FW0: {"triton_poi_a": A}, "{[]: 1}": {"x": A}}, err("TypeError"))
    case("err_extern_region_no_ts",
         "ERROR: extern region (cpu_op 'extern_kernels.mm') without ts on a tid without compiled regions -> KeyError",
         [region(ts=0, dur=100), X("extern_kernels.mm", OMIT, 5, tid=2)], {FW0: {"x": A}}, err("KeyError"))
    case("err_related_src_no_ts",
         "ERROR: fwdbwd source event without ts (a user_annotation, so not scanned earlier) -> KeyError in _related_compile_region",
         [region(ts=0, dur=100),
          X("annot", OMIT, 50, cat="user_annotation"), S(1, 10, cat="fwdbwd"),
          X("CompiledFunctionBackward", 200, 100, tid=3), F(1, 200, tid=3, pid=1, cat="fwdbwd"),
          X("aten::mm", 210, 10, tid=3)],
         {BW0: {"x": B}}, err("KeyError"))


# --------------------------------------------------------------------------------------------
# Randomized Kineto-like traces
# --------------------------------------------------------------------------------------------

WORDS = ["add", "mul", "sin", "cos", "relu", "gelu", "mean", "pow", "rsqrt", "cat", "sum", "exp",
         "div", "sub", "tanh", "sigmoid", "addmm", "view", "native_layer_norm", "softmax", "clone",
         "threshold_backward", "convolution", "embedding"]
GEMMS = ["sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize64x64x8_stage3_warpsize1x2x1_ffma_aligna4_alignc4_execute_kernel_trt",
         "ampere_sgemm_128x64_tn", "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4>(T1::Params)",
         "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas",
         "Cijk_Ailk_Bljk_SB_MT64x64x16_MI16x16x4x1_SN_1LDSB0_APM1_ABV0"]
EXTERN_NAMES = ["extern_kernels.mm", "extern_kernels.addmm", "extern_kernels.bmm",
                "extern_kernels_torch_ops_aten_mm_default_1", "graph.py(31): extern_kernels_mm, (buf0, arg2_1)"]
ATEN_KERNELS = ["void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>>(int, T2, T3)",
                "void at::native::reduce_kernel<512, 1>(T3)", "Memset (Device)"]


def stack_strings(rng, nframes=None):
    nframes = nframes or rng.choice([1, 1, 1, 2, 3])
    out = []
    for _ in range(nframes):
        line = rng.randint(3, 400)
        fn = rng.choice(["forward", "backward", "_fn", "apply_rotary_pos_emb", "rotate_half"])
        code = rng.choice(["x = self.lin(x)", "y = torch.relu(x) + 1", "return torch.cat((-x2, x1), dim=-1)",
                           "z = torch.nn.functional.gelu(y)", "d = a * 3.14"])
        s = '  File "/home/user/project/model.py", line %d, in %s\n    %s\n' % (line, fn, code)
        if rng.random() < 0.2:
            s += "        ^^^^^^^^^^^^^\n"
        out.append(s)
    return out


class RandomTrace:
    """Builds one Kineto-like torch.compile trace in integer ns, then formats ts/dur."""

    def __init__(self, seed):
        self.rng = rng = random.Random(seed)
        self.seed = seed
        self.target = int(5 * 80 ** (rng.random() ** 1.25))   # 5 .. ~400 events, skewed small
        self.tiny = self.target < 7                   # bare region + launch(es), no trailer
        self.empty_kinfo = rng.random() < 0.02
        self.vendor = rng.choice(["nv", "nv", "nv", "amd"])
        self.tsmode = rng.choice(["int", "float3", "float3", "epoch16", "epoch16int", "mixed"])
        # "mixed": 16-digit epoch, some event classes written as int us, the others as 3-decimal floats
        self.int_classes = set(rng.sample(["region", "cpu", "runtime", "gpu", "meta"], rng.randint(1, 4)))
        self.pid = rng.randint(1000, 4000000)
        self.tid = self.pid if rng.random() < 0.8 else rng.randint(1000, 4000000)
        self.bw_tid = self.tid + rng.randint(1, 400) if rng.random() < 0.85 else self.tid
        self.gpu_pid = rng.randint(0, 3)
        self.stream = (7 if self.vendor == "nv" else 0) if rng.random() < 0.85 else rng.choice([13, 27, 3])
        self.p_jitter = rng.choice([0.0, 0.02, 0.08, 0.2])
        self.p_callfrom = 0.03 if rng.random() < 0.1 else 0.0
        self.with_stack = rng.random() < 0.3
        # correlation (ac2g) ids; a start of 1 makes them collide with the fwdbwd ids (1, 2, ...)
        self.corr = 1 if rng.random() < 0.06 else rng.choice([35, 700, 1000, 1000000])
        self.fwdbwd_id = 1
        self.ext = rng.randint(1, 50)
        self.handle = 0
        self.cpu = {self.tid: [], self.bw_tid: []}       # tid -> list of (event, [flows after])
        self.gpu = []                                    # (launch_ns, [events in file order])
        self.tail = []
        self.kernels_fw = {}                             # region name -> list of kernel names
        self.kernels_bw = {}
        self.externs = {}                                # region name -> list of extern names
        self.non_triton = {}                             # region name -> list of non-triton kernel names
        self.regions = []
        self.gpu_cursor = 0

    # -- event helpers (times in ns; formatted later) --
    def ev(self, name, cat, t, d, tid, pid=None, args=None):
        e = {"ph": "X", "cat": cat, "name": name, "pid": self.pid if pid is None else pid, "tid": tid,
             "_t": t, "_d": d}
        if args is not None:
            e["args"] = args
        return e

    def next_ext(self):
        self.ext += 1
        return self.ext

    def next_corr(self):
        self.corr += 1
        return self.corr

    def kernel_name(self, bw=False):
        rng = self.rng
        kind = rng.choice(["poi", "poi", "red", "per"])
        ws = rng.sample(WORDS, rng.randint(1, 3))
        if bw and "threshold_backward" not in ws:
            ws.append("backward")
        return "triton_%s_fused_%s_%d" % (kind, "_".join(ws), rng.randint(0, 12))

    def gpu_launch(self, kname, t_rt, rt_dur, tid, ext, rtname, rtcat, kernel_cat="kernel", args_extra=None):
        """Runtime call on CPU tid + GPU activity, with ac2g flows (or not)."""
        rng = self.rng
        corr = self.next_corr()
        rt_args = {"External id": ext, "cbid": 307, "correlation": corr}
        if self.p_callfrom and rng.random() < self.p_callfrom:
            rt_args["CallFrom"] = "python"
        rt = self.ev(rtname, rtcat, t_rt, rt_dur, tid, args=rt_args)
        kstart = max(self.gpu_cursor, t_rt + rng.randint(2000, 40000))
        kdur = rng.randint(800, 60000)
        self.gpu_cursor = kstart + kdur + rng.randint(0, 3000)
        kargs = {"External id": ext, "device": self.gpu_pid, "stream": self.stream, "correlation": corr,
                 "grid": [rng.randint(1, 4096), 1, 1], "block": [rng.choice([128, 256, 512]), 1, 1]}
        if args_extra:
            kargs.update(args_extra)
        if rng.random() < 0.04:
            del kargs["External id"]
        kern = self.ev(kname, kernel_cat, kstart, kdur, self.stream, pid=self.gpu_pid, args=kargs)
        s = {"ph": "s", "id": corr, "pid": self.pid, "tid": tid, "_t": t_rt, "cat": "ac2g", "name": "ac2g"}
        f = {"ph": "f", "id": corr, "pid": self.gpu_pid, "tid": self.stream, "_t": kstart, "cat": "ac2g",
             "name": "ac2g", "bp": "e"}
        drop = rng.random()
        flows_rt = [s] if drop > 0.03 else []
        flows_k = [f] if drop < 0.97 else []
        self.gpu.append((t_rt, [rt] + flows_rt, [kern] + flows_k))
        return kern

    def misc_runtime(self, t, tid):
        rng = self.rng
        corr = self.next_corr()
        if rng.random() < 0.5:
            rt = self.ev("cudaFuncGetAttributes" if self.vendor == "nv" else "hipFuncGetAttributes",
                         "cuda_runtime", t, rng.randint(300, 2000), tid,
                         args={"cbid": 200, "correlation": corr})
            fl = {"ph": "f", "id": corr, "pid": self.pid, "tid": tid, "_t": t, "cat": "ac2g", "name": "ac2g", "bp": "e"}
        else:
            rt = self.ev("cudaDeviceSynchronize", "cuda_runtime", t, rng.randint(300, 20000), tid,
                         args={"cbid": 165, "correlation": corr})
            fl = {"ph": "s", "id": corr, "pid": self.pid, "tid": tid, "_t": t, "cat": "ac2g", "name": "ac2g"}
        self.gpu.append((t, [rt, fl], []))
        return rt["_d"]

    def cpu_event(self, tid, e, flows=()):
        self.cpu.setdefault(tid, []).append((e, list(flows)))

    def body(self, rname, t0, t1, tid, nlaunch, bw):
        """Fill [t0, t1) on tid with launches; returns nothing. Some events are jittered outside."""
        rng = self.rng
        if nlaunch <= 0:
            return
        slot = (t1 - t0) // (nlaunch + 1)
        t = t0 + rng.randint(1, max(1, slot // 4))
        for _ in range(nlaunch):
            kind = rng.random() * (0.8 if self.tiny else 1.0)   # tiny traces: triton or extern only
            start = t
            length = max(3000, int(slot * rng.uniform(0.5, 0.95)))
            if rng.random() < self.p_jitter:      # make this launch stick out of the region
                how = rng.choice(["before", "after", "same"])
                if how == "before":
                    start = t0 - rng.randint(1, 5000)
                elif how == "after":
                    length = (t1 - start) + rng.randint(1, 5000)
                else:
                    start = t0
            ext = self.next_ext()
            wrap = self.with_stack and rng.random() < 0.5
            if wrap:
                self.cpu_event(tid, self.ev("torch/_inductor/runtime/triton_heuristics.py(1283): run",
                                            "python_function", start, length, tid,
                                            args={"Python id": ext, "Python parent id": None}))
                start += 200
                length -= 400
            if kind < 0.62:                        # triton launcher + driver launch + kernel
                kname = (self.kernels_bw if bw else self.kernels_fw).setdefault(rname, [])
                name = rng.choice(kname) if kname and rng.random() < 0.15 else self.kernel_name(bw)
                kname.append(name)
                args = {"External id": ext, "kernel_backend": "triton", "num_warps": rng.choice([4, 8]),
                        "kernel_hash": "c%08x" % rng.getrandbits(32)}
                if self.p_callfrom and rng.random() < self.p_callfrom:
                    args["CallFrom"] = "x"
                self.cpu_event(tid, self.ev(name, "cpu_op", start, length, tid, args=args))
                if self.vendor == "nv":
                    rtn, rtc = "cuLaunchKernel", "cuda_driver"
                else:
                    rtn, rtc = "hipModuleLaunchKernel", "cuda_runtime"
                if rng.random() < 0.1:
                    rtc = rng.choice(["cuda_runtime", "cuda_driver"])
                rt_t = start + length // 3
                self.gpu_launch(name, rt_t, max(1000, length // 2), tid, ext, rtn, rtc)
            elif kind < 0.80:                      # extern kernel (cuBLAS)
                en = rng.choice(EXTERN_NAMES)
                ecat = "python_function" if en.startswith("extern_kernels_torch") else "cpu_op"
                self.externs.setdefault(rname, []).append(en)
                self.cpu_event(tid, self.ev(en, ecat, start, length, tid, args={"External id": ext}))
                inner = self.ev("aten::mm", "cpu_op", start + 300, length - 600, tid, args={"External id": ext + 1000})
                if rng.random() < 0.5:
                    self.cpu_event(tid, inner)
                gemm = rng.choice(GEMMS[:4] if self.vendor == "nv" else GEMMS[4:])
                rtn = "cudaLaunchKernel" if self.vendor == "nv" else "hipExtModuleLaunchKernel"
                self.gpu_launch(gemm, start + length // 2, max(1000, length // 3), tid,
                                ext + 1000 if rng.random() < 0.5 else ext, rtn, "cuda_runtime")
            elif kind < 0.88:                      # aten fallback op with a native kernel / memset
                an = rng.choice(["aten::fill_", "aten::sum", "aten::zero_"])
                self.cpu_event(tid, self.ev(an, "cpu_op", start, length, tid, args={"External id": ext}))
                kn = rng.choice(ATEN_KERNELS)
                self.non_triton.setdefault(rname, []).append(kn)
                if kn.startswith("Memset"):
                    self.gpu_launch(kn, start + length // 3, max(1000, length // 3), tid, ext,
                                    "cudaMemsetAsync", "cuda_runtime", kernel_cat="gpu_memset")
                else:
                    self.gpu_launch(kn, start + length // 3, max(1000, length // 3), tid, ext,
                                    "cudaLaunchKernel", "cuda_runtime")
            elif kind < 0.94:
                self.misc_runtime(start + 100, tid)
            else:                                  # plain python_function / aten op without kernels
                self.cpu_event(tid, self.ev(rng.choice(["aten::empty_strided", "aten::view",
                                                        "<built-in method x>", "aten::as_strided"]),
                                            rng.choice(["cpu_op", "python_function", "user_annotation"]),
                                            start, max(500, length // 4), tid, args={"External id": ext}))
            t += slot

    def build(self):
        rng = self.rng
        per_launch = 5.3
        n_regions = 1 if self.tiny else max(1, min(4, int(self.target / 60) + rng.randint(0, 1)))
        budget = max(0, self.target - 8 - 4 * n_regions)
        t = rng.randint(1000, 50000) * 1000
        step_start = t
        regions = []
        for ri in range(n_regions):
            frame, comp = rng.randint(0, 3), rng.randint(0, 2)
            rname = "Torch-Compiled Region: %d/%d" % (frame, comp)
            if rng.random() < 0.04:
                rname = "Torch-Compiled Region"
            autograd = rng.random() < (0.25 if self.tiny else 0.5)
            nl = int(budget / n_regions / per_launch / (2 if autograd else 1)) + rng.randint(0, 1)
            nl = max(0 if rng.random() < 0.05 else 1, min(nl, 60))
            if self.tiny:
                nl = 1
            length = (nl + 2) * rng.randint(20000, 120000)
            # cache lookup before the region
            if not self.tiny:
                self.cpu_event(self.tid, self.ev("TorchDynamo Cache Lookup", "cpu_op", t, 8000, self.tid,
                                                 args={"External id": self.next_ext()}))
            t += 9000
            rdur = length
            reg = self.ev(rname, "cpu_op", t, rdur, self.tid, args={"External id": self.next_ext()})
            self.cpu_event(self.tid, reg)
            regions.append(rname)
            inner0, inner1 = t + rng.randint(1000, 5000), t + rdur - rng.randint(1000, 5000)
            cf = None
            if autograd:
                cf_args = {"External id": self.next_ext(), "Sequence number": rng.randint(0, 500)}
                cf = self.ev("CompiledFunction", "cpu_op", inner0, inner1 - inner0, self.tid, args=cf_args)
                if rng.random() < 0.04:            # src starts with the region: not strictly contained
                    cf["_t"] = t
                    cf["_d"] = inner1 - t
                fid = self.fwdbwd_id
                self.fwdbwd_id += 1
                s = {"ph": "s", "id": fid, "pid": self.pid, "tid": self.tid, "_t": cf["_t"], "cat": "fwdbwd",
                     "name": "fwdbwd"}
                self.cpu_event(self.tid, cf, [s] if rng.random() > 0.01 else [])
                inner0 += 500
                inner1 -= 500
            self.body(rname, inner0, inner1, self.tid, nl, bw=False)
            t += rdur + rng.randint(2000, 30000)
            if autograd:
                self.pending_bw = getattr(self, "pending_bw", []) + [(rname, fid, nl)]
        # backward pass on the autograd thread, after all forward regions
        for rname, fid, nl in getattr(self, "pending_bw", []):
            t += rng.randint(5000, 50000)
            self.cpu_event(self.bw_tid, self.ev("autograd::engine::evaluate_function: CompiledFunctionBackward",
                                                "cpu_op", t - 2000, (nl + 2) * 60000 + 4000, self.bw_tid,
                                                args={"External id": self.next_ext()}))
            bdur = (nl + 2) * 60000
            cfb = self.ev("CompiledFunctionBackward", "cpu_op", t, bdur, self.bw_tid,
                          args={"External id": self.next_ext(), "Sequence number": fid, "Fwd thread id": 1})
            f = {"ph": "f", "id": fid, "pid": self.pid, "tid": self.bw_tid, "_t": t, "cat": "fwdbwd",
                 "name": "fwdbwd", "bp": "e"}
            self.cpu_event(self.bw_tid, cfb, [f] if rng.random() > 0.01 else [])
            self.body(rname, t + 1000, t + bdur - 1000, self.bw_tid, max(1, nl // 2 + rng.randint(0, 2)), bw=True)
            t += bdur + rng.randint(2000, 20000)
        # outside-region noise on the main thread
        for _ in range(0 if self.tiny else rng.randint(0, 3)):
            tt = t + rng.randint(1000, 50000)
            self.cpu_event(self.tid, self.ev("aten::add_", "cpu_op", tt, 5000, self.tid,
                                             args={"External id": self.next_ext()}))
            self.gpu_launch(ATEN_KERNELS[0], tt + 1000, 2000, self.tid, self.ext, "cudaLaunchKernel", "cuda_runtime")
        step_end = max(t, self.gpu_cursor) + 10000
        if not self.tiny:
            self.cpu_event(self.tid, self.ev("ProfilerStep#%d" % rng.randint(1, 9), "user_annotation", step_start,
                                             step_end - step_start, self.tid, args={"External id": 1}))
        self.regions = regions
        self.step = (step_start, step_end)
        return self

    # -- file layout --
    def events(self):
        rng = self.rng
        out = []
        tids = [self.bw_tid, self.tid] if self.bw_tid != self.tid else [self.tid]
        for tid in tids:                           # CPU block: autograd thread first
            items = sorted(self.cpu.get(tid, []), key=lambda p: (p[0]["_t"], -p[0]["_d"]))
            for e, flows in items:
                out.append(e)
                out.extend(flows)
        gpu = sorted(self.gpu, key=lambda g: g[0])
        if self.vendor == "nv":
            for _, rt, kern in gpu:               # [kernel][f][runtime][s]
                out.extend(kern)
                out.extend(rt)
        else:                                      # AMD: runtime block, then kernel block
            for _, rt, kern in gpu:
                out.extend(rt)
            for _, rt, kern in sorted(gpu, key=lambda g: g[2][0]["_t"] if g[2] else 0):
                out.extend(kern)
        if self.tiny:
            return self.fmt_all(out)
        # trailer
        t0 = self.step[0]
        for pid, label in ((self.pid, "CPU"), (self.gpu_pid, "GPU %d" % self.gpu_pid)):
            out.append({"name": "process_name", "ph": "M", "_t": t0, "pid": pid, "tid": 0,
                        "args": {"name": "python3"}})
            if rng.random() < 0.5:
                out.append({"name": "process_labels", "ph": "M", "_t": t0, "pid": pid, "tid": 0,
                            "args": {"labels": label}})
        for tid in tids:
            out.append({"name": "thread_name", "ph": "M", "_t": t0, "pid": self.pid, "tid": tid,
                        "args": {"name": "thread %d (python3)" % tid}})
        out.append({"name": "thread_name", "ph": "M", "_t": t0, "pid": self.gpu_pid, "tid": self.stream,
                    "args": {"name": "stream %d " % self.stream}})
        if rng.random() < 0.6:
            out.append({"ph": "X", "cat": "Trace", "_t": t0 - 5000, "_d": self.step[1] - t0 + 10000,
                        "pid": "Spans", "tid": "PyTorch Profiler", "name": "PyTorch Profiler (0)",
                        "args": {"Op count": 0}})
            out.append({"name": "Record Window End", "ph": "i", "s": "g", "pid": "", "tid": "",
                        "_t": self.step[1] + 5000})
        return self.fmt_all(out)

    def fmt_all(self, out):
        res, mode = [], self.tsmode
        for e in out:
            if e.get("ph") not in ("s", "f"):      # a flow keeps the ts format of its bound slice
                mode = self.mode_of(e)
            res.append(self.fmt(e, mode))
        return res

    def mode_of(self, e):
        if self.tsmode != "mixed":
            return self.tsmode
        name, cat = e.get("name", ""), e.get("cat")
        if e.get("ph") != "X":
            cls = "meta"
        elif cat == "cpu_op" and ("Torch-Compiled Region" in name or name.startswith("CompiledFunction")):
            cls = "region"
        elif cat in ("kernel", "gpu_memset"):
            cls = "gpu"
        elif cat in ("cuda_runtime", "cuda_driver"):
            cls = "runtime"
        else:
            cls = "cpu"
        return "epoch16int" if cls in self.int_classes else "epoch16"

    def fmt(self, e, mode):

        def conv(ns, is_dur):
            if mode == "int":
                return ns // 1000
            if mode == "epoch16int":
                return (ns if is_dur else ns + 1712195495000000000) // 1000
            base = 0 if is_dur else (1712195495000000000 if mode == "epoch16" else 2413669000000000)
            v = ns + base
            return float("%d.%03d" % (v // 1000, v % 1000))

        r = {}
        for k, v in e.items():
            if k == "_t":
                r["ts"] = conv(v, False)
            elif k == "_d":
                r["dur"] = conv(v, True)
            else:
                r[k] = v
        # key order as Kineto writes it
        order = ["ph", "cat", "name", "pid", "tid", "ts", "dur", "id", "bp", "s", "args"]
        return {k: r[k] for k in sorted(r, key=lambda k: order.index(k) if k in order else 99)}

    # -- kernel info --
    def kernel_info(self):
        rng = self.rng
        if self.empty_kinfo:
            return {}
        key_style = rng.choice(["exact", "handle", "handle", "mixed"])
        val_style = rng.choice(["dict", "dict", "dict", "list", "mixed"])
        p_missing = rng.choice([0.0, 0.0, 0.05, 0.2, 0.5])
        bw_style = rng.choice(["exact", "suffix", "suffix", "both", "none", "suffix_dq"])
        info = {}

        def value():
            r = rng.random()
            style = val_style if val_style != "mixed" else rng.choice(["dict", "list", "odd"])
            if style == "odd" and r < 0.5:
                return rng.choice([None, [], {"post_grad_nodes": ["x"]}, {"stack_traces": None}, "s"])
            stacks = stack_strings(rng)
            if style == "list":
                return stacks
            return {"stack_traces": stacks, "post_grad_nodes": rng.sample(WORDS, 2),
                    "pre_grad_nodes": rng.sample(WORDS, 1)}

        def key_for(name):
            self.handle += 1
            if key_style == "exact" or (key_style == "mixed" and rng.random() < 0.5):
                return name
            return "%s:%d" % (name, self.handle)

        def graph(kernels, externs, non_triton):
            g = {}
            for kn in kernels:
                if rng.random() < p_missing:
                    continue
                g[key_for(kn)] = value()
            for en in externs:
                if rng.random() < p_missing:
                    continue
                m = None
                if "," in en:
                    m = "extern_kernels_mm"
                g[key_for(m or en)] = value()
            for kn in non_triton:
                if rng.random() < 0.3:
                    g[kn] = value()
            if rng.random() < 0.2:
                g[key_for(self.kernel_name())] = value()   # kernel not in the trace
            return g

        for rname in dict.fromkeys(self.regions):
            if rng.random() < 0.03:
                continue                                   # region without any key
            fw = graph(self.kernels_fw.get(rname, []), self.externs.get(rname, []), self.non_triton.get(rname, []))
            if rng.random() < 0.15 and len(fw) > 1:
                fw = dict(list(fw.items())[:1])            # single-stack graph
            info[G(rname)] = fw
            if rname in self.kernels_bw or rname in getattr(self, "bw_regions", ()):
                pass
            bw = graph(self.kernels_bw.get(rname, []), [], [])
            if bw_style in ("exact", "both"):
                info[G(rname, True)] = bw
            if bw_style in ("suffix", "both"):
                info[G(rname + "_backward_%d" % rng.randint(0, 2), True)] = (
                    bw if bw_style == "suffix" else graph(self.kernels_bw.get(rname, []), [], []))
            if bw_style == "suffix_dq":
                info['("%s_backward_0", True)' % rname] = bw
        if rng.random() < 0.3:
            info[G("Torch-Compiled Region: 9/9")] = {self.kernel_name(): value()}
        if rng.random() < 0.1:
            info["not a tuple"] = {"x": value()}
        if rng.random() < 0.3:                                 # shuffle graph order
            items = list(info.items())
            rng.shuffle(items)
            info = dict(items)
        return info

    def trace(self):
        rng = self.rng
        evs = self.events()
        if rng.random() < 0.05:                                # already processed once
            for i, e in enumerate(evs):
                e["uid"] = i
            extra = {"uid_assigned": True}
        elif rng.random() < 0.03:
            extra = {"uid_assigned": False}
        else:
            extra = None
        layout = rng.choice(["kineto", "kineto", "events_first", "meta_first", "plain"])
        return top(evs, layout, extra)


def random_cases(n, seed0=20240601):
    for i in range(n):
        rt = RandomTrace(seed0 + i).build()
        trace = rt.trace()
        kinfo = rt.kernel_info()
        nev = len(trace["traceEvents"])
        about = ("randomized Kineto-like torch.compile trace (seed %d): %s order, %s timestamps, %d events, "
                 "%d region(s), jitter %.2f%s" % (rt.seed, "NVIDIA quad" if rt.vendor == "nv" else "AMD",
                                                  rt.tsmode, nev, len(rt.regions), rt.p_jitter,
                                                  ", python_function stacks" if rt.with_stack else ""))
        CASES.append(Case("rand_%03d" % i, about, trace, kinfo, None))


# --------------------------------------------------------------------------------------------
# Writing and checking
# --------------------------------------------------------------------------------------------

def dump_trace(c, path):
    with open(path, "w", encoding="utf-8") as f:
        if c.pretty:
            json.dump(c.trace, f, indent=4, ensure_ascii=not c.utf8)
            f.write("\n")
        else:
            json.dump(c.trace, f, separators=(",", ":"), ensure_ascii=not c.utf8)


def check(c, out, res):
    exp = c.expect
    if exp is None:
        return []
    problems = []
    if res["status"] != exp["status"]:
        problems.append("status %s (%s), expected %s" % (res["status"], res["error"], exp["status"]))
        return problems
    if "error" in exp and not (res["error"] or "").startswith(exp["error"]):
        problems.append("error %r, expected %s" % (res["error"], exp["error"]))
    if "warnings" in exp and len(res["warnings"]) != exp["warnings"]:
        problems.append("warnings %d, expected %d" % (len(res["warnings"]), exp["warnings"]))
    if "stacks" in exp and exp["stacks"] is not None:
        got = {i: e["args"]["stack"] for i, e in enumerate(out.get("traceEvents", []))
               if isinstance(e, dict) and isinstance(e.get("args"), dict) and "stack" in e["args"]}
        want = {c.tags[t]: v for t, v in exp["stacks"].items()}
        if got != want:
            inv = {v: k for k, v in c.tags.items()}
            problems.append("stacks %r, expected %r" % ({inv.get(k, k): v for k, v in got.items()},
                                                         exp["stacks"]))
    if exp.get("no_uid"):
        if "uid_assigned" in out and "uid_assigned" not in c.trace:
            problems.append("uid_assigned added")
        if any(isinstance(e, dict) and "uid" in e for e in out.get("traceEvents", [])):
            problems.append("uid added")
    return problems


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--oracle", required=True, help="the reference post-processor's oracle.py")
    ap.add_argument("--out", default=os.path.join(root, "tests", "data", "golden"))
    ap.add_argument("--random", type=int, default=190, help="number of randomized cases")
    ap.add_argument("--python", default=sys.executable, help="interpreter that runs the oracle")
    a = ap.parse_args()
    oracle = os.path.abspath(a.oracle)
    if not os.path.isfile(oracle):
        sys.exit("oracle not found: %s" % oracle)

    hand_cases()
    random_cases(a.random)

    out_dir = os.path.abspath(a.out)
    if os.path.isdir(out_dir):
        shutil.rmtree(out_dir)
    os.makedirs(out_dir)
    failures, n_err, n_warn = [], 0, 0
    for c in CASES:
        d = os.path.join(out_dir, c.name)
        os.makedirs(d)
        tp, kp = os.path.join(d, "trace.json"), os.path.join(d, "kernel_info.json")
        ep, rp = os.path.join(d, "expected.json"), os.path.join(d, "result.json")
        dump_trace(c, tp)
        with open(kp, "w", encoding="utf-8") as f:
            json.dump(c.kinfo, f, indent=1, ensure_ascii=not c.utf8)
            f.write("\n")
        with open(os.path.join(d, "about.txt"), "w", encoding="utf-8") as f:
            f.write(c.about + "\n")
        p = subprocess.run([a.python, oracle, tp, kp, ep, "--result", rp, "--indent", "-1"],
                           capture_output=True, text=True)
        if p.returncode != 0:
            failures.append("%s: oracle failed: %s" % (c.name, p.stderr.strip().splitlines()[-1:]))
            continue
        with open(ep, encoding="utf-8") as f:
            out = json.load(f)
        with open(rp, encoding="utf-8") as f:
            res = json.load(f)
        n_err += res["status"] == "error"
        n_warn += bool(res["warnings"])
        for prob in check(c, out, res):
            failures.append("%s: %s" % (c.name, prob))
    size = sum(os.path.getsize(os.path.join(dp, fn)) for dp, _, fns in os.walk(out_dir) for fn in fns)
    print("%d cases (%d hand-written, %d random), %d with status error, %d with warnings, %.2f MB"
          % (len(CASES), len(CASES) - a.random, a.random, n_err, n_warn, size / 1e6))
    if failures:
        print("\n".join(failures), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
