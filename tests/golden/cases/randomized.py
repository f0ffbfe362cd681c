"""Randomized Kineto-like torch.compile traces (the rand_NNN cases)."""
import random

from .builders import CASES, Case, G, top


WORDS = ["add", "mul", "sin", "cos", "relu", "gelu", "mean", "pow", "rsqrt", "cat", "sum", "exp",
         "div", "sub", "tanh", "sigmoid", "addmm", "view", "native_layer_norm", "softmax", "clone",
         "threshold_backward", "convolution", "embedding"]
GEMMS = ["sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize64x64x8_stage3_warpsize1x2x1_ffma_aligna4_alignc4_execute_kernel_trt",
         "ampere_sgemm_128x64_tn", "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4>(T1::Params)",
         "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas",
         "Cijk_Ailk_Bljk_SB_MT64x64x16_MI16x16x4x1_SN_1LDSB0_APM1_ABV0"]
EXTERN_NAMES = ["extern_kernels.mm", "extern_kernels.addmm", "extern_kernels.bmm",
                "extern_kernels_torch_ops_aten_mm_default_1", "graph.py(31): extern_kernels_mm, (buf0, arg2_1)"]
ATEN_KERNELS = ["void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>>(int, T2, T3)",
                "void at::native::reduce_kernel<512, 1>(T3)", "Memset (Device)"]


def stack_strings(rng, nframes=None):
    nframes = nframes or rng.choice([1, 1, 1, 2, 3])
    out = []
    for _ in range(nframes):
        line = rng.randint(3, 400)
        fn = rng.choice(["forward", "backward", "_fn", "apply_rotary_pos_emb", "rotate_half"])
        code = rng.choice(["x = self.lin(x)", "y = torch.relu(x) + 1", "return torch.cat((-x2, x1), dim=-1)",
                           "z = torch.nn.functional.gelu(y)", "d = a * 3.14"])
        s = '  File "/home/user/project/model.py", line %d, in %s\n    %s\n' % (line, fn, code)
        if rng.random() < 0.2:
            s += "        ^^^^^^^^^^^^^\n"
        out.append(s)
    return out


class RandomTrace:
    """Builds one Kineto-like torch.compile trace in integer ns, then formats ts/dur."""

    def __init__(self, seed):
        self.rng = rng = random.Random(seed)
        self.seed = seed
        self.target = int(5 * 80 ** (rng.random() ** 1.25))   # 5 .. ~400 events, skewed small
        self.tiny = self.target < 7                   # bare region + launch(es), no trailer
        self.empty_kinfo = rng.random() < 0.02
        self.vendor = rng.choice(["nv", "nv", "nv", "amd"])
        self.tsmode = rng.choice(["int", "float3", "float3", "epoch16", "epoch16int", "mixed"])
        # "mixed": 16-digit epoch, some event classes written as int us, the others as 3-decimal floats
        self.int_classes = set(rng.sample(["region", "cpu", "runtime", "gpu", "meta"], rng.randint(1, 4)))
        self.pid = rng.randint(1000, 4000000)
        self.tid = self.pid if rng.random() < 0.8 else rng.randint(1000, 4000000)
        self.bw_tid = self.tid + rng.randint(1, 400) if rng.random() < 0.85 else self.tid
        self.gpu_pid = rng.randint(0, 3)
        self.stream = (7 if self.vendor == "nv" else 0) if rng.random() < 0.85 else rng.choice([13, 27, 3])
        self.p_jitter = rng.choice([0.0, 0.02, 0.08, 0.2])
        self.p_callfrom = 0.03 if rng.random() < 0.1 else 0.0
        self.with_stack = rng.random() < 0.3
        # correlation (ac2g) ids; a start of 1 makes them collide with the fwdbwd ids (1, 2, ...)
        self.corr = 1 if rng.random() < 0.06 else rng.choice([35, 700, 1000, 1000000])
        self.fwdbwd_id = 1
        self.ext = rng.randint(1, 50)
        self.handle = 0
        self.cpu = {self.tid: [], self.bw_tid: []}       # tid -> list of (event, [flows after])
        self.gpu = []                                    # (launch_ns, [events in file order])
        self.tail = []
        self.kernels_fw = {}                             # region name -> list of kernel names
        self.kernels_bw = {}
        self.externs = {}                                # region name -> list of extern names
        self.non_triton = {}                             # region name -> list of non-triton kernel names
        self.regions = []
        self.gpu_cursor = 0

    # -- event helpers (times in ns; formatted later) --
    def ev(self, name, cat, t, d, tid, pid=None, args=None):
        e = {"ph": "X", "cat": cat, "name": name, "pid": self.pid if pid is None else pid, "tid": tid,
             "_t": t, "_d": d}
        if args is not None:
            e["args"] = args
        return e

    def next_ext(self):
        self.ext += 1
        return self.ext

    def next_corr(self):
        self.corr += 1
        return self.corr

    def kernel_name(self, bw=False):
        rng = self.rng
        kind = rng.choice(["poi", "poi", "red", "per"])
        ws = rng.sample(WORDS, rng.randint(1, 3))
        if bw and "threshold_backward" not in ws:
            ws.append("backward")
        return "triton_%s_fused_%s_%d" % (kind, "_".join(ws), rng.randint(0, 12))

    def gpu_launch(self, kname, t_rt, rt_dur, tid, ext, rtname, rtcat, kernel_cat="kernel", args_extra=None):
        """Runtime call on CPU tid + GPU activity, with ac2g flows (or not)."""
        rng = self.rng
        corr = self.next_corr()
        rt_args = {"External id": ext, "cbid": 307, "correlation": corr}
        if self.p_callfrom and rng.random() < self.p_callfrom:
            rt_args["CallFrom"] = "python"
        rt = self.ev(rtname, rtcat, t_rt, rt_dur, tid, args=rt_args)
        kstart = max(self.gpu_cursor, t_rt + rng.randint(2000, 40000))
        kdur = rng.randint(800, 60000)
        self.gpu_cursor = kstart + kdur + rng.randint(0, 3000)
        kargs = {"External id": ext, "device": self.gpu_pid, "stream": self.stream, "correlation": corr,
                 "grid": [rng.randint(1, 4096), 1, 1], "block": [rng.choice([128, 256, 512]), 1, 1]}
        if args_extra:
            kargs.update(args_extra)
        if rng.random() < 0.04:
            del kargs["External id"]
        kern = self.ev(kname, kernel_cat, kstart, kdur, self.stream, pid=self.gpu_pid, args=kargs)
        s = {"ph": "s", "id": corr, "pid": self.pid, "tid": tid, "_t": t_rt, "cat": "ac2g", "name": "ac2g"}
        f = {"ph": "f", "id": corr, "pid": self.gpu_pid, "tid": self.stream, "_t": kstart, "cat": "ac2g",
             "name": "ac2g", "bp": "e"}
        drop = rng.random()
        flows_rt = [s] if drop > 0.03 else []
        flows_k = [f] if drop < 0.97 else []
        self.gpu.append((t_rt, [rt] + flows_rt, [kern] + flows_k))
        return kern

    def misc_runtime(self, t, tid):
        rng = self.rng
        corr = self.next_corr()
        if rng.random() < 0.5:
            rt = self.ev("cudaFuncGetAttributes" if self.vendor == "nv" else "hipFuncGetAttributes",
                         "cuda_runtime", t, rng.randint(300, 2000), tid,
                         args={"cbid": 200, "correlation": corr})
            fl = {"ph": "f", "id": corr, "pid": self.pid, "tid": tid, "_t": t, "cat": "ac2g", "name": "ac2g", "bp": "e"}
        else:
            rt = self.ev("cudaDeviceSynchronize", "cuda_runtime", t, rng.randint(300, 20000), tid,
                         args={"cbid": 165, "correlation": corr})
            fl = {"ph": "s", "id": corr, "pid": self.pid, "tid": tid, "_t": t, "cat": "ac2g", "name": "ac2g"}
        self.gpu.append((t, [rt, fl], []))
        return rt["_d"]

    def cpu_event(self, tid, e, flows=()):
        self.cpu.setdefault(tid, []).append((e, list(flows)))

    def body(self, rname, t0, t1, tid, nlaunch, bw):
        """Fill [t0, t1) on tid with launches; returns nothing. Some events are jittered outside."""
        rng = self.rng
        if nlaunch <= 0:
            return
        slot = (t1 - t0) // (nlaunch + 1)
        t = t0 + rng.randint(1, max(1, slot // 4))
        for _ in range(nlaunch):
            kind = rng.random() * (0.8 if self.tiny else 1.0)   # tiny traces: triton or extern only
            start = t
            length = max(3000, int(slot * rng.uniform(0.5, 0.95)))
            if rng.random() < self.p_jitter:      # make this launch stick out of the region
                how = rng.choice(["before", "after", "same"])
                if how == "before":
                    start = t0 - rng.randint(1, 5000)
                elif how == "after":
                    length = (t1 - start) + rng.randint(1, 5000)
                else:
                    start = t0
            ext = self.next_ext()
            wrap = self.with_stack and rng.random() < 0.5
            if wrap:
                self.cpu_event(tid, self.ev("torch/_inductor/runtime/triton_heuristics.py(1283): run",
                                            "python_function", start, length, tid,
                                            args={"Python id": ext, "Python parent id": None}))
                start += 200
                length -= 400
            if kind < 0.62:                        # triton launcher + driver launch + kernel
                kname = (self.kernels_bw if bw else self.kernels_fw).setdefault(rname, [])
                name = rng.choice(kname) if kname and rng.random() < 0.15 else self.kernel_name(bw)
                kname.append(name)
                args = {"External id": ext, "kernel_backend": "triton", "num_warps": rng.choice([4, 8]),
                        "kernel_hash": "c%08x" % rng.getrandbits(32)}
                if self.p_callfrom and rng.random() < self.p_callfrom:
                    args["CallFrom"] = "x"
                self.cpu_event(tid, self.ev(name, "cpu_op", start, length, tid, args=args))
                if self.vendor == "nv":
                    rtn, rtc = "cuLaunchKernel", "cuda_driver"
                else:
                    rtn, rtc = "hipModuleLaunchKernel", "cuda_runtime"
                if rng.random() < 0.1:
                    rtc = rng.choice(["cuda_runtime", "cuda_driver"])
                rt_t = start + length // 3
                self.gpu_launch(name, rt_t, max(1000, length // 2), tid, ext, rtn, rtc)
            elif kind < 0.80:                      # extern kernel (cuBLAS)
                en = rng.choice(EXTERN_NAMES)
                ecat = "python_function" if en.startswith("extern_kernels_torch") else "cpu_op"
                self.externs.setdefault(rname, []).append(en)
                self.cpu_event(tid, self.ev(en, ecat, start, length, tid, args={"External id": ext}))
                inner = self.ev("aten::mm", "cpu_op", start + 300, length - 600, tid, args={"External id": ext + 1000})
                if rng.random() < 0.5:
                    self.cpu_event(tid, inner)
                gemm = rng.choice(GEMMS[:4] if self.vendor == "nv" else GEMMS[4:])
                rtn = "cudaLaunchKernel" if self.vendor == "nv" else "hipExtModuleLaunchKernel"
                self.gpu_launch(gemm, start + length // 2, max(1000, length // 3), tid,
                                ext + 1000 if rng.random() < 0.5 else ext, rtn, "cuda_runtime")
            elif kind < 0.88:                      # aten fallback op with a native kernel / memset
                an = rng.choice(["aten::fill_", "aten::sum", "aten::zero_"])
                self.cpu_event(tid, self.ev(an, "cpu_op", start, length, tid, args={"External id": ext}))
                kn = rng.choice(ATEN_KERNELS)
                self.non_triton.setdefault(rname, []).append(kn)
                if kn.startswith("Memset"):
                    self.gpu_launch(kn, start + length // 3, max(1000, length // 3), tid, ext,
                                    "cudaMemsetAsync", "cuda_runtime", kernel_cat="gpu_memset")
                else:
                    self.gpu_launch(kn, start + length // 3, max(1000, length // 3), tid, ext,
                                    "cudaLaunchKernel", "cuda_runtime")
            elif kind < 0.94:
                self.misc_runtime(start + 100, tid)
            else:                                  # plain python_function / aten op without kernels
                self.cpu_event(tid, self.ev(rng.choice(["aten::empty_strided", "aten::view",
                                                        "<built-in method x>", "aten::as_strided"]),
                                            rng.choice(["cpu_op", "python_function", "user_annotation"]),
                                            start, max(500, length // 4), tid, args={"External id": ext}))
            t += slot

    def build(self):
        rng = self.rng
        per_launch = 5.3
        n_regions = 1 if self.tiny else max(1, min(4, int(self.target / 60) + rng.randint(0, 1)))
        budget = max(0, self.target - 8 - 4 * n_regions)
        t = rng.randint(1000, 50000) * 1000
        step_start = t
        regions = []
        for ri in range(n_regions):
            frame, comp = rng.randint(0, 3), rng.randint(0, 2)
            rname = "Torch-Compiled Region: %d/%d" % (frame, comp)
            if rng.random() < 0.04:
                rname = "Torch-Compiled Region"
            autograd = rng.random() < (0.25 if self.tiny else 0.5)
            nl = int(budget / n_regions / per_launch / (2 if autograd else 1)) + rng.randint(0, 1)
            nl = max(0 if rng.random() < 0.05 else 1, min(nl, 60))
            if self.tiny:
                nl = 1
            length = (nl + 2) * rng.randint(20000, 120000)
            # cache lookup before the region
            if not self.tiny:
                self.cpu_event(self.tid, self.ev("TorchDynamo Cache Lookup", "cpu_op", t, 8000, self.tid,
                                                 args={"External id": self.next_ext()}))
            t += 9000
            rdur = length
            reg = self.ev(rname, "cpu_op", t, rdur, self.tid, args={"External id": self.next_ext()})
            self.cpu_event(self.tid, reg)
            regions.append(rname)
            inner0, inner1 = t + rng.randint(1000, 5000), t + rdur - rng.randint(1000, 5000)
            cf = None
            if autograd:
                cf_args = {"External id": self.next_ext(), "Sequence number": rng.randint(0, 500)}
                cf = self.ev("CompiledFunction", "cpu_op", inner0, inner1 - inner0, self.tid, args=cf_args)
                if rng.random() < 0.04:            # src starts with the region: not strictly contained
                    cf["_t"] = t
                    cf["_d"] = inner1 - t
                fid = self.fwdbwd_id
                self.fwdbwd_id += 1
                s = {"ph": "s", "id": fid, "pid": self.pid, "tid": self.tid, "_t": cf["_t"], "cat": "fwdbwd",
                     "name": "fwdbwd"}
                self.cpu_event(self.tid, cf, [s] if rng.random() > 0.01 else [])
                inner0 += 500
                inner1 -= 500
            self.body(rname, inner0, inner1, self.tid, nl, bw=False)
            t += rdur + rng.randint(2000, 30000)
            if autograd:
                self.pending_bw = getattr(self, "pending_bw", []) + [(rname, fid, nl)]
        # backward pass on the autograd thread, after all forward regions
        for rname, fid, nl in getattr(self, "pending_bw", []):
            t += rng.randint(5000, 50000)
            self.cpu_event(self.bw_tid, self.ev("autograd::engine::evaluate_function: CompiledFunctionBackward",
                                                "cpu_op", t - 2000, (nl + 2) * 60000 + 4000, self.bw_tid,
                                                args={"External id": self.next_ext()}))
            bdur = (nl + 2) * 60000
            cfb = self.ev("CompiledFunctionBackward", "cpu_op", t, bdur, self.bw_tid,
                          args={"External id": self.next_ext(), "Sequence number": fid, "Fwd thread id": 1})
            f = {"ph": "f", "id": fid, "pid": self.pid, "tid": self.bw_tid, "_t": t, "cat": "fwdbwd",
                 "name": "fwdbwd", "bp": "e"}
            self.cpu_event(self.bw_tid, cfb, [f] if rng.random() > 0.01 else [])
            self.body(rname, t + 1000, t + bdur - 1000, self.bw_tid, max(1, nl // 2 + rng.randint(0, 2)), bw=True)
            t += bdur + rng.randint(2000, 20000)
        # outside-region noise on the main thread
        for _ in range(0 if self.tiny else rng.randint(0, 3)):
            tt = t + rng.randint(1000, 50000)
            self.cpu_event(self.tid, self.ev("aten::add_", "cpu_op", tt, 5000, self.tid,
                                             args={"External id": self.next_ext()}))
            self.gpu_launch(ATEN_KERNELS[0], tt + 1000, 2000, self.tid, self.ext, "cudaLaunchKernel", "cuda_runtime")
        step_end = max(t, self.gpu_cursor) + 10000
        if not self.tiny:
            self.cpu_event(self.tid, self.ev("ProfilerStep#%d" % rng.randint(1, 9), "user_annotation", step_start,
                                             step_end - step_start, self.tid, args={"External id": 1}))
        self.regions = regions
        self.step = (step_start, step_end)
        return self

    # -- file layout --
    def events(self):
        rng = self.rng
        out = []
        tids = [self.bw_tid, self.tid] if self.bw_tid != self.tid else [self.tid]
        for tid in tids:                           # CPU block: autograd thread first
            items = sorted(self.cpu.get(tid, []), key=lambda p: (p[0]["_t"], -p[0]["_d"]))
            for e, flows in items:
                out.append(e)
                out.extend(flows)
        gpu = sorted(self.gpu, key=lambda g: g[0])
        if self.vendor == "nv":
            for _, rt, kern in gpu:               # [kernel][f][runtime][s]
                out.extend(kern)
                out.extend(rt)
        else:                                      # AMD: runtime block, then kernel block
            for _, rt, kern in gpu:
                out.extend(rt)
            for _, rt, kern in sorted(gpu, key=lambda g: g[2][0]["_t"] if g[2] else 0):
                out.extend(kern)
        if self.tiny:
            return self.fmt_all(out)
        # trailer
        t0 = self.step[0]
        for pid, label in ((self.pid, "CPU"), (self.gpu_pid, "GPU %d" % self.gpu_pid)):
            out.append({"name": "process_name", "ph": "M", "_t": t0, "pid": pid, "tid": 0,
                        "args": {"name": "python3"}})
            if rng.random() < 0.5:
                out.append({"name": "process_labels", "ph": "M", "_t": t0, "pid": pid, "tid": 0,
                            "args": {"labels": label}})
        for tid in tids:
            out.append({"name": "thread_name", "ph": "M", "_t": t0, "pid": self.pid, "tid": tid,
                        "args": {"name": "thread %d (python3)" % tid}})
        out.append({"name": "thread_name", "ph": "M", "_t": t0, "pid": self.gpu_pid, "tid": self.stream,
                    "args": {"name": "stream %d " % self.stream}})
        if rng.random() < 0.6:
            out.append({"ph": "X", "cat": "Trace", "_t": t0 - 5000, "_d": self.step[1] - t0 + 10000,
                        "pid": "Spans", "tid": "PyTorch Profiler", "name": "PyTorch Profiler (0)",
                        "args": {"Op count": 0}})
            out.append({"name": "Record Window End", "ph": "i", "s": "g", "pid": "", "tid": "",
                        "_t": self.step[1] + 5000})
        return self.fmt_all(out)

    def fmt_all(self, out):
        res, mode = [], self.tsmode
        for e in out:
            if e.get("ph") not in ("s", "f"):      # a flow keeps the ts format of its bound slice
                mode = self.mode_of(e)
            res.append(self.fmt(e, mode))
        return res

    def mode_of(self, e):
        if self.tsmode != "mixed":
            return self.tsmode
        name, cat = e.get("name", ""), e.get("cat")
        if e.get("ph") != "X":
            cls = "meta"
        elif cat == "cpu_op" and ("Torch-Compiled Region" in name or name.startswith("CompiledFunction")):
            cls = "region"
        elif cat in ("kernel", "gpu_memset"):
            cls = "gpu"
        elif cat in ("cuda_runtime", "cuda_driver"):
            cls = "runtime"
        else:
            cls = "cpu"
        return "epoch16int" if cls in self.int_classes else "epoch16"

    def fmt(self, e, mode):

        def conv(ns, is_dur):
            if mode == "int":
                return ns // 1000
            if mode == "epoch16int":
                return (ns if is_dur else ns + 1712195495000000000) // 1000
            base = 0 if is_dur else (1712195495000000000 if mode == "epoch16" else 2413669000000000)
            v = ns + base
            return float("%d.%03d" % (v // 1000, v % 1000))

        r = {}
        for k, v in e.items():
            if k == "_t":
                r["ts"] = conv(v, False)
            elif k == "_d":
                r["dur"] = conv(v, True)
            else:
                r[k] = v
        # key order as Kineto writes it
        order = ["ph", "cat", "name", "pid", "tid", "ts", "dur", "id", "bp", "s", "args"]
        return {k: r[k] for k in sorted(r, key=lambda k: order.index(k) if k in order else 99)}

    # -- kernel info --
    def kernel_info(self):
        rng = self.rng
        if self.empty_kinfo:
            return {}
        key_style = rng.choice(["exact", "handle", "handle", "mixed"])
        val_style = rng.choice(["dict", "dict", "dict", "list", "mixed"])
        p_missing = rng.choice([0.0, 0.0, 0.05, 0.2, 0.5])
        bw_style = rng.choice(["exact", "suffix", "suffix", "both", "none", "suffix_dq"])
        info = {}

        def value():
            r = rng.random()
            style = val_style if val_style != "mixed" else rng.choice(["dict", "list", "odd"])
            if style == "odd" and r < 0.5:
                return rng.choice([None, [], {"post_grad_nodes": ["x"]}, {"stack_traces": None}, "s"])
            stacks = stack_strings(rng)
            if style == "list":
                return stacks
            return {"stack_traces": stacks, "post_grad_nodes": rng.sample(WORDS, 2),
                    "pre_grad_nodes": rng.sample(WORDS, 1)}

        def key_for(name):
            self.handle += 1
            if key_style == "exact" or (key_style == "mixed" and rng.random() < 0.5):
                return name
            return "%s:%d" % (name, self.handle)

        def graph(kernels, externs, non_triton):
            g = {}
            for kn in kernels:
                if rng.random() < p_missing:
                    continue
                g[key_for(kn)] = value()
            for en in externs:
                if rng.random() < p_missing:
                    continue
                m = None
                if "," in en:
                    m = "extern_kernels_mm"
                g[key_for(m or en)] = value()
            for kn in non_triton:
                if rng.random() < 0.3:
                    g[kn] = value()
            if rng.random() < 0.2:
                g[key_for(self.kernel_name())] = value()   # kernel not in the trace
            return g

        for rname in dict.fromkeys(self.regions):
            if rng.random() < 0.03:
                continue                                   # region without any key
            fw = graph(self.kernels_fw.get(rname, []), self.externs.get(rname, []), self.non_triton.get(rname, []))
            if rng.random() < 0.15 and len(fw) > 1:
                fw = dict(list(fw.items())[:1])            # single-stack graph
            info[G(rname)] = fw
            if rname in self.kernels_bw or rname in getattr(self, "bw_regions", ()):
                pass
            bw = graph(self.kernels_bw.get(rname, []), [], [])
            if bw_style in ("exact", "both"):
                info[G(rname, True)] = bw
            if bw_style in ("suffix", "both"):
                info[G(rname + "_backward_%d" % rng.randint(0, 2), True)] = (
                    bw if bw_style == "suffix" else graph(self.kernels_bw.get(rname, []), [], []))
            if bw_style == "suffix_dq":
                info['("%s_backward_0", True)' % rname] = bw
        if rng.random() < 0.3:
            info[G("Torch-Compiled Region: 9/9")] = {self.kernel_name(): value()}
        if rng.random() < 0.1:
            info["not a tuple"] = {"x": value()}
        if rng.random() < 0.3:                                 # shuffle graph order
            items = list(info.items())
            rng.shuffle(items)
            info = dict(items)
        return info

    def trace(self):
        rng = self.rng
        evs = self.events()
        if rng.random() < 0.05:                                # already processed once
            for i, e in enumerate(evs):
                e["uid"] = i
            extra = {"uid_assigned": True}
        elif rng.random() < 0.03:
            extra = {"uid_assigned": False}
        else:
            extra = None
        layout = rng.choice(["kineto", "kineto", "events_first", "meta_first", "plain"])
        return top(evs, layout, extra)


def random_cases(n, seed0=20240601):
    for i in range(n):
        rt = RandomTrace(seed0 + i).build()
        trace = rt.trace()
        kinfo = rt.kernel_info()
        nev = len(trace["traceEvents"])
        about = ("randomized Kineto-like torch.compile trace (seed %d): %s order, %s timestamps, %d events, "
                 "%d region(s), jitter %.2f%s" % (rt.seed, "NVIDIA quad" if rt.vendor == "nv" else "AMD",
                                                  rt.tsmode, nev, len(rt.regions), rt.p_jitter,
                                                  ", python_function stacks" if rt.with_stack else ""))
        CASES.append(Case("rand_%03d" % i, about, trace, kinfo, None))
