// The timeline's tracks: one per (pid, tid), named and ordered by the trace's metadata,
// each holding its X slices on display levels (nesting depth, plus extra levels for slices that
// overlap without nesting, such as concurrent kernels on one stream) and its instant events.
// Every level is sorted by start and free of overlaps, so its ends are sorted too: "first slice
// ending after t" is one binary search, which is what level-of-detail painting and hit testing
// need.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/display_key.h"
#include "model/event_table.h"
#include "model/trace_metadata.h"

namespace stackline {

inline constexpr uint32_t kNoTrack = UINT32_MAX;
inline constexpr uint32_t kNoProcess = UINT32_MAX;

// The first index i >= from with sorted[i] >= t (sorted.size() if none), searching outward from
// `from` (galloping) because the answer is usually near it.
size_t gallopLowerBound(const std::vector<int64_t>& sorted, int64_t t, size_t from);

struct TrackLevel {
    static constexpr size_t kBlock = 64;
    std::vector<int64_t> start, end;  // ns; both sorted
    std::vector<uint32_t> row;        // event rows
    // The last end of each block of kBlock slices: a long jump searches this small array (which
    // stays in cache) and then one block, instead of touching cold memory all over the level.
    std::vector<int64_t> blockEnd;

    size_t size() const { return row.size(); }
    void finish();  // builds blockEnd
    // The first slice at or after index from whose end is >= t.
    size_t firstEndingAtOrAfter(int64_t t, size_t from = 0) const;
    // The first slice whose start is > t.
    size_t firstStartingAfter(int64_t t) const;
};

struct Track {
    uint32_t process = 0;  // index into TrackIndex::processes()
    DisplayKey tid;
    std::string name;  // from thread_name, else "thread N" / "stream N"
    int64_t sortIndex = 0;
    std::vector<TrackLevel> levels;
    std::vector<int64_t> instantTs;  // sorted
    std::vector<uint32_t> instantRow;
    uint32_t sliceCount = 0;
    bool gpu = false;  // holds GPU activity (kernels, memcpy, memset, GPU annotations)
};

// An instant event of global ("s": "g") or process ("s": "p") scope, drawn across every track or
// across its process's tracks; it stays on its own track too.
struct ScopedInstant {
    int64_t ts;  // ns
    uint32_t row;
    uint32_t process;  // kNoProcess for global scope
};

struct Process {
    DisplayKey pid;
    std::string name;    // process_name
    std::string labels;  // process_labels ("CPU", "GPU 0")
    int64_t sortIndex = 0;
    bool gpu = false;
    std::vector<uint32_t> tracks;  // in display order

    // "GPU 0", "python3.10 (pid 1670242)", or the pid itself for string pids.
    std::string label() const;
};

class TrackIndex {
public:
    // Builds the tracks of every X and i event, and a process for every pid with counter (C)
    // events, which hold no track; named, ordered and scoped by the trace's metadata.
    // threads = 0 uses every core.
    static TrackIndex build(const EventTable& events, const TraceMetadata& metadata,
                            unsigned threads = 0);

    // Processes and tracks in display order: processes by sort index, tracks by theirs.
    const std::vector<Process>& processes() const { return processes_; }
    const std::vector<Track>& tracks() const { return tracks_; }

    // The track holding an event (kNoTrack for M and flow events, or events without a valid ts).
    uint32_t trackOf(uint32_t row) const {
        return row < trackOf_.size() ? trackOf_[row] : kNoTrack;
    }
    uint16_t levelOf(uint32_t row) const { return levelOf_[row]; }
    bool isInstant(uint32_t row) const;
    // The track of events with these raw pid/tid keys (decimal string tids equal ints).
    uint32_t findTrack(KeyId pid, KeyId tid) const;

    // Slices on the same track whose span contains row's span, innermost first.
    std::vector<uint32_t> enclosing(uint32_t row) const;
    // The first row of enclosing(row) for which marked(that row) holds, else kNoRow. The search
    // stops there: it costs the levels passed, which it adds to `passed`.
    template <class Marked>
    uint32_t innermostEnclosing(uint32_t row, Marked marked, size_t& passed) const {
        uint32_t found = kNoRow;
        forEachEnclosing(row, [&](uint32_t r) {
            ++passed;
            if (!marked(r)) return true;
            found = r;
            return false;
        });
        return found;
    }
    // The same for every row, with marked one byte per row: one sweep over each track's slices,
    // O(n log n) whatever the depth, where asking row by row costs the levels between each row
    // and its answer (quadratic in a deep nest with the marked slices at its top).
    std::vector<uint32_t> innermostEnclosingAll(std::span<const uint8_t> marked) const;
    // The deepest slice on track whose span contains t, preferring one that starts exactly at t;
    // kNoRow when none does.
    uint32_t sliceAt(uint32_t track, int64_t t) const;
    // The earliest slice on track starting at or after t; kNoRow when none does.
    uint32_t nextSliceFrom(uint32_t track, int64_t t) const;

    // By time.
    const std::vector<ScopedInstant>& scopedInstants() const { return scopedInstants_; }

    // Extent of all slices, instants and counter points, ns.
    int64_t startNs() const { return start_; }
    int64_t endNs() const { return end_; }
    uint64_t sliceCount() const { return sliceCount_; }

private:
    // Calls f(slice row) for the slices around row, innermost first, while it returns true.
    template <class F>
    void forEachEnclosing(uint32_t row, F f) const {
        const uint32_t t = trackOf(row);
        if (t == kNoTrack) return;
        const Track& tr = tracks_[t];
        const int64_t s = events_->tsNs(row);
        const int64_t e = isInstant(row) ? s : s + std::max<int64_t>(0, events_->durNs(row));
        const size_t from = isInstant(row) ? tr.levels.size() : levelOf_[row];
        for (size_t l = from; l-- > 0;) {
            const TrackLevel& lv = tr.levels[l];
            size_t i = lv.firstStartingAfter(s);
            if (i == 0) continue;
            --i;
            if (lv.end[i] >= e && lv.row[i] != row && !f(lv.row[i])) return;
        }
    }
    uint32_t displayId(const DisplayKey& key) const;  // UINT32_MAX when unknown
    const EventTable* events_ = nullptr;
    std::vector<Process> processes_;
    std::vector<Track> tracks_;
    std::vector<uint32_t> trackOf_;
    std::vector<ScopedInstant> scopedInstants_;
    std::vector<uint16_t> levelOf_;
    std::map<DisplayKey, uint32_t> displayIds_;          // distinct normalised keys
    std::unordered_map<uint64_t, uint32_t> trackByKey_;  // (display pid, display tid) -> track
    int64_t start_ = 0, end_ = 0;
    uint64_t sliceCount_ = 0;
};

}  // namespace stackline
