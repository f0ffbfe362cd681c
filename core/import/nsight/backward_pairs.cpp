#include "import/nsight/backward_pairs.h"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <tuple>

namespace stackline::nsight {

namespace {

constexpr std::string_view kEvaluateFunction = "autograd::engine::evaluate_function: ";

}  // namespace

std::vector<int64_t> pairForwardBackward(const std::vector<SequencedRange>& ranges,
                                         const StringPool& names, int64_t firstId) {
    std::vector<int64_t> out(ranges.size(), 0);
    // (pid, sequence, node name) of each evaluate_function range: its node is a backward end.
    std::set<std::tuple<int64_t, int64_t, std::string_view>> nodes;
    for (const SequencedRange& r : ranges) {
        const std::string_view name = names.at(r.name);
        if (r.sequence >= 0 && name.substr(0, kEvaluateFunction.size()) == kEvaluateFunction)
            nodes.insert({r.pid, r.sequence, name.substr(kEvaluateFunction.size())});
    }
    if (nodes.empty()) return out;
    std::vector<uint32_t> order;
    for (uint32_t i = 0; i < ranges.size(); ++i)
        if (ranges[i].sequence >= 0) order.push_back(i);
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return ranges[a].start < ranges[b].start; });
    // The unpaired forward ranges of each (pid, sequence), latest last.
    std::map<std::pair<int64_t, int64_t>, std::vector<uint32_t>> open;
    int64_t next = firstId;
    for (uint32_t i : order) {
        const SequencedRange& r = ranges[i];
        const std::string_view name = names.at(r.name);
        if (name.substr(0, kEvaluateFunction.size()) == kEvaluateFunction) continue;
        std::vector<uint32_t>& forwards = open[{r.pid, r.sequence}];
        if (!nodes.count({r.pid, r.sequence, name})) {
            forwards.push_back(i);
            continue;
        }
        if (forwards.empty()) continue;
        out[forwards.back()] = next;
        out[i] = -next;
        ++next;
        forwards.pop_back();
    }
    return out;
}

}  // namespace stackline::nsight
