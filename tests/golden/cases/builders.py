"""Building blocks of the golden cases: Kineto-like events, top-level layouts, the case registry
and the expectations asserted against the oracle."""

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


def one_kernel(kn="triton_poi_a", tag="k"):
    """A region and one kernel launched in it (runtime call + flow, no launcher op)."""
    return [region(ts=0, dur=100), *launch(kn, 10, 6, 35, launcher=False, ktag=tag)]


def bw_trace(rname=R00, kernels=("triton_poi_bw",), name_tag="k"):
    """A forward region whose CompiledFunction is linked (fwdbwd) to a CompiledFunctionBackward
    that launches the kernels."""
    evs = [region(rname, ts=0, dur=100),
           X("CompiledFunction", 10, 50, args={"Sequence number": 1}), S(1, 10, cat="fwdbwd"),
           X("CompiledFunctionBackward", 200, 100, tid=3, tag="cfb"),
           F(1, 200, tid=3, pid=1, cat="fwdbwd")]
    for i, kn in enumerate(kernels):
        evs += launch(kn, 210 + 5 * i, 20 + i, 60 + i, tid=3, launcher=False, ktag="%s%d" % (name_tag, i))
    return evs


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


# The stacks the hand-written cases attach to kernels.
A, B, C, D = st("model.py:7 in forward"), st("model.py:9 in backward"), st("C"), st("D")

# A region name whose repr needs escapes (graph keys are tuple reprs).
ODD_REGION = "Torch-Compiled Region: odd', True) name"
