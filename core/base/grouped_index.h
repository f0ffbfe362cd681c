// Values grouped by a small dense key, as one flat array: a counting sort into offsets and values
// (no vector per key, which would cost an allocation for each of hundreds of thousands of keys).
// Within a group the values keep the order in which they were given.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace stackline {

class GroupedIndex {
public:
    // forEach(add) calls add(group, value) for every pair, the same pairs in the same order each
    // time it is called (it is called twice: once to count, once to fill). Groups are below
    // groupCount.
    template <class ForEach>
    static GroupedIndex build(std::size_t groupCount, ForEach forEach) {
        GroupedIndex ix;
        ix.start_.assign(groupCount + 1, 0);
        forEach([&](std::size_t group, uint32_t) { ++ix.start_[group + 1]; });
        for (std::size_t i = 1; i < ix.start_.size(); ++i) ix.start_[i] += ix.start_[i - 1];
        ix.values_.resize(ix.start_.back());
        // Each group's start serves as its fill cursor, and ends as the next group's start: one
        // shift puts them back. (A separate array of cursors would be as big as start_, and
        // groups may be every event.)
        forEach([&](std::size_t group, uint32_t value) { ix.values_[ix.start_[group]++] = value; });
        for (std::size_t i = ix.start_.size() - 1; i > 0; --i) ix.start_[i] = ix.start_[i - 1];
        ix.start_[0] = 0;
        return ix;
    }

    // The values of group, in order; none for a group at or beyond groupCount (or when the index
    // was never built).
    std::span<const uint32_t> operator[](std::size_t group) const {
        if (group >= start_.size() - 1) return {};
        return {values_.data() + start_[group], values_.data() + start_[group + 1]};
    }

private:
    std::vector<uint32_t> start_ = {0};  // group g's values are values_[start_[g], start_[g + 1])
    std::vector<uint32_t> values_;
};

}  // namespace stackline
