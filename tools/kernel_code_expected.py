#!/usr/bin/env python3
"""Expected kernel-code records for tests/core/kernel_info/tst_kernel_code.cpp, computed from the inputs alone
(regular expressions on the log and the trace's JSON; no Stackline code).

usage: kernel_code_expected.py log LOG > tests/data/kernel_code/NAME.json
       kernel_code_expected.py launches TRACE > tests/data/kernel_code/NAME.launches.json

log: every Triton kernel each `inductor_output_code` module defines
("NAME = async_compile.triton('NAME', '''...''', ...)"): its name, the compile id, whether the
module's graph is the backward one (is_backward of the next `inductor_compile` end event of that
compile id), the source from its first decorator line to the last non-blank line before the
closing quotes, the "# kernel path: " comment above it, the source's 1-based line range in the module, the `.run(` lines of the wrapper,
autotune data from `triton_kernel_info` (configs written "KEY: VALUE, ..."), post-grad nodes from
`inductor_triton_kernel_to_post_grad_nodes` (else cppCodeToPost under NAME or NAME:<handle>) and
pre-grad nodes through postToPre, each node once in order. The artifacts about kernels belong to
the last module of their compile id logged before them.

launches: per Triton kernel event, the launcher cpu_op sharing its "External id" on the CPU and
the args that cpu_op carries (kernel_kwargs, num_warps, num_stages, kernel_file, kernel_hash).
"""
import gzip
import json
import re
import sys

RECORD = re.compile(r"^[VIWEC]\d{4} [\d:.]+ +\d+ .*?:\d+\] (\{.*\})$")
KERNEL = re.compile(
    r"^(\w+) = async_compile\.triton\('(\w+)', '''\n(.*?)^'''", re.MULTILINE | re.DOTALL)


def records(text):
    """(envelope, payload text) of each glog record."""
    out = []
    for line in text.split("\n"):
        if line.startswith("\t"):
            if out:
                out[-1][1].append(line[1:])
            continue
        m = RECORD.match(line)
        if m:
            out.append((json.loads(m.group(1)), []))
    return [(env, "\n".join(payload)) for env, payload in out]


def compile_id(env):
    if "frame_id" in env and "frame_compile_id" in env:
        return f"{env['frame_id']}/{env['frame_compile_id']}"
    return ""


def config_text(config):
    if isinstance(config, dict):
        pairs = list(config.items())
    else:
        pairs = [tuple(p) for p in config]
    return ", ".join(f"{k}: {v if isinstance(v, str) else json.dumps(v)}" for k, v in pairs)


def nodes(name, info):
    post = []
    sources = [info.get("kernel_to_post") or {}]
    for source in sources:
        for key, value in source.items():
            if key == name or key.startswith(name + ":"):
                post += [n for n in value if n not in post]
    if not post:
        for key, value in (info.get("mappings") or {}).get("cppCodeToPost", {}).items():
            if key == name or key.startswith(name + ":"):
                post += [n for n in value if n not in post]
    pre = []
    post_to_pre = (info.get("mappings") or {}).get("postToPre", {})
    for n in post:
        pre += [p for p in post_to_pre.get(n, []) if p not in pre]
    return post, pre


def log_kernels(path):
    with open(path, encoding="utf-8") as f:
        recs = records(f.read())
    modules = []  # dicts: compile id, text, backward, info
    for i, (env, payload) in enumerate(recs):
        cid = compile_id(env)
        if "inductor_output_code" in env:
            backward = None
            for later, later_payload in recs[i + 1:]:
                if "chromium_event" not in later:
                    continue
                ev = json.loads(later_payload)
                if ev.get("name") == "inductor_compile" and ev.get("ph") == "E" and \
                        ev.get("args", {}).get("compile_id") == cid:
                    backward = ev["args"].get("is_backward")
                    break
            modules.append({"cid": cid, "text": payload, "backward": backward, "info": {}})
            continue
        name = env.get("artifact", {}).get("name")
        slot = {"triton_kernel_info": "kernel_info",
                "inductor_triton_kernel_to_post_grad_nodes": "kernel_to_post",
                "inductor_provenance_tracking_node_mappings": "mappings"}.get(name)
        mine = [m for m in modules if m["cid"] == cid]
        if slot and mine:
            mine[-1]["info"].setdefault(slot, {}).update(json.loads(payload))

    out = []
    for m in modules:
        text = m["text"]
        for k in KERNEL.finditer(text):
            name = k.group(1)
            body_start = text.count("\n", 0, k.start(3)) + 1  # 1-based line of the body
            body = k.group(3).split("\n")[:-1]
            first = next(i for i, line in enumerate(body) if line.startswith("@"))
            last = len(body)
            while last > first and not body[last - 1].strip():
                last -= 1
            runs = [{"line": n + 1, "text": line}
                    for n, line in enumerate(text.split("\n"))
                    if re.search(r"(?<!\w)" + re.escape(name) + r"\.run\(", line)]
            info = m["info"].get("kernel_info", {}).get(name, {})
            configs = []
            if "only_config" in info:
                configs.append(config_text(info["only_config"]))
            configs += [config_text(c) for c in info.get("configs", [])]
            post, pre = nodes(name, m["info"])
            above = text[:k.start()].split("\n")[:-1]
            comments = []
            while above and above[-1].startswith("#"):
                comments.append(above.pop())
            paths = [c[len("# kernel path: "):] for c in comments if c.startswith("# kernel path: ")]
            out.append({
                "name": name,
                "kernel_path": paths[0] if paths else "",
                "compile_id": m["cid"],
                "backward": m["backward"],
                "source": "\n".join(body[first:last]),
                "first_line": body_start + first,
                "last_line": body_start + last - 1,
                "launch_sites": runs,
                "autotune_cache_state": info.get("autotune_cache_state", ""),
                "configs": configs,
                "num_configs": info.get("num_configs"),
                "compile_time_us": info.get("compile_time_us"),
                "post_grad_nodes": post,
                "pre_grad_nodes": pre,
            })
    return out


def launches(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        events = json.load(f)["traceEvents"]
    launcher = {}
    for e in events:
        args = e.get("args", {})
        if e.get("cat") == "cpu_op" and "kernel_kwargs" in args:
            launcher[args.get("External id")] = args
    out = []
    for e in events:
        if e.get("cat") != "kernel" or not e.get("name", "").startswith("triton_"):
            continue
        a = launcher[e["args"]["External id"]]
        out.append({"name": e["name"], "ts": e["ts"],
                    **{k: a[k] for k in ("kernel_kwargs", "num_warps", "num_stages",
                                         "kernel_file", "kernel_hash") if k in a}})
    return out


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("log", "launches"):
        sys.exit(__doc__)
    result = log_kernels(sys.argv[2]) if sys.argv[1] == "log" else launches(sys.argv[2])
    json.dump(result, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
