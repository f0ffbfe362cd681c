"""Hand-written cases: PyTorch's own tests, registry level, region naming, tid grouping, containment
(bisect_) and the CallFrom/category rules."""
from .builders import (A, B, BW0, C, F, FW0, G, ODD_REGION, OMIT, R00, S, X, case, launch, ok, ops_a_b, region, st)


def add_cases():
    """Register the basic_ … cat_ cases."""
    # ---------------------------------------------------------------- basic_ (PyTorch's tests)
    case("basic_flow_triton",
         "PyTorch test: region > aten op > ac2g s > kernel (cat cuda_driver) > ac2g f; exact kernel key",
         [region(ts=0, dur=100),
          X("aten::add", 10, 5),
          S(0, 15, tid=1),
          X("triton_poi_fused_add_0", 20, 5, cat="cuda_driver", tid=2, tag="k"),
          F(0, 20, tid=2)],
         {FW0: {"triton_poi_fused_add_0": {"stack_traces": A, "post_grad_nodes": ["add"],
                                     "pre_grad_nodes": ["add"]}}},
         ok({"k": A}), pretty=True)

    case("basic_external_id_prefix",
         "PyTorch test: kernel found by External id (no flows); kernel key 'name:1' matched by prefix",
         [region(ts=0, dur=100),
          X("triton_poi_fused_add_0", 10, 5, args={"External id": 6}),
          X("triton_poi_fused_add_0", 20, 5, cat="kernel", tid=2, args={"External id": 6}, tag="k")],
         {FW0: {"triton_poi_fused_add_0:1": {"stack_traces": A}}},
         ok({"k": A}))

    case("basic_external_id_single_stack",
         "PyTorch test: hipLaunchKernel op + non-triton kernel 'kernel' gets the graph's only stack (single-stack path)",
         [region(ts=0, dur=100),
          X("hipLaunchKernel", 10, 5, cat="cuda_runtime", args={"External id": 6}),
          X("kernel", 20, 5, cat="kernel", tid=2, args={"External id": 6}, tag="k")],
         {FW0: {"triton_poi_fused_add_0:1": {"stack_traces": A}}},
         ok({"k": A}))

    case("basic_skips_missing_stack",
         "PyTorch test: kernel info dict without stack_traces gives no args.stack",
         [region(ts=0, dur=100),
          X("triton_poi_fused_add_0", 10, 5, args={"External id": 6}),
          X("triton_poi_fused_add_0", 20, 5, cat="kernel", tid=2, args={"External id": 6})],
         {FW0: {"triton_poi_fused_add_0": {"post_grad_nodes": ["add"]}}},
         ok({}))

    case("basic_backward_quoted_region",
         "PyTorch test: region name containing \"', True) \"; backward key str((name+'_backward_0', True)) found by literal_eval prefix scan; CompiledFunctionBackward (fwdbwd dst of the forward op) also gets the single stack",
         [region(ODD_REGION, ts=0, dur=100),
          X("aten::add", 10, 5),
          S(1, 10, cat="fwdbwd"),
          X("CompiledFunctionBackward", 200, 100, tid=3, tag="cfb"),
          F(1, 200, tid=3, pid=1, cat="fwdbwd"),
          X("aten::mul", 210, 10, tid=3, args={"External id": 6}),
          X("triton_poi_fused_mul_0", 230, 5, cat="kernel", tid=2, args={"External id": 6}, tag="k")],
         {G(ODD_REGION + "_backward_0", True): {"triton_poi_fused_mul_0": {"stack_traces": B}}},
         ok({"k": B, "cfb": B}), pretty=True)

    case("basic_sparse_flow_ids",
         "PyTorch test: flow id 1_000_000_000 pairs aten::add (src) with the kernel (dst)",
         [region(ts=0, dur=100),
          X("aten::add", 10, 5),
          S(1000000000, 10),
          X("triton_poi_fused_add_0", 20, 5, cat="kernel", tid=2, tag="k"),
          F(1000000000, 20, tid=2)],
         {FW0: {"triton_poi_fused_add_0": A}},
         ok({"k": A}))

    case("basic_kineto_quad",
         "realistic NVIDIA quad [kernel][f][cuLaunchKernel][s] plus launcher cpu_op with shared External id; M trailer",
         [X("TorchDynamo Cache Lookup", 2413669096101.2, 30.5, tid=1670242, pid=1670242),
          region(ts=2413669096141.794, dur=1352.964, tid=1670242, pid=1670242, args={"External id": 2}),
          X("triton_poi_fused_add_cos_sin_0", 2413669097354.058, 95.812, tid=1670242, pid=1670242,
            args={"External id": 3, "kernel_backend": "triton", "grid": "grid(100,)"}),
          X("triton_poi_fused_add_cos_sin_0", 2413669097444.592, 1.76, cat="kernel", pid=0, tid=7,
            args={"External id": 3, "device": 0, "stream": 7, "correlation": 35}, tag="k"),
          F(35, 2413669097444.592, tid=7, pid=0),
          X("cuLaunchKernel", 2413669097399.166, 47.768, cat="cuda_driver", tid=1670242, pid=1670242,
            args={"External id": 3, "cbid": 307, "correlation": 35}),
          S(35, 2413669097399.166, tid=1670242, pid=1670242),
          X("cudaDeviceSynchronize", 2413669097604.098, 16.846, cat="cuda_runtime", tid=1670242,
            pid=1670242, args={"cbid": 165, "correlation": 39}),
          S(39, 2413669097604.098, tid=1670242, pid=1670242),
          X("process_name", 2413669096000.0, OMIT, cat=OMIT, ph="M", pid=0, tid=0, args={"name": "python"}),
          X("thread_name", 2413669096000.0, OMIT, cat=OMIT, ph="M", pid=0, tid=7, args={"name": "stream 7 "}),
          X("PyTorch Profiler (0)", 2413669096038.437, 13123.186, cat="Trace", pid="Spans",
            tid="PyTorch Profiler", args={"Op count": 0}),
          X("Record Window End", 2413669099322.061, OMIT, cat=OMIT, ph="i", pid="", tid="", s="g")],
         {G("Torch-Compiled Region: 0/0"): {"triton_poi_fused_add_cos_sin_0:1": {
             "stack_traces": st('  File "/tmp/x.py", line 5, in fn\n    return torch.sin(x) + torch.cos(x)\n')}}},
         ok({"k": st('  File "/tmp/x.py", line 5, in fn\n    return torch.sin(x) + torch.cos(x)\n')}),
         pretty=True)

    # ---------------------------------------------------------------- empty_ / registry level
    evs = [region(ts=0, dur=100), *launch("triton_poi_fused_add_0", 10, 6, 35)]
    case("empty_registry",
         "empty registry {}: trace returned untouched (no uid, no uid_assigned)",
         evs, {}, ok({}, no_uid=True), pretty=True)
    case("empty_registry_uid_assigned_false",
         "empty registry with uid_assigned:false and stale args.stack in input: everything left as is",
         [region(ts=0, dur=100, args={"stack": ["stale"]}, tag="r"), *launch("triton_poi_fused_add_0", 10, 6, 35)],
         {}, ok({"r": ["stale"]}, no_uid=True), extra={"uid_assigned": False})
    case("empty_trace_events",
         "non-empty registry and traceEvents []: only uid_assigned:true is added",
         [], {FW0: {"triton_poi_fused_add_0": A}}, ok({}), layout="events_first")
    case("empty_graph_dicts",
         "registry whose graph values are empty dicts: region passes the key test, nothing assigned",
         [region(ts=0, dur=100), *launch("triton_poi_fused_add_0", 10, 6, 35)],
         {FW0: {}, BW0: {}}, ok({}))
    case("nomatch_registry_keys",
         "registry keys match no region (other compile id, bare name without tuple, wrong bool): uids only",
         [region(ts=0, dur=100), *launch("triton_poi_fused_add_0", 10, 6, 35)],
         {G("Torch-Compiled Region: 1/0"): {"triton_poi_fused_add_0": A},
          R00: {"triton_poi_fused_add_0": A},
          "('Torch-Compiled Region: 0/0', 0)": {"triton_poi_fused_add_0": A},
          "(\"Torch-Compiled Region: 0/0\", False)": {"triton_poi_fused_add_0": A}},
         ok({}), layout="meta_first")
    case("noflow_external_id_only",
         "no flow events at all (_build_flow_mapping early return); kernels reached by External id only",
         [region(ts=0, dur=100),
          X("triton_poi_fused_add_0", 10, 5, args={"External id": 6}),
          X("triton_poi_fused_add_0", 20, 5, cat="kernel", tid=7, pid=0, args={"External id": 6}, tag="k"),
          X("aten::mm", 30, 5, args={"External id": 7}),
          X("aten::relu", 40, 5)],
         {FW0: {"triton_poi_fused_add_0": A}}, ok({"k": A}))

    # ---------------------------------------------------------------- region_
    case("region_no_compile_id",
         "region named exactly 'Torch-Compiled Region' (no frame id): key ('Torch-Compiled Region', False)",
         [region("Torch-Compiled Region", ts=0, dur=100), *launch("triton_poi_a", 10, 6, 35, ktag="k")],
         {G("Torch-Compiled Region"): {"triton_poi_a": A}}, ok({"k": A}))
    case("region_key_without_false",
         "registry key 'Torch-Compiled Region: 0/0' (not a tuple repr) never matches; region skipped",
         [region(ts=0, dur=100), *launch("triton_poi_a", 10, 6, 35)],
         {R00: {"triton_poi_a": A}, "Torch-Compiled Region: 0/0, False": {"triton_poi_a": A}}, ok({}))
    case("region_name_substring",
         "'Torch-Compiled Region' is a substring test: 'ProfilerStep > Torch-Compiled Region: 0/0 (x)' is a region keyed by its full name",
         [region("pre Torch-Compiled Region: 0/0 (x)", ts=0, dur=100), *launch("triton_poi_a", 10, 6, 35, ktag="k")],
         {G("pre Torch-Compiled Region: 0/0 (x)"): {"triton_poi_a": A}, FW0: {"triton_poi_a": B}},
         ok({"k": A}))
    case("region_cat_not_cpu_op",
         "a 'Torch-Compiled Region' event with cat user_annotation / python_function is not a region",
         [region(ts=0, dur=100, cat="user_annotation"), region(ts=200, dur=100, cat="python_function"),
          *launch("triton_poi_a", 10, 6, 35), *launch("triton_poi_b", 210, 7, 36)],
         {FW0: {"triton_poi_a": A, "triton_poi_b": A}}, ok({}))
    names = ["Torch-Compiled Region: it's 0/0", "Torch-Compiled Region: a\"b'c",
             "Torch-Compiled Region: tab\there\\ é", "Torch-Compiled Region: \x7f\u200b😀 0/1",
             "Torch-Compiled Region: \"dq\" 0/2", "Torch-Compiled Region: \n\r 0/3"]
    evs, ki, exp = [], {}, {}
    for i, n in enumerate(names):
        kn = "triton_poi_r%d" % i
        evs += [region(n, ts=1000 * i, dur=100), *launch(kn, 1000 * i + 10, 10 + i, 40 + i, ktag="k%d" % i)]
        ki[G(n)] = {kn: st("repr %d" % i)}
        exp["k%d" % i] = st("repr %d" % i)
    case("region_name_repr_escapes",
         "graph keys are Python repr: double quotes when name has ' only, \\' when both, \\t \\\\ \\x7f \\u200b \\n \\r escapes, printable unicode kept",
         evs, ki, ok(exp))
    case("region_backward_in_name_no_flow_skipped_empty",
         "region whose name contains 'Backward' but covers nothing: never looked up, no KeyError",
         [region("Torch-Compiled Region: Backward 0/0", ts=0, dur=100), region(ts=200, dur=100),
          *launch("triton_poi_a", 210, 6, 35, ktag="k")],
         {FW0: {"triton_poi_a": A}}, ok({"k": A}))
    case("region_only_bw_key_present",
         "forward region with only its (name, True) key in the registry: not skipped, bw key used first",
         [region(ts=0, dur=100), *launch("triton_poi_a", 10, 6, 35, ktag="k")],
         {BW0: {"triton_poi_a": B}}, ok({"k": B}))
    case("region_forward_tries_bw_first",
         "forward region: _assign_stack tries (name, True) before (name, False), so the bw stack wins",
         [region(ts=0, dur=100), *launch("triton_poi_a", 10, 6, 35, ktag="k")],
         {FW0: {"triton_poi_a": A}, BW0: {"triton_poi_a": B}}, ok({"k": B}))
    case("region_two_graphs_last_write_wins",
         "one kernel reached from two regions (shared External id): the later region in map order overwrites args.stack",
         [region(ts=0, dur=100), region("Torch-Compiled Region: 1/0", ts=200, dur=100),
          X("triton_poi_a", 10, 5, args={"External id": 6}),
          X("triton_poi_a", 210, 5, args={"External id": 6}),
          X("triton_poi_a", 400, 5, cat="kernel", tid=7, pid=0, args={"External id": 6}, tag="k")],
         {FW0: {"triton_poi_a": A}, G("Torch-Compiled Region: 1/0"): {"triton_poi_a": C}},
         ok({"k": C}))
    case("region_map_order_first_cover",
         "regions are processed in the order they first covered an event in file order, not by ts",
         [X("triton_poi_a", 210, 5, args={"External id": 6}),
          X("triton_poi_a", 10, 5, args={"External id": 6}),
          region(ts=0, dur=100), region("Torch-Compiled Region: 1/0", ts=200, dur=100),
          X("triton_poi_a", 400, 5, cat="kernel", tid=7, pid=0, args={"External id": 6}, tag="k")],
         {FW0: {"triton_poi_a": A}, G("Torch-Compiled Region: 1/0"): {"triton_poi_a": C}},
         ok({"k": A}))

    # ---------------------------------------------------------------- tid_
    case("tid_only_grouping_ignores_pid",
         "covered-event grouping uses tid only: op on pid 2 tid 5 is covered by region on pid 1 tid 5",
         [region(ts=0, dur=100, tid=5, pid=1),
          *launch("triton_poi_a", 10, 6, 35, tid=5, pid=2, launcher=False, ktag="ka"),
          *launch("triton_poi_b", 20, 7, 36, tid=6, pid=1, ktag="kb")],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"ka": A}))
    case("tid_gpu_stream_equals_cpu_tid",
         "region on CPU tid 7; gpu_memset on GPU pid 0 stream tid 7 inside its time range is covered (External id -> kernel)",
         [region(ts=0, dur=1000, tid=7, pid=4242),
          X("Memset (Device)", 100, 5, cat="gpu_memset", tid=7, pid=0, args={"External id": 9}),
          X("triton_poi_a", 120, 5, cat="kernel", tid=7, pid=0, args={"External id": 9}, tag="k")],
         {FW0: {"triton_poi_a": A}}, ok({"k": A}))
    case("tid_int_float_equal",
         "tid Python equality: op tid 7.0 is grouped with region tid 7 (and region tid 8.0 with op tid 8)",
         [region(ts=0, dur=100, tid=7),
          *launch("triton_poi_a", 10, 6, 35, tid=7.0, launcher=False, ktag="ka"),
          region(ts=0, dur=100, tid=8.0),
          *launch("triton_poi_b", 10, 7, 36, tid=8, launcher=False, ktag="kb")],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"ka": A, "kb": B}))
    case("tid_string_vs_int",
         "tid '7' (string) differs from 7: op with tid 7 not covered by region tid '7'; op with tid '7' is",
         [region(ts=0, dur=100, tid="7"),
          *launch("triton_poi_a", 10, 6, 35, tid=7, launcher=False, ktag="ka"),
          *launch("triton_poi_b", 20, 7, 36, tid="7", launcher=False, ktag="kb")],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"kb": B}))
    case("tid_bool_equals_one",
         "tid true == 1 in Python: op with tid true covered by region tid 1",
         [region(ts=0, dur=100, tid=1),
          *launch("triton_poi_a", 10, 6, 35, tid=True, launcher=False, ktag="ka")],
         {FW0: {"triton_poi_a": A}}, ok({"ka": A}))
    case("tid_null_groups_missing",
         "region with tid null groups under None, so ops without a tid key (get -> None) are covered",
         [region(ts=0, dur=100, tid=None),
          X("aten::add", 10, 5, tid=OMIT, args={"External id": 6}),
          X("triton_poi_a", 20, 5, cat="kernel", tid=7, pid=0, args={"External id": 6}, tag="k")],
         {FW0: {"triton_poi_a": A}}, ok({"k": A}))
    case("tid_missing_on_op",
         "ops without tid on a trace whose regions have int tids are skipped",
         [region(ts=0, dur=100),
          X("aten::add", 10, 5, tid=OMIT, args={"External id": 6}),
          X("triton_poi_a", 20, 5, cat="kernel", tid=7, pid=0, args={"External id": 6})],
         {FW0: {"triton_poi_a": A}}, ok({}))
    case("tid_string_pids_trailer",
         "Kineto trailer events with string pid/tid ('Spans', '') and a region on string tid 'PyTorch Profiler'",
         [region(ts=0, dur=100, tid="PyTorch Profiler", pid="Spans"),
          X("aten::x", 10, 5, tid="PyTorch Profiler", pid="Spans", args={"External id": 3}),
          X("triton_poi_a", 20, 5, cat="kernel", tid=7, pid=0, args={"External id": 3}, tag="k"),
          X("Record Window End", 50, OMIT, cat=OMIT, ph="i", pid="", tid="", s="g")],
         {FW0: {"triton_poi_a": A}}, ok({"k": A}))

    # ---------------------------------------------------------------- bisect_ (containment)
    case("bisect_same_ts_not_covered",
         "event starting at the same ts as the region is not covered (bisect_left - 1); one 1us later is",
         [region(ts=100, dur=100),
          X("cuLaunchKernel", 100, 5, cat="cuda_driver"), S(35, 100),
          X("cuLaunchKernel", 101, 5, cat="cuda_driver"), S(36, 101),
          X("triton_poi_a", 300, 1, cat="kernel", tid=7, pid=0), F(35, 300),
          X("triton_poi_b", 301, 1, cat="kernel", tid=7, pid=0, tag="kb"), F(36, 301)],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"kb": B}))
    case("bisect_before_first_region",
         "event before the first region on its tid (idx < 0) is not covered",
         [region(ts=100, dur=100), *launch("triton_poi_a", 50, 6, 35)],
         {FW0: {"triton_poi_a": A}}, ok({}))
    case("bisect_nested_only_nearest",
         "nested regions: only the nearest region starting before the op is tested; op outside inner but inside outer is dropped",
         [region(ts=0, dur=1000), region("Torch-Compiled Region: 1/0", ts=100, dur=100),
          *launch("triton_poi_a", 500, 6, 35, launcher=False, ktag="ka"),
          *launch("triton_poi_b", 150, 7, 36, launcher=False, ktag="kb"),
          *launch("triton_poi_c", 50, 8, 37, launcher=False, ktag="kc")],
         {FW0: {"triton_poi_a": A, "triton_poi_b": A, "triton_poi_c": A},
          G("Torch-Compiled Region: 1/0"): {"triton_poi_a": C, "triton_poi_b": C, "triton_poi_c": C}},
         ok({"kb": C, "kc": A}))
    case("bisect_equal_starts_last_wins",
         "two regions with equal ts keep file order after the stable sort; the last one (shorter) is tested, so op is dropped",
         [region(ts=0, dur=1000), region("Torch-Compiled Region: 1/0", ts=0, dur=50),
          *launch("triton_poi_a", 100, 6, 35, launcher=False),
          *launch("triton_poi_b", 10, 7, 36, launcher=False, ktag="kb")],
         {FW0: {"triton_poi_a": A, "triton_poi_b": A},
          G("Torch-Compiled Region: 1/0"): {"triton_poi_a": C, "triton_poi_b": C}},
         ok({"kb": C}))
    case("bisect_equal_starts_last_wins_swapped",
         "same as bisect_equal_starts_last_wins with the file order swapped: the long region is last and covers both ops",
         [region("Torch-Compiled Region: 1/0", ts=0, dur=50), region(ts=0, dur=1000),
          *launch("triton_poi_a", 100, 6, 35, launcher=False, ktag="ka"),
          *launch("triton_poi_b", 10, 7, 36, launcher=False, ktag="kb")],
         {FW0: {"triton_poi_a": A, "triton_poi_b": A},
          G("Torch-Compiled Region: 1/0"): {"triton_poi_a": C, "triton_poi_b": C}},
         ok({"ka": A, "kb": A}))
    case("bisect_end_boundary",
         "containment is ev.end <= region.end: op ending exactly at region end is covered, one ending 0.001 later is not",
         [region(ts=0, dur=100),
          *ops_a_b((90, 10), (90.5, 9.501), (200, 210), kdur=5, ktags=("ka", "kb"))],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"ka": A}))
    case("bisect_dur_missing",
         "dur defaults to 0: op without dur at region end ts is covered; region without dur covers nothing",
         [region(ts=0, dur=100),
          X("aten::a", 100, OMIT, args={"External id": 1}),
          region("Torch-Compiled Region: 1/0", ts=500, dur=OMIT),
          X("aten::b", 500.5, OMIT, args={"External id": 2}),
          X("triton_poi_a", 200, 5, cat="kernel", tid=7, pid=0, args={"External id": 1}, tag="ka"),
          X("triton_poi_b", 510, 5, cat="kernel", tid=7, pid=0, args={"External id": 2}, tag="kb")],
         {FW0: {"triton_poi_a": A}, G("Torch-Compiled Region: 1/0"): {"triton_poi_b": B}},
         ok({"ka": A}))
    case("bisect_unsorted_file",
         "regions and ops appear out of ts order in the file; regions are sorted by start per tid",
         [*launch("triton_poi_c", 2010, 8, 37, launcher=False, ktag="kc"),
          region("Torch-Compiled Region: 2/0", ts=2000, dur=100),
          *launch("triton_poi_a", 10, 6, 35, launcher=False, ktag="ka"),
          region(ts=0, dur=100),
          region("Torch-Compiled Region: 1/0", ts=1000, dur=100),
          *launch("triton_poi_b", 1010, 7, 36, launcher=False, ktag="kb")],
         {FW0: {"triton_poi_a": A}, G("Torch-Compiled Region: 1/0"): {"triton_poi_b": B},
          G("Torch-Compiled Region: 2/0"): {"triton_poi_c": C}},
         ok({"ka": A, "kb": B, "kc": C}))
    nan = float("nan")

    def regions_at(starts):
        return [region("Torch-Compiled Region: %d/0" % i, ts=t, dur=10.0) for i, t in enumerate(starts)]

    def stacks_of(n):
        return {G("Torch-Compiled Region: %d/0" % i): {"triton_poi_a": st("r%d.py:1" % i)} for i in range(n)}

    def launched_at(times):
        evs = []
        for j, t in enumerate(times):
            evs.append(X("triton_poi_a", t, 0.1, args={"External id": 100 + j}))
            evs.append(X("triton_poi_a", t + 100, 0.1, cat="kernel", tid=7, pid=0,
                         args={"External id": 100 + j}, tag="k%d" % j))
        return evs
    case("bisect_nan_starts_insertion",
         "NaN region starts: where Python's sort (an ascending run, then binary insertion) puts them decides which region bisect finds",
         regions_at([nan, 3.0, 3.0, 5.0, nan, 1.0, 3.0, 0.5]) + launched_at([6.0, 3.5, 0.7]),
         stacks_of(8), ok({"k0": st("r6.py:1"), "k1": st("r2.py:1"), "k2": st("r7.py:1")}))
    case("bisect_nan_starts_descending",
         "NaN region starts after a strictly descending run, which Python's sort reverses before inserting the rest",
         regions_at([8.0, 2.0, 2.0, 1.0, nan, nan, 2.0]) + launched_at([9.0, 3.5, 3.5]),
         stacks_of(7), ok({"k0": st("r0.py:1"), "k1": st("r6.py:1"), "k2": st("r6.py:1")}))
    case("bisect_region_covers_region",
         "an inner region is itself a covered cpu_op of the outer one: its External id links a kernel that gets the outer graph's stack",
         [region(ts=0, dur=1000),
          region("Torch-Compiled Region: 1/0", ts=100, dur=100, args={"External id": 5}),
          X("triton_poi_a", 300, 5, cat="kernel", tid=7, pid=0, args={"External id": 5}, tag="k")],
         {FW0: {"triton_poi_a": A}, G("Torch-Compiled Region: 1/0"): {"triton_poi_a": C}},
         ok({"k": A}))

    # ---------------------------------------------------------------- callfrom_ / cat_
    case("callfrom_skip",
         "ops whose args contain the key CallFrom (any value, even null) are never covered",
         [region(ts=0, dur=100),
          X("aten::a", 10, 5, args={"External id": 1, "CallFrom": "x"}),
          X("aten::b", 20, 5, args={"External id": 2, "CallFrom": None}),
          X("aten::c", 30, 5, args={"External id": 3, "callfrom": 1}),
          *[X("triton_poi_%s" % n, 200 + i, 1, cat="kernel", tid=7, pid=0, args={"External id": i + 1},
              tag="k" + n) for i, n in enumerate("abc")]],
         {FW0: {"triton_poi_a": A, "triton_poi_b": A, "triton_poi_c": A}}, ok({"kc": A}))
    case("callfrom_args_string_and_list",
         "'CallFrom' in args also works as substring/list membership: args string containing it or list holding it skip the op",
         [region(ts=0, dur=100),
          X("aten::a", 10, 5, args="see CallFrom here"), S(1, 10),
          X("aten::b", 20, 5, args=["CallFrom"]), S(2, 20),
          X("aten::c", 30, 5, args=[1, 2]), S(3, 30),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, tag="ka"), F(1, 200),
          X("triton_poi_b", 201, 1, cat="kernel", tid=7, pid=0, tag="kb"), F(2, 201),
          X("triton_poi_c", 202, 1, cat="kernel", tid=7, pid=0, tag="kc"), F(3, 202)],
         {FW0: {"triton_poi_a": A, "triton_poi_b": A, "triton_poi_c": A}}, ok({"kc": A}))
    cats = ["cuda_runtime", "cuLaunchKernel", "cpu_op", "cuda_driver", "gpu_memset", "python_function",
            "kernel", "gpu_memcpy", "user_annotation", "gpu_user_annotation", "cpu_instant_event",
            "Kernel", "CPU_OP", OMIT, None]
    evs, ki, exp = [region(ts=0, dur=1000)], {}, {}
    for i, c in enumerate(cats):
        kn = "triton_poi_c%d" % i
        evs += [X("op%d" % i, 10 + 10 * i, 5, cat=c), S(100 + i, 10 + 10 * i),
                X(kn, 2000 + i, 1, cat="kernel", tid=7, pid=0, tag="k%d" % i), F(100 + i, 2000 + i)]
        ki[kn] = st("cat %d" % i)
        if i < 6:
            exp["k%d" % i] = st("cat %d" % i)
    case("cat_covered_list",
         "only cats cuda_runtime, cuLaunchKernel, cpu_op, cuda_driver, gpu_memset, python_function are covered; kernel, gpu_memcpy, others, missing, null are not",
         evs, {FW0: ki}, ok(exp))
    case("cat_culaunchkernel_name",
         "cuLaunchKernel is a name in real traces: name cuLaunchKernel with cat cuda_driver is covered, with cat 'cuda_launch' it is not",
         [region(ts=0, dur=100),
          X("cuLaunchKernel", 10, 5, cat="cuda_driver"), S(1, 10),
          X("cuLaunchKernel", 20, 5, cat="cuda_launch"), S(2, 20),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, tag="ka"), F(1, 200),
          X("triton_poi_b", 201, 1, cat="kernel", tid=7, pid=0), F(2, 201)],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B}}, ok({"ka": A}))
    case("cat_kernel_on_cpu_tid_not_covered",
         "kernel and gpu_memcpy events on the region's own tid are never scoped ops (their External ids are not followed)",
         [region(ts=0, dur=100),
          X("triton_poi_x", 10, 5, cat="kernel", args={"External id": 1}),
          X("Memcpy HtoD", 20, 5, cat="gpu_memcpy", args={"External id": 2}),
          X("triton_poi_a", 200, 1, cat="kernel", tid=7, pid=0, args={"External id": 1}),
          X("triton_poi_b", 201, 1, cat="kernel", tid=7, pid=0, args={"External id": 2})],
         {FW0: {"triton_poi_a": A, "triton_poi_b": B, "triton_poi_x": C}}, ok({}))
