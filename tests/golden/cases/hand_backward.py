"""Hand-written cases: backward regions, the single-stack rule and warnings, uids, args, timestamps,
odd registries and inputs on which the reference raises."""
from .builders import (A, B, BW0, C, CASES, Case, D, F, FW0, G, OMIT, R00, S, X, bw_trace, case, err, launch, ok,
                       one_kernel, ops_a_b, region, st)


def add_cases():
    """Register the bw_ … err_ cases."""
    # ---------------------------------------------------------------- bw_ (backward regions)
    case("bw_with_fwdbwd_f_before_s",
         "autograd block first: fwdbwd f (after CompiledFunctionBackward) precedes the s (after CompiledFunction); CompiledFunctionBackward gets the bw graph's single stack",
         [X("CompiledFunctionBackward", 200, 100, tid=3, tag="cfb"), F(1, 200, tid=3, pid=1, cat="fwdbwd"),
          *launch("triton_poi_bw", 210, 20, 60, tid=3, ktag="kb"),
          region(ts=0, dur=100),
          X("CompiledFunction", 10, 50), S(1, 10, cat="fwdbwd"),
          *launch("triton_poi_fw", 20, 21, 61, ktag="kf")],
         {FW0: {"triton_poi_fw": A}, BW0: {"triton_poi_bw": B}},
         ok({"kb": B, "kf": A, "cfb": B}), pretty=True)
    case("bw_compiled_function_dst_annotated",
         "forward region covers CompiledFunction (fwdbwd src): its 'kernel' is CompiledFunctionBackward, which gets the single stack",
         [region(ts=0, dur=100),
          X("CompiledFunction", 10, 50), S(1, 10, cat="fwdbwd"),
          X("CompiledFunctionBackward", 200, 100, tid=3, tag="cfb"), F(1, 200, tid=3, pid=1, cat="fwdbwd")],
         {FW0: {"triton_poi_fw": A}}, ok({"cfb": A}))
    case("bw_not_strictly_contained_skipped",
         "fwdbwd src starts at the region start: strict containment fails, walk back finds nothing -> ValueError caught, region skipped",
         [region(ts=0, dur=100),
          X("CompiledFunction", 0, 50), S(1, 0, cat="fwdbwd"),
          X("CompiledFunctionBackward", 200, 100, tid=3), F(1, 200, tid=3, pid=1, cat="fwdbwd"),
          *launch("triton_poi_bw", 210, 20, 60, tid=3, launcher=False)],
         {FW0: {"triton_poi_bw": A}, BW0: {"triton_poi_bw": B}}, ok({}))
    case("bw_src_end_equal_skipped",
         "fwdbwd src ending exactly at the region end: covered (<=) by the forward region, so CompiledFunctionBackward gets a stack, but not strictly contained, so the backward region is skipped",
         [region(ts=0, dur=100),
          X("CompiledFunction", 50, 50), S(1, 50, cat="fwdbwd"),
          X("CompiledFunctionBackward", 200, 100, tid=3, tag="cfb"), F(1, 200, tid=3, pid=1, cat="fwdbwd"),
          *launch("triton_poi_bw", 210, 20, 60, tid=3, launcher=False)],
         {BW0: {"triton_poi_bw": B}}, ok({"cfb": B}))
    case("bw_src_before_all_regions",
         "fwdbwd src before every compiled event: the while loop is never entered, region skipped",
         [X("CompiledFunction", 5, 50), S(1, 5, cat="fwdbwd"),
          region(ts=100, dur=100),
          X("CompiledFunctionBackward", 200, 100, tid=3), F(1, 200, tid=3, pid=1, cat="fwdbwd"),
          *launch("triton_poi_bw", 210, 20, 60, tid=3, launcher=False)],
         {BW0: {"triton_poi_bw": B}}, ok({}))
    case("bw_walk_back_outer",
         "nearest preceding region does not strictly contain the src; walking back finds the outer region 0/0",
         [region(ts=0, dur=1000), region("Torch-Compiled Region: 1/0", ts=100, dur=100),
          X("CompiledFunction", 150, 100, tid=2), S(1, 150, tid=2, cat="fwdbwd"),
          X("CompiledFunctionBackward", 2000, 100, tid=3), F(1, 2000, tid=3, pid=1, cat="fwdbwd"),
          *launch("triton_poi_bw", 2010, 20, 60, tid=3, launcher=False, ktag="k")],
         {BW0: {"triton_poi_bw": B}, G("Torch-Compiled Region: 1/0", True): {"triton_poi_bw": C}},
         ok({"k": B}))
    case("bw_related_any_tid",
         "related-region search ignores tid: the src on tid 2 resolves to a region on tid 9 that contains it in time",
         [region(ts=0, dur=1000, tid=9), region("Torch-Compiled Region: 1/0", ts=10, dur=2000, tid=2),
          X("CompiledFunction", 100, 100, tid=2), S(1, 100, tid=2, cat="fwdbwd"),
          X("CompiledFunctionBackward", 3000, 100, tid=3, tag="cfb"), F(1, 3000, tid=3, pid=1, cat="fwdbwd"),
          *launch("triton_poi_bw", 3010, 20, 60, tid=3, launcher=False, ktag="k")],
         {G("Torch-Compiled Region: 1/0", True): {"triton_poi_bw": B}, BW0: {"triton_poi_bw": A}},
         ok({"k": B, "cfb": B}))
    case("bw_related_is_backward_region",
         "the nearest strictly-containing compiled event is a CompiledFunctionBackward: its name keys the lookup",
         [region(ts=0, dur=100),
          X("CompiledFunctionBackward", 500, 1000, tid=4, tag="cfb0"), F(2, 500, tid=4, pid=1, cat="fwdbwd"),
          X("aten::x", 600, 10, tid=5), S(1, 600, tid=5, cat="fwdbwd"),
          X("CompiledFunctionBackward", 2000, 100, tid=3), F(1, 2000, tid=3, pid=1, cat="fwdbwd"),
          *launch("triton_poi_bw", 2010, 20, 60, tid=3, launcher=False, ktag="k"),
          X("CompiledFunction", 10, 50), S(2, 10, cat="fwdbwd")],
         {G("CompiledFunctionBackward", True): {"triton_poi_bw": C}, BW0: {"triton_poi_bw": B}},
         ok({"k": C, "cfb0": B}))
    case("bw_backward_in_region_name",
         "a Torch-Compiled Region whose name contains 'Backward' is treated as backward (needs a fwdbwd dst)",
         [region(ts=0, dur=100),
          X("CompiledFunction", 10, 50), S(1, 10, cat="fwdbwd"),
          region("Torch-Compiled Region: Backward 0/0", ts=200, dur=100, tid=3, tag="bwr"),
          F(1, 200, tid=3, pid=1, cat="fwdbwd"),
          *launch("triton_poi_bw", 210, 20, 60, tid=3, launcher=False, ktag="k")],
         {BW0: {"triton_poi_bw": B}, G("Torch-Compiled Region: Backward 0/0"): {"triton_poi_bw": C}},
         ok({"k": B, "bwr": B}))
    case("bw_cfb_not_cpu_op",
         "CompiledFunctionBackward with cat python_function is not a region (its ops are not scoped)",
         [region(ts=0, dur=100),
          X("CompiledFunctionBackward", 200, 100, tid=3, cat="python_function"),
          *launch("triton_poi_bw", 210, 20, 60, tid=3, launcher=False)],
         {BW0: {"triton_poi_bw": B}}, ok({}))
    case("bw_extern_checks_all_bw_keys",
         "backward region: a kernel present in any bw key is not extern; non-triton ones then use single stack and warn",
         bw_trace(kernels=("triton_poi_bw", "sm80_gemm_bw", "triton_poi_fwonly")),
         {FW0: {"triton_poi_fwonly": A, "x": C},
          G(R00 + "_backward_0", True): {"triton_poi_bw": B, "sm80_gemm_bw": D}},
         ok({"k0": B, "k2": A}, warnings=1))
    case("bw_extern_kernel_in_backward",
         "backward region with an extern region around the launch: extern name looked up in bw keys first",
         [region(ts=0, dur=100),
          X("CompiledFunction", 10, 50), S(1, 10, cat="fwdbwd"),
          X("CompiledFunctionBackward", 200, 300, tid=3), F(1, 200, tid=3, pid=1, cat="fwdbwd"),
          X("extern_kernels.mm", 220, 100, tid=3),
          X("cudaLaunchKernel", 230, 10, cat="cuda_runtime", tid=3), S(70, 230, tid=3),
          X("sm80_gemm", 400, 20, cat="kernel", tid=7, pid=0, tag="k"), F(70, 400)],
         {FW0: {"extern_kernels.mm:1": A, "x": C}, BW0: {"extern_kernels.mm:2": B, "y": C}},
         ok({"k": B}))
    case("bw_single_stack_bw_then_fw",
         "single-stack path in a backward region: bw graph with two stacks fails, fw graph with one stack succeeds",
         bw_trace(kernels=("sm80_gemm",)),
         {FW0: {"a": A, "b": None}, BW0: {"sm80_gemm": B, "c": C}}, ok({"k0": A, "cfb": A}, warnings=0))

    # ---------------------------------------------------------------- single_ / warnings
    case("single_non_triton_by_name_warns",
         "non-triton kernel present by name: single-stack path, graph has 2 stacks -> no stack + warning",
         one_kernel("sm80_xmma_gemm"), {FW0: {"sm80_xmma_gemm": A, "triton_poi_b": B}}, ok({}, warnings=1))
    case("single_non_triton_by_prefix_one_stack",
         "non-triton kernel present as 'name:3': single-stack path finds the only stack (not the name lookup)",
         one_kernel("cpp_fused_gelu_1"), {FW0: {"cpp_fused_gelu_1:3": A, "other": None}}, ok({"k": A}))
    case("single_non_triton_own_stack_ignored",
         "non-triton kernel with its own stack but another kernel's stack in graph: own stack not used, warning",
         one_kernel("aoti_torch_cuda_mm_out"), {FW0: {"aoti_torch_cuda_mm_out:2": B, "z": []}}, ok({}, warnings=1))
    case("single_warning_count",
         "warnings are counted per (op, kernel) visit: one kernel reached by launcher and flow warns twice, another once",
         [region(ts=0, dur=1000),
          *launch("cutlass_gemm", 10, 6, 35),
          *launch("void gemv", 100, 7, 36, launcher=False),
          *launch("triton_poi_ok", 200, 8, 37, launcher=False, ktag="k")],
         {FW0: {"cutlass_gemm": A, "void gemv": B, "triton_poi_ok": C}}, ok({"k": C}, warnings=3))
    case("single_empty_list_counts",
         "an empty list [] is a non-None stack: graph {k: [], k2: null, k3: {}} has exactly one stack, []",
         one_kernel("sm80_gemm"), {FW0: {"k": [], "k2": None, "k3": {}}}, ok({"k": []}))
    case("single_zero_stack_counts",
         "stack value 0 is not None: it is the single stack and is written as args.stack 0",
         one_kernel("sm80_gemm"), {FW0: {"k": 0, "k2": {"stack_traces": None}}}, ok({"k": 0}))
    case("single_two_stacks_none",
         "two non-None stacks (one of them []) in the graph: single-stack path gives nothing; extern kernel, no warning",
         one_kernel("sm80_gemm"), {FW0: {"k": [], "k2": A}}, ok({}, warnings=0))
    case("triton_no_key_no_warning",
         "triton kernel with the graph missing its entry goes through the extern path, single stack fails silently",
         one_kernel("triton_poi_missing"), {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({}, warnings=0))
    case("triton_key_null_no_stack",
         "triton kernel key present with null: not extern (membership) and name lookup gives None: no stack, no warning",
         one_kernel("triton_poi_a"), {FW0: {"triton_poi_a": None, "x": A}}, ok({}, warnings=0))

    # ---------------------------------------------------------------- uid_
    evs = [region(ts=0, dur=100), *launch("triton_poi_a", 10, 6, 35, ktag="k")]
    for i, e in enumerate(evs):
        e["uid"] = 1000 - 7 * i
    case("uid_preassigned_ints",
         "uid_assigned:true: existing (non-index) uids are used as is and not rewritten",
         evs, {FW0: {"triton_poi_a": A}}, ok({"k": A}), extra={"uid_assigned": True})
    evs = [region(ts=0, dur=100, uid=0),
           X("aten::a", 10, 5, uid=1), S(35, 10, uid=2),
           X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, uid=3), F(35, 200, uid=4),
           X("triton_poi_b", 201, 1, cat="kernel", tid=7, pid=0, uid=3, tag="kb")]
    case("uid_preassigned_duplicates",
         "duplicate uids: uid_2_events keeps the last event per uid, so the flow dst uid 3 resolves to the later kernel",
         evs, {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"kb": B}), extra={"uid_assigned": True})
    evs = [region(ts=0, dur=100, uid=0),
           X("aten::a", 10, 5, uid=1), S(35, 10, uid=2),
           X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, uid=3, tag="ka"), F(35, 200, uid=4),
           X("aten::a", 20, 5, uid=1), S(36, 20, uid=5),
           X("triton_poi_b", 201, 1, cat="kernel", tid=7, pid=0, uid=6, tag="kb"), F(36, 201, uid=7)]
    case("uid_preassigned_shared_flow_source",
         "two flows start after events sharing uid 1: src2dst keeps the flow made last, so only its kernel is reached",
         evs, {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"kb": B}), extra={"uid_assigned": True})
    evs = [region(ts=0, dur=100, uid="r"),
           X("aten::a", 10, 5, uid="op"), S(35, 10, uid="s"),
           X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, uid="kern", tag="k"), F(35, 200, uid=None)]
    case("uid_preassigned_strings",
         "non-integer uids (strings, null) work as dict keys",
         evs, {FW0: {"triton_poi_a": A}}, ok({"k": A}), extra={"uid_assigned": True})
    evs = [region(ts=0, dur=100, uid=0),
           X("aten::a", 10, 5, uid=1), S(35, 10, uid=2),
           X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, uid=3.0), F(35, 200, uid=4),
           X("triton_poi_b", 201, 1, cat="kernel", tid=7, pid=0, uid=3, tag="kb"),
           X("aten::b", 20, 5, uid=True, args={"External id": 1}),
           X("triton_poi_c", 202, 1, cat="kernel", tid=7, pid=0, uid=5, args={"External id": 1})]
    case("uid_preassigned_numeric_equal",
         "uids 3.0 and 3 are one dict key (last wins); uid true collides with uid 1 so aten::a's flow resolves through aten::b",
         evs, {FW0: {"triton_poi_a": A, "triton_poi_b": B, "triton_poi_c": C}},
         ok({"kb": B}), extra={"uid_assigned": True})
    evs = [region(ts=0, dur=100, uid=55), *launch("triton_poi_a", 10, 6, 35, ktag="k")]
    for e in evs:
        e["uid"] = 99
    case("uid_assigned_false_reassigned",
         "uid_assigned:false with stale uids: uids are reassigned to indices and uid_assigned set to true in place",
         evs, {FW0: {"triton_poi_a": A}}, ok({"k": A}), extra={"uid_assigned": False}, layout="events_first")
    case("uid_assigned_zero",
         "uid_assigned:0 is falsy: uids assigned, the key keeps its position with value true",
         [region(ts=0, dur=100), *launch("triton_poi_a", 10, 6, 35, ktag="k")],
         {FW0: {"triton_poi_a": A}}, ok({"k": A}), extra={"uid_assigned": 0}, layout="plain")
    evs = [region(ts=0, dur=100), *launch("triton_poi_a", 10, 6, 35, ktag="k")]
    for i, e in enumerate(evs):
        e["uid"] = i
    case("uid_assigned_truthy_string",
         "uid_assigned:'no' is truthy: existing uids used, flag left as 'no'",
         evs, {FW0: {"triton_poi_a": A}}, ok({"k": A}), extra={"uid_assigned": "no"})
    evs = [region(ts=0, dur=100), *launch("triton_poi_a", 10, 6, 35, ktag="k")]
    for i, e in enumerate(evs):
        e["uid"] = i
    t = {"uid_assigned": True, "schemaVersion": 1, "traceEvents": evs, "deviceProperties": []}
    c = Case("uid_preassigned_at_front",
             "uid_assigned:true placed before traceEvents (top-level key order preserved), events keep uids",
             t, {FW0: {"triton_poi_a": A}}, ok({"k": A}))
    CASES.append(c)

    # ---------------------------------------------------------------- args_
    evs = [region(ts=0, dur=100),
           X("aten::a", 10, 5), S(1, 10),
           X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, args={"stack": ["old"], "x": 1}, tag="ka"),
           F(1, 200),
           X("triton_poi_b", 500, 1, cat="kernel", tid=7, pid=0, args={"stack": ["stale b"]}, tag="kb")]
    case("args_existing_stack_overwritten",
         "kernel with args.stack already present: replaced in place; unreached event keeps its stale stack",
         evs, {FW0: {"triton_poi_a": A}}, ok({"ka": A, "kb": ["stale b"]}))
    case("args_missing_created",
         "kernel without args: args {'stack': ...} is created after uid",
         [region(ts=0, dur=100), X("aten::a", 10, 5), S(1, 10),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, tag="ka"), F(1, 200)],
         {FW0: {"triton_poi_a": A}}, ok({"ka": A}), pretty=True)
    case("args_op_list_flow_src",
         "op with args as a list (no CallFrom) that is a flow src: dst found without reading its args",
         [region(ts=0, dur=100), X("aten::a", 10, 5, args=[1, 2]), S(1, 10),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, tag="ka"), F(1, 200)],
         {FW0: {"triton_poi_a": A}}, ok({"ka": A}))

    # ---------------------------------------------------------------- ts_ (numbers)
    case("ts_int_and_float3",
         "int timestamps mixed with Kineto 3-decimal floats on one thread",
         [region(ts=2413669096141, dur=1353),
          *launch("triton_poi_a", 2413669097354.058, 6, 35, launcher=False, ktag="ka"),
          X("aten::b", 2413669097400, 10, args={"External id": 7}),
          X("triton_poi_b", 2413669097500.5, 1, cat="kernel", tid=7, pid=0, args={"External id": 7}, tag="kb")],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"ka": A, "kb": B}))
    case("ts_epoch16_float_rounds_to_region_start",
         "16-digit epoch: region ts int 1712195495519689, op ts 1712195495519689.047 parses to the same double -> equal start, not covered",
         [region(ts=1712195495519689, dur=100),
          *ops_a_b((1712195495519689.047, 5), (1712195495519689.3, 5), (1712195495519800, 1712195495519801))],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"kb": B}))
    case("ts_epoch16_float_end_rounding",
         "16-digit float ts+dur rounds (0.25us spacing): op end equals region end in decimal (..151.186) but is larger in doubles: not covered",
         [region(ts=1712195495519132.853, dur=18.333),
          *ops_a_b((1712195495519133.911, 17.275), (1712195495519133.911, 17.0), (1712195495519800, 1712195495519801))],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"kb": B}))
    case("ts_int_float_mix_2p53",
         "int vs float compared exactly: region end int 2**53+3 < op end float 2**53+4 (not covered) though double(2**53+3) == 2**53+4",
         [region(ts=9007199254740990, dur=5),
          *ops_a_b((9007199254740992.0, 4), (9007199254740992.0, 2), (9007199254741100, 9007199254741101))],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"kb": B}))
    case("ts_float_sum_not_exact",
         "3-decimal float sums: region 2413669097927.716+1998.001 < op 2413669098535.433+1390.284 in doubles (equal in decimal): not covered",
         [region(ts=2413669097927.716, dur=1998.001),
          *ops_a_b((2413669098535.433, 1390.284), (2413669098535.433, 1390.283), (2413669099999, 2413669099999))],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"kb": B}))
    case("ts_small_float_sum",
         "0.7 + 0.1 = 0.7999999999999999 < 0.75 + 0.05 = 0.8: op not covered although the decimal ends are equal",
         [region(ts=0.7, dur=0.1),
          *ops_a_b((0.75, 0.05), (0.71, 0.02), (5, 6))],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"kb": B}))
    case("ts_exponent_negative_zero",
         "ts written with exponent (1.5e3), negative ts and dur 0 ops",
         [region(ts=-100, dur=1.7e3),
          *ops_a_b((1.5e3, 0), (-50, 0), (2e3, 2e3), ktags=("ka", "kb"))],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"ka": A, "kb": B}))
    case("ts_bw_strict_float",
         "backward related-region test with 16-digit floats: src start rounds onto the region start -> not strict -> region skipped",
         [region(ts=1712195495519689, dur=100),
          X("CompiledFunction", 1712195495519689.1, 50), S(1, 1712195495519689.1, cat="fwdbwd"),
          X("CompiledFunctionBackward", 1712195495519900, 100, tid=3),
          F(1, 1712195495519900, tid=3, pid=1, cat="fwdbwd"),
          *launch("triton_poi_bw", 1712195495519910, 20, 60, tid=3, launcher=False)],
         {BW0: {"triton_poi_bw": B}, FW0: {"x": A, "y": C}}, ok({}))

    # ---------------------------------------------------------------- kinfo_ (graph values)
    case("kinfo_graph_null_unreached",
         "graph values that are null/list/string for keys never looked up are harmless",
         one_kernel(), {G("Torch-Compiled Region: 5/5"): None, G("Torch-Compiled Region: 5/6"): [1],
                        G("Torch-Compiled Region: 5/7", True): "x", FW0: {"triton_poi_a": A}},
         ok({"k": A}))
    case("kinfo_unicode_kernel_names",
         "kernel names and stacks with non-ASCII characters, input files in raw UTF-8 (output is \\u-escaped by json.dump)",
         one_kernel("triton_poi_fused_ä_0"), {FW0: {"triton_poi_fused_ä_0:1": st("modèle.py:3 in forward ✓")}},
         ok({"k": st("modèle.py:3 in forward ✓")}), utf8=True)

    # ---------------------------------------------------------------- err_ (reference raises)
    case("err_bw_no_fwdbwd",
         "ERROR: backward region covering ops without an incoming fwdbwd flow -> KeyError in dst2src",
         [region(ts=0, dur=100), X("CompiledFunctionBackward", 200, 100, tid=3),
          *launch("triton_poi_bw", 210, 20, 60, tid=3)],
         {BW0: {"triton_poi_bw": B}}, err("KeyError"), pretty=True)
    case("err_bw_no_flows_at_all",
         "ERROR: backward region covering ops in a trace with no flow events at all -> KeyError",
         [region(ts=0, dur=100), X("CompiledFunctionBackward", 200, 100, tid=3),
          X("aten::mm", 210, 10, tid=3)],
         {BW0: {"triton_poi_bw": B}}, err("KeyError"))
    case("err_flow_no_id",
         "ERROR: s flow event without id -> KeyError",
         [region(ts=0, dur=100), X("aten::a", 10, 5), S(OMIT, 10)], {FW0: {"x": A}}, err("KeyError"))
    case("err_flow_f_no_id",
         "ERROR: f flow event without id -> KeyError",
         [region(ts=0, dur=100), X("aten::a", 10, 5), F(OMIT, 10)], {FW0: {"x": A}}, err("KeyError"))
    case("err_flow_id_abc",
         "ERROR: flow id 'abc' -> ValueError from int()",
         [region(ts=0, dur=100), X("aten::a", 10, 5), S("abc", 10)], {FW0: {"x": A}}, err("ValueError"))
    case("err_flow_id_float_string",
         "ERROR: flow id '3.7' (string) -> ValueError from int()",
         [region(ts=0, dur=100), X("aten::a", 10, 5), S("3.7", 10)], {FW0: {"x": A}}, err("ValueError"))
    case("err_flow_id_null",
         "ERROR: flow id null -> TypeError from int(None)",
         [region(ts=0, dur=100), X("aten::a", 10, 5), F(None, 10)], {FW0: {"x": A}}, err("TypeError"))
    case("err_flow_id_list",
         "ERROR: flow id [1] -> TypeError from int()",
         [region(ts=0, dur=100), X("aten::a", 10, 5), S([1], 10)], {FW0: {"x": A}}, err("TypeError"))
    case("err_region_no_tid",
         "ERROR: compiled region without tid -> KeyError",
         [region(ts=0, dur=100, tid=OMIT), X("aten::a", 10, 5)], {FW0: {"x": A}}, err("KeyError"))
    case("err_region_no_ts",
         "ERROR: compiled region without ts -> KeyError",
         [region(ts=OMIT, dur=100), X("aten::a", 10, 5)], {FW0: {"x": A}}, err("KeyError"))
    case("err_region_ts_null",
         "ERROR: compiled region with ts null -> TypeError (None + dur)",
         [region(ts=None, dur=100), X("aten::a", 10, 5)], {FW0: {"x": A}}, err("TypeError"))
    case("err_op_no_ts",
         "ERROR: covered-category event without ts on a tid that has regions -> KeyError",
         [region(ts=0, dur=100), X("cudaLaunchKernel", OMIT, 5, cat="cuda_runtime")], {FW0: {"x": A}},
         err("KeyError"))
    case("err_op_dur_null",
         "ERROR: covered-category event with dur null -> TypeError (ts + None)",
         [region(ts=0, dur=100), X("aten::a", 10, None)], {FW0: {"x": A}}, err("TypeError"))
    case("err_op_ts_string",
         "ERROR: ts as a string on a covered op -> TypeError ('10' + 5)",
         [region(ts=0, dur=100), X("aten::a", "10", 5)], {FW0: {"x": A}}, err("TypeError"))
    case("err_args_null_covered",
         "ERROR: args null on a covered-category event -> TypeError ('CallFrom' in None)",
         [region(ts=0, dur=100), X("aten::a", 10, 5, args=None)], {FW0: {"x": A}}, err("TypeError"))
    case("err_args_null_kernel",
         "ERROR: args null on a kernel event -> AttributeError (None.get)",
         [region(ts=0, dur=100), X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, args=None)],
         {FW0: {"x": A}}, err("AttributeError"))
    case("err_args_null_op_lookup_external",
         "ERROR: op covered with args [] (no CallFrom) and not a flow source -> AttributeError on list.get for External id",
         [region(ts=0, dur=100), X("aten::a", 10, 5, args=[])], {FW0: {"x": A}}, err("AttributeError"))
    case("err_dst_args_list",
         "ERROR: flow dst whose args is a list gets setdefault('args')['stack'] -> TypeError",
         [region(ts=0, dur=100), X("aten::a", 10, 5), S(1, 10),
          X("cudaStreamSync", 200, 1, cat="cuda_runtime", tid=3, args=["x"]), F(1, 200, tid=3, pid=1)],
         {FW0: {"x": A}}, err("TypeError"))
    case("err_uid_missing",
         "ERROR: uid_assigned:true but an event lacks uid -> KeyError",
         [dict(region(ts=0, dur=100), uid=0), X("aten::a", 10, 5)], {FW0: {"x": A}}, err("KeyError"),
         extra={"uid_assigned": True})
    case("err_uid_unhashable",
         "ERROR: uid_assigned:true with a list uid -> TypeError (unhashable)",
         [dict(region(ts=0, dur=100), uid=[0])], {FW0: {"x": A}}, err("TypeError"),
         extra={"uid_assigned": True})
    case("err_kernel_no_name",
         "ERROR: kernel event without name reached from a region -> KeyError in _maybe_extern_call",
         [region(ts=0, dur=100), X("aten::a", 10, 5), S(1, 10),
          X(OMIT, 200, 1, cat="kernel", tid=7, pid=0), F(1, 200)], {FW0: {"x": A}}, err("KeyError"))
    case("err_kernel_name_null",
         "ERROR: kernel name null reached from a region -> TypeError (None + ':')",
         [region(ts=0, dur=100), X("aten::a", 10, 5), S(1, 10),
          X(None, 200, 1, cat="kernel", tid=7, pid=0), F(1, 200)], {FW0: {"x": A}}, err("TypeError"))
    case("err_nondict_event_number",
         "ERROR: a number in traceEvents -> TypeError when assigning uid",
         [region(ts=0, dur=100), 42], {FW0: {"x": A}}, err("TypeError"))
    case("err_nondict_event_null",
         "ERROR: a null in traceEvents -> TypeError when assigning uid",
         [region(ts=0, dur=100), None, X("aten::a", 10, 5)], {FW0: {"x": A}}, err("TypeError"))
    case("err_nondict_event_uid_assigned",
         "ERROR: a string in traceEvents with uid_assigned:true -> TypeError reading its uid",
         [dict(region(ts=0, dur=100), uid=0), "oops"], {FW0: {"x": A}}, err("TypeError"),
         extra={"uid_assigned": True})
    case("err_region_name_int",
         "ERROR: cpu_op with a numeric name -> TypeError ('Torch-Compiled Region' in 5)",
         [region(ts=0, dur=100), X(5, 10, 5)], {FW0: {"x": A}}, err("TypeError"))
    case("err_cat_list",
         "ERROR: cat as a list -> TypeError (unhashable in flow-type set)",
         [region(ts=0, dur=100), X("aten::a", 10, 5, cat=["cpu_op"])], {FW0: {"x": A}}, err("TypeError"))
    case("err_tid_list",
         "ERROR: covered op with a list tid -> TypeError (unhashable dict lookup)",
         [region(ts=0, dur=100), X("aten::a", 10, 5, tid=[1])], {FW0: {"x": A}}, err("TypeError"))
    case("err_extid_unhashable",
         "ERROR: kernel External id is a list -> TypeError (unhashable)",
         [region(ts=0, dur=100), X("k", 10, 5, cat="kernel", tid=7, args={"External id": [1]})],
         {FW0: {"x": A}}, err("TypeError"))
    case("err_graph_value_null_fw",
         "ERROR: fw graph value null reached by a kernel -> TypeError ('name' in None)",
         one_kernel(), {FW0: None}, err("TypeError"))
    case("err_graph_value_list_fw",
         "ERROR: fw graph value a non-empty list: membership works, then list.values() fails -> AttributeError",
         one_kernel(), {FW0: ["triton_poi_b"]}, err("AttributeError"))
    case("err_bw_exact_null",
         "ERROR: exact bw key present with null value (presence check only) -> TypeError on the forward region's bw lookup",
         one_kernel(), {FW0: {"triton_poi_a": A}, BW0: None}, err("AttributeError"))
    case("err_bw_prefix_list_info",
         "ERROR: prefix bw key whose info is a non-empty list is kept, then list.get fails -> AttributeError",
         bw_trace(), {G(R00 + "_backward_0", True): ["triton_poi_bw"]}, err("AttributeError"))
    case("err_bw_key_unhashable_literal",
         "ERROR: registry key '{[]: 1}' makes ast.literal_eval raise TypeError (not caught) during the bw prefix scan",
         one_kernel(), {FW0: {"triton_poi_a": A}, "{[]: 1}": {"x": A}}, err("TypeError"))
    case("err_extern_region_no_ts",
         "ERROR: extern region (cpu_op 'extern_kernels.mm') without ts on a tid without compiled regions -> KeyError",
         [region(ts=0, dur=100), X("extern_kernels.mm", OMIT, 5, tid=2)], {FW0: {"x": A}}, err("KeyError"))
    case("err_related_src_no_ts",
         "ERROR: fwdbwd source event without ts (a user_annotation, so not scanned earlier) -> KeyError in _related_compile_region",
         [region(ts=0, dur=100),
          X("annot", OMIT, 50, cat="user_annotation"), S(1, 10, cat="fwdbwd"),
          X("CompiledFunctionBackward", 200, 100, tid=3), F(1, 200, tid=3, pid=1, cat="fwdbwd"),
          X("aten::mm", 210, 10, tid=3)],
         {BW0: {"x": B}}, err("KeyError"))
