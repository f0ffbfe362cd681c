#include "kernel_info/forward_backward.h"

#include <algorithm>

namespace stackline {

namespace {

bool contains(std::string_view s, std::string_view p) {
    return s.find(p) != std::string_view::npos;
}

// "triton_poi_fused_0:12" -> "triton_poi_fused_0": autotuning events name kernels without the
// debug handle the stack-trace artifacts add.
std::string withoutHandle(const std::string& kernel) {
    std::size_t colon = kernel.rfind(':');
    if (colon == std::string::npos) return kernel;
    std::string_view handle = std::string_view(kernel).substr(colon + 1);
    bool digits = !handle.empty() && std::all_of(handle.begin(), handle.end(),
                                                 [](char c) { return c >= '0' && c <= '9'; });
    return digits ? kernel.substr(0, colon) : kernel;
}

std::string ordinal(std::size_t n) {
    std::string s = std::to_string(n);
    if (n % 100 >= 11 && n % 100 <= 13) return s + "th";
    switch (n % 10) {
        case 1:
            return s + "st";
        case 2:
            return s + "nd";
        case 3:
            return s + "rd";
        default:
            return s + "th";
    }
}

// Rule 3: the is_backward value the autotuning events of the artifact's kernels agree on.
std::optional<Direction> byAutotuning(const ArtifactSeen& a, const CompileSeen& compile) {
    std::set<bool> says;
    std::string names;
    for (const std::string& kernel : a.kernels) {
        auto found = compile.autotuned.find(withoutHandle(kernel));
        if (found == compile.autotuned.end()) continue;
        says.insert(found->second.begin(), found->second.end());
        if (names.size() < 200) names += (names.empty() ? "" : ", ") + found->first;
    }
    if (says.size() != 1) return std::nullopt;
    bool backward = *says.begin();
    return Direction{backward, DirectionRule::Autotuning,
                     "the autotuning events of its kernels (" + names +
                         ") say is_backward=" + (backward ? "true" : "false")};
}

// Rule 4 for the k-th (from 0) stack-trace artifact of the compile.
Direction byOrder(const std::string& compileId, std::size_t k, const CompileSeen& compile) {
    if (!compile.backwardGraph.empty())
        return {k % 2 == 1, DirectionRule::Order,
                "compile " + compileId + " has a backward graph (" + compile.backwardGraph +
                    ") and this is its " + ordinal(k + 1) +
                    " kernel stack-trace artifact; the 1st, 3rd, ... are taken as forward and "
                    "the 2nd, 4th, ... as backward, the order in which AOTAutograd compiles them"};
    return {false, DirectionRule::Order,
            compile.inferenceGraph
                ? "compile " + compileId + " has an inference graph only (aot_inference_graph)"
                : "no AOT graph of compile " + compileId + " is logged, so it is taken as forward"};
}

}  // namespace

bool isCompilerSpan(std::string_view name) {
    return contains(name, "fw_compiler") || contains(name, "bw_compiler") ||
           contains(name, "inference_compiler");
}

void CompileSeen::noteGraph(std::string_view name) {
    if (name == "aot_backward_graph" || name == "aot_joint_graph") {
        if (backwardGraph.empty()) backwardGraph = name;
    } else if (name == "aot_inference_graph") {
        inferenceGraph = true;
    }
}

std::vector<Direction> decideDirections(const std::string& compileId,
                                        const std::vector<ArtifactSeen>& artifacts,
                                        const CompileSeen& compile) {
    std::vector<Direction> out;
    const bool endsPerArtifact = compile.inductorCompileEnds.size() == artifacts.size();
    for (std::size_t k = 0; k < artifacts.size(); ++k) {
        const ArtifactSeen& a = artifacts[k];
        if (a.inductorCompileEnd) {
            out.push_back({*a.inductorCompileEnd, DirectionRule::InductorCompile, {}});
        } else if (endsPerArtifact) {
            out.push_back({compile.inductorCompileEnds[k], DirectionRule::InductorCompile, {}});
        } else if (!a.openCompilerSpan.empty()) {
            out.push_back({contains(a.openCompilerSpan, "bw_compiler"), DirectionRule::CompilerSpan,
                           "it was logged inside the " + a.openCompilerSpan + " span"});
        } else if (std::optional<Direction> d = byAutotuning(a, compile)) {
            out.push_back(std::move(*d));
        } else {
            out.push_back(byOrder(compileId, k, compile));
        }
    }
    return out;
}

}  // namespace stackline
