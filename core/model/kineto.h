// The names Kineto (the PyTorch profiler's trace writer) and Inductor give to things in a trace,
// said once. Categories come from pytorch/kineto libkineto/include/ActivityType.h and
// output_json.cpp, plus the spellings older writers used (the 2021 TensorBoard-plugin format
// capitalises them: "Kernel", "Memcpy", "Runtime", ...).
//
// Two kinds of rule live here and must not be mixed up:
//  - kineto::  what a name means (is this a GPU kernel, a launch flow, ...), for every spelling
//    Kineto has written. Summaries, hotspots, tracks and the viewer use these.
//  - reference::  the reference processor's own exact tests (seed_provenance.py), which the port
//    repeats on purpose so that its output stays byte-identical, even where they miss a spelling
//    (the reference takes "kernel" but not "Kernel" when it indexes kernels by External id).
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace stackline::kineto {

template <std::size_t N>
using Names = std::array<std::string_view, N>;

template <std::size_t N>
constexpr bool isOneOf(std::string_view s, const Names<N>& names) {
    for (std::string_view n : names)
        if (s == n) return true;
    return false;
}

// ---- Event categories ("cat") ----

// GPU kernels: CONCURRENT_KERNEL is written "kernel"; the writer renames an activity named
// "kernel" to "Kernel", and the 2021 format writes "Kernel" for all of them.
inline constexpr Names<2> kKernelCategories = {"kernel", "Kernel"};
// GPU memory copies and sets.
inline constexpr Names<4> kMemoryCategories = {"gpu_memcpy", "gpu_memset", "Memcpy", "Memset"};
// GPU-side copies of user annotations (such as "## Call CompiledFxGraph ... ##").
inline constexpr Names<1> kGpuAnnotationCategories = {"gpu_user_annotation"};
// Runtime and driver calls on the CPU thread. ROCm writes its HIP calls (hipLaunchKernel,
// hipModuleLaunchKernel, ...) as "cuda_runtime" too.
inline constexpr Names<8> kRuntimeCategories = {
    "cuda_runtime",        "cuda_driver",        "Runtime",     "xpu_runtime", "xpu_driver",
    "privateuse1_runtime", "privateuse1_driver", "mtia_runtime"};
// CUDA synchronization and event records (stream/event syncs, cudaEventRecord).
inline constexpr Names<2> kSyncCategories = {"cuda_sync", "cuda_event"};
inline constexpr Names<2> kCpuOpCategories = {"cpu_op", "Operator"};
inline constexpr Names<1> kUserAnnotationCategories = {"user_annotation"};
inline constexpr Names<1> kPythonFunctionCategories = {"python_function"};
// The profiler's own bookkeeping: CUPTI overhead, the profiler span, profiler ranges.
inline constexpr Names<3> kOverheadCategories = {"overhead", "Trace", "cuda_profiler_range"};
// Flows from a launch on the CPU to its GPU activity: "ac2g" today, "async_cpu_to_gpu" and
// "async_gpu" before it, "async" (named "launch") in the 2021 format.
inline constexpr Names<4> kLaunchFlowCategories = {"ac2g", "async_cpu_to_gpu", "async_gpu",
                                                   "async"};
// Flows from a forward op to its backward op.
inline constexpr Names<1> kForwardBackwardFlowCategories = {"fwdbwd"};

enum class Category : uint8_t {
    Other,
    CpuOp,
    UserAnnotation,
    PythonFunction,
    Runtime,
    Sync,
    Kernel,
    Memory,
    GpuAnnotation,
    Overhead,
    LaunchFlow,
    ForwardBackwardFlow,
};

constexpr bool isGpuKernel(std::string_view cat) {
    return isOneOf(cat, kKernelCategories);
}
constexpr bool isLaunchFlow(std::string_view cat) {
    return isOneOf(cat, kLaunchFlowCategories);
}

constexpr Category categoryOf(std::string_view cat) {
    if (isGpuKernel(cat)) return Category::Kernel;
    if (isOneOf(cat, kCpuOpCategories)) return Category::CpuOp;
    if (isOneOf(cat, kRuntimeCategories)) return Category::Runtime;
    if (isOneOf(cat, kPythonFunctionCategories)) return Category::PythonFunction;
    if (isOneOf(cat, kUserAnnotationCategories)) return Category::UserAnnotation;
    if (isOneOf(cat, kMemoryCategories)) return Category::Memory;
    if (isOneOf(cat, kGpuAnnotationCategories)) return Category::GpuAnnotation;
    if (isOneOf(cat, kSyncCategories)) return Category::Sync;
    if (isOneOf(cat, kOverheadCategories)) return Category::Overhead;
    if (isLaunchFlow(cat)) return Category::LaunchFlow;
    if (isOneOf(cat, kForwardBackwardFlowCategories)) return Category::ForwardBackwardFlow;
    return Category::Other;
}

// Activities that run on a GPU (their pid is a device, their tid a stream).
constexpr bool isGpuActivity(Category c) {
    return c == Category::Kernel || c == Category::Memory || c == Category::GpuAnnotation;
}

// ---- Runtime calls ----

// A CUDA/HIP graph replay (cuda_runtime / cuda_driver): the CUPTI/roctracer callback name, with a
// version suffix in some CUDA releases (cudaGraphLaunch_v10000); the driver API has its own.
inline constexpr Names<3> kGraphLaunchPrefixes = {"cudaGraphLaunch", "hipGraphLaunch",
                                                  "cuGraphLaunch"};
constexpr bool isGraphLaunch(std::string_view name) {
    for (std::string_view prefix : kGraphLaunchPrefixes)
        if (name.starts_with(prefix)) return true;
    return false;
}

// args.correlation: the id CUPTI/roctracer gives a runtime call and the GPU work it started.
inline constexpr std::string_view kCorrelationArg = "correlation";
// args["Sequence number"]: an autograd op's number, which its backward op shares.
inline constexpr std::string_view kSequenceNumberArg = "Sequence number";

// ---- Triton launches (PyTorch's Inductor launcher records them as a cpu_op) ----

// The launcher cpu_op's args: the config that ran ("XBLOCK=2,R0_BLOCK=2048"), its warps and
// stages, the generated module's path and its hash.
inline constexpr std::string_view kKernelKwargsArg = "kernel_kwargs";
inline constexpr std::string_view kNumWarpsArg = "num_warps";
inline constexpr std::string_view kNumStagesArg = "num_stages";
inline constexpr std::string_view kKernelFileArg = "kernel_file";
inline constexpr std::string_view kKernelHashArg = "kernel_hash";
// A CUDA kernel event's occupancy args (CUPTI).
inline constexpr std::string_view kRegistersPerThreadArg = "registers per thread";
inline constexpr std::string_view kSharedMemoryArg = "shared memory";
inline constexpr std::string_view kBlocksPerSmArg = "blocks per SM";
inline constexpr std::string_view kWarpsPerSmArg = "warps per SM";
inline constexpr std::string_view kOccupancyArg = "est. achieved occupancy %";

// ---- Compiled regions (torch.compile) ----

// A cpu_op "Torch-Compiled Region" or, since PyTorch 2.5, "Torch-Compiled Region: <frame>/<id>";
// the kernel information keys its graphs by the same name.
inline constexpr std::string_view kCompiledRegion = "Torch-Compiled Region";
// The autograd function around a compiled forward, and its backward on the autograd thread.
inline constexpr std::string_view kCompiledFunction = "CompiledFunction";
inline constexpr std::string_view kCompiledFunctionBackward = "CompiledFunctionBackward";

// ---- Metadata events (ph "M") and what their args hold ----

inline constexpr std::string_view kProcessName = "process_name";             // args.name
inline constexpr std::string_view kProcessLabels = "process_labels";         // args.labels
inline constexpr std::string_view kProcessSortIndex = "process_sort_index";  // args.sort_index
inline constexpr std::string_view kThreadName = "thread_name";               // args.name
inline constexpr std::string_view kThreadSortIndex = "thread_sort_index";    // args.sort_index
inline constexpr std::string_view kNameArg = "name";
inline constexpr std::string_view kLabelsArg = "labels";
inline constexpr std::string_view kSortIndexArg = "sort_index";
// process_labels of a device: "GPU 0", "GPU 1", ...
inline constexpr std::string_view kGpuLabelPrefix = "GPU";

// ---- Kineto's process sort indexes ----

// CPU processes sort by their pid, device N by kGpuSortIndexBase + N, and the profiler's own
// string-pid tracks ("Spans") by kSpansSortIndex, after everything else.
inline constexpr int64_t kGpuSortIndexBase = 5000000;
inline constexpr int64_t kSpansSortIndex = 536870912;

// ---- Collective communication ----

// NCCL's and RCCL's kernels (ncclDevKernel_AllReduce_..., ncclKernel_..., rcclGenericKernel...):
// the communication that compute kernels should overlap.
constexpr bool isCommunicationKernel(std::string_view name) {
    auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
    for (std::size_t i = 0; i + 4 <= name.size(); ++i)
        if ((lower(name[i]) == 'n' || lower(name[i]) == 'r') && lower(name[i + 1]) == 'c' &&
            lower(name[i + 2]) == 'c' && lower(name[i + 3]) == 'l')
            return true;
    return false;
}

}  // namespace stackline::kineto

// The reference processor's exact tests, named after what it calls them.
namespace stackline::reference {

// _profile_flow_types: an event is a flow when its name or its category is one of these.
inline constexpr kineto::Names<2> kProfileFlowTypes = {"fwdbwd", "ac2g"};
// _find_events_covered_in: the categories of the events a region covers. "cuLaunchKernel" is an
// event name, not a category, and so never matches; it stays for parity.
inline constexpr kineto::Names<6> kCoveredCategories = {
    "cuda_runtime", "cuLaunchKernel", "cpu_op", "cuda_driver", "gpu_memset", "python_function"};
// kernel_uids_by_external_id: only this spelling is indexed (not "Kernel").
inline constexpr std::string_view kKernelCategory = "kernel";
// Compiled regions and extern-kernel regions are taken from these categories only.
inline constexpr std::string_view kRegionCategory = "cpu_op";
inline constexpr kineto::Names<2> kExternRegionCategories = {"cpu_op", "python_function"};
// An extern-kernel region's name contains this.
inline constexpr std::string_view kExternKernelsMark = "extern_kernels";
// need_bw = "Backward" in compile_name.
inline constexpr std::string_view kBackwardMark = "Backward";
// _maybe_triton_call: kernel_name.startswith("triton_").
inline constexpr std::string_view kTritonPrefix = "triton_";

constexpr bool isProfileFlowType(std::string_view s) {
    return kineto::isOneOf(s, kProfileFlowTypes);
}
constexpr bool isCoveredCategory(std::string_view cat) {
    return kineto::isOneOf(cat, kCoveredCategories);
}
// name == "CompiledFunctionBackward" or "Torch-Compiled Region" in name (with cat "cpu_op").
constexpr bool isCompiledRegionName(std::string_view name) {
    return name == kineto::kCompiledFunctionBackward ||
           name.find(kineto::kCompiledRegion) != std::string_view::npos;
}

}  // namespace stackline::reference
