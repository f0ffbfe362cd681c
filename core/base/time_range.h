// A closed-open span of trace time in nanoseconds (the timeline's, EventTable::tsNs's clock) that
// summaries, hotspots and flame graphs can be restricted to. The default is all of time.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>

namespace stackline {

struct TimeRange {
    int64_t start = std::numeric_limits<int64_t>::min();
    int64_t end = std::numeric_limits<int64_t>::max();

    bool isAll() const {
        return start == std::numeric_limits<int64_t>::min() &&
               end == std::numeric_limits<int64_t>::max();
    }
    int64_t length() const { return end - start; }
    // The part of [begin, begin + duration) inside the range, in ns (0 when they do not overlap).
    // A zero-length slice at a point inside the range overlaps it with 0 ns.
    int64_t clip(int64_t begin, int64_t duration) const {
        return std::max<int64_t>(0, std::min(end, begin + duration) - std::max(start, begin));
    }
    bool overlaps(int64_t begin, int64_t duration) const {
        return begin < end && begin + duration >= start && (duration > 0 || begin >= start);
    }
    bool operator==(const TimeRange&) const = default;
};

}  // namespace stackline
