#include "import/perfetto/slice_pairing.h"

#include <algorithm>
#include <unordered_map>

#include "import/perfetto/proto_fields.h"

namespace stackline::pftrace {

namespace {

// Cuspy's layout: every run of begins is followed by a run of as many ends, the k-th end on the
// k-th begin's track and not before it.
bool hasGroupShape(const TrackEvents& ev, const std::vector<uint32_t>& rows) {
    size_t i = 0;
    while (i < rows.size()) {
        size_t j = i;
        while (j < rows.size() && ev.type[rows[j]] == track_event::kTypeSliceBegin) ++j;
        size_t k = j;
        while (k < rows.size() && ev.type[rows[k]] == track_event::kTypeSliceEnd) ++k;
        if (j - i != k - j) return false;
        for (size_t m = 0; m < j - i; ++m) {
            const uint32_t b = rows[i + m], e = rows[j + m];
            if (ev.track[b] != ev.track[e] || ev.ts[e] < ev.ts[b]) return false;
        }
        i = k;
    }
    return true;
}

// Whether some track's events go back in time in file order: writers that emit as they go never
// do, so that time order and file order agree on every track.
bool goesBackInTime(const TrackEvents& ev, const std::vector<uint32_t>& rows) {
    std::unordered_map<uint64_t, int64_t> last;
    for (const uint32_t r : rows) {
        auto [it, inserted] = last.emplace(ev.track[r], ev.ts[r]);
        if (!inserted) {
            if (ev.ts[r] < it->second) return true;
            it->second = ev.ts[r];
        }
    }
    return false;
}

}  // namespace

SlicePairs pairSlices(const TrackEvents& ev) {
    std::vector<uint32_t> rows;
    for (uint32_t r = 0; r < ev.size(); ++r)
        if (ev.type[r] == track_event::kTypeSliceBegin || ev.type[r] == track_event::kTypeSliceEnd)
            rows.push_back(r);
    SlicePairs out;
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    if (goesBackInTime(ev, rows) && hasGroupShape(ev, rows)) {
        size_t i = 0;
        while (i < rows.size()) {
            size_t j = i;
            while (j < rows.size() && ev.type[rows[j]] == track_event::kTypeSliceBegin) ++j;
            for (size_t m = 0; m < j - i; ++m) pairs.emplace_back(rows[i + m], rows[j + m]);
            i = j + (j - i);
        }
        out.groupedPairs = pairs.size();
    } else {
        std::stable_sort(rows.begin(), rows.end(),
                         [&](uint32_t a, uint32_t b) { return ev.ts[a] < ev.ts[b]; });
        std::unordered_map<uint64_t, std::vector<uint32_t>> open;
        for (const uint32_t r : rows) {
            std::vector<uint32_t>& stack = open[ev.track[r]];
            if (ev.type[r] == track_event::kTypeSliceBegin) {
                stack.push_back(r);
            } else if (stack.empty()) {
                out.unmatchedEnds.push_back(r);
            } else {
                pairs.emplace_back(stack.back(), r);
                stack.pop_back();
            }
        }
        for (auto& [track, stack] : open)
            out.unclosedBegins.insert(out.unclosedBegins.end(), stack.begin(), stack.end());
        std::sort(out.unclosedBegins.begin(), out.unclosedBegins.end());
        std::sort(out.unmatchedEnds.begin(), out.unmatchedEnds.end());
        out.timedPairs = pairs.size();
    }
    std::sort(pairs.begin(), pairs.end());
    out.begin.reserve(pairs.size());
    out.end.reserve(pairs.size());
    for (const auto& [b, e] : pairs) {
        out.begin.push_back(b);
        out.end.push_back(e);
    }
    return out;
}

}  // namespace stackline::pftrace
