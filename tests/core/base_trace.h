// The small valid trace and kernel information the tests of stackline-cli start from (tst_cli and
// the bad-input tests: tst_refused_inputs, tst_malformed_events, tst_output_errors,
// tst_fuzz_regressions), and deep nesting.
//
// The bad-input policy, checked by those tests on every row: bad input never crashes and never
// loses data. What cannot be a trace (or kernel information) is refused with exit 2; a malformed
// event inside a valid trace is reported by its index and the rest is processed (exit 0); output
// errors exit 1. A run that dies on a signal counts as exit -1 and fails its row.
#pragma once

#include <QByteArray>

namespace stackline::test {

// Region 0 on tid 1, kernel 3 launched from it (annotated), kernel 7 launched from it without
// kernel information (unresolved). Rows 0-8; extra events follow row 8.
inline QByteArray baseTrace(const QByteArray& extra = {}) {
    QByteArray t = R"({"traceEvents": [
{"ph": "X", "cat": "cpu_op", "name": "Torch-Compiled Region: 0/0", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
{"ph": "X", "cat": "cuda_driver", "name": "cuLaunchKernel", "pid": 1, "tid": 1, "ts": 10, "dur": 5},
{"ph": "s", "id": 1, "pid": 1, "tid": 1, "ts": 10, "cat": "ac2g", "name": "ac2g"},
{"ph": "X", "cat": "kernel", "name": "triton_poi_fused_add_0", "pid": 0, "tid": 7, "ts": 20, "dur": 1},
{"ph": "f", "id": 1, "pid": 0, "tid": 7, "ts": 20, "cat": "ac2g", "name": "ac2g"},
{"ph": "X", "cat": "cuda_driver", "name": "cuLaunchKernel", "pid": 1, "tid": 1, "ts": 30, "dur": 5},
{"ph": "s", "id": 2, "pid": 1, "tid": 1, "ts": 30, "cat": "ac2g", "name": "ac2g"},
{"ph": "X", "cat": "kernel", "name": "triton_missing_1", "pid": 0, "tid": 7, "ts": 40, "dur": 1},
{"ph": "f", "id": 2, "pid": 0, "tid": 7, "ts": 40, "cat": "ac2g", "name": "ac2g"})";
    if (!extra.isEmpty()) t += ",\n" + extra;
    return t + "\n], \"traceName\": \"malformed\"}\n";
}

// The graph key of baseTrace's region, as kernel information spells it.
inline const QByteArray kRegionKey = R"j("('Torch-Compiled Region: 0/0', False)")j";
// Kernel information for baseTrace: a stack for kernel 3 only.
inline const QByteArray kInfo =
    R"j({"('Torch-Compiled Region: 0/0', False)": {"triton_poi_fused_add_0:1": )j"
    R"j({"stack_traces": ["m.py:1"]}, "other": {"stack_traces": ["m.py:2"]}}})j";
// args.stack of kernel 3 once annotated.
inline const QByteArray kStack = R"(["m.py:1"])";

// depth '[' then depth ']'.
inline QByteArray nested(int depth) {
    return QByteArray(depth, '[') + QByteArray(depth, ']');
}

}  // namespace stackline::test
