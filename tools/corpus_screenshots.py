#!/usr/bin/env python3
"""Opens every trace of a corpus folder in the viewer under Xvfb, with and without made-up kernel
information, at 1600x1000 and 800x1000, selecting the kernel with the longest unbreakable name
(no spaces: CUTLASS, Tensile, Composable Kernel names), and checks: the window
keeps its size and the timeline keeps at least half of its width. Screenshots go to OUT_DIR to be
looked at.

usage: tools/corpus_screenshots.py VIEWER CORPUS_DIR OUT_DIR

Needs xvfb-run. Exits 1 when any run fails or changes a size.
"""
import gzip
import json
import os
import re
import subprocess
import sys

SIZES = [(1600, 1000), (800, 1000)]
# Matches no compiled region of these traces: the viewer loads it and says so.
MADE_UP = {"('Torch-Compiled Region: 0/0', False)":
           {"triton_poi_fused_add_0": {"stack_traces": ["model.py:1"]}}}


def longest_name(path):
    """The name with the longest run without spaces: of a GPU kernel, else of any slice."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8", errors="replace") as f:
        data = json.load(f)
    events = data.get("traceEvents", []) if isinstance(data, dict) else data
    slices = [e for e in events if isinstance(e, dict) and e.get("ph") == "X"
              and isinstance(e.get("name"), str) and e["name"]]
    kernels = [e for e in slices if "kernel" in str(e.get("cat", "")).lower()]
    run = lambda e: max(len(w) for w in e["name"].split(" "))
    pool = kernels or slices
    return max(pool, key=run)["name"] if pool else None


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    viewer, corpus, out = sys.argv[1:]
    os.makedirs(out, exist_ok=True)
    kinfo = os.path.join(out, "made_up.kernel_info.json")
    with open(kinfo, "w") as f:
        json.dump(MADE_UP, f)
    traces = sorted(os.path.join(d, n) for d, _, names in os.walk(corpus) for n in names
                    if re.search(r"\.json(\.gz)?$", n) and "tlparse" not in d)
    failures = 0
    for trace in traces:
        try:
            name = longest_name(trace)
        except (OSError, ValueError):
            continue  # not a trace
        if not name:
            continue
        for width, height in SIZES:
            for label, extra in (("none", []), ("kinfo", ["--kernel-info", kinfo])):
                png = os.path.join(out, "%s-%d-%s.png" % (os.path.basename(trace)[:40], width,
                                                          label))
                cmd = ["xvfb-run", "-a", "-s", "-screen 0 %dx%dx24" % (width, height), viewer,
                       trace, *extra, "--select", name, "--window-size",
                       "%dx%d" % (width, height), "--screenshot", png]
                r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
                m = re.search(r"window (\d+)x(\d+), timeline (\d+)x(\d+)", r.stdout)
                ok = (r.returncode == 0 and m and (int(m[1]), int(m[2])) == (width, height)
                      and int(m[3]) * 2 >= width)
                failures += not ok
                print("%-4s %dx%d %-5s %s (%d chars): %s" % (
                    "ok" if ok else "FAIL", width, height, label, os.path.basename(trace),
                    len(name), m[0] if m else r.stderr.strip()[-200:]))
    print("%d failures" % failures)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
