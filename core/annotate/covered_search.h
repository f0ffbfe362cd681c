// The search of _find_events_covered_in: which region (compiled or extern) of an event's thread
// covers the event, and the groups of events each region covers. The reference takes, on the
// event's thread, the region before bisect_left(region starts, event start), i.e. the last one
// starting strictly before the event, and keeps it when it contains the event (start <= event
// start and event end <= end). An event starting exactly where a region starts is therefore not
// covered by that region. The processor checks the events and reports their faults; this holds
// the regions and answers the searches. It runs for every event of the covered categories, so:
//  - events come in time order: each thread's regions keep the previous search's result, and
//    that one or the next usually fits, saving the binary search (when no start is NaN);
//  - when every region start of a thread is a float other than NaN (Kineto's case), a float event
//    is compared as doubles, as Python compares floats;
//  - consecutive events mostly share their thread: the last thread's regions are kept at hand;
//  - each region remembers its group once it has one.
// A search shares nothing with another, so the processor runs its two (compiled regions, extern
// regions) on two cores.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "python/cpython_sort.h"
#include "python/python_values.h"

namespace stackline {

// An _EventItem: start = ts, end = ts + dur (dur defaulting to 0), in Python arithmetic.
struct Interval {
    PyNum start, end;
    uint32_t row;
};

// sorted(items, key=lambda x: x.start)
inline void sortByStart(std::vector<Interval>& items) {
    cpythonSort(items, [](const Interval& i) -> const PyNum& { return i.start; });
}

// The compiled regions sorted by start, for _related_compile_region: the last one before an index
// whose end is after a time. A max tree of the ends answers in O(log n), where the reference's
// backward scan costs every region it passes (quadratic over many backward regions whose forward
// source no region encloses). It is exact when no bound is NaN, pyLess then being a total order;
// otherwise exact() is false and the caller scans.
class RegionEnds {
public:
    explicit RegionEnds(const std::vector<Interval>& sorted);
    bool exact() const { return exact_; }
    // The largest i < before with pyLess(x, sorted[i].end), else -1.
    long lastEndingAfter(std::size_t before, const PyNum& x) const {
        return width_ ? search(1, 0, width_, before, x) : -1;
    }

private:
    long search(std::size_t node, std::size_t lo, std::size_t hi, std::size_t before,
                const PyNum& x) const;
    bool exact_ = true;
    std::size_t width_ = 0;   // leaves, a power of two
    std::vector<PyNum> max_;  // max_[1] the root; leaves past the regions repeat the first end
};

// One entry of _find_events_covered_in's result: a region and the events it covers.
struct CoveredGroup {
    uint32_t regionKey;
    std::vector<uint32_t> ops;  // uid keys, insertion order (an OrderedSet)
};

// The regions of one thread.
class ThreadRegions {
public:
    static constexpr std::ptrdiff_t kNotCovered = -1;

    void add(const Interval& region) { items_.push_back(region); }
    // Sorts the regions by start as the reference does; after the last add().
    void sort();

    const Interval& region(std::size_t i) const { return items_[i]; }

    // The index of the region covering item, or kNotCovered.
    std::ptrdiff_t covering(const Interval& item) {
        auto idx = std::ptrdiff_t(firstNotBefore(item.start)) - 1;
        bool covers = idx >= 0 && pyLessEqual(items_[std::size_t(idx)].start, item.start) &&
                      pyLessEqual(item.end, items_[std::size_t(idx)].end);
        return covers ? idx : kNotCovered;
    }

    // Whether coveringFloat() may be used: every region start is a float other than NaN (every
    // end is then a float too).
    bool floatsOnly() const { return !floatStarts_.empty(); }
    // covering() for an event whose start is a float other than NaN and whose end is a float.
    std::ptrdiff_t coveringFloat(double start, double end) {
        const std::vector<double>& starts = floatStarts_;
        auto fits = [&](std::size_t pos) {
            return (pos == 0 || starts[pos - 1] < start) &&
                   (pos == starts.size() || !(starts[pos] < start));
        };
        if (!fits(last_)) {
            if (last_ < starts.size() && fits(last_ + 1))
                ++last_;
            else
                last_ = std::size_t(std::lower_bound(starts.begin(), starts.end(), start) -
                                    starts.begin());
        }
        if (last_ == 0) return kNotCovered;
        std::size_t idx = last_ - 1;
        if (!(starts[idx] <= start && end <= floatEnds_[idx])) return kNotCovered;
        return std::ptrdiff_t(idx);
    }

private:
    friend class CoveredSearch;
    static constexpr uint32_t kNoGroup = UINT32_MAX;

    // bisect_left(starts, x), trying the previous result and the one after it first.
    std::size_t firstNotBefore(const PyNum& x) {
        auto fits = [&](std::size_t pos) {
            return (pos == 0 || pyLess(starts_[pos - 1], x)) &&
                   (pos == starts_.size() || !pyLess(starts_[pos], x));
        };
        if (ordered_ && !pyIsNan(x)) {
            if (fits(last_)) return last_;
            if (last_ < starts_.size() && fits(last_ + 1)) return ++last_;
        }
        last_ = std::size_t(std::lower_bound(starts_.begin(), starts_.end(), x, pyLess) -
                            starts_.begin());
        return last_;
    }

    std::vector<Interval> items_;  // sorted by start once sort() ran
    std::vector<PyNum> starts_;
    bool ordered_ = true;   // no NaN start: pyLess is a total order on them
    std::size_t last_ = 0;  // the previous search's result, a good guess for the next
    // The starts and ends as doubles when floatsOnly(), else empty.
    std::vector<double> floatStarts_, floatEnds_;
    std::vector<uint32_t> groupOf_;  // each region's group once it has one
};

// One _find_events_covered_in: the regions by thread and the groups found so far.
class CoveredSearch {
public:
    // keyOfRow: each row's uid key when the trace has uid_assigned, where events sharing a uid
    // are one event to the reference (regions sharing one share a group, and an event joins a
    // group once); empty when each row is its own key.
    explicit CoveredSearch(std::span<const uint32_t> keyOfRow) : keyOfRow_(keyOfRow) {}

    // The regions of thread tid, created if need be (as the reference's defaultdict does, even
    // when the region then turns out to have no interval).
    ThreadRegions& threadRegions(KeyId tid) { return byTid_[tid]; }
    // Sorts every thread's regions; after the last region is added.
    void sortRegions();

    // The regions of thread tid; nullptr when it has none.
    ThreadRegions* find(KeyId tid) {
        if (tid != lastTid_) {  // consecutive events mostly share their thread
            lastTid_ = tid;
            auto it = byTid_.find(tid);
            lastRegions_ = it == byTid_.end() ? nullptr : &it->second;
        }
        return lastRegions_;
    }

    // Adds the event of opRow to the group of regions.region(i). Met for every covered event, so
    // kept inline in the caller's loop (GCC would call it otherwise).
    [[gnu::always_inline]] void cover(ThreadRegions& regions, std::size_t i, uint32_t opRow) {
        uint32_t& group = regions.groupOf_[i];
        bool sharedUids = !keyOfRow_.empty();
        if (group == ThreadRegions::kNoGroup) {
            uint32_t regionKey = key(regions.items_[i].row);
            auto next = uint32_t(groups_.size());
            group = sharedUids ? groupOfUid_.try_emplace(regionKey, next).first->second : next;
            if (group == next) groups_.push_back({regionKey, {}});
        }
        // Only shared uids can repeat an event within a group.
        if (sharedUids && !seen_.insert((uint64_t(group) << 32) | key(opRow)).second) return;
        groups_[group].ops.push_back(key(opRow));
    }

    // The groups in the order their regions were first found covering an event.
    std::vector<CoveredGroup> takeGroups() { return std::move(groups_); }

private:
    uint32_t key(uint32_t row) const { return keyOfRow_.empty() ? row : keyOfRow_[row]; }

    std::span<const uint32_t> keyOfRow_;
    std::unordered_map<KeyId, ThreadRegions> byTid_;
    KeyId lastTid_ = kNoKey;  // never a region's thread (a region without "tid" is refused)
    ThreadRegions* lastRegions_ = nullptr;
    std::vector<CoveredGroup> groups_;
    std::unordered_map<uint32_t, uint32_t> groupOfUid_;
    std::unordered_set<uint64_t> seen_;  // (group, op) pairs
};

}  // namespace stackline
