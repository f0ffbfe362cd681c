#!/usr/bin/python3
"""peak_anon.py OUT COMMAND...: runs COMMAND and writes to OUT its peak anonymous memory in
bytes, RssAnon summed over its process tree, sampled every 5 ms. Anonymous memory is what a
memory cgroup cannot reclaim (the peak RSS of `time` also counts the mapped trace's pages).
Exits with COMMAND's status."""
import subprocess
import sys
import time


def tree(pid):
    """pid and its descendants, from /proc's children lists."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            with open(f"/proc/{p}/task/{p}/children") as f:
                todo.extend(int(c) for c in f.read().split())
        except OSError:
            pass
    return out


def anon_bytes(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("RssAnon:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def main():
    if len(sys.argv) < 3:
        print("usage: peak_anon.py OUT COMMAND...", file=sys.stderr)
        return 2
    child = subprocess.Popen(sys.argv[2:])
    peak = 0
    while child.poll() is None:
        peak = max(peak, sum(anon_bytes(p) for p in tree(child.pid)))
        time.sleep(0.005)
    with open(sys.argv[1], "w") as f:
        f.write(f"{peak}\n")
    return child.returncode


if __name__ == "__main__":
    sys.exit(main())
