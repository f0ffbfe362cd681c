#include "annotate/no_compiled_region.h"

#include <map>
#include <optional>
#include <string>
#include <unordered_map>

#include "model/event_args.h"
#include "model/event_categories.h"
#include "model/flow_index.h"
#include "model/kineto.h"

namespace stackline {

namespace {

std::string kernels(std::size_t n) {
    return std::to_string(n) + (n == 1 ? " Triton kernel" : " Triton kernels");
}

constexpr std::string_view kWithoutGraphs =
    "profile without CUDA graphs (torch.compile without mode=\"reduce-overhead\"; vLLM with "
    "enforce_eager=True) so that the kernels run inside compiled regions, or with_stack=True to "
    "see at least where the graph was replayed.";

}  // namespace

std::vector<Diagnostic> noCompiledRegionWarnings(const Trace& trace, const KernelInfo& kernelInfo) {
    const EventTable& t = trace.events;
    if (kernelInfo.empty()) return {};
    for (uint32_t row = 0, n = t.size(); row < n; ++row)
        if (isCompiledRegion(t, row)) return {};

    const EventCategories categories(t);
    std::unordered_map<int64_t, uint32_t> launchByCorrelation;
    std::vector<uint32_t> triton;
    for (uint32_t row = 0, n = t.size(); row < n; ++row) {
        if (categories.of(row) == kineto::Category::Runtime &&
            kineto::isGraphLaunch(t.nameOf(row))) {
            if (auto id = trace.args(row).integer(kineto::kCorrelationArg))
                launchByCorrelation.try_emplace(*id, row);
        } else if (categories.isGpuKernel(row) &&
                   t.nameOf(row).starts_with(reference::kTritonPrefix)) {
            triton.push_back(row);
        }
    }

    std::vector<Diagnostic> out;
    if (triton.empty()) {
        out.push_back({DiagnosticKind::NoCompiledRegion,
                       kNoRow,
                       {},
                       "The trace has neither a compiled region (no \"" +
                           std::string(kineto::kCompiledRegion) +
                           "\" event) nor a Triton kernel, so the kernel information cannot "
                           "apply: check that it is the profile of the compiled model."});
        return out;
    }
    const std::string noRegion = "the trace has no compiled region (no \"" +
                                 std::string(kineto::kCompiledRegion) +
                                 "\" event), so the kernel information cannot apply";
    std::map<uint32_t, std::size_t> replayed;  // graph launch row -> Triton kernels it replays
    std::vector<uint32_t> unlaunched, launched;
    for (uint32_t row : triton) {
        const auto id = launchByCorrelation.empty() ? std::nullopt
                                                    : trace.args(row).integer(kineto::kCorrelationArg);
        const auto launch = id ? launchByCorrelation.find(*id) : launchByCorrelation.end();
        if (launch != launchByCorrelation.end())
            ++replayed[launch->second];
        else if (t.externalId[row] == kNoKey)  // no op launched it: a graph replay left untraced
            unlaunched.push_back(row);
        else
            launched.push_back(row);
    }
    for (auto [launch, count] : replayed)
        out.push_back({DiagnosticKind::NoCompiledRegion, launch, std::string(t.nameOf(launch)),
                       std::string(t.nameOf(launch)) + " replays " + kernels(count) +
                           " captured in a CUDA/HIP graph, and " + noRegion +
                           " to them: " + std::string(kWithoutGraphs)});
    if (!unlaunched.empty())
        out.push_back({DiagnosticKind::NoCompiledRegion, unlaunched.front(),
                       std::string(t.nameOf(unlaunched.front())),
                       kernels(unlaunched.size()) + (unlaunched.size() == 1 ? " has" : " have") +
                           " no launch in the trace (as after an untraced CUDA/HIP graph "
                           "replay), and " +
                           noRegion + " to them: " + std::string(kWithoutGraphs)});
    if (!launched.empty())
        out.push_back(
            {DiagnosticKind::NoCompiledRegion, launched.front(),
             std::string(t.nameOf(launched.front())),
             kernels(launched.size()) + (launched.size() == 1 ? " is" : " are") +
                 " launched one by one, and " + noRegion +
                 " to them: profile the call of the torch.compile'd function itself (compiled "
                 "code called directly, as AOTInductor's, records no region)."});
    return out;
}

}  // namespace stackline
