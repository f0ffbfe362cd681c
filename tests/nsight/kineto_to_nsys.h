// Writes the Nsight Systems export that profiling the same run with
// `nsys profile --trace=cuda,nvtx --pytorch=autograd-nvtx` would have given, from a loaded Kineto
// trace: cpu_op and user_annotation events become NVTX push/pop ranges named as emit_nvtx names
// them; cuda_runtime / cuda_driver events become CUPTI_ACTIVITY_KIND_RUNTIME rows (runtime names
// with their version suffix); kernels, memcpys, memsets and syncs their CUPTI tables, linked by
// the Kineto correlation ids; times relative to a session start whose absolute time is in
// TARGET_INFO_SESSION_START_TIME, so that utcEpochNs + start is the Kineto event's absolute time
// (baseTimeNanoseconds + ts). The options add the edge cases an importer must survive.
#pragma once

#include <cstdint>
#include <set>
#include <string>

#include "model/trace.h"
#include "nsys_schema.h"

namespace stackline::nsys {

struct ConvertOptions {
    SchemaVersion version = SchemaVersion::v3_7_2;
    // false: no ranges from PyTorch ops at all, as if --pytorch was not given (no NVTX_EVENTS).
    bool pytorchRanges = true;
    // NVTX names as registered strings (textId, in an "NVTX registered" domain) instead of text.
    bool registeredNames = false;
    // Drop the GPU activity of every Nth launch (API calls with no kernel); 0: none.
    uint32_t apiWithoutKernelEvery = 0;
    // Drop the API call of every Nth launch (kernels with no launch); 0: none.
    uint32_t kernelWithoutLaunchEvery = 0;
    // Replay runs of this many consecutive kernel launches of a thread as one cudaGraphLaunch:
    // the run's kernels share the launch's correlation id and carry graphNodeId; 0: none.
    uint32_t graphLaunchRun = 0;
    // Copies of the whole run in more processes (pids + 1000 * k, devices + k), keeping the
    // correlation ids, which are unique only per process.
    uint32_t processes = 1;
    // Backtraces from the python_function events enclosing each API call, as CUDA_CALLCHAINS
    // rows referenced by CUPTI_ACTIVITY_KIND_RUNTIME.callchainId (--python-backtrace=cuda).
    // From the schema reference (Nsight Systems Analysis Guide, "SQLite Schema Reference", 2026.4,
    // schema 3.28.1, https://docs.nvidia.com/nsight-systems/AnalysisGuide/index.html, and the
    // `.schema` of 2024.6 exports, schema 3.16.1, quoted in public repositories): CUDA_CALLCHAINS
    // has id, symbol and module (StringIds), unresolved, originalIP and stackDepth ("zero-base
    // index of the given function in call stack"), primary key (id, stackDepth); no table or
    // column is specific to Python frames. Public scripts that read Python stacks from it take
    // the function from symbol and the .py path from module, and order frames by stackDepth with
    // depth 0 nearest the call (written here: innermost python_function at depth 0). Assumed, as
    // no export with --python-backtrace=cuda was available: the line in originalIP; a built-in
    // ("<built-in method ...>", no file) under its own name as symbol with an empty module.
    bool pythonBacktraces = false;
    // Rows in no particular order (nsys 2025.6 no longer promises timestamp order).
    bool shuffleRows = false;
    std::set<std::string> omitTables;
};

struct ConvertCounts {
    uint64_t nvtxRanges = 0, runtimeCalls = 0, driverCalls = 0, kernels = 0, memcpys = 0,
             memsets = 0, syncs = 0, callchainFrames = 0, graphNodes = 0, processes = 0,
             threads = 0, devices = 0, strings = 0;
    int64_t sessionStartUtcNs = 0;  // TARGET_INFO_SESSION_START_TIME.utcEpochNs
    int64_t baseTimeNs = 0;         // the Kineto trace's baseTimeNanoseconds (0 when absent)
};

// Writes outPath (through a temporary file). Throws InputError for a trace without nanosecond
// columns and std::runtime_error for SQLite errors.
ConvertCounts writeExport(const Trace& trace, const std::string& outPath,
                          const ConvertOptions& options);

}  // namespace stackline::nsys
