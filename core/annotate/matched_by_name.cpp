#include "annotate/matched_by_name.h"

#include <unordered_map>

#include "annotate/no_compiled_region.h"
#include "model/event_categories.h"
#include "model/kineto.h"

namespace stackline {

std::vector<Diagnostic> matchByName(const Trace& trace, const KernelInfo& kernelInfo,
                                    Provenance& p) {
    const EventTable& t = trace.events;
    if (kernelInfo.empty() || hasCompiledRegion(t)) return {};
    const EventCategories categories(t);
    // What a name gives, looked up once per distinct name: a pool id and a StackOrigins source,
    // or none (kAmbiguous when several graphs name it).
    constexpr uint32_t kNone = UINT32_MAX, kAmbiguous = UINT32_MAX - 1;
    struct ByName {
        uint32_t stack = kNone, source = 0;
    };
    std::unordered_map<uint32_t, ByName> byName;
    uint32_t matched = 0, ambiguous = 0, firstMatched = kNoRow, firstAmbiguous = kNoRow;
    for (uint32_t row = 0, n = t.size(); row < n; ++row) {
        if (p.stackOf(row) != StackPool::kNone || t.kinds[row].name != ValueKind::String ||
            !categories.isGpuKernel(row))
            continue;
        const std::string_view name = t.strings.at(t.name[row]);
        if (!name.starts_with(reference::kTritonPrefix)) continue;
        auto [it, inserted] = byName.try_emplace(t.name[row]);
        ByName& b = it->second;
        if (inserted) {
            const std::vector<const std::string*> graphs = kernelInfo.graphsNaming(name);
            if (graphs.size() > 1) {
                b.stack = kAmbiguous;
            } else if (graphs.size() == 1) {
                if (const OrderedJson* stack = kernelInfo.stackForKernel(*graphs[0], name)) {
                    b.stack = p.stacks.intern(stack->dump());
                    b.source = p.origins.addSource({*graphs[0], std::string(name)});
                }
            }
        }
        if (b.stack == kAmbiguous) {
            if (!ambiguous++) firstAmbiguous = row;
        } else if (b.stack != kNone) {
            p.stack.set(row, b.stack);
            p.origins.setMatchedByName(row, b.source);
            if (!matched++) firstMatched = row;
        }
    }
    p.stack.seal(t.size());
    std::vector<Diagnostic> out;
    if (matched) out.emplace_back(DiagnosticMessage::MatchedByName, firstMatched, 0, matched);
    if (ambiguous)
        out.emplace_back(DiagnosticMessage::NameInSeveralGraphs, firstAmbiguous, 0, ambiguous);
    return out;
}

}  // namespace stackline
