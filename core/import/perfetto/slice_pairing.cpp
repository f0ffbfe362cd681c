#include "import/perfetto/slice_pairing.h"

#include <algorithm>
#include <unordered_map>

#include "import/perfetto/proto_fields.h"
#include "io/memory_budget.h"

namespace stackline::pftrace {

namespace {

// The begins and ends of the TrackEvents in stream order, as codes (rows, and bare ends after
// them: SlicePairs::end), with their type, track and time.
class Sequence {
public:
    explicit Sequence(const TrackEvents& ev) : ev_(ev), rows_(ev.size()) {
        const SliceEnds& ends = ev.ends;
        codes.reserve(size_t(rows_) + ends.size());
        uint32_t e = 0;
        for (uint32_t r = 0; r <= rows_; ++r) {
            for (; e < ends.size() && ends.after[e] == r; ++e) codes.push_back(rows_ + e);
            if (r < rows_ && (ev.type[r] == track_event::kTypeSliceBegin ||
                              ev.type[r] == track_event::kTypeSliceEnd))
                codes.push_back(r);
        }
    }
    uint8_t type(uint32_t c) const {
        return c < rows_ ? ev_.type[c] : uint8_t(track_event::kTypeSliceEnd);
    }
    uint64_t track(uint32_t c) const {
        return c < rows_ ? ev_.track[c] : ev_.ends.track[c - rows_];
    }
    int64_t ts(uint32_t c) const { return endTs(ev_, c); }
    std::vector<uint32_t> codes;

private:
    const TrackEvents& ev_;
    uint32_t rows_;
};

// Cuspy's layout: every run of begins is followed by a run of as many ends, the k-th end on the
// k-th begin's track and not before it.
bool hasGroupShape(const Sequence& seq) {
    const std::vector<uint32_t>& rows = seq.codes;
    size_t i = 0;
    while (i < rows.size()) {
        size_t j = i;
        while (j < rows.size() && seq.type(rows[j]) == track_event::kTypeSliceBegin) ++j;
        size_t k = j;
        while (k < rows.size() && seq.type(rows[k]) == track_event::kTypeSliceEnd) ++k;
        if (j - i != k - j) return false;
        for (size_t m = 0; m < j - i; ++m) {
            const uint32_t b = rows[i + m], e = rows[j + m];
            if (seq.track(b) != seq.track(e) || seq.ts(e) < seq.ts(b)) return false;
        }
        i = k;
    }
    return true;
}

// Whether some track's events go back in time in stream order: writers that emit as they go
// never do, so that time order and stream order agree on every track.
bool goesBackInTime(const Sequence& seq) {
    std::unordered_map<uint64_t, int64_t> last;
    for (const uint32_t r : seq.codes) {
        auto [it, inserted] = last.emplace(seq.track(r), seq.ts(r));
        if (!inserted) {
            if (seq.ts(r) < it->second) return true;
            it->second = seq.ts(r);
        }
    }
    return false;
}

}  // namespace

SlicePairs pairSlices(const TrackEvents& ev) {
    Sequence seq(ev);
    std::vector<uint32_t>& rows = seq.codes;
    SlicePairs out;
    if (goesBackInTime(seq) && hasGroupShape(seq)) {
        // Half the codes are begins, and they come in stream order: the pairs are written in
        // begin order as they are found, with no list of pairs to grow and sort. The codes are
        // read once, in order, and their pages are given back behind the reading as the pairs
        // grow (one run may hold nearly all of them).
        out.begin.reserve(rows.size() / 2);
        out.end.reserve(rows.size() / 2);
        auto move = [&](size_t from, size_t to, std::vector<uint32_t>& into) {
            constexpr size_t kStep = size_t(1) << 18;
            for (size_t at = from; at < to; at += kStep) {
                const size_t n = std::min(kStep, to - at);
                into.insert(into.end(), rows.begin() + at, rows.begin() + at + n);
                releasePagesOf(rows.data() + at, n * sizeof(uint32_t));
            }
        };
        size_t i = 0;
        while (i < rows.size()) {
            size_t j = i;
            while (j < rows.size() && seq.type(rows[j]) == track_event::kTypeSliceBegin) ++j;
            move(i, j, out.begin);
            move(j, j + (j - i), out.end);
            i = j + (j - i);
        }
        out.groupedPairs = out.begin.size();
        return out;
    }
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    std::stable_sort(rows.begin(), rows.end(),
                     [&](uint32_t a, uint32_t b) { return seq.ts(a) < seq.ts(b); });
    std::unordered_map<uint64_t, std::vector<uint32_t>> open;
    for (const uint32_t r : rows) {
        std::vector<uint32_t>& stack = open[seq.track(r)];
        if (seq.type(r) == track_event::kTypeSliceBegin) {
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
    std::vector<uint32_t>().swap(rows);  // freed before the pairs are copied out
    std::sort(pairs.begin(), pairs.end());
    out.begin.reserve(pairs.size());
    out.end.reserve(pairs.size());
    for (const auto& [b, e] : pairs) {
        out.begin.push_back(b);
        out.end.push_back(e);
    }
    return out;
}

void flowsToBegins(TrackEvents& te, const SlicePairs& pairs) {
    if (te.flows.empty() && te.terminatingFlows.empty()) return;
    std::unordered_map<uint32_t, uint32_t> beginOf;
    for (auto* flows : {&te.flows, &te.terminatingFlows})
        for (const auto& [row, id] : *flows)
            if (te.type[row] == track_event::kTypeSliceEnd) beginOf.emplace(row, UINT32_MAX);
    for (size_t i = 0; i < pairs.end.size() && !beginOf.empty(); ++i)
        if (auto it = beginOf.find(pairs.end[i]); it != beginOf.end()) it->second = pairs.begin[i];
    for (auto* flows : {&te.flows, &te.terminatingFlows}) {
        for (auto& [row, id] : *flows)
            if (te.type[row] == track_event::kTypeSliceEnd) row = beginOf[row];
        std::erase_if(*flows, [](const auto& f) { return f.first == UINT32_MAX; });
        std::stable_sort(flows->begin(), flows->end(),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
    }
}

}  // namespace stackline::pftrace
