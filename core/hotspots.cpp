#include "hotspots.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace stackline {
namespace {

using LineKey = std::pair<std::string, int>;

struct StackLines {
    std::vector<LineKey> innermost;  // distinct
    std::vector<LineKey> all;        // distinct
};

}  // namespace

Hotspots computeHotspots(const Trace& trace, const Provenance& p,
                         const KernelStacksOptions& options) {
    const EventTable& t = trace.events;
    Hotspots h;
    std::map<LineKey, SourceLine> lines;
    std::unordered_map<uint64_t, StackLines> byStack;  // derived once per distinct stack
    forEachKernelSample(trace, p, options, [&](const KernelSample& k) {
        const double us = double(k.ns) / 1000.0;
        if (k.status == KernelStatus::Unresolved) h.unresolvedGpuUs += us;
        if (k.stacks->empty()) return;  // no stack, or an empty stack list: no line to charge
        auto it = byStack.find(k.stackKey);
        if (it == byStack.end()) {
            StackLines s;
            std::set<LineKey> inner, all;
            for (const FrameStack& frames : *k.stacks) {
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
                const SourceFrame& at = chargedFrame(frames);
                LineKey innermost{at.file, at.line};
                if (inner.insert(innermost).second) s.innermost.push_back(innermost);
            }
            it = byStack.emplace(k.stackKey, std::move(s)).first;
        }
        const StackLines& s = it->second;
        h.annotatedGpuUs += us;
        for (const LineKey& key : s.innermost) lines[key].selfUs += us / double(s.innermost.size());
        std::string name(t.nameOf(k.row));
        for (const LineKey& key : s.all) {
            SourceLine& l = lines[key];
            l.totalUs += us;
            ++l.launches;
            l.guessedLaunches += k.guessed;
            l.rows.push_back(k.row);
            if (std::find(l.kernels.begin(), l.kernels.end(), name) == l.kernels.end())
                l.kernels.push_back(name);
        }
    });
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
