#include "analysis/rank_hotspots.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace stackline {

RankedHotspots rankHotspots(const std::vector<const Hotspots*>& perTrace) {
    RankedHotspots out;
    const size_t n = perTrace.size();
    std::map<std::tuple<std::string, int, std::string>, size_t> index;
    for (size_t t = 0; t < n; ++t) {
        out.annotatedGpuUs += perTrace[t]->annotatedGpuUs;
        out.unresolvedGpuUs += perTrace[t]->unresolvedGpuUs;
        for (const SourceLine& l : perTrace[t]->lines) {
            auto [it, added] = index.try_emplace({l.file, l.line, l.function}, out.lines.size());
            if (added) {
                RankedLine& r = out.lines.emplace_back();
                r.sum.file = l.file;
                r.sum.line = l.line;
                r.sum.function = l.function;
                r.selfUs.assign(n, 0);
                r.rows.resize(n);
            }
            RankedLine& r = out.lines[it->second];
            if (r.sum.code.empty()) r.sum.code = l.code;
            r.sum.selfUs += l.selfUs;
            r.sum.totalUs += l.totalUs;
            r.sum.launches += l.launches;
            r.sum.guessedLaunches += l.guessedLaunches;
            r.sum.byNameLaunches += l.byNameLaunches;
            for (const std::string& k : l.kernels)
                if (std::find(r.sum.kernels.begin(), r.sum.kernels.end(), k) == r.sum.kernels.end())
                    r.sum.kernels.push_back(k);
            r.selfUs[t] += l.selfUs;
            r.rows[t].insert(r.rows[t].end(), l.rows.begin(), l.rows.end());
        }
    }
    std::stable_sort(out.lines.begin(), out.lines.end(),
                     [](const RankedLine& a, const RankedLine& b) {
                         return a.sum.selfUs != b.sum.selfUs ? a.sum.selfUs > b.sum.selfUs
                                                             : a.sum.totalUs > b.sum.totalUs;
                     });
    return out;
}

}  // namespace stackline
