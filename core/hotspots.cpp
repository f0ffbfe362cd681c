#include "hotspots.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "event_categories.h"
#include "source_frames.h"

namespace stackline {
namespace {

using LineKey = std::pair<std::string, int>;

struct StackLines {
    std::vector<LineKey> innermost;  // distinct
    std::vector<LineKey> all;        // distinct
};

}  // namespace

Hotspots computeHotspots(const Trace& trace, const Provenance& p) {
    const EventTable& t = trace.events;
    Hotspots h;
    std::map<LineKey, SourceLine> lines;
    std::unordered_map<uint32_t, StackLines> byStack;  // parsed once per distinct stack
    const EventCategories categories(t);
    for (uint32_t row = 0, n = t.size(); row < n; ++row) {
        if (!categories.isGpuKernel(row)) continue;  // of every spelling, as summary counts them
        double us = double(t.durNs[row]) / 1000.0;
        KernelStatus status = p.status(t, row);
        if (status == KernelStatus::Unresolved) h.unresolvedGpuUs += us;
        if (status != KernelStatus::Annotated) continue;
        uint32_t id = p.stack[row];
        auto it = byStack.find(id);
        if (it == byStack.end()) {
            StackLines s;
            std::set<LineKey> inner, all;
            for (const std::string& str : stackStrings(p.stacks.json(id))) {
                std::vector<SourceFrame> frames = parseStackString(str);
                if (frames.empty()) frames.push_back({str, 0, "", ""});
                for (const SourceFrame& f : frames) {
                    LineKey key{f.file, f.line};
                    SourceLine& l = lines[key];
                    if (l.file.empty()) {
                        l.file = f.file;
                        l.line = f.line;
                        l.function = f.function;
                    }
                    if (l.code.empty()) l.code = f.code;
                    if (all.insert(key).second) s.all.push_back(key);
                }
                LineKey innermost{frames.back().file, frames.back().line};
                if (inner.insert(innermost).second) s.innermost.push_back(innermost);
            }
            it = byStack.emplace(id, std::move(s)).first;
        }
        const StackLines& s = it->second;
        if (s.innermost.empty()) continue;  // an empty stack list: no line to charge
        h.annotatedGpuUs += us;
        for (const LineKey& k : s.innermost) lines[k].selfUs += us / double(s.innermost.size());
        std::string name(t.nameOf(row));
        const bool guessed = p.origins.of(row) == StackOrigin::SingleStack;
        for (const LineKey& k : s.all) {
            SourceLine& l = lines[k];
            l.totalUs += us;
            ++l.launches;
            l.guessedLaunches += guessed;
            l.rows.push_back(row);
            if (std::find(l.kernels.begin(), l.kernels.end(), name) == l.kernels.end())
                l.kernels.push_back(name);
        }
    }
    for (auto& [key, line] : lines)
        if (line.launches) h.lines.push_back(std::move(line));
    std::stable_sort(h.lines.begin(), h.lines.end(), [](const SourceLine& a, const SourceLine& b) {
        return a.selfUs != b.selfUs ? a.selfUs > b.selfUs : a.totalUs > b.totalUs;
    });
    return h;
}

OrderedJson hotspotsJson(const Hotspots& h, std::size_t top) {
    OrderedJson lines = OrderedJson::array();
    for (std::size_t i = 0; i < h.lines.size() && i < top; ++i) {
        const SourceLine& l = h.lines[i];
        lines.push_back({{"file", l.file},
                         {"line", l.line},
                         {"function", l.function},
                         {"code", l.code},
                         {"self_us", l.selfUs},
                         {"total_us", l.totalUs},
                         {"launches", l.launches},
                         {"kernels", l.kernels.size()}});
    }
    return {{"lines", std::move(lines)},
            {"annotated_gpu_us", h.annotatedGpuUs},
            {"unresolved_gpu_us", h.unresolvedGpuUs}};
}

}  // namespace stackline
