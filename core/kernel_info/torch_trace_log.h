// Kernel information rebuilt from what a real PyTorch run leaves on disk: TORCH_TRACE structured
// logs (dedicated_log_torch_trace_*.log), tlparse output folders, and single tlparse artifact
// files. PyTorch keeps the registry itself only in memory; its logs carry, per Inductor compile, an
// artifact "inductor_provenance_tracking_kernel_stack_traces" ({kernel[:handle]: [stack strings]})
// and "inductor_provenance_tracking_node_mappings" (cppCodeToPost, postToPre). Each such artifact
// becomes one graph of the registry, in the registry's shape (as create_kernel_information_json
// builds it):
//   "('Torch-Compiled Region: <compile id>', <is_backward>)": {
//       kernel: {"stack_traces": [...], "post_grad_nodes": [...], "pre_grad_nodes": [...]}}
//
// Whether an artifact is the forward or the backward graph of its compile is decided by the rules
// of forward_backward.h; when rule 2, 3 or 4 decides, a note says which.
// Artifacts without a compile id (AOTInductor, compile_fx_aot) cannot be tied to a region: their
// kernels form a kernel-only registry that applies to every compiled region (with a note).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernel_info/kernel_code.h"

namespace stackline {

struct RebuiltKernelInfo {
    nlohmann::ordered_json registry = nlohmann::ordered_json::object();  // graph key -> kernels
    nlohmann::ordered_json kernelOnly;  // null, or kernel -> info for every compiled region
    std::vector<std::string> notes;     // what the user should know about how it was rebuilt
    KernelCodeIndex code;  // the generated code of each graph (output_code.h), when logged
};

// The text starts (after blank lines) with a glog record of a structured log:
// "V0819 12:42:54.751000 888578 torch/_inductor/compile_fx.py:1073] {...}".
bool looksLikeStructuredLog(std::string_view text);

// The provenance artifacts of a TORCH_TRACE structured log, and the code Inductor generated
// (inductor_output_code, triton_kernel_info, inductor_triton_kernel_to_post_grad_nodes, node
// mappings), its graphs keyed as the stack traces are (forward_backward.h). Throws InputError
// (naming the file) when the log holds no kernel stack-trace artifact and requireStackTraces.
RebuiltKernelInfo readTorchTraceLog(std::string_view text, const std::string& name,
                                    bool requireStackTraces = true);

// The compile id string PyTorch prints ("0/0", "!1/0/0", "!1") for a structured-log envelope's
// compiled_autograd_id / frame_id / frame_compile_id; empty when there is none.
std::string compileIdString(const nlohmann::ordered_json& envelope);

}  // namespace stackline
