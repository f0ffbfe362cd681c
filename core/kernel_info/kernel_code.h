// What Inductor generated for each kernel, read from the compile logs without a Python
// interpreter: the Triton source from the `inductor_output_code` module (or the output_code.py it
// names, when that file exists here), where the wrapper's call() launches it, the autotuning
// recorded by `triton_kernel_info`, and the post-/pre-grad nodes of the provenance mappings. Kernel
// names restart in every graph, so records are keyed by (graph, name), never by name alone.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/flow_index.h"
#include "model/trace.h"
#include "model/track_index.h"

namespace stackline {

// A line of the generated module.
struct CodeLine {
    int line = 0;  // 1-based in the module
    std::string text;
};

struct KernelCode {
    std::string name;        // "triton_poi_fused_add_0", or "extern_kernels.mm" for extern calls
    std::string graphKey;    // "('Torch-Compiled Region: 0/0', False)"; empty when unknown
    std::string compileId;   // "0/0"; empty when unknown
    bool triton = true;      // false: an extern kernel (cuBLAS, ...), known only by its call sites
    std::string moduleFile;  // the output_code.py path the log names
    // The kernel's own module ("# kernel path: ..." above its definition): the trace's launches
    // name it as kernel_file, its stem as kernel_hash.
    std::string kernelPath;
    std::string source;  // decorator through the end of the kernel's def; empty when absent
    int firstLine = 0, lastLine = 0;    // source's lines in the module (0 when absent)
    std::vector<CodeLine> launchSites;  // the wrapper's lines that call it, in order
    // triton_kernel_info: "hit", "miss", ... (empty when not recorded), the configs tried (or
    // the only one) as "XBLOCK: 128, num_warps: 4, num_stages: 1", and the compile time.
    std::string autotuneCacheState;
    std::vector<std::string> configs;
    std::optional<int> numConfigs;  // how many configs autotuning tried, when logged
    std::optional<double> compileTimeUs;
    std::vector<std::string> postGradNodes, preGradNodes;
    int module = -1;  // which of the index's modules defines it (-1: none)
};

class KernelCodeIndex {
public:
    KernelCodeIndex() = default;
    // modules: compile id -> the whole generated module.
    KernelCodeIndex(std::vector<KernelCode> kernels,
                    std::vector<std::pair<std::string, std::string>> modules);

    const std::vector<KernelCode>& kernels() const { return kernels_; }
    bool empty() const { return kernels_.empty(); }
    // The record of a kernel in a graph; the name may carry a ":debug_handle" suffix, matched as
    // the provenance processor matches it. An empty graph key finds the name in any graph when
    // only one graph has it.
    const KernelCode* find(std::string_view graphKey, std::string_view name) const;
    // The record of the kernel whose own module is this kernel_file, or whose stem is this
    // kernel_hash: unambiguous across graphs. nullptr when none.
    const KernelCode* findByKernelFile(std::string_view fileOrHash) const;
    // Every graph's record of a name.
    std::vector<const KernelCode*> named(std::string_view name) const;
    // The whole module that defines a record (a compile id's forward and backward graphs each
    // have one); empty when unknown.
    std::string_view moduleOf(const KernelCode& k) const;

private:
    std::vector<KernelCode> kernels_;
    std::vector<std::pair<std::string, std::string>> modules_;
};

// What the trace says about a Triton kernel's launch: the launcher cpu_op's args (kernel_kwargs
// "XBLOCK=2,R0_BLOCK=2048", num_warps, num_stages, kernel_file, kernel_hash) and the kernel
// event's occupancy args. Fields absent from the trace stay empty.
struct TritonLaunch {
    std::string kernelKwargs;
    std::optional<int64_t> numWarps, numStages;
    std::string kernelFile;  // the generated module's path on the machine that ran it
    std::string kernelHash;
    std::optional<int64_t> registersPerThread, sharedMemory;
    std::optional<double> blocksPerSm, warpsPerSm, occupancy;  // "est. achieved occupancy %"
};

// The runtime call that launched a GPU kernel row: its ac2g flow's start, else the runtime event
// with its correlation id; kNoRow when there is none.
uint32_t runtimeLaunchOf(const Trace& trace, const FlowIndex& flows, uint32_t kernelRow);

// The launch of a GPU kernel row, found through its runtime launch (ac2g flow, else correlation)
// and the launcher cpu_op around it; empty fields when the trace has none of it.
TritonLaunch tritonLaunchOf(const Trace& trace, const TrackIndex& tracks, const FlowIndex& flows,
                            uint32_t kernelRow);

// An extern kernel's launch among its compiled region's launches of the same extern call: the
// launcher slice "extern_kernels.mm" (else "aten::mm") around its runtime launch, counted on its
// thread within the region. The wrapper's call() makes them in that order.
struct ExternCallOrder {
    std::size_t index = 0, count = 0;  // 0-based place, and how many the region has
};
std::optional<ExternCallOrder> externCallOrderOf(const Trace& trace, const TrackIndex& tracks,
                                                 const FlowIndex& flows, uint32_t kernelRow,
                                                 std::string_view externName);
// The wrapper line of that launch when the region calls the extern kernel as often as the record
// has call sites; nullptr when the counts disagree (then every site is a candidate).
const CodeLine* externCallSite(const KernelCode& record, const ExternCallOrder& order);

}  // namespace stackline
