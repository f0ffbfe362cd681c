#include "analysis/hotspots.h"

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
        if (k.status == KernelStatus::Unresolved) h.unresolvedGpuNs += k.ns;
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
        h.annotatedGpuNs += k.ns;
        if (k.byName) h.byNameGpuNs += k.ns;
        const int64_t n = int64_t(s.innermost.size());
        for (int64_t i = 0; i < n; ++i)
            lines[s.innermost[size_t(i)]].selfNs += selfShareNs(k.ns, n, i);
        std::string name(t.nameOf(k.row));
        for (const LineKey& key : s.all) {
            SourceLine& l = lines[key];
            l.totalNs += k.ns;
            ++l.launches;
            l.guessedLaunches += k.guessed;
            l.byNameLaunches += k.byName;
            l.rows.push_back(k.row);
            if (std::find(l.kernels.begin(), l.kernels.end(), name) == l.kernels.end())
                l.kernels.push_back(name);
        }
    });
    for (auto& [key, line] : lines) {
        if (!line.launches) continue;
        line.selfUs = double(line.selfNs) / 1000.0;
        line.totalUs = double(line.totalNs) / 1000.0;
        h.lines.push_back(std::move(line));
    }
    h.annotatedGpuUs = double(h.annotatedGpuNs) / 1000.0;
    h.unresolvedGpuUs = double(h.unresolvedGpuNs) / 1000.0;
    // Ties keep the order of (file, line), so that equal inputs list their lines alike.
    std::stable_sort(h.lines.begin(), h.lines.end(), [](const SourceLine& a, const SourceLine& b) {
        return a.selfNs != b.selfNs ? a.selfNs > b.selfNs : a.totalNs > b.totalNs;
    });
    return h;
}

}  // namespace stackline
