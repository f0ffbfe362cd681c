// Kernel stack-trace artifacts on their way to a registry: what the TORCH_TRACE log reader
// (torch_trace_log.cpp) and the tlparse folder reader (tlparse_folder.cpp) share. Internal to them.
#pragma once

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernel_info/forward_backward.h"
#include "kernel_info/torch_trace_log.h"

namespace stackline::torch_trace {

using OJ = nlohmann::ordered_json;

inline constexpr std::string_view kStackTraces = "inductor_provenance_tracking_kernel_stack_traces";
inline constexpr std::string_view kNodeMappings = "inductor_provenance_tracking_node_mappings";

inline bool isDigit(char c) {
    return c >= '0' && c <= '9';
}
inline bool allDigits(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), isDigit);
}
inline bool contains(std::string_view s, std::string_view p) {
    return s.find(p) != std::string_view::npos;
}

// One kernel stack-trace artifact on its way to a graph of the registry.
struct Artifact {
    std::string compileId;  // "0/0"; empty when the artifact has none
    std::string where;      // "line 134", or a file inside a tlparse folder
    OJ stacks;              // {kernel[:handle]: [stack strings]}
    OJ mappings;            // the node mappings logged with it, or null
    // What the log showed around it (rules 1 and 2 of forward_backward.h).
    std::optional<bool> inductorCompileEnd;
    std::string openCompilerSpan;
    bool backward = false;  // the graph it goes to, once decided
};

// obj[key] when it is a string, else "".
std::string stringAt(const OJ& obj, const char* key);
// The JSON value of text; nullopt when it is not JSON or too deep to handle.
std::optional<OJ> parseJson(std::string_view text);
// "('Torch-Compiled Region: <compile id>', <backward>)"
std::string regionKey(const std::string& compileId, bool backward);

// Forward or backward (forward_backward.h) for every artifact with a compile id. Each decision of
// rules 2-4 becomes a note; noRule1(compile id) says why rule 1 did not decide.
void decideForwardBackward(std::vector<Artifact>& arts,
                           const std::map<std::string, CompileSeen>& compiles,
                           const std::string& source,
                           const std::function<std::string(const std::string&)>& noRule1,
                           std::vector<std::string>& notes);

// The registry of the artifacts, in the registry's shape, with notes on merged graphs and
// kernel-only artifacts after the given ones.
RebuiltKernelInfo assemble(std::vector<Artifact>& arts, const std::string& source,
                           std::vector<std::string> notes);

}  // namespace stackline::torch_trace
