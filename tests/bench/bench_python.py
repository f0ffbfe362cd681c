#!/usr/bin/python3
"""bench_python.py BUILD TRACE [--kernel-info KINFO] [--rounds N] [--no-json-load]: the Python
package against stackline-cli on one trace, each figure from a fresh process (median of N rounds,
peak anonymous memory by peak_anon.py):

- `stackline-cli summary TRACE --json`, the whole process;
- `stackline.load(TRACE)` + `summary()` inside Python (the interpreter's start left out);
- `kernels()`: its time (pandas imported before) and the DataFrame's bytes per row;
- the Python process's peak with the loaded trace and the kernels' DataFrame;
- Python's own `json.load` of the same file (gzip-aware), as pure-Python tools read traces.

The package is the build folder's: stackline/ and its _core module linked into a scratch folder.
Run with Debian's /usr/bin/python3 (numpy, pandas).
"""
import argparse
import glob
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")

# Each prints "seconds [rows bytes]" on its last line.
SUMMARY = """
import sys, time
import stackline
t0 = time.perf_counter()
trace = stackline.load(sys.argv[1], kernel_info=sys.argv[2] or None)
trace.summary()
print(time.perf_counter() - t0)
"""
KERNELS = """
import sys, time
import pandas, stackline
trace = stackline.load(sys.argv[1], kernel_info=sys.argv[2] or None)
t0 = time.perf_counter()
frame = trace.kernels()
seconds = time.perf_counter() - t0
print(seconds, len(frame), int(frame.memory_usage(deep=True).sum()))
"""
JSON_LOAD = """
import gzip, json, sys, time
t0 = time.perf_counter()
with (gzip.open if sys.argv[1].endswith(".gz") else open)(sys.argv[1], "rb") as f:
    trace = json.load(f)
print(time.perf_counter() - t0)
"""


def package(build, scratch):
    """A folder for PYTHONPATH holding the build's stackline package."""
    [core] = glob.glob(os.path.join(build, "packaging", "python", "_core*.so"))
    pkg = os.path.join(scratch, "stackline")
    shutil.copytree(os.path.join(ROOT, "packaging", "python", "stackline"), pkg)
    os.symlink(os.path.abspath(core), os.path.join(pkg, os.path.basename(core)))
    os.symlink(os.path.abspath(os.path.join(ROOT, "packaging", "python", "stackline_handler.py")),
               os.path.join(scratch, "stackline_handler.py"))
    return scratch


def run(command, env=None):
    """(the last line of its output split, peak anonymous bytes, wall seconds)."""
    with tempfile.NamedTemporaryFile() as peak:
        t0 = time.perf_counter()
        out = subprocess.run([sys.executable, os.path.join(HERE, "peak_anon.py"), peak.name,
                              *command], env=env, check=True, capture_output=True, text=True)
        wall = time.perf_counter() - t0
        last = out.stdout.strip().splitlines()[-1].split() if out.stdout.strip() else []
        return last, int(open(peak.name).read()), wall


def rounds_of(rounds, command, env=None):
    return [run(command, env) for _ in range(rounds)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("trace")
    ap.add_argument("--kernel-info", default="")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--no-json-load", action="store_true")
    a = ap.parse_args()
    cli = os.path.join(a.build, "app", "stackline-cli", "stackline-cli")
    mib = os.path.getsize(a.trace) / 2**20
    with tempfile.TemporaryDirectory() as scratch:
        env = dict(os.environ, PYTHONPATH=package(a.build, scratch), PYTHONDONTWRITEBYTECODE="1")
        ki = ["--kernel-info", a.kernel_info] if a.kernel_info else []
        summary = subprocess.run([cli, "summary", a.trace, "--json", *ki], check=True,
                                 capture_output=True, text=True).stdout
        events = int(json.loads(summary)["events"])
        print(f"{a.trace}: {mib:.0f} MiB, {events} events; medians of {a.rounds}")

        def report(label, results, seconds_of):
            seconds = statistics.median(seconds_of(r) for r in results)
            peak = statistics.median(r[1] for r in results)
            print(f"  {label:<34} {seconds:7.2f} s  peak anon {peak / 2**20:7.0f} MiB "
                  f"({peak / events:6.1f} B/event)")
            return seconds

        cli_s = report("stackline-cli summary --json", rounds_of(
            a.rounds, [cli, "summary", a.trace, "--json", *ki]), lambda r: r[2])
        py = rounds_of(a.rounds, [sys.executable, "-c", SUMMARY, a.trace, a.kernel_info], env)
        py_s = report("stackline.load + summary()", py, lambda r: float(r[0][0]))
        print(f"  {'':<34} {py_s / cli_s:7.2f}x the CLI's")
        k = rounds_of(a.rounds, [sys.executable, "-c", KERNELS, a.trace, a.kernel_info], env)
        report("load + kernels() (process peak)", k, lambda r: float(r[0][0]))
        rows = int(k[0][0][1])
        print(f"  kernels(): {statistics.median(float(r[0][0]) for r in k):.2f} s for {rows} rows, "
              f"{int(k[0][0][2]) / max(rows, 1):.1f} bytes per row in the DataFrame")
        if not a.no_json_load:
            j = [run([sys.executable, "-c", JSON_LOAD, a.trace])]
            report("json.load (once)", j, lambda r: float(r[0][0]))


if __name__ == "__main__":
    main()
