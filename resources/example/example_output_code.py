"""The TORCH_TRACE structured log of the example's compile (example.torch_trace.log): what
Inductor logs with TORCH_TRACE=<folder> and INDUCTOR_PROVENANCE=1 for the forward and the backward
graph of compile 0/0, in the order it logs them: inductor_compile begins, the generated module
(inductor_output_code: Triton kernels, then the wrapper's call()), triton_kernel_info, the kernel
-> post-grad node map, the node mappings, the kernel stack traces, and inductor_compile ends with
is_backward. Read as kernel information it gives the same registry as
example.pt.trace.kernel_info.json: the same kernel keys, stacks and nodes.

The Triton sources are plausible, not compiled: each kernel's heuristics decorator, @triton.jit and
def, with one statement per post-grad node it fuses; rms_scale_kernel_0 is model.py's own kernel.
"""
import hashlib
import json

from example_workload import BACKWARD, FORWARD, LINES, PID

LOG_NAME = "example.torch_trace.log"
DEVICE = ("DeviceProperties(type='cuda', index=0, multi_processor_count=108, cc=80, major=8, "
          "regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, warp_size=32)")
# Elements per kernel kind: x (rows) and r (reduced) of a (2, 2048, 256) activation.
ROWS, DIM, HIDDEN, HEADS, SEQ = 4096, 256, 1024, 4, 2048


def _digest(*parts):
    return hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()


def _module_path(graph):
    h = "c" + "".join(chr(ord("a") + int(c, 16) % 26) for c in _digest("module", graph)[:51])
    return f"/tmp/torchinductor_alice/{h[1:3]}/{h}.py"


def _numels(name):
    if "softmax" in name:
        return SEQ * HEADS * 2, SEQ
    if name.startswith("triton_red_fused_sum"):
        return DIM, ROWS
    if "layer_norm" in name:
        return ROWS, DIM
    if "gelu" in name:
        return ROWS * HIDDEN, None
    return ROWS * DIM, None


def _statement(i, node):
    prev = f"tmp{i - 1}"
    ops = [("var_mean", f"tl.sum({prev}, 1)[:, None] / rnumel"), ("amax", f"triton_helpers.max2({prev}, 1)[:, None]"),
           ("sum", f"tl.sum({prev}, 1)[:, None]"), ("rsqrt", f"libdevice.rsqrt({prev} + 1e-05)"),
           ("erf", f"libdevice.erf({prev} * 0.7071067811865476)"), ("exp", f"tl_math.exp({prev})"),
           ("sub", f"{prev} - tmp0"), ("div", f"{prev} / tmp{max(i - 2, 0)}"), ("neg", f"-{prev}"),
           ("fma", f"libdevice.fma({prev}, tmp0, tmp1)"), ("mul", f"{prev} * tmp1"),
           ("add", f"{prev} + tmp1"), ("clone", prev), ("cat", prev)]
    expr = next((e for prefix, e in ops if node.startswith(prefix)), prev)
    return f"    tmp{i} = {expr}  # {node}"


def _triton_source(name, post):
    x, r = _numels(name)
    kind = {"poi": "pointwise", "per": "persistent_reduction", "red": "reduction"}[name.split("_")[1]]
    sizes = f"{{'x': {x}}}" if r is None else f"{{'x': {x}, 'r0_': {r}}}"
    blocks = "XBLOCK : tl.constexpr" + ("" if r is None else ", R0_BLOCK : tl.constexpr")
    numel = "xnumel" + ("" if r is None else ", r0_numel")
    lines = [f"@triton_heuristics.{kind}(", f"    size_hints={sizes}, ",
             "    filename=__file__,",
             f"    triton_meta={{'signature': {{'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', "
             f"'xnumel': 'i32'}}, 'device': {DEVICE}, 'constants': {{}}}},",
             f"    inductor_meta={{'grid_type': 'Grid1D', 'kernel_name': '{name}', 'mutated_arg_names': [], "
             f"'optimize_mem': True, 'num_load': 2, 'num_reduction': {0 if r is None else 1}}},",
             ")", "@triton.jit",
             f"def {name}(in_ptr0, in_ptr1, out_ptr0, {numel}, {blocks}):",
             f"    xnumel = {x}"]
    if r is not None:
        lines.append(f"    rnumel = {r}")
    lines += ["    xoffset = tl.program_id(0) * XBLOCK",
              "    xindex = xoffset + tl.arange(0, XBLOCK)" + ("[:]" if r is None else "[:, None]"),
              "    xmask = xindex < xnumel"]
    if r is not None:
        lines += ["    r0_index = tl.arange(0, R0_BLOCK)[None, :]",
                  "    r0_mask = r0_index < rnumel"]
    index = "xindex" if r is None else f"r0_index + {r} * xindex"
    lines += [f"    tmp0 = tl.load(in_ptr0 + ({index}), xmask)",
              f"    tmp1 = tl.load(in_ptr1 + ({index}), xmask, eviction_policy='evict_last')"]
    for i, node in enumerate(post, 2):
        lines.append(_statement(i, node))
    lines.append(f"    tl.store(out_ptr0 + ({index}), tmp{len(post) + 1}, xmask)")
    return lines


def _user_source(name):
    """model.py's rms_scale_kernel as Inductor copies a user-defined Triton kernel."""
    first = next(i for i, line in enumerate(LINES) if line.startswith("def rms_scale_kernel("))
    last = next(i for i in range(first + 1, len(LINES)) if not LINES[i].startswith("    "))
    body = [line.replace("rms_scale_kernel(", f"{name}(", 1) for line in LINES[first:last]]
    return ["@triton_heuristics.user_autotune(", "    configs=[],",
            f"    inductor_meta={{'kernel_name': '{name}'}},",
            f"    triton_meta={{'signature': {{'x_ptr': '*fp32', 'out_ptr': '*fp32', 'n_cols': 'i32'}}, "
            f"'device': {DEVICE}, 'constants': {{'BLOCK': 256}}}},",
            "    filename=__file__,", ")", "@triton.jit"] + body


def _key(kind, name, handle):
    return f"{name if kind in ('triton', 'user') else 'extern_kernels.' + kind}:{handle}"


def _module(graph, kernels, kernel_file):
    lines = ["# AOT ID: ['0_" + graph + "']", "from ctypes import c_void_p, c_long, c_int", "import torch",
             "import triton", "import triton.language as tl",
             "from torch._inductor.async_compile import AsyncCompile",
             "from torch._inductor.select_algorithm import extern_kernels",
             "from torch._inductor.runtime.triton_heuristics import start_graph, end_graph",
             "from torch._C import _cuda_getCurrentRawStream as get_raw_stream", "",
             "aten = torch.ops.aten", "empty_strided_cuda = torch._C._dynamo.guards._empty_strided_cuda",
             "reinterpret_tensor = torch._C._dynamo.guards._reinterpret_tensor",
             "async_compile = AsyncCompile()", "", ""]
    for kind, name, _handle, _us, _stacks, post, pre, _shape in kernels:
        if kind not in ("triton", "user"):
            continue
        source = _user_source(name) if kind == "user" else _triton_source(name, post)
        lines += [f"# kernel path: {kernel_file(name)}",
                  f"# Source node to ATen node mapping: {', '.join(pre)} => {', '.join(post)}",
                  f"{name} = async_compile.triton('{name}', '''", "import triton",
                  "import triton.language as tl", "",
                  "from torch._inductor.runtime import triton_helpers, triton_heuristics",
                  "from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math", "",
                  *source, "''', device_str='cuda')", "", ""]
    lines += ["async_compile.wait(globals())", "del async_compile", "", "def call(args):",
              "    primals = args", "    args.clear()", "    with torch.cuda._DeviceGuard(0):",
              "        torch.cuda.set_device(0)", "        stream0 = get_raw_stream(0)"]
    for n, (kind, name, handle, _us, _stacks, _post, _pre, shape) in enumerate(kernels):
        lines.append(f"        buf{n} = empty_strided_cuda(({ROWS}, {DIM}), ({DIM}, 1), torch.float32)")
        if handle is not None:
            lines.append(f"        # [Provenance debug handles] {_key(kind, name, handle)}")
        src = f"buf{n - 1}" if n else "primals[0]"
        if kind in ("triton", "user"):
            lines.append(f"        {name}.run({src}, primals[{n % 7 + 1}], buf{n}, {shape[0] * shape[3]}, "
                         "stream=stream0)")
        else:
            lines.append(f"        extern_kernels.{kind}({src}, primals[{n % 7 + 1}], out=buf{n})")
    lines += [f"    return (buf{len(kernels) - 1}, )", ""]
    return "\n".join(lines)


def _kernel_info(kernels):
    """Pointwise and persistent kernels have the one config the trace's launches ran with
    (make_example.py's kernel_kwargs); reductions were autotuned."""
    out = {}
    for kind, name, _handle, _us, _stacks, _post, _pre, shape in kernels:
        if kind != "triton":
            continue
        us = 90000 + int(_digest("compile", name)[:8], 16) % 400000
        if not name.startswith("triton_red"):
            xblock = 256 if name.startswith("triton_poi") else 1
            out[name] = {"autotune_cache_state": "only 1 config",
                         "only_config": [["XBLOCK", xblock], ["num_warps", shape[3] // 32], ["num_stages", 1]],
                         "compile_time_us": us}
        else:
            out[name] = {"autotune_cache_state": "miss", "num_configs": 4 if "red" in name else 2,
                         "compile_time_us": us}
    return out


def _mappings(kernels):
    """preToPost, postToPre, cppCodeToPost, postToCppCode. Each post-grad node of a kernel maps to
    all of the kernel's pre-grad nodes, so that the registry rebuilt from the log lists them as
    the example's registry does."""
    pre_to_post, post_to_pre, code_to_post, post_to_code = {}, {}, {}, {}
    for kind, name, handle, _us, _stacks, post, pre, _shape in kernels:
        if handle is None:
            continue
        key = _key(kind, name, handle)
        code_to_post[key] = post
        for node in post:
            post_to_pre[node] = pre
            post_to_code.setdefault(node, []).append(key)
        for node in pre:
            pre_to_post.setdefault(node, []).extend(n for n in post if n not in pre_to_post.get(node, []))
    return {"preToPost": pre_to_post, "postToPre": post_to_pre, "cppCodeToPost": code_to_post,
            "postToCppCode": post_to_code, "version": 2.0}


class _Log:
    def __init__(self):
        self.lines, self.us = [], 0

    def record(self, where, envelope, payload=None):
        self.us += 1234
        s, us = divmod(self.us, 1000000)
        head = {**envelope, "frame_id": 0, "frame_compile_id": 0, "attempt": 0}
        if payload is not None:
            head["has_payload"] = hashlib.md5(payload.encode()).hexdigest()
        self.lines.append(f"V1027 10:00:{s:02d}.{us:06d} {PID} torch/_inductor/{where}] {json.dumps(head)}")
        if payload is not None:
            self.lines += ["\t" + line for line in payload.split("\n")]

    def chromium(self, ph, backward=None):
        args = {"compile_id": "0/0"}
        if backward is not None:
            args["is_backward"] = backward
        event = {"name": "inductor_compile", "ts": 1729999000000000 + self.us, "args": args, "cat": "dynamo_timed",
                 "ph": ph, "pid": 0}
        self.record("../_dynamo/utils.py:1946", {"chromium_event": {}}, json.dumps(event))

    def artifact(self, where, name, value):
        self.record(where, {"artifact": {"name": name, "encoding": "json"}}, json.dumps(value))


def torch_trace_log(kernel_file):
    """kernel_file(name): the path of a kernel's own module, as the trace's launches name it."""
    log = _Log()
    for graph, kernels, backward in (("forward", FORWARD, False), ("backward", BACKWARD, True)):
        log.chromium("B")
        log.record("graph.py:2347", {"inductor_output_code": {"filename": _module_path(graph)}},
                   _module(graph, kernels, kernel_file))
        log.artifact("async_compile.py:117", "triton_kernel_info", _kernel_info(kernels))
        log.artifact("compile_fx.py:967", "inductor_triton_kernel_to_post_grad_nodes",
                     {_key(k, n, h).rsplit(":", 1)[0]: post for k, n, h, _u, _s, post, _p, _sh in kernels
                      if h is not None and k in ("triton", "user")})
        log.artifact("compile_fx.py:975", "inductor_provenance_tracking_node_mappings", _mappings(kernels))
        log.artifact("compile_fx.py:983", "inductor_provenance_tracking_kernel_stack_traces",
                     {_key(k, n, h): stacks for k, n, h, _u, stacks, _p, _pr, _sh in kernels if h is not None})
        log.chromium("E", backward)
    return "\n".join(log.lines) + "\n"
