#include "annotate/summary_report.h"

#include <algorithm>
#include <unordered_set>

#include "annotate/diagnostic_groups.h"
#include "model/event_categories.h"
#include "model/kineto.h"

namespace stackline {

std::string formatMicros(int64_t ns) {
    bool neg = ns < 0;
    uint64_t u = neg ? uint64_t(-(ns + 1)) + 1 : uint64_t(ns);
    // Built by appending (GCC 12's -Wrestrict false positive on "-" + string).
    std::string out = neg ? "-" : "", frac = std::to_string(u % 1000);
    out += std::to_string(u / 1000);
    out += '.';
    out.append(3 - frac.size(), '0');
    return out += frac;
}

namespace {

OrderedJson timestamp(const EventTable& t, uint32_t row) {
    PyNum ts = t.ts(row);
    if (ts.kind == PyNum::Kind::Int) return int64_t(ts.i);
    if (ts.kind == PyNum::Kind::Float) return ts.f;
    return nullptr;
}

}  // namespace

OrderedJson reportJson(const Trace& trace, const Provenance& p) {
    const EventTable& t = trace.events;
    OrderedJson unresolved = OrderedJson::array(), warnings = OrderedJson::array(),
                errors = OrderedJson::array();
    for (uint32_t row = 0, n = t.size(); row < n; ++row)
        if (p.status(t, row) == KernelStatus::Unresolved)
            unresolved.push_back(
                {{"uid", row}, {"name", t.nameOf(row)}, {"ts", timestamp(t, row)}});
    // One entry per distinct message, in first-report order, with the uid of each occurrence.
    const std::span<const Diagnostic> diags = p.diagnostics.records();
    const MessageNumbers numbers = numberMessages(diags);
    std::vector<std::vector<uint32_t>> rowsOf(numbers.first.size());
    for (std::size_t i = 0; i < diags.size(); ++i) rowsOf[numbers.of[i]].push_back(diags[i].row);
    for (std::size_t m = 0; m < numbers.first.size(); ++m) {
        const Diagnostic& d = diags[numbers.first[m]];
        OrderedJson uids = OrderedJson::array();
        for (uint32_t row : rowsOf[m])
            uids.push_back(row == kNoRow ? OrderedJson(nullptr) : OrderedJson(row));
        std::vector<uint32_t>().swap(rowsOf[m]);
        (d.severity() == Severity::Warning ? warnings : errors)
            .push_back({{"kind", d.kindName()},
                        {"message", p.diagnostics.message(d, t)},
                        {"count", uids.size()},
                        {"uids", std::move(uids)}});
    }
    return {{"annotated_kernels", p.annotatedCount},
            {"unresolved_kernels", std::move(unresolved)},
            {"warnings", std::move(warnings)},
            {"errors", std::move(errors)}};
}

Summary summarize(const Trace& trace, const Provenance& p) {
    const EventTable& t = trace.events;
    Summary s;
    s.events = t.size();
    const EventCategories categories(t);
    // Compiled regions as the processor finds them (the reference's rule), tested once per
    // distinct string rather than once per event.
    enum : uint8_t { kRegionCat = 1, kRegionName = 2 };
    std::vector<uint8_t> flags(t.strings.size());
    for (uint32_t id = 0; id < flags.size(); ++id) {
        std::string_view str = t.strings.at(id);
        flags[id] = uint8_t((str == reference::kRegionCategory ? kRegionCat : 0) |
                            (reference::isCompiledRegionName(str) ? kRegionName : 0));
    }
    auto flagsOf = [&](ValueKind kind, uint32_t id) -> uint8_t {
        return kind == ValueKind::String ? flags[id] : 0;
    };
    std::unordered_set<uint64_t> tracks;
    uint64_t lastTrack = UINT64_MAX;  // consecutive events mostly share their track
    for (uint32_t row = 0, n = t.size(); row < n; ++row) {
        char ph = t.phase[row];
        uint64_t track = (uint64_t(t.pid[row]) << 32) | t.tid[row];
        if ((ph == 'X' || ph == 'B' || ph == 'E' || ph == 'i' || ph == 'I') && track != lastTrack)
            tracks.insert(lastTrack = track);
        if ((flagsOf(t.kinds[row].cat, t.cat[row]) & kRegionCat) &&
            (flagsOf(t.kinds[row].name, t.name[row]) & kRegionName))
            ++s.compiledRegions;
        if (!categories.isGpuKernel(row)) continue;
        ++s.kernels;
        KernelStatus st = p.status(t, row);
        if (st == KernelStatus::Annotated) ++s.annotatedKernels;
        if (p.origins.of(row) == StackOrigin::MatchedByName) ++s.matchedByName;
        if (st == KernelStatus::Unresolved) ++s.unresolvedKernels;
    }
    s.tracks = tracks.size();
    std::vector<uint64_t> byKind(std::size(kDiagnosticKinds));
    std::vector<Diagnostic> notes;
    for (const Diagnostic& d : p.diagnostics) {
        ++byKind[std::size_t(d.kind)];
        const bool note = d.kind == DiagnosticKind::KernelInfoSource ||
                          d.kind == DiagnosticKind::NoCompiledRegion ||
                          d.kind == DiagnosticKind::MatchedByName;
        // Each graph replay of a decode loop says the same: once is enough here.
        if (note && std::none_of(notes.begin(), notes.end(),
                                 [&](const Diagnostic& n) { return n.sameText(d); })) {
            notes.push_back(d);
            s.kernelInfoNotes.push_back(p.diagnostics.message(d, t));
        }
    }
    for (std::size_t k = 0; k < byKind.size(); ++k)
        if (byKind[k]) s.diagnostics[std::string(kDiagnosticKinds[k].name)] = byKind[k];
    return s;
}

OrderedJson summaryJson(const Summary& s) {
    OrderedJson diag = OrderedJson::object();
    for (auto& [kind, count] : s.diagnostics) diag[kind] = count;
    OrderedJson out = {{"events", s.events},
                       {"tracks", s.tracks},
                       {"kernels", s.kernels},
                       {"compiled_regions", s.compiledRegions},
                       {"annotated_kernels", s.annotatedKernels},
                       {"unresolved_kernels", s.unresolvedKernels},
                       {"diagnostics", std::move(diag)}};
    if (s.matchedByName) out["matched_by_name_kernels"] = s.matchedByName;
    if (s.eagerStacks) out["eager_stacks"] = *s.eagerStacks;
    if (!s.kernelInfoNotes.empty()) out["kernel_info_notes"] = s.kernelInfoNotes;
    return out;
}

}  // namespace stackline
