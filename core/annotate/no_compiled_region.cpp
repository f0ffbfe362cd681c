#include "annotate/no_compiled_region.h"

#include <algorithm>
#include <map>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "import/trace_formats.h"
#include "model/event_args.h"
#include "model/event_categories.h"
#include "model/flow_index.h"
#include "model/kineto.h"

namespace stackline {

bool hasCompiledRegion(const EventTable& events) {
    for (uint32_t row = 0, n = events.size(); row < n; ++row)
        if (isCompiledRegion(events, row)) return true;
    return false;
}

std::vector<Diagnostic> noCompiledRegionWarnings(const Trace& trace, const KernelInfo& kernelInfo,
                                                 const Provenance& p, Diagnostics& diagnostics) {
    const EventTable& t = trace.events;
    if (kernelInfo.empty() || hasCompiledRegion(t)) return {};

    const EventCategories categories(t);
    std::unordered_map<int64_t, uint32_t> launchByCorrelation;
    std::vector<uint32_t> triton;  // without a stack
    bool anyTriton = false;
    for (uint32_t row = 0, n = t.size(); row < n; ++row) {
        if (categories.of(row) == kineto::Category::Runtime &&
            kineto::isGraphLaunch(t.nameOf(row))) {
            if (auto id = trace.args(row).integer(kineto::kCorrelationArg))
                launchByCorrelation.try_emplace(*id, row);
        } else if (categories.isGpuKernel(row) &&
                   t.nameOf(row).starts_with(reference::kTritonPrefix)) {
            anyTriton = true;
            if (p.stackOf(row) == StackPool::kNone) triton.push_back(row);
        }
    }

    using M = DiagnosticMessage;
    std::vector<Diagnostic> out;
    if (!anyTriton) {
        out.emplace_back(M::NoRegionNoTriton, kNoRow);
        return out;
    }
    std::map<uint32_t, std::size_t> replayed;  // graph launch row -> Triton kernels it replays
    std::vector<uint32_t> unlaunched, launched;
    // Kernels no op launched (no External id, as in an export without NVTX ranges) whose
    // correlation id may still name a runtime call: decided by one pass over those calls.
    std::vector<std::pair<uint32_t, int64_t>> byCorrelation;
    for (uint32_t row : triton) {
        const bool noOp = t.externalId[row] == kNoKey;
        const auto id = launchByCorrelation.empty() && !noOp
                            ? std::nullopt
                            : trace.args(row).integer(kineto::kCorrelationArg);
        const auto launch = id ? launchByCorrelation.find(*id) : launchByCorrelation.end();
        if (launch != launchByCorrelation.end())
            ++replayed[launch->second];
        else if (!noOp)
            launched.push_back(row);
        else if (id)
            byCorrelation.emplace_back(row, *id);
        else  // no op launched it: a graph replay left untraced
            unlaunched.push_back(row);
    }
    if (!byCorrelation.empty()) {
        std::unordered_set<int64_t> wanted, called;
        for (const auto& [row, id] : byCorrelation) wanted.insert(id);
        for (uint32_t row = 0, n = t.size(); row < n; ++row)
            if (categories.of(row) == kineto::Category::Runtime)
                if (auto id = trace.args(row).integer(kineto::kCorrelationArg);
                    id && wanted.contains(*id))
                    called.insert(*id);
        for (const auto& [row, id] : byCorrelation)
            (called.contains(id) ? launched : unlaunched).push_back(row);
    }
    for (auto [launch, count] : replayed)  // a graph launch's name is a string
        out.emplace_back(M::NoRegionGraphReplay, launch, t.name[launch], uint32_t(count));
    if (!unlaunched.empty())
        out.emplace_back(M::NoRegionUnlaunched,
                         *std::min_element(unlaunched.begin(), unlaunched.end()), 0,
                         uint32_t(unlaunched.size()));
    if (!launched.empty())
        out.emplace_back(M::NoRegionLaunched, *std::min_element(launched.begin(), launched.end()),
                         diagnostics.text(formatOf(trace).recordRegions),
                         uint32_t(launched.size()));
    return out;
}

}  // namespace stackline
