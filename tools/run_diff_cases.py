#!/usr/bin/env python3
"""Pairs of generated runs for `stackline-cli diff` and their expected diff (standard library only;
the outputs are checked in under tests/data/run_diff/).

    python3 tools/run_diff_cases.py          # rewrite tests/data/run_diff/
    python3 tools/run_diff_cases.py --check  # exit 1 if tests/data/run_diff/ differs

Each case is a folder with base.json and new.json (small Kineto traces: per step a ProfilerStep#N
span, inside it a compiled region that launches each kernel through cuLaunchKernel and a flow),
their kernel information (base.kernel_info.json and new.kernel_info.json, found beside the traces;
the "renamed" case names them kinfo_base.json and kinfo_new.json, to be given with
--kernel-info-base/--kernel-info-new), and expected.json: the diff as `diff --json` prints it,
computed here from the model of the runs (every launch's duration and every kernel's stack and
fused ops), following the rules in core/analysis/run_diff.h, independently of Stackline's code.
"""
import json
import os
import re
import sys

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "run_diff")
REGION = "Torch-Compiled Region: 0/0"
GRAPH_KEY = str((REGION, False))


# --- the model ------------------------------------------------------------------------------
# A frame: (file, line, function, code); code None: the short "file:line in function" form.
# A kernel: {"stacks": [[frame, ...] (outermost first), ...], "ops": [post_grad_nodes]}.
# A run: {"kernels": {name: kernel}, "steps": [[(name, ns), ...] per step]}.


def stack_string(frames):
    if frames[0][3] is None:
        assert len(frames) == 1
        f = frames[0]
        return f"{f[0]}:{f[1]} in {f[2]}"
    return "".join(f'  File "{f[0]}", line {f[1]}, in {f[2]}\n    {f[3]}\n' for f in frames)


def us(ns):
    return f"{ns // 1000}.{ns % 1000:03d}"


def trace_json(run):
    """Kineto events: CPU on pid 1 tid 1, the GPU on pid 0 tid 7; each kernel 1 us after its
    launch, kernels back to back on the GPU."""
    events, flow, t = [], 0, 0
    for step, launches in enumerate(run["steps"]):
        gpu = sum(ns for _, ns in launches)
        span = 20_000 + len(launches) * 10_000 + gpu
        events.append({"ph": "X", "cat": "user_annotation", "name": f"ProfilerStep#{step}",
                       "pid": 1, "tid": 1, "ts": us(t), "dur": us(span)})
        events.append({"ph": "X", "cat": "cpu_op", "name": REGION, "pid": 1, "tid": 1,
                       "ts": us(t + 1000), "dur": us(span - 2000)})
        cpu, kernel_at = t + 2000, t + 3000
        for name, ns in launches:
            flow += 1
            events += [
                {"ph": "X", "cat": "cuda_driver", "name": "cuLaunchKernel", "pid": 1, "tid": 1,
                 "ts": us(cpu), "dur": us(500)},
                {"ph": "s", "id": flow, "pid": 1, "tid": 1, "ts": us(cpu), "cat": "ac2g",
                 "name": "ac2g"},
                {"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": 7,
                 "ts": us(kernel_at), "dur": us(ns)},
                {"ph": "f", "id": flow, "pid": 0, "tid": 7, "ts": us(kernel_at), "cat": "ac2g",
                 "name": "ac2g", "bp": "e"},
            ]
            cpu += 10_000
            kernel_at += ns
        t += span + 5000
    text = ",\n".join(json.dumps(e) for e in events)
    # ts and dur as microseconds with three decimals, numbers as Kineto writes them.
    text = re.sub(r'"(ts|dur)": "([0-9.]+)"', r'"\1": \2', text)
    return '{"traceEvents": [\n' + text + '\n], "traceName": "generated"}\n'


def kernel_info_json(run):
    kernels = {f"{name}:{i + 1}": {"stack_traces": [stack_string(s) for s in k["stacks"]],
                                   "post_grad_nodes": k["ops"], "pre_grad_nodes": []}
               for i, (name, k) in enumerate(run["kernels"].items())}
    return json.dumps({GRAPH_KEY: kernels}, indent=1) + "\n"


# --- the expected diff ----------------------------------------------------------------------


def run_lines(run):
    """{(file, line): {frame, self, total, launches}}; per kernel name: count, ns, line set."""
    lines, kernels = {}, {}
    for launches in run["steps"]:
        for name, ns in launches:
            k = kernels.setdefault(name, {"count": 0, "ns": 0, "lines": set()})
            k["count"] += 1
            k["ns"] += ns
            stacks = run["kernels"][name]["stacks"]
            every, inner = [], []
            for frames in stacks:
                for f in frames:
                    if (f[0], f[1]) not in every:
                        every.append((f[0], f[1]))
                    lines.setdefault((f[0], f[1]), {"frame": f, "self": 0, "total": 0,
                                                    "launches": 0})
                if (frames[-1][0], frames[-1][1]) not in inner:
                    inner.append((frames[-1][0], frames[-1][1]))
            share, extra = divmod(ns, len(inner))
            for i, key in enumerate(inner):
                lines[key]["self"] += share + (1 if i < extra else 0)
            for key in every:
                lines[key]["total"] += ns
                lines[key]["launches"] += 1
                k["lines"].add(key)
    return lines, kernels


def match_key(frame):
    file, line, function, code = frame
    return (file, function, code or "", 0 if code else line)


def stem(name):
    m = re.fullmatch(r"(.+)_[0-9]+", name)
    return m.group(1) if m and len(m.group(1)) >= 1 else None


def per_step(ns, steps, on):
    return (ns + steps // 2) // steps if on else ns


def expected(base, new):
    steps = (len(base["steps"]), len(new["steps"]))
    on = steps[0] > 0 and steps[1] > 0 and steps[0] != steps[1]
    sides = [run_lines(base), run_lines(new)]

    groups = [{}, {}]
    for s in range(2):
        for key, l in sides[s][0].items():
            groups[s].setdefault(match_key(l["frame"]), []).append(key)
    rows, row_of = [], [{}, {}]
    for mk in sorted(set(groups[0]) | set(groups[1])):
        ids = [sorted(groups[s].get(mk, []), key=lambda k: k[1]) for s in range(2)]
        for i in range(max(len(ids[0]), len(ids[1]))):
            row = {"key": mk, "sides": [None, None]}
            for s in range(2):
                if i < len(ids[s]):
                    row["sides"][s] = sides[s][0][ids[s][i]]
                    row_of[s][ids[s][i]] = len(rows)
            rows.append(row)

    def ops(run, name):
        return sorted({stem(o) or o for o in run["kernels"][name]["ops"]})

    kernels = []
    only_new = [n for n in sorted(sides[1][1]) if n not in sides[0][1]]
    taken = set()
    for name in sorted(sides[0][1]):
        k = {"base_name": name, "new_name": name, "renamed": False,
             "sides": [sides[0][1][name], sides[1][1].get(name)]}
        if name not in sides[1][1]:
            rows_base = {row_of[0][key] for key in sides[0][1][name]["lines"]}
            for other in only_new:
                rows_new = {row_of[1][key] for key in sides[1][1][other]["lines"]}
                if (other not in taken and stem(name) and stem(name) == stem(other)
                        and rows_base and rows_base == rows_new
                        and ops(base, name) == ops(new, other)):
                    taken.add(other)
                    k.update(new_name=other, renamed=True)
                    k["sides"][1] = sides[1][1][other]
                    break
        kernels.append(k)
    for name in only_new:
        if name not in taken:
            kernels.append({"base_name": name, "new_name": name, "renamed": False,
                            "sides": [None, sides[1][1][name]]})

    def compared(side, s, field):
        return per_step(side[field], steps[s], on) if side else 0

    def order(items, field):
        def size(item):
            return max(compared(item["sides"][s], s, field) for s in range(2))

        def delta(item):
            return compared(item["sides"][1], 1, field) - compared(item["sides"][0], 0, field)
        return sorted(items, key=lambda i: (-abs(delta(i)), -size(i)))

    def ratio(item, field):
        b, n = (compared(item["sides"][s], s, field) for s in range(2))
        return n / b if b else None

    def line_side(l, s):
        if l is None:
            return None
        j = {"line": l["frame"][1], "self_ns": l["self"], "total_ns": l["total"],
             "launches": l["launches"]}
        if on:
            j["self_ns_per_step"] = per_step(l["self"], steps[s], on)
            j["total_ns_per_step"] = per_step(l["total"], steps[s], on)
        return j

    def kernel_side(k, s):
        if k is None:
            return None
        j = {"total_ns": k["ns"], "count": k["count"]}
        if on:
            j["total_ns_per_step"] = per_step(k["ns"], steps[s], on)
        return j

    return {
        "steps": {"base": steps[0], "new": steps[1]},
        "per_step": on,
        "lines": [{"file": r["key"][0], "function": r["key"][1], "code": r["key"][2],
                   "base": line_side(r["sides"][0], 0), "new": line_side(r["sides"][1], 1),
                   "delta_ns": compared(r["sides"][1], 1, "self")
                   - compared(r["sides"][0], 0, "self"),
                   "ratio": ratio(r, "self")} for r in order(rows, "self")],
        "kernels": [{"base_name": k["base_name"], "new_name": k["new_name"],
                     "renamed": k["renamed"], "base": kernel_side(k["sides"][0], 0),
                     "new": kernel_side(k["sides"][1], 1),
                     "delta_ns": compared(k["sides"][1], 1, "ns")
                     - compared(k["sides"][0], 0, "ns"),
                     "ratio": ratio(k, "ns")} for k in order(kernels, "ns")],
    }


# --- the cases ------------------------------------------------------------------------------


def frame(line, code, function="forward", file="/proj/model.py"):
    return (file, line, function, code)


def shifted(run, by):
    """The same run with every line number of /proj/model.py moved by `by` (an edit above)."""
    def move(f):
        return (f[0], f[1] + by, f[2], f[3]) if f[0] == "/proj/model.py" else f
    return {"kernels": {n: {"stacks": [[move(f) for f in s] for s in k["stacks"]],
                            "ops": k["ops"]} for n, k in run["kernels"].items()},
            "steps": run["steps"]}


FC1 = frame(10, "x = self.fc1(x)")
ACT = frame(11, "x = torch.relu(x)")
NORM = frame(12, "x = self.norm(x)")
FC2 = frame(13, "x = self.fc2(x)")
CALL_LAYER = frame(14, "y = self.layer(x)")
LAYER_MUL = frame(30, "return x * self.scale", "layer")
NO_CODE = frame(40, None, "helper")  # the short form: matched by line number

KERNELS = {
    "triton_tem_fused_mm_0": {"stacks": [[FC1]], "ops": ["mm"]},
    # Fused across two lines: self time split in two (odd ns: one more for the first).
    "triton_poi_fused_relu_native_layer_norm_1": {"stacks": [[ACT], [NORM]],
                                                  "ops": ["relu", "native_layer_norm"]},
    "triton_tem_fused_mm_2": {"stacks": [[FC2]], "ops": ["mm_1"]},
    # Two frames in one string: self on the layer's line, total on both.
    "triton_poi_fused_mul_3": {"stacks": [[CALL_LAYER, LAYER_MUL]], "ops": ["mul"]},
    "triton_poi_fused_add_4": {"stacks": [[NO_CODE]], "ops": ["add"]},
}


def slowdown():
    step_base = [("triton_tem_fused_mm_0", 40_000), ("triton_poi_fused_relu_native_layer_norm_1",
                 7_001), ("triton_tem_fused_mm_2", 20_000), ("triton_poi_fused_mul_3", 3_000)]
    step_new = [("triton_tem_fused_mm_0", 55_500), ("triton_poi_fused_relu_native_layer_norm_1",
                7_003), ("triton_tem_fused_mm_2", 19_000), ("triton_poi_fused_mul_3", 3_000),
                ("triton_poi_fused_mul_3", 2_999)]
    kernels = {k: v for k, v in KERNELS.items() if k != "triton_poi_fused_add_4"}
    return ({"kernels": kernels, "steps": [step_base, step_base]},
            {"kernels": kernels, "steps": [step_new, step_new[:3]]})


def shifted_lines():
    step = [(name, 10_000 * (i + 1)) for i, name in enumerate(KERNELS)]
    slower = [(name, ns + 1_000 if name == "triton_tem_fused_mm_2" else ns) for name, ns in step]
    base = {"kernels": KERNELS, "steps": [step, step]}
    return base, shifted({"kernels": KERNELS, "steps": [slower, slower]}, 3)


def renamed():
    base_kernels = {
        "triton_poi_fused_add_mul_0": {"stacks": [[FC1]], "ops": ["add", "mul"]},
        "triton_poi_fused_relu_1": {"stacks": [[ACT]], "ops": ["relu"]},
        "triton_poi_fused_cat_2": {"stacks": [[NORM]], "ops": ["cat"]},
        "triton_tem_fused_mm_6": {"stacks": [[FC2]], "ops": ["mm"]},
    }
    new_kernels = {
        # A recompile renamed it; same line, same ops (their node indices changed): renamed.
        "triton_poi_fused_add_mul_3": {"stacks": [[FC1]], "ops": ["add_1", "mul_2"]},
        # Same name stem, another line: a different kernel.
        "triton_poi_fused_relu_4": {"stacks": [[FC2]], "ops": ["relu"]},
        # Same stem and line, other fused ops: a different kernel.
        "triton_poi_fused_cat_5": {"stacks": [[NORM]], "ops": ["cat", "view"]},
        "triton_tem_fused_mm_6": {"stacks": [[FC2]], "ops": ["mm"]},
    }
    base = [("triton_poi_fused_add_mul_0", 5_000), ("triton_poi_fused_relu_1", 2_000),
            ("triton_poi_fused_cat_2", 3_000), ("triton_tem_fused_mm_6", 30_000)]
    new = [("triton_poi_fused_add_mul_3", 6_500), ("triton_poi_fused_relu_4", 2_100),
           ("triton_poi_fused_cat_5", 3_300), ("triton_tem_fused_mm_6", 30_000)]
    return {"kernels": base_kernels, "steps": [base]}, {"kernels": new_kernels, "steps": [new]}


def step_counts():
    kernels = {k: KERNELS[k] for k in ("triton_tem_fused_mm_0", "triton_tem_fused_mm_2")}
    base = [[("triton_tem_fused_mm_0", 10_000), ("triton_tem_fused_mm_2", 1_000 + (s == 3))]
            for s in range(4)]
    new = [[("triton_tem_fused_mm_0", 12_000), ("triton_tem_fused_mm_2", 1_500 + s)]
           for s in range(2)]
    return {"kernels": kernels, "steps": base}, {"kernels": kernels, "steps": new}


CASES = {"slowdown": slowdown, "shifted_lines": shifted_lines, "renamed": renamed,
         "step_counts": step_counts}


def files():
    out = {}
    for case, make in CASES.items():
        base, new = make()
        info = ("kinfo_base.json", "kinfo_new.json") if case == "renamed" else \
            ("base.kernel_info.json", "new.kernel_info.json")
        out[f"{case}/base.json"] = trace_json(base)
        out[f"{case}/new.json"] = trace_json(new)
        out[f"{case}/{info[0]}"] = kernel_info_json(base)
        out[f"{case}/{info[1]}"] = kernel_info_json(new)
        out[f"{case}/expected.json"] = json.dumps(expected(base, new), indent=1,
                                                  ensure_ascii=False) + "\n"
    return out


def main():
    check = sys.argv[1:] == ["--check"]
    stale = []
    for name, text in files().items():
        path = os.path.join(OUT, name)
        if check:
            try:
                with open(path, encoding="utf-8") as f:
                    same = f.read() == text
            except OSError:
                same = False
            if not same:
                stale.append(name)
        else:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
    if stale:
        print("out of date (run tools/run_diff_cases.py):", ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
