// How Nsight Systems and PyTorch name and number things in an export, read back into the names a
// Kineto trace of the same run would show: emit_nvtx's range names, CUPTI's versioned runtime
// names, the serialized global thread ids, memcpy and memset kinds.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace stackline::nsight {

// An NVTX range name as torch/csrc/profiler/util.cpp getNvtxStr writes it:
// "name, seq = N, op_id = M" (then ", sizes = [...]" with shapes).
struct NvtxName {
    std::string_view plain;
    std::optional<int64_t> sequence;  // "seq = N"
    std::optional<int64_t> opId;      // "op_id = M": the RecordFunction handle (External id)
};
NvtxName parseNvtxName(std::string_view name);

// "cudaLaunchKernel_v7000" -> "cudaLaunchKernel", "cudaStreamGetCaptureInfo_v2_v11030" ->
// "cudaStreamGetCaptureInfo_v2": the suffix is a CUDA version code (_v and four digits or more);
// names without one, an API's own "_v2" included, are unchanged.
std::string_view withoutVersionSuffix(std::string_view name);

// Serialized global ids (Nsight Systems user guide, "SQLite Schema Reference"): the thread id in
// bits 0-23, the process id in bits 24-47, the hardware/VM id above.
inline int64_t pidOfGlobalId(int64_t global) {
    return (global >> 24) & 0xFFFFFF;
}
inline int64_t tidOfGlobalId(int64_t global) {
    return global & 0xFFFFFF;
}

// Kineto's names for CUPTI memcpys and memsets: "Memcpy HtoD (Pinned -> Device)",
// "Memset (Device)", from ENUM_CUDA_MEMCPY_OPER and ENUM_CUDA_MEM_KIND values.
std::string memcpyName(int64_t copyKind, int64_t srcKind, int64_t dstKind);
std::string memsetName(int64_t memKind);
// Kineto's name for a CUPTI synchronization of ENUM_CUPTI_SYNC_TYPE value syncType: "Event Sync",
// "Stream Wait Event", "Stream Sync", "Context Sync", else "Unknown Sync".
std::string_view syncName(int64_t syncType);

}  // namespace stackline::nsight
