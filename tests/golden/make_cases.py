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
    python3 tests/golden/make_cases.py --inputs-only --out DIR   # trace.json, kernel_info.json and
                                                                 # about.txt only; no oracle needed
The output directory is wiped and regenerated; the result is deterministic (fixed seeds).
Python 3 standard library only. The cases themselves are built by the package cases/ (builders,
hand-written families by theme, randomized traces); this script writes them and runs the oracle.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

from cases import collect_cases


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
    ap.add_argument("--oracle", help="the reference post-processor's oracle.py")
    ap.add_argument("--inputs-only", action="store_true",
                    help="write trace.json, kernel_info.json and about.txt only, without the oracle")
    ap.add_argument("--out", default=os.path.join(root, "tests", "data", "golden"))
    ap.add_argument("--random", type=int, default=190, help="number of randomized cases")
    ap.add_argument("--python", default=sys.executable, help="interpreter that runs the oracle")
    a = ap.parse_args()
    if a.inputs_only == bool(a.oracle):
        ap.error("give --oracle PATH or --inputs-only")
    oracle = os.path.abspath(a.oracle) if a.oracle else None
    if oracle and not os.path.isfile(oracle):
        sys.exit("oracle not found: %s" % oracle)

    cases = collect_cases(a.random)

    out_dir = os.path.abspath(a.out)
    if os.path.isdir(out_dir):
        shutil.rmtree(out_dir)
    os.makedirs(out_dir)
    failures, n_err, n_warn = [], 0, 0
    for c in cases:
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
        if not oracle:
            continue
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
    if not oracle:
        print("%d cases written (inputs only, oracle not run)" % len(cases))
        return
    size = sum(os.path.getsize(os.path.join(dp, fn)) for dp, _, fns in os.walk(out_dir) for fn in fns)
    print("%d cases (%d hand-written, %d random), %d with status error, %d with warnings, %.2f MB"
          % (len(cases), len(cases) - a.random, a.random, n_err, n_warn, size / 1e6))
    if failures:
        print("\n".join(failures), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
