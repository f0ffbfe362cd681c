#include "model/flow_index.h"

#include <algorithm>
#include <span>
#include <tuple>
#include <unordered_map>

#include "model/kineto.h"

namespace stackline {

namespace {

uint32_t bindFlow(const EventTable& ev, const TrackIndex& tracks, uint32_t track, uint32_t row,
                  bool finish) {
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
    // One record per bound flow event, sorted so that each (cat, id) is a run of its starts by ts
    // and then its finishes: flat arrays rather than a map of groups (a million flows in 1 GB).
    struct End {
        uint32_t cat;  // ids of different categories share one integer space
        bool finish;
        int64_t id, ts;
        uint32_t slice;
        auto key() const { return std::tie(cat, id, finish, ts, slice); }
    };
    std::vector<End> ends;
    uint64_t lastKey = UINT64_MAX;
    uint32_t track = kNoTrack;
    std::size_t nextId = 0;  // into ev.flowIds
    for (uint32_t row = 0; row < ev.size(); ++row) {
        const char ph = ev.phase[row];
        if (ph != 's' && ph != 'f' && ph != 't') continue;
        if (ev.kinds[row].flowId != FlowIdStatus::Ok) {
            ++ix.unbound_;
            continue;
        }
        // Flows come in runs of one thread: look the track up once per run.
        const uint64_t key = (uint64_t(ev.pid[row]) << 32) | ev.tid[row];
        if (key != lastKey) {
            track = tracks.findTrack(ev.pid[row], ev.tid[row]);
            lastKey = key;
        }
        const bool finish = ph != 's';
        const uint32_t slice = bindFlow(ev, tracks, track, row, finish);
        if (slice == kNoRow) {
            ++ix.unbound_;
            continue;
        }
        const uint32_t cat = ev.kinds[row].cat == ValueKind::String ? ev.cat[row] : 0;
        ends.push_back({cat, finish, ev.flowIds.at(row, 0, nextId), ev.tsNs[row], slice});
    }
    std::sort(ends.begin(), ends.end(),
              [](const End& a, const End& b) { return a.key() < b.key(); });
    std::unordered_map<uint32_t, kineto::Category> categories;
    for (size_t from = 0; from < ends.size();) {
        size_t mid = from, to = from;
        while (to < ends.size() && ends[to].cat == ends[from].cat && ends[to].id == ends[from].id)
            ++to;
        while (mid < to && !ends[mid].finish) ++mid;
        const std::span<const End> starts(&ends[from], mid - from), finishes(&ends[mid], to - mid);
        from = to;
        if (starts.empty() || finishes.empty()) {
            ix.unbound_ += uint32_t(starts.size() + finishes.size());
            continue;
        }
        const uint32_t cat = starts.front().cat;
        auto known = categories.find(cat);
        if (known == categories.end())
            known = categories.emplace(cat, kineto::categoryOf(ev.strings.at(cat))).first;
        for (const End& f : finishes) {
            // The latest start not after the finish (one launch, several graph kernels); else the
            // first start.
            auto it = std::upper_bound(starts.begin(), starts.end(), f.ts,
                                       [](int64_t t, const End& s) { return t < s.ts; });
            const End& s = it == starts.begin() ? starts.front() : *(it - 1);
            if (s.slice == f.slice) continue;
            ix.links_.push_back({s.slice, f.slice, known->second});
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
