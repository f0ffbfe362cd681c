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
    const int64_t ts = ev.tsNs(row);
    // Kineto writes the flow right after its slice; the slice before is the usual case, the one
    // after covers writers that put the flow first.
    for (uint32_t n : {row - 1, row + 1}) {
        if (n < ev.size() && ev.phase[n] == 'X' && ev.tsNs(n) == ts && tracks.trackOf(n) == track)
            return n;
    }
    uint32_t slice = tracks.sliceAt(track, ts);
    if (slice == kNoRow && finish) slice = tracks.nextSliceFrom(track, ts);
    return slice;
}

}  // namespace

FlowIndex FlowIndex::build(const EventTable& ev, const TrackIndex& tracks) {
    FlowIndex ix;
    // One record per bound flow event, starts and finishes apart, each sorted so that a (cat, id)
    // is a run by ts: flat arrays of 24 bytes, reserved once, rather than a map of groups (a
    // million flows in 1 GB; the viewer builds this beside the processor, at its memory peak).
    struct End {
        int64_t id, ts;
        uint32_t cat;  // ids of different categories share one integer space
        uint32_t slice;
        auto group() const { return std::pair(cat, id); }
        auto key() const { return std::tie(cat, id, ts, slice); }
    };
    std::vector<End> starts, finishes;
    {
        size_t s = 0, f = 0;
        for (char ph : ev.phase) s += ph == 's', f += ph == 'f' || ph == 't';
        starts.reserve(s), finishes.reserve(f);
    }
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
        (finish ? finishes : starts)
            .push_back({ev.flowIds.at(row, 0, nextId), ev.tsNs(row), cat, slice});
    }
    auto byKey = [](const End& a, const End& b) { return a.key() < b.key(); };
    std::sort(starts.begin(), starts.end(), byKey);
    std::sort(finishes.begin(), finishes.end(), byKey);
    // The end of the (cat, id) run that starts at from.
    auto runEnd = [](const std::vector<End>& ends, size_t from) {
        size_t to = from;
        while (to < ends.size() && ends[to].group() == ends[from].group()) ++to;
        return to;
    };
    std::unordered_map<uint32_t, kineto::Category> categories;
    ix.links_.reserve(finishes.size());
    for (size_t s = 0, f = 0; s < starts.size() || f < finishes.size();) {
        // A (cat, id) on one side only is unbound.
        const bool startsOnly =
            f == finishes.size() || (s < starts.size() && starts[s].group() < finishes[f].group());
        const bool finishesOnly =
            !startsOnly && (s == starts.size() || finishes[f].group() < starts[s].group());
        if (startsOnly || finishesOnly) {
            size_t& at = startsOnly ? s : f;
            const size_t to = runEnd(startsOnly ? starts : finishes, at);
            ix.unbound_ += uint32_t(to - at);
            at = to;
            continue;
        }
        const std::span<const End> group(&starts[s], runEnd(starts, s) - s),
            ends(&finishes[f], runEnd(finishes, f) - f);
        s += group.size(), f += ends.size();
        const uint32_t cat = group.front().cat;
        auto known = categories.find(cat);
        if (known == categories.end())
            known = categories.emplace(cat, kineto::categoryOf(ev.strings.at(cat))).first;
        for (const End& e : ends) {
            // The latest start not after the finish (one launch, several graph kernels); else the
            // first start.
            auto it = std::upper_bound(group.begin(), group.end(), e.ts,
                                       [](int64_t t, const End& start) { return t < start.ts; });
            const End& start = it == group.begin() ? group.front() : *(it - 1);
            if (start.slice == e.slice) continue;
            ix.links_.push_back({start.slice, e.slice, known->second});
        }
    }
    std::vector<End>().swap(starts), std::vector<End>().swap(finishes);  // before byRow_ grows
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
