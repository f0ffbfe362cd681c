#!/usr/bin/env python3
"""Runs every trace of a corpus folder through the reference (oracle.py) and stackline-cli with
made-up kernel information, and compares the annotated outputs semantically (Python ==).

usage: tools/corpus_check.py CLI ORACLE CORPUS_DIR [--keep DIR] [--max-mb N]

The kernel information is derived from each trace: every compiled region gets forward and backward
graphs; most GPU kernel names get an entry (some with a ":N" debug handle, some as bare lists),
some are left out so that kernels stay unresolved, and extern names get entries too.
With --keep, each case is written to DIR/<name>/ for the golden tests: the trace (as it was), its
kernel information, the reference's output (expected.json.gz) and result.json.
"""
import argparse
import gzip
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def made_up_kernel_info(trace, seed):
    rnd = random.Random(seed)
    regions, kernels, externs = [], [], []
    for ev in trace.get("traceEvents", []):
        if not isinstance(ev, dict):
            continue
        name, cat = ev.get("name"), ev.get("cat")
        if not isinstance(name, str):
            continue
        if cat == "cpu_op" and "Torch-Compiled Region" in name and name not in regions:
            regions.append(name)
        if cat == "kernel" and name not in kernels:
            kernels.append(name)
        if "extern_kernels" in name and name not in externs:
            externs.append(name)
    if not regions:
        regions = ["Torch-Compiled Region: 0/0"]
    info = {}
    line = 10
    for r in regions:
        for backward in (False, True):
            graph = {}
            for k in kernels:
                roll = rnd.random()
                if roll < 0.2:
                    continue
                line += 1
                stack = [f'  File "/home/user/model.py", line {line}, in forward\n    x = op_{line}(x)\n']
                key = f"{k}:{line}" if roll < 0.5 else k
                graph[key] = stack if roll > 0.9 else {"stack_traces": stack, "post_grad_nodes": [], "pre_grad_nodes": []}
            for e in externs:
                m = re.search(r"\b(extern\w+)\s*,", e)
                graph[(m.group(1) if m else e) + ":1"] = {"stack_traces": [f"extern {e}"]}
            info[str((r, backward))] = graph
    return info


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cli")
    ap.add_argument("oracle")
    ap.add_argument("corpus")
    ap.add_argument("--keep")
    ap.add_argument("--max-mb", type=float, default=1e9)
    a = ap.parse_args()
    files = []
    for root, _, names in os.walk(a.corpus):
        for n in sorted(names):
            if n.endswith(".json") or n.endswith(".json.gz"):
                files.append(os.path.join(root, n))
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, path in enumerate(sorted(files)):
            if os.path.getsize(path) > a.max_mb * 1e6:
                continue
            try:
                trace = load(path)
            except Exception as e:  # the reference cannot read it either
                print(f"SKIP {path}: python cannot load it ({e})")
                continue
            if not isinstance(trace, dict) or "traceEvents" not in trace:
                print(f"SKIP {path}: not a trace object")
                continue
            kinfo = os.path.join(tmp, "kinfo.json")
            with open(kinfo, "w") as f:
                json.dump(made_up_kernel_info(trace, i), f)
            ref, ours, result = (os.path.join(tmp, x) for x in ("ref.json", "ours.json", "r.json"))
            t0 = time.time()
            subprocess.run([sys.executable, a.oracle, path, kinfo, ref, "--result", result, "--indent", "-1"],
                           check=True, capture_output=True)
            t1 = time.time()
            rep = os.path.join(tmp, "rep.json")
            subprocess.run([a.cli, "annotate", path, "--kernel-info", kinfo, "-o", ours, "--report", rep],
                           check=True, capture_output=True)
            t2 = time.time()
            res = json.load(open(result))
            report = json.load(open(rep))
            same = load(ref) == load(ours)
            ours_warn = [w["message"] for w in report["warnings"] if w["kind"] == "unrecognized_kernel"]
            same_warn = ours_warn == res["warnings"]
            if res["status"] == "error":  # the reference raised: Stackline must say so and go on
                same = bool(report["errors"])
            ok = same and same_warn
            failures += not ok
            print(f"{'OK  ' if ok else 'FAIL'} {os.path.relpath(path, a.corpus)}: status={res['status']} "
                  f"annotated={res['annotated']}/{report['annotated_kernels']} warnings={len(res['warnings'])}/{len(ours_warn)} "
                  f"equal={same} ref={t1 - t0:.2f}s stackline={t2 - t1:.2f}s")
            if a.keep:
                d = os.path.join(a.keep, os.path.basename(path).split(".json")[0])
                os.makedirs(d, exist_ok=True)
                os.replace(kinfo, os.path.join(d, "kernel_info.json"))
                shutil.copyfile(path, os.path.join(d, "trace.json.gz" if path.endswith(".gz") else "trace.json"))
                with open(ref, "rb") as fin, gzip.GzipFile(os.path.join(d, "expected.json.gz"), "wb", mtime=0) as fout:
                    fout.write(fin.read())
                shutil.copyfile(result, os.path.join(d, "result.json"))
    print(f"{failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
