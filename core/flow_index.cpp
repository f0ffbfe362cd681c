#include "flow_index.h"

#include <algorithm>
#include <unordered_map>

#include "kineto.h"

namespace stackline {

namespace {

uint32_t bindFlow(const EventTable& ev, const TrackIndex& tracks, uint32_t row, bool finish) {
    const uint32_t track = tracks.findTrack(ev.pid[row], ev.tid[row]);
    if (track == kNoTrack) return kNoRow;
    const int64_t ts = ev.tsNs[row];
    // Kineto writes the flow right after its slice; the slice before is the usual case, the one
    // after covers writers that put the flow first.
    for (uint32_t n : {row - 1, row + 1}) {
        if (n < ev.size() && ev.phase[n] == 'X' && ev.tsNs[n] == ts && tracks.trackOf(n) == track)
            return n;
    }
    uint32_t slice = tracks.sliceAt(track, ts);
    if (slice == kNoRow && finish) slice = tracks.nextSliceFrom(track, ts);
    return slice;
}

}  // namespace

FlowIndex FlowIndex::build(const EventTable& ev, const TrackIndex& tracks) {
    FlowIndex ix;
    struct End {
        int64_t ts;
        uint32_t slice;
    };
    struct Group {
        std::vector<End> starts, finishes;
    };
    // (cat, id): ids of different categories share one integer space.
    std::unordered_map<uint64_t, std::unordered_map<int64_t, Group>> groups;
    for (uint32_t row = 0; row < ev.size(); ++row) {
        const char ph = ev.phase[row];
        if (ph != 's' && ph != 'f' && ph != 't') continue;
        if (ev.kinds[row].flowId != FlowIdStatus::Ok) {
            ++ix.unbound_;
            continue;
        }
        const bool finish = ph != 's';
        const uint32_t slice = bindFlow(ev, tracks, row, finish);
        if (slice == kNoRow) {
            ++ix.unbound_;
            continue;
        }
        Group& g = groups[ev.kinds[row].cat == ValueKind::String ? ev.cat[row] : 0][ev.flowId[row]];
        (finish ? g.finishes : g.starts).push_back({ev.tsNs[row], slice});
    }
    for (auto& [cat, byId] : groups) {
        const kineto::Category category = kineto::categoryOf(ev.strings.at(uint32_t(cat)));
        for (auto& [id, g] : byId) {
            if (g.starts.empty() || g.finishes.empty()) {
                ix.unbound_ += uint32_t(g.starts.size() + g.finishes.size());
                continue;
            }
            std::sort(g.starts.begin(), g.starts.end(),
                      [](const End& a, const End& b) { return a.ts < b.ts; });
            for (const End& f : g.finishes) {
                // The latest start not after the finish (one launch, several graph kernels);
                // else the first start.
                auto it = std::upper_bound(g.starts.begin(), g.starts.end(), f.ts,
                                           [](int64_t t, const End& s) { return t < s.ts; });
                const End& s = it == g.starts.begin() ? g.starts.front() : *(it - 1);
                if (s.slice == f.slice) continue;
                ix.links_.push_back({s.slice, f.slice, category});
            }
        }
    }
    std::sort(ix.links_.begin(), ix.links_.end(), [](const FlowLink& a, const FlowLink& b) {
        return a.from != b.from ? a.from < b.from : a.to < b.to;
    });
    ix.byRow_.reserve(ix.links_.size() * 2);
    for (uint32_t i = 0; i < ix.links_.size(); ++i) {
        ix.byRow_.emplace_back(ix.links_[i].from, i);
        ix.byRow_.emplace_back(ix.links_[i].to, i);
    }
    std::sort(ix.byRow_.begin(), ix.byRow_.end());
    return ix;
}

std::vector<uint32_t> FlowIndex::linksOf(uint32_t row) const {
    std::vector<uint32_t> out;
    auto it = std::lower_bound(byRow_.begin(), byRow_.end(), std::make_pair(row, uint32_t(0)));
    for (; it != byRow_.end() && it->first == row; ++it) out.push_back(it->second);
    return out;
}

uint32_t FlowIndex::sourceOf(uint32_t row) const {
    for (uint32_t l : linksOf(row))
        if (links_[l].to == row) return links_[l].from;
    return kNoRow;
}

bool isCompiledRegion(const EventTable& ev, uint32_t row) {
    return ev.catOf(row) == reference::kRegionCategory &&
           reference::isCompiledRegionName(ev.nameOf(row));
}

uint32_t compiledRegionOf(const EventTable& ev, const TrackIndex& tracks, uint32_t row) {
    if (isCompiledRegion(ev, row)) return row;
    for (uint32_t r : tracks.enclosing(row))
        if (isCompiledRegion(ev, r)) return r;
    return kNoRow;
}

}  // namespace stackline
