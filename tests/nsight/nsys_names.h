// How Nsight Systems and PyTorch name and number what a Kineto trace also records, for writing an
// export from a Kineto trace: NVTX range names as PyTorch's emit_nvtx pushes them, runtime API
// names with CUPTI's version suffix, kernel short names, memcpy kinds, serialized global ids.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace stackline::nsys {

// torch/csrc/profiler/util.cpp getNvtxStr without shapes: "name, seq = N" when the sequence
// number is >= 0, then ", op_id = M" when the op id (the RecordFunction handle) is > 0.
std::string nvtxRangeName(std::string_view name, int64_t sequenceNr, int64_t opId);

// A runtime API name as nsys stores it: CUPTI's callback-id name, with the CUDA version that
// introduced the call's signature ("cudaLaunchKernel_v7000", "cudaMemcpyAsync_v3020").
// Names that are not CUDA runtime calls, or already carry a suffix, are returned unchanged.
std::string versionedRuntimeName(std::string_view name);

// The short name nsys stores beside a kernel's demangled name: the function's own name without
// return type, scope, template arguments and parameters ("void at::native::f<4>(int)" -> "f").
std::string kernelShortName(std::string_view demangled);

// ENUM_CUDA_MEMCPY_OPER and ENUM_CUDA_MEM_KIND values of a Kineto memcpy/memset name
// ("Memcpy HtoD (Pinned -> Device)", "Memset (Device)").
int memcpyKind(std::string_view kinetoName);
int memoryKind(std::string_view label);  // "Pageable", "Pinned", "Device", ...
std::pair<int, int> memcpyEndpoints(std::string_view kinetoName);  // (srcKind, dstKind)
int memsetKind(std::string_view kinetoName);
// ENUM_CUPTI_SYNC_TYPE of a Kineto cuda_sync name ("Stream Sync", "Event Sync", ...).
int syncType(std::string_view kinetoName);

// Serialized global ids: the thread id in bits 0-23, the process id in bits 24-47 and the
// hardware/VM id in bits 48-63 (1 for the local machine in the exports measured).
inline constexpr int64_t kLocalVm = int64_t(1) << 48;
inline int64_t globalPid(int64_t pid) {
    return kLocalVm | ((pid & 0xFFFFFF) << 24);
}
inline int64_t globalTid(int64_t pid, int64_t tid) {
    return globalPid(pid) | (tid & 0xFFFFFF);
}

// A Kineto python_function name "path/file.py(LINE): function".
struct PythonFrame {
    std::string file;
    int64_t line = 0;
    std::string function;
};
std::optional<PythonFrame> parsePythonFrame(std::string_view kinetoName);

// "thread 1234 (python)" -> "python"; other names unchanged.
std::string threadNameOf(std::string_view kinetoThreadName);

}  // namespace stackline::nsys
