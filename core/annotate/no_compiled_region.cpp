#include "annotate/no_compiled_region.h"

#include <map>
#include <optional>
#include <unordered_map>

#include "model/event_args.h"
#include "model/event_categories.h"
#include "model/flow_index.h"
#include "model/kineto.h"

namespace stackline {

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

    using M = DiagnosticMessage;
    std::vector<Diagnostic> out;
    if (triton.empty()) {
        out.emplace_back(M::NoRegionNoTriton, kNoRow);
        return out;
    }
    std::map<uint32_t, std::size_t> replayed;  // graph launch row -> Triton kernels it replays
    std::vector<uint32_t> unlaunched, launched;
    for (uint32_t row : triton) {
        const auto id = launchByCorrelation.empty()
                            ? std::nullopt
                            : trace.args(row).integer(kineto::kCorrelationArg);
        const auto launch = id ? launchByCorrelation.find(*id) : launchByCorrelation.end();
        if (launch != launchByCorrelation.end())
            ++replayed[launch->second];
        else if (t.externalId[row] == kNoKey)  // no op launched it: a graph replay left untraced
            unlaunched.push_back(row);
        else
            launched.push_back(row);
    }
    for (auto [launch, count] : replayed)  // a graph launch's name is a string
        out.emplace_back(M::NoRegionGraphReplay, launch, t.name[launch], uint32_t(count));
    if (!unlaunched.empty())
        out.emplace_back(M::NoRegionUnlaunched, unlaunched.front(), 0, uint32_t(unlaunched.size()));
    if (!launched.empty())
        out.emplace_back(M::NoRegionLaunched, launched.front(), 0, uint32_t(launched.size()));
    return out;
}

}  // namespace stackline
