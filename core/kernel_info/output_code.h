// The module Inductor generates for a graph (`inductor_output_code`, output_code.py), read as text:
// each Triton kernel is "NAME = async_compile.triton('NAME', '''<source>''', ...)", the wrapper's
// call() launches it with "NAME.run(" and calls extern kernels as "extern_kernels.mm(".
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernel_info/kernel_code.h"

namespace stackline {

// The kernels of one module: its Triton kernels in definition order, then one record per extern
// kernel it calls, in order of first call. Graph key, compile id and module file are left empty.
std::vector<KernelCode> parseOutputCode(std::string_view module);

// What the log says about one module's kernels, besides the module itself.
struct GeneratedModule {
    std::string compileId, graphKey;
    std::string file;  // the output_code.py path the log names
    std::string text;  // the module: the payload, else that file when it exists here
    nlohmann::ordered_json kernelInfo;    // triton_kernel_info, or null
    nlohmann::ordered_json kernelToPost;  // inductor_triton_kernel_to_post_grad_nodes, or null
    nlohmann::ordered_json nodeMappings;  // inductor_provenance_tracking_node_mappings, or null
};

// The records of every module, with autotune data and post-/pre-grad nodes filled in.
KernelCodeIndex kernelCodeOf(const std::vector<GeneratedModule>& modules);

// The text of a file on this machine; empty when it cannot be read.
std::string readTextFile(const std::string& path);

// A kernel's record read from the module its launch names (the launcher's kernel_file), when that
// file is on this machine and defines it.
std::optional<KernelCode> codeFromKernelFile(std::string_view name, const std::string& kernelFile);

// Why a kernel has no code, in words, and which input would give it. kernelInfoSource: the
// kernel information's path (empty when none was given); hasCode: it holds generated code;
// kernelFile: the launch's kernel_file (empty when the trace names none).
std::string missingCodeReason(const std::string& kernelInfoSource, bool hasCode,
                              const std::string& kernelFile);

}  // namespace stackline
