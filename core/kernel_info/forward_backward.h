// Forward or backward: which graph of its compile a kernel stack-trace artifact belongs to, decided
// from what a TORCH_TRACE log or a tlparse folder showed around it (nothing is read here). For each
// stack-trace artifact of compile id C, the first rule that applies:
//   1. inductor_compile: the artifact is logged inside compile_fx_inner's "inductor_compile" span;
//      the end event of that span (chromium_event, ph "E", compile id C) carries "is_backward".
//      (tlparse folder: the k-th stack-trace artifact of C and the k-th such end event of C in
//      chromium_events.json, when their counts agree.)
//   2. compiler span (log only): the innermost open "compile_fx.<locals>.fw_compiler_base" /
//      "...bw_compiler" / "...inference_compiler" span of C at the artifact.
//   3. autotuning: the "CachingAutotuner.benchmark_all_configs" events of C name the artifact's
//      kernels with "is_backward" (used when they all agree).
//   4. order: if C has an AOT backward graph (aot_backward_graph or aot_joint_graph), its
//      stack-trace artifacts alternate forward, backward, forward, ... (AOTAutograd compiles the
//      forward graph first and the backward graph after it); otherwise (aot_inference_graph, or no
//      AOT graph logged) forward.
// Kernel names are never used: forward kernels are named after backward ops too
// ("triton_poi_fused_..._threshold_backward_0").
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace stackline {

// The AOT graphs a log or folder may show for a compile (rule 4).
inline constexpr const char* kAotGraphNames[] = {"aot_backward_graph", "aot_joint_graph",
                                                 "aot_inference_graph"};

// A compile_fx.<locals>.*_compiler* span (rule 2).
bool isCompilerSpan(std::string_view name);

// What a reader saw of one compile id.
struct CompileSeen {
    // Rule 1 (tlparse folder): is_backward of the compile's inductor_compile end events in
    // chromium_events.json, in order.
    std::vector<bool> inductorCompileEnds;
    // Rule 3: kernel name (without ":<handle>") -> the is_backward values its autotuning events
    // carry.
    std::map<std::string, std::set<bool>> autotuned;
    // Rule 4: "aot_backward_graph" or "aot_joint_graph" when logged (the first one seen).
    std::string backwardGraph;
    bool inferenceGraph = false;

    // Records an artifact or envelope named after an AOT graph; other names are ignored.
    void noteGraph(std::string_view name);
};

// What a reader saw around one stack-trace artifact of that compile id.
struct ArtifactSeen {
    // Rule 1 (log): is_backward of the end event closing the inductor_compile span it was logged
    // in.
    std::optional<bool> inductorCompileEnd;
    // Rule 2 (log): the innermost compiler span open at it; empty when none.
    std::string openCompilerSpan;
    // Rule 3: its kernel names ("<kernel>" or "<kernel>:<handle>").
    std::vector<std::string> kernels;
};

enum class DirectionRule : uint8_t { InductorCompile, CompilerSpan, Autotuning, Order };

struct Direction {
    bool backward = false;
    DirectionRule rule = DirectionRule::InductorCompile;
    // Why, in words, for rules 2-4 (the readers note those decisions); empty for rule 1.
    std::string reason;
};

// The direction of each stack-trace artifact of compile id compileId, given in the order they were
// logged.
std::vector<Direction> decideDirections(const std::string& compileId,
                                        const std::vector<ArtifactSeen>& artifacts,
                                        const CompileSeen& compile);

}  // namespace stackline
