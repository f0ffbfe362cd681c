#!/usr/bin/env python3
"""Derived fixtures for tst_kernel_info_sources (standard library only; the outputs are checked in).

    python3 make_derived.py          # rewrite derived/
    python3 make_derived.py --check  # exit 1 if derived/ differs from what this writes

derived/fw_bw_debug_handle_log.txt
    inductor_provenance_jit_debug_handle_log.txt (a real TORCH_TRACE log, compile 0/0 forward
    only) with a backward compile appended, as AOTAutograd logs it when the backward graph is
    compiled lazily: the records of the forward compile (from the "compile_fx.<locals>.
    fw_compiler_base" span's begin to its end) copied with the span renamed
    "compile_fx.<locals>.bw_compiler", "is_backward": false -> true, and the kernels of the
    provenance payloads renamed (triton_poi_fused_* -> triton_poi_fused_bw_*, debug handles + 5,
    extern_kernels.mm:4/5 -> :9/:10); then the autotuning events of the forward kernels copied
    for the renamed ones with is_backward true. has_payload is the MD5 of the new payload, as
    PyTorch writes it. The stacks are the forward ones (a backward kernel's stack is its forward
    op's stack in real runs too).

derived/tlparse_fw_bw/
    The files of a tlparse output folder (meta-pytorch/tlparse, src/lib.rs and src/parsers.rs)
    that Stackline reads, laid out from derived/fw_bw_debug_handle_log.txt the way tlparse lays
    them out: one folder per compile id ("<compiled autograd>_<frame>_<frame compile>_<attempt>",
    '-' for none, here "-_0_0_0"), artifacts as "<name>_<n>.json" with one counter across the
    whole folder in log order, the aot_*_graph dumps as "<name>_<n>.txt", and every chromium
    event in chromium_events.json. The counter values follow tlparse's scheme (one number per
    output file, plus one for the *_readable.html of each stack-trace file) but are not
    guaranteed to equal the ones tlparse would print; Stackline only uses their order. No
    raw.log (tlparse copies the log there; Stackline then reads that instead, tested separately).
"""
import hashlib
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "inductor_provenance_jit_debug_handle_log.txt")
OUT = os.path.join(HERE, "derived")
GLOG = re.compile(r"^([VIWEC]\d{4} [\d:.]+ +\d+ [^\]]*:\d+\] )(.*)$")


def records(text):
    """[(header prefix, metadata JSON text, [payload lines without the tab])] in log order."""
    out = []
    for line in text.split("\n"):
        if not line:
            continue
        if line.startswith("\t"):
            out[-1][2].append(line[1:])
            continue
        m = GLOG.match(line)
        assert m, line[:80]
        out.append((m.group(1), m.group(2), []))
    return out


def render(recs):
    lines = []
    for prefix, meta, payload in recs:
        lines.append(prefix + meta)
        lines.extend("\t" + p for p in payload)
    return "\n".join(lines) + "\n"


def with_payload(prefix, meta, payload):
    m = json.loads(meta)
    if "has_payload" in m:
        m["has_payload"] = hashlib.md5("\n".join(payload).encode()).hexdigest()
    return prefix, json.dumps(m), payload


def rename_kernels(text):
    text = re.sub(r"triton_poi_fused_(?!bw_)", "triton_poi_fused_bw_", text)
    return re.sub(r'((?:triton_\w+|extern_kernels\.\w+)):(\d+)"', lambda m: f'{m.group(1)}:{int(m.group(2)) + 5}"', text)


def chromium(rec):
    return json.loads("\n".join(rec[2])) if '"chromium_event"' in rec[1] else None


def fw_bw_log():
    recs = records(open(SOURCE, encoding="utf-8").read())
    start = end = None
    tuning = []
    for i, r in enumerate(recs):
        ev = chromium(r)
        if ev and ev["name"] == "compile_fx.<locals>.fw_compiler_base":
            if ev["ph"] == "B":
                start = i
            else:
                end = i
        if ev and ev["name"] in ("CachingAutotuner.benchmark_all_configs", "TritonBenchmarker.benchmark_gpu") and start is not None:
            tuning.append(r)
    assert start is not None and end is not None
    backward = []
    for prefix, meta, payload in recs[start:end + 1] + tuning:
        text = "\n".join(payload)
        if '"chromium_event"' in meta:
            text = text.replace('"compile_fx.<locals>.fw_compiler_base"', '"compile_fx.<locals>.bw_compiler"')
            text = text.replace('"is_backward": false', '"is_backward": true')
            text = re.sub(r'("kernel_name": ")triton_poi_fused_', r"\1triton_poi_fused_bw_", text)
        elif "inductor_provenance_tracking" in meta:
            text = rename_kernels(text)
        backward.append(with_payload(prefix, meta, text.split("\n") if payload else []))
    return render(recs + backward)


def tlparse_folder(log_text, folder):
    """{relative path: text} of the tlparse-style folder for log_text."""
    files = {}
    events = []
    n = 0
    lineno = 0
    for prefix, meta, payload in records(log_text):
        lineno += 1 + len(payload)
        m = json.loads(meta)
        if "str" in m:
            continue
        if "chromium_event" in m:
            events.append(json.loads("\n".join(payload)))
            continue
        if m.get("frame_id") is not None or m.get("compiled_autograd_id") is not None:
            attempt = m.get("attempt")
            if attempt is None and m.get("frame_compile_id") is not None:
                attempt = 0
            parts = [m.get("compiled_autograd_id"), m.get("frame_id"), m.get("frame_compile_id"), attempt]
            cdir = "_".join("-" if p is None else str(p) for p in parts)
        else:
            cdir = f"unknown_{lineno - len(payload)}"
        body = "\n".join(payload)
        if "artifact" in m:
            name = m["artifact"]["name"]
            if name.startswith("inductor_provenance_tracking"):
                files[f"{cdir}/{name}_{n}.json"] = body
            n += 1
            if name == "inductor_provenance_tracking_kernel_stack_traces":
                n += 1  # the *_readable.html next to it
            continue
        for key in ("aot_joint_graph", "aot_forward_graph", "aot_backward_graph", "aot_inference_graph"):
            if key in m:
                files[f"{cdir}/{key}_{n}.txt"] = body
        n += 1
    files["chromium_events.json"] = json.dumps(events, indent=2)
    return files


def outputs():
    log = fw_bw_log()
    out = {"fw_bw_debug_handle_log.txt": log}
    for rel, text in tlparse_folder(log, "tlparse_fw_bw").items():
        out["tlparse_fw_bw/" + rel] = text
    return out


def main():
    check = "--check" in sys.argv[1:]
    stale = []
    for rel, text in sorted(outputs().items()):
        path = os.path.join(OUT, rel)
        if check:
            try:
                same = open(path, encoding="utf-8").read() == text
            except OSError:
                same = False
            if not same:
                stale.append(rel)
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    if stale:
        print("stale:", ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
