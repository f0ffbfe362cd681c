#!/usr/bin/env python3
"""Checks Stackline against the reference on freshly generated random cases that are not in the
test data: the golden generator's random traces, with other seeds.

usage: tools/fresh_check.py CLI ORACLE [--count N] [--seed S]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "golden"))
import make_cases  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cli")
    ap.add_argument("oracle")
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=777000)
    a = ap.parse_args()
    make_cases.CASES.clear()
    make_cases.random_cases(a.count, a.seed)
    failed = errors = 0
    with tempfile.TemporaryDirectory() as tmp:
        for c in make_cases.CASES:
            trace, kinfo, ref, ours, res, rep = (os.path.join(tmp, n) for n in
                                                 ("t.json", "k.json", "ref.json", "out.json", "r.json", "rep.json"))
            make_cases.dump_trace(c, trace)
            with open(kinfo, "w") as f:
                json.dump(c.kinfo, f)
            subprocess.run([sys.executable, a.oracle, trace, kinfo, ref, "--result", res, "--indent", "-1"],
                           check=True, capture_output=True)
            subprocess.run([a.cli, "annotate", trace, "--kernel-info", kinfo, "-o", ours, "--report", rep],
                           check=True, capture_output=True)
            result, report = json.load(open(res)), json.load(open(rep))
            warn = [w["message"] for w in report["warnings"] if w["kind"] == "unrecognized_kernel"]
            if result["status"] == "error":
                errors += 1
                ok = bool(report["errors"])
            else:
                ok = json.load(open(ref)) == json.load(open(ours)) and warn == result["warnings"]
            if not ok:
                failed += 1
                print("FAIL", c.name, c.about)
    print(f"{a.count} fresh cases (seeds {a.seed}..{a.seed + a.count - 1}): {a.count - failed} passed, "
          f"{failed} failed ({errors} where the reference raised)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
