"""Hand-written cases: kernel binding (flows, External id, extern regions, name:handle prefixes),
kernel values and backward key discovery."""
from .builders import (A, B, BW0, C, D, F, FW0, G, ODD_REGION, OMIT, R00, S, X, bw_trace, case, launch, ok, one_kernel,
                       region, st)


def add_cases():
    """Register the flow_ … bwkey_ cases."""
    # ---------------------------------------------------------------- flow_
    case("flow_nvidia_quad_many",
         "several NVIDIA quads [kernel][f][runtime][s] without launcher ops: every kernel via ac2g",
         [region(ts=0, dur=1000)] + sum([launch("triton_poi_%d" % i, 10 + 20 * i, 10 + i, 50 + i, launcher=False,
                                          ktag="k%d" % i) for i in range(4)], []),
         {FW0: {"triton_poi_%d" % i: st("q%d" % i) for i in range(4)}},
         ok({"k%d" % i: st("q%d" % i) for i in range(4)}))
    evs = [region(ts=0, dur=1000, tid=6240, pid=6240)]
    rt, kk = [], []
    for i in range(3):
        rt += [X("hipModuleLaunchKernel", 10 + 20 * i, 5, cat="cuda_runtime", tid=6240, pid=6240,
                 args={"External id": 9 + i, "correlation": 802 + i}), S(802 + i, 10 + 20 * i, tid=6240, pid=6240)]
        kk += [X("triton_red_%d" % i, 500 + 10 * i, 3, cat="kernel", tid=0, pid=2,
                 args={"correlation": 802 + i}, tag="k%d" % i), F(802 + i, 500 + 10 * i, tid=0, pid=2)]
    case("flow_amd_order",
         "AMD ROCm layout: runtime+s block, then kernel+f block far apart (s before f); stream tid 0",
         evs + rt + [X("aten::other", 900, 1, tid=6240, pid=6240)] + kk,
         {FW0: {"triton_red_%d:%d" % (i, i + 1): st("amd%d" % i) for i in range(3)}},
         ok({"k%d" % i: st("amd%d" % i) for i in range(3)}), pretty=True)
    case("flow_after_flow_f_then_s",
         "TraceLens-style adjacent f,s at the end: the s binds to the f flow event, so the runtime op is not a source",
         [region(ts=0, dur=100),
          X("cuLaunchKernel", 10, 5, cat="cuda_driver"),
          X("triton_poi_a", 50, 5, cat="kernel", tid=7, pid=0),
          F(35, 50), S(35, 10)],
         {FW0: {"triton_poi_a": A}}, ok({}))
    case("flow_after_flow_s_then_f",
         "adjacent s,f: the f binds to the s flow event, which becomes the op's 'kernel' and receives args.stack (args created) via the single-stack path",
         [region(ts=0, dur=100),
          X("cuLaunchKernel", 10, 5, cat="cuda_driver"),
          S(35, 10, tag="flow"), F(35, 10, tid=1, pid=1)],
         {FW0: {"triton_poi_a": A}}, ok({"flow": A}))
    case("flow_after_flow_f_then_s_adjacent",
         "adjacent f,s right after the runtime op: the op becomes a dst and the f flow event the src; nothing is annotated",
         [region(ts=0, dur=100),
          X("cuLaunchKernel", 10, 5, cat="cuda_driver"),
          F(35, 10, tid=1, pid=1), S(35, 10)],
         {FW0: {"triton_poi_a": A}}, ok({}))
    case("flow_first_in_file_ignored",
         "flow events first in the file have no previous event and are ignored (prev stays None for both s and f)",
         [S(5, 0), F(6, 0), region(ts=0, dur=100), X("aten::a", 10, 5), F(5, 10),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0), S(6, 200)],
         {FW0: {"triton_poi_a": A}}, ok({}))
    case("flow_first_f_then_pair",
         "f first in file is ignored; a later complete pair with the same id still links",
         [F(5, 0), region(ts=0, dur=100), X("aten::a", 10, 5), S(5, 10),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, tag="k"), F(5, 200)],
         {FW0: {"triton_poi_a": A}}, ok({"k": A}))
    case("flow_id_collision_ac2g_fwdbwd",
         "ids keyed by int(id) only: fwdbwd id 1 and ac2g id 1 share a slot; the later f overwrites the dst",
         [region(ts=0, dur=100),
          X("aten::a", 10, 5), S(1, 10),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0), F(1, 200),
          X("triton_poi_b", 300, 1, cat="kernel", tid=7, pid=0, tag="kb"), F(1, 300, cat="fwdbwd")],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"kb": B}))
    case("flow_later_s_overwrites",
         "two s with the same id: the later s becomes the source; the earlier op has no flow and no External id",
         [region(ts=0, dur=100),
          X("aten::a", 10, 5), S(4, 10),
          X("aten::b", 20, 5), S(4, 20),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, tag="k"), F(4, 200),
          region("Torch-Compiled Region: 1/0", ts=1000, dur=100), X("aten::c", 1010, 5)],
         {FW0: {"triton_poi_a": A}, G("Torch-Compiled Region: 1/0"): {"triton_poi_a": B}}, ok({"k": A}))
    case("flow_missing_side_dropped",
         "s without f and f without s are dropped; cudaFuncGetAttributes+f and cudaDeviceSynchronize+s link nothing",
         [region(ts=0, dur=100),
          X("cudaFuncGetAttributes", 10, 1, cat="cuda_runtime"), F(8365, 10, tid=1, pid=1),
          X("cudaDeviceSynchronize", 20, 1, cat="cuda_runtime"), S(39, 20),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0), F(40, 200)],
         {FW0: {"triton_poi_a": A, "cudaFuncGetAttributes": A}}, ok({}))
    case("flow_one_src_many_dst",
         "one s and several f (cudaGraphLaunch): the last f wins, earlier kernels get nothing",
         [region(ts=0, dur=100),
          X("triton_poi_a", 5, 1, cat="kernel", tid=7, pid=0), F(9, 5),
          X("triton_poi_b", 6, 1, cat="kernel", tid=7, pid=0, tag="kb"), F(9, 6),
          X("cudaGraphLaunch", 10, 5, cat="cuda_runtime"), S(9, 10)],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"kb": B}))
    case("flow_id_string_numeric",
         "flow id '12' (string) is int('12') == 12 and pairs with int id 12",
         [region(ts=0, dur=100), X("aten::a", 10, 5), S("12", 10),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, tag="k"), F(12, 200)],
         {FW0: {"triton_poi_a": A}}, ok({"k": A}))
    case("flow_id_string_python_int_forms",
         "int() accepts ' 13 ', '1_4', '+15', '-16' and Unicode digits '١٧' (=17): each pairs with its int id",
         [region(ts=0, dur=1000)] + sum([[X("aten::%d" % i, 10 + 10 * i, 5), S(sid, 10 + 10 * i),
                                    X("triton_poi_%d" % i, 200 + i, 1, cat="kernel", tid=7, pid=0,
                                      tag="k%d" % i), F(iid, 200 + i)]
                                   for i, (sid, iid) in enumerate([(" 13 ", 13), ("1_4", 14), ("+15", 15),
                                                                   ("-16", -16), ("١٧", 17)])], []),
         {FW0: {"triton_poi_%d" % i: st("s%d" % i) for i in range(5)}},
         ok({"k%d" % i: st("s%d" % i) for i in range(5)}))
    case("flow_id_float_truncates",
         "float flow id 3.7 -> int 3 pairs with id 3; -0.5 -> 0 pairs with 0",
         [region(ts=0, dur=100), X("aten::a", 10, 5), S(3.7, 10),
          X("aten::b", 20, 5), S(0, 20),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, tag="ka"), F(3, 200),
          X("triton_poi_b", 201, 1, cat="kernel", tid=7, pid=0, tag="kb"), F(-0.5, 201)],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"ka": A, "kb": B}))
    case("flow_id_bool",
         "bool flow ids: true -> 1 pairs with 1, false -> 0 pairs with 0",
         [region(ts=0, dur=100), X("aten::a", 10, 5), S(True, 10),
          X("aten::b", 20, 5), S(0, 20),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, tag="ka"), F(1, 200),
          X("triton_poi_b", 201, 1, cat="kernel", tid=7, pid=0, tag="kb"), F(False, 201)],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"ka": A, "kb": B}))
    case("flow_id_big",
         "big ids are Python ints: 2**64+1 does not collide with 1; float 1e20 equals int 10**20",
         [region(ts=0, dur=100), X("aten::a", 10, 5), S(2 ** 64 + 1, 10),
          X("aten::b", 20, 5), S(1e20, 20),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, tag="ka"), F(2 ** 64 + 1, 200),
          X("triton_poi_b", 201, 1, cat="kernel", tid=7, pid=0, tag="kb"), F(10 ** 20, 201),
          X("triton_poi_c", 202, 1, cat="kernel", tid=7, pid=0), F(1, 202)],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B, "triton_poi_c": C}}, ok({"ka": A, "kb": B}))
    case("flow_ph_other_and_x_flow",
         "flow-typed events with ph other than s/f (ph 't', ph 'X' with cat fwdbwd) become the previous event",
         [region(ts=0, dur=100),
          X("aten::a", 10, 5), S(7, 10, ph="t"), S(7, 10),
          X("aten::b", 20, 5), X("fwd", 20, 1, cat="fwdbwd"), S(8, 20),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0), F(7, 200),
          X("triton_poi_b", 201, 1, cat="kernel", tid=7, pid=0), F(8, 201)],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({}))
    case("flow_name_or_cat",
         "flow detection by name OR cat: name ac2g/cat async and cat fwdbwd/name other are flows; cat ac2g_x is not",
         [region(ts=0, dur=100),
          X("aten::a", 10, 5), S(1, 10, cat="async", name="ac2g"),
          X("aten::b", 20, 5), S(2, 20, cat="fwdbwd", name="link"),
          X("aten::c", 30, 5), S(3, 30, cat="ac2g_x", name="launch"),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, tag="ka"), F(1, 200, cat="x", name="ac2g"),
          X("triton_poi_b", 201, 1, cat="kernel", tid=7, pid=0, tag="kb"), F(2, 201, cat="fwdbwd"),
          X("triton_poi_c", 202, 1, cat="kernel", tid=7, pid=0), F(3, 202)],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B, "triton_poi_c": C}}, ok({"ka": A, "kb": B}))
    case("flow_dst_any_category",
         "flow destinations are used whatever their category: op -> ac2g -> cuda_runtime dst, non-triton, gets single stack",
         [region(ts=0, dur=100), X("aten::a", 10, 5), S(1, 10),
          X("cudaStreamSynchronize", 200, 1, cat="cuda_runtime", tid=3, tag="d"), F(1, 200, tid=3, pid=1)],
         {FW0: {"triton_poi_a": A}}, ok({"d": A}))
    case("flow_src_precedes_external_id",
         "an op that is a flow source uses only its dst, not the kernels sharing its External id",
         [region(ts=0, dur=100), X("aten::a", 10, 5, args={"External id": 3}), S(1, 10),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, tag="ka"), F(1, 200),
          X("triton_poi_b", 201, 1, cat="kernel", tid=7, pid=0, args={"External id": 3})],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"ka": A}))
    case("flow_s_on_metadata_prev",
         "prev_event is any non-flow event (here an M event) : the s binds to it, so the real op is not linked",
         [region(ts=0, dur=100), X("aten::a", 10, 5),
          X("thread_name", 0, OMIT, cat=OMIT, ph="M", args={"name": "t"}), S(1, 10),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0), F(1, 200)],
         {FW0: {"triton_poi_a": A}}, ok({}))

    # ---------------------------------------------------------------- extid_
    case("extid_python_equality",
         "External id dict semantics: op id 1 finds kernels with 1, 1.0 and true; '1' is a different key",
         [region(ts=0, dur=100), X("aten::a", 10, 5, args={"External id": 1}),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, args={"External id": 1}, tag="ka"),
          X("triton_poi_b", 201, 1, cat="kernel", tid=7, pid=0, args={"External id": 1.0}, tag="kb"),
          X("triton_poi_c", 202, 1, cat="kernel", tid=7, pid=0, args={"External id": True}, tag="kc"),
          X("triton_poi_d", 203, 1, cat="kernel", tid=7, pid=0, args={"External id": "1"})],
         {FW0: {"triton_poi_%s" % n: st(n) for n in "abcd"}},
         ok({"ka": st("a"), "kb": st("b"), "kc": st("c")}))
    case("extid_string_key",
         "op External id '1' (string) finds only the kernel with '1'; op id 2.0 finds kernel 2",
         [region(ts=0, dur=100), X("aten::a", 10, 5, args={"External id": "1"}),
          X("aten::b", 20, 5, args={"External id": 2.0}),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, args={"External id": 1}),
          X("triton_poi_b", 201, 1, cat="kernel", tid=7, pid=0, args={"External id": "1"}, tag="kb"),
          X("triton_poi_c", 202, 1, cat="kernel", tid=7, pid=0, args={"External id": 2}, tag="kc")],
         {FW0: {"triton_poi_%s" % n: st(n) for n in "abc"}}, ok({"kb": st("b"), "kc": st("c")}))
    case("extid_null_and_zero",
         "External id null on op or kernel is ignored; 0 is a valid id (only None is skipped); lower-case 'external id' is not read",
         [region(ts=0, dur=100), X("aten::a", 10, 5, args={"External id": None}),
          X("aten::b", 20, 5, args={"External id": 0}),
          X("aten::c", 30, 5, args={"external id": 5}),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, args={"External id": None}),
          X("triton_poi_b", 201, 1, cat="kernel", tid=7, pid=0, args={"External id": 0}, tag="kb"),
          X("triton_poi_c", 202, 1, cat="kernel", tid=7, pid=0, args={"external id": 5})],
         {FW0: {"triton_poi_%s" % n: st(n) for n in "abc"}}, ok({"kb": st("b")}))
    case("extid_many_kernels_file_order",
         "one External id, several kernels (file order), one in cat cuda_driver which is not indexed",
         [region(ts=0, dur=100), X("aten::a", 10, 5, args={"External id": 4}),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, args={"External id": 4}, tag="ka"),
          X("triton_poi_b", 201, 1, cat="cuda_driver", tid=7, pid=0, args={"External id": 4}),
          X("sm80_gemm", 202, 1, cat="kernel", tid=7, pid=0, args={"External id": 4}, tag="kc"),
          X("triton_poi_c", 203, 1, cat="kernel", tid=7, pid=0, args={"External id": 4}, tag="kd")],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B, "triton_poi_c": C}},
         ok({"ka": A, "kd": C}, warnings=0))
    case("extid_kernel_args_missing",
         "kernel without args (get default {}) is not indexed; op without args has no External id",
         [region(ts=0, dur=100), X("aten::a", 10, 5), X("aten::b", 20, 5, args={"External id": 9}),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0),
          X("triton_poi_b", 201, 1, cat="kernel", tid=7, pid=0, args={"External id": 9}, tag="kb")],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"kb": B}))

    # ---------------------------------------------------------------- extern_
    def extern_trace(ext_name, kname="sm80_xmma_gemm_f32f32_tn_n", cat="cpu_op", rt_cat="cuda_runtime"):
        return [region(ts=0, dur=1000),
                X(ext_name, 100, 100, cat=cat),
                X("cudaLaunchKernel", 120, 10, cat=rt_cat, args={"External id": 11}), S(70, 120),
                X(kname, 400, 20, cat="kernel", tid=7, pid=0, args={"External id": 11}, tag="k"), F(70, 400)]

    two = {"triton_poi_x": C, "triton_poi_y": D}
    case("extern_regex_no_match_whole_name",
         "extern region 'extern_kernels.mm' (regex needs a comma, no match) uses the whole name; key 'extern_kernels.mm:2' by prefix",
         extern_trace("extern_kernels.mm"),
         {FW0: dict(two, **{"extern_kernels.mm:2": A})}, ok({"k": A}), pretty=True)
    case("extern_regex_match",
         "regex \\b(extern\\w+)\\s*, extracts 'extern_kernels_addmm' from a python_function name",
         extern_trace("graph.py(12): extern_kernels_addmm, (buf0, arg1)", cat="python_function"),
         {FW0: dict(two, **{"extern_kernels_addmm:3": A,
                            "graph.py(12): extern_kernels_addmm, (buf0, arg1)": B})}, ok({"k": A}))
    case("extern_regex_unicode_word",
         "\\w is Unicode in Python: 'extern_kernels_ü, x' gives 'extern_kernels_ü'",
         extern_trace("extern_kernels_ü, x"),
         {FW0: dict(two, **{"extern_kernels_ü": A, "extern_kernels_": B})}, ok({"k": A}), utf8=True)
    case("extern_regex_no_word_boundary",
         "no \\b before 'extern' in 'call_extern_kernels_mm, x': no match, the whole name is the lookup key",
         extern_trace("call_extern_kernels_mm, x"),
         {FW0: dict(two, **{"extern_kernels_mm": B, "call_extern_kernels_mm, x": A})}, ok({"k": A}))
    case("extern_regex_unicode_boundary",
         "'ñ' is a word char, so 'ñextern_kernels_mm, x' has no boundary: no match, nothing found, two stacks -> nothing",
         extern_trace("ñextern_kernels_mm, x"),
         {FW0: dict(two, **{"extern_kernels_mm": B})}, ok({}))
    case("extern_regex_space_before_comma",
         "whitespace (spaces, newline) before the comma is allowed: 'x.extern_kernels_mm \\n ,'",
         extern_trace("x.extern_kernels_mm \n ,"),
         {FW0: dict(two, **{"extern_kernels_mm": A})}, ok({"k": A}))
    case("extern_regex_first_match",
         "re.search returns the first match: 'extern_a, extern_kernels_b,' gives 'extern_a'",
         extern_trace("extern_a, extern_kernels_b,"),
         {FW0: dict(two, **{"extern_a": A, "extern_kernels_b": B})}, ok({"k": A}))
    case("extern_fallback_single_stack",
         "extern name not in registry: falls back to the single stack of the graph",
         extern_trace("extern_kernels.bmm"),
         {FW0: {"triton_poi_x": A, "triton_poi_y": None, "z": {"post_grad_nodes": []}}}, ok({"k": A}))
    case("extern_no_region_single_stack",
         "kernel not in registry and op not under any extern region: single-stack fallback, no warning",
         [region(ts=0, dur=1000),
          X("cudaLaunchKernel", 120, 10, cat="cuda_runtime"), S(70, 120),
          X("void at::native::vectorized_elementwise_kernel<4>", 400, 20, cat="kernel", tid=7, pid=0, tag="k"),
          F(70, 400)],
         {FW0: {"triton_poi_x": A}}, ok({"k": A}))
    case("extern_no_stack_no_warning",
         "extern kernel with no key and a graph of two stacks: no annotation and no warning",
         extern_trace("extern_kernels.mm"), {FW0: two}, ok({}, warnings=0))
    case("extern_other_region_not_containing",
         "several extern regions: only the one covering the op is used (loop skips the others)",
         [region(ts=0, dur=1000),
          X("extern_kernels.addmm", 20, 50),
          X("extern_kernels.mm", 100, 100),
          X("cudaLaunchKernel", 120, 10, cat="cuda_runtime"), S(70, 120),
          X("extern_kernels.bmm", 300, 50),
          X("sm80_gemm", 400, 20, cat="kernel", tid=7, pid=0, tag="k"), F(70, 400)],
         {FW0: {"extern_kernels.addmm": A, "extern_kernels.mm": B, "extern_kernels.bmm": C}},
         ok({"k": B}))
    case("extern_cat_not_extern_region",
         "'extern_kernels' in a user_annotation name is not an extern region: two stacks -> nothing",
         extern_trace("extern_kernels.mm", cat="user_annotation"),
         {FW0: {"extern_kernels.mm": A, "x": B}}, ok({}))
    case("extern_forward_checks_only_fw",
         "forward region: extern test only looks at (name, False); kernel only in (name, True) is still extern, and bw key is tried first for the extern name",
         extern_trace("extern_kernels.mm"),
         {FW0: {"triton_poi_x": A, "extern_kernels.mm": A},
          BW0: {"sm80_xmma_gemm_f32f32_tn_n": C, "extern_kernels.mm": B}}, ok({"k": B}))
    case("extern_nested_region_is_op",
         "an extern region is a covered cpu_op of the compiled region too; its own External id links a kernel",
         [region(ts=0, dur=1000),
          X("extern_kernels.mm", 100, 100, args={"External id": 12}),
          X("sm80_gemm", 400, 20, cat="kernel", tid=7, pid=0, args={"External id": 12}, tag="k")],
         {FW0: {"extern_kernels.mm": A, "x": B}}, ok({}))
    case("extern_region_on_other_tid",
         "extern region on another tid than the op: the op is not in its covered set, single-stack fallback",
         [region(ts=0, dur=1000),
          X("extern_kernels.mm", 100, 100, tid=2),
          X("cudaLaunchKernel", 120, 10, cat="cuda_runtime"), S(70, 120),
          X("sm80_gemm", 400, 20, cat="kernel", tid=7, pid=0, tag="k"), F(70, 400)],
         {FW0: {"extern_kernels.mm": A, "triton_poi_x": None}}, ok({"k": A}))

    # ---------------------------------------------------------------- prefix_ (name:handle)
    case("prefix_first_key_wins",
         "several 'name:N' keys: the first in registry (file) order wins, not the lowest handle",
         one_kernel(), {FW0: {"triton_poi_a:7": C, "triton_poi_a:2": A}}, ok({"k": C}))
    case("prefix_first_null_no_stack",
         "first 'name:' key has value null: the search stops there, no stack even though a later key has one",
         one_kernel(), {FW0: {"triton_poi_a:1": None, "triton_poi_a:2": A}}, ok({}))
    case("prefix_exact_null_then_prefix",
         "exact key with value null counts as missing: the 'name:' prefix search continues",
         one_kernel(), {FW0: {"triton_poi_a": None, "triton_poi_a:5": A}}, ok({"k": A}))
    case("prefix_exact_dict_no_stack",
         "exact key with a dict lacking stack_traces is found (not None): no prefix search, no stack",
         one_kernel(), {FW0: {"triton_poi_a": {"post_grad_nodes": ["x"]}, "triton_poi_a:5": A}}, ok({}))
    case("prefix_needs_colon",
         "prefix is name + ':': 'triton_poi_a_1' and 'triton_poi_ab:1' do not match 'triton_poi_a'",
         one_kernel(), {FW0: {"triton_poi_a_1": A, "triton_poi_ab:1": A, "other": B}}, ok({}))
    case("prefix_colons_in_names",
         "kernel names with colons: 'triton_poi:x' matches key 'triton_poi:x:3'; key 'triton_poi_a:1:2' matches 'triton_poi_a'",
         [region(ts=0, dur=100), *launch("triton_poi:x", 10, 6, 35, launcher=False, ktag="kx"),
          *launch("triton_poi_a", 20, 7, 36, launcher=False, ktag="ka")],
         {FW0: {"triton_poi:x:3": A, "triton_poi_a:1:2": B}}, ok({"kx": A, "ka": B}))
    case("prefix_exact_beats_prefix",
         "exact key present with a stack: used before any 'name:' key",
         one_kernel(), {FW0: {"triton_poi_a:1": A, "triton_poi_a": B}}, ok({"k": B}))

    # ---------------------------------------------------------------- kval_ (kernel values)
    vals = [("bare_list", A, A), ("empty_list", [], []), ("string", "model.py:3", "model.py:3"),
            ("number", 7, 7), ("zero", 0, 0), ("false", False, False), ("empty_string", "", ""),
            ("stack_traces_string", {"stack_traces": "s"}, "s"),
            ("stack_traces_null", {"stack_traces": None}, None),
            ("stack_traces_nested", {"stack_traces": [["a"], {"b": 1}]}, [["a"], {"b": 1}]),
            ("dict_extra_fields", {"stack_traces": A, "extern_semantic_key": None, "input_shapes": [[2, 3]]}, A)]
    for nm, v, exp in vals:
        case("kval_" + nm,
             "kernel value %s is used as the stack as is (only None means no stack)" % nm
             if exp is not None else "kernel value %s: dict whose stack_traces is null gives no stack" % nm,
             one_kernel(), {FW0: {"triton_poi_a": v}}, ok({"k": exp} if exp is not None else {}))

    # ---------------------------------------------------------------- bwkey_ (backward keys)
    case("bwkey_exact_present_only",
         "exact (name, True) key present: prefix keys ('name_backward_0', True) are not added",
         bw_trace(kernels=("triton_poi_bw", "triton_poi_only_prefix")),
         {BW0: {"triton_poi_bw": B, "x": C},
          G(R00 + "_backward_0", True): {"triton_poi_bw": C, "triton_poi_only_prefix": D}},
         ok({"k0": B}))
    case("bwkey_prefix_suffix",
         "exact bw key absent: ('Torch-Compiled Region: 0/0_backward_0', True) found by the literal_eval prefix scan",
         bw_trace(), {G(R00 + "_backward_0", True): {"triton_poi_bw": B, "x": C}}, ok({"k0": B}), pretty=True)
    cands = [
        ("dq", "(\"Torch-Compiled Region: 0/0_bw'dq\", True)", True),
        ("escq", "('Torch-Compiled Region: 0/0_bw\\'esc\"', True)", True),
        ("concat", "('Torch-Compiled Region: 0/0' '_backward_1', True)", True),
        ("noparen", "'Torch-Compiled Region: 0/0_np', True", True),
        ("lead_ws", "  ('Torch-Compiled Region: 0/0_ws', True)", True),
        ("comment", "('Torch-Compiled Region: 0/0_cm', True)  # note", True),
        ("raw", "(r'Torch-Compiled Region: 0/0_raw\\d', True)", True),
        ("uesc", "('Torch-Compiled Region: 0/0_\\u00e9', True)", True),
        ("extra_parens", "((('Torch-Compiled Region: 0/0_pp', True)))", True),
        ("int_bool", "('Torch-Compiled Region: 0/0_int', 1)", False),
        ("false", "('Torch-Compiled Region: 0/0_false', False)", False),
        ("list", "['Torch-Compiled Region: 0/0_list', True]", False),
        ("triple", "('Torch-Compiled Region: 0/0_tri', True, 1)", False),
        ("bytes", "(b'Torch-Compiled Region: 0/0_bytes', True)", False),
        ("none", "('Torch-Compiled Region: 0/0_none', None)", False),
        ("syntax", "('Torch-Compiled Region: 0/0_syn', True", False),
        ("bare", "Torch-Compiled Region: 0/0_bare", False),
        ("no_underscore", "('Torch-Compiled Region: 0/0x', True)", False),
        ("other_region", "('Torch-Compiled Region: 1/0_backward_0', True)", False),
        ("name_expr", "('Torch-Compiled Region: 0/0_' + 'x', True)", False),
        ("nullbyte", "('Torch-Compiled Region: 0/0_nb', True)\x00", False),
    ]
    kins = ["triton_poi_%s" % c[0] for c in cands]
    ki = {FW0: {"dummy1": C, "dummy2": D}}
    exp = {}
    for i, (nm, key, accepted) in enumerate(cands):
        ki[key] = {kins[i]: st("bw " + nm), "dummy": C}
        if accepted:
            exp["k%d" % i] = st("bw " + nm)
    case("bwkey_literal_eval_forms",
         "prefix scan via ast.literal_eval: double quotes, \\' escapes, implicit concatenation, no parens, leading space, comment, r'', \\u escape, extra parens accepted; (str,int), False, list, 3-tuple, bytes, None, syntax errors, non-prefix, expressions, NUL ignored",
         bw_trace(kernels=kins), ki, ok(exp))
    dn = "Torch-Compiled Region: it's 0/0"
    case("bwkey_double_quoted_region",
         "region name containing ' makes repr use double quotes; the prefix key is double-quoted too",
         bw_trace(dn), {G(dn): {"x": A, "y": C}, G(dn + "_backward_0", True): {"triton_poi_bw": B, "z": C}},
         ok({"k0": B}))
    mixed = "Torch-Compiled Region: a'b\"c"
    case("bwkey_escaped_quotes_region",
         "region name with both quote kinds: repr is single-quoted with \\'; exact bw key built from it matches",
         bw_trace(mixed), {G(mixed): {"x": A, "y": C}, G(mixed, True): {"triton_poi_bw": B, "z": C}},
         ok({"k0": B}))
    case("bwkey_true_paren_in_name",
         "region name 'Torch-Compiled Region: odd', True) name' with prefix bw key; splitting on \"', \" would break it",
         bw_trace(ODD_REGION), {G(ODD_REGION): {"x": A, "y": C},
                           G(ODD_REGION + "_backward_7", True): {"triton_poi_bw": B, "z": C}},
         ok({"k0": B}))
    case("bwkey_empty_infos_skipped",
         "prefix keys with empty info ({} [] null '' 0) are skipped; otherwise null would crash later",
         bw_trace(), {G(R00 + "_backward_0", True): None, G(R00 + "_backward_1", True): [],
                      G(R00 + "_backward_2", True): {}, G(R00 + "_backward_3", True): "",
                      G(R00 + "_backward_4", True): 0,
                      G(R00 + "_backward_5", True): {"triton_poi_bw": B, "z": C}},
         ok({"k0": B}))
    case("bwkey_prefix_order",
         "several prefix bw keys: tried in registry order, the first with a stack for the kernel wins",
         bw_trace(), {G(R00 + "_backward_2", True): {"other": A, "z": C},
                      G(R00 + "_backward_1", True): {"triton_poi_bw:4": B, "z": C},
                      G(R00 + "_backward_0", True): {"triton_poi_bw": D, "z": C}},
         ok({"k0": B}))
    case("bwkey_exact_absent_still_listed",
         "the exact bw key is always in the list even when absent; fw key used when no bw key has the kernel",
         bw_trace(), {FW0: {"triton_poi_bw": A, "z": C}}, ok({"k0": A}))
    case("bwkey_region_skipped_no_keys",
         "backward region whose forward region name has no fw, exact bw or prefix key: skipped",
         bw_trace(), {G("Torch-Compiled Region: 0/1"): {"triton_poi_bw": A},
                      G("Torch-Compiled Region: 0/00_backward_0", True): {"triton_poi_bw": A}}, ok({}))
