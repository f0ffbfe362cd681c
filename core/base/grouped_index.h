// Values grouped by a dense key, as one flat array: a counting sort into offsets and values (no
// vector per key, which would cost an allocation for each of hundreds of thousands of keys).
// Within a group the values keep the order in which they were given. Only the groups that have
// values keep an offset (RankedBits numbers them): the keys may be every event while few of them
// have values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "base/ranked_bits.h"

namespace stackline {

class GroupedIndex {
public:
    // forEach(add) calls add(group, value) for every pair, the same pairs in the same order each
    // time it is called (it is called three times: to find the groups that have values, to count
    // and to fill). Groups are below groupCount.
    template <class ForEach>
    static GroupedIndex build(std::size_t groupCount, ForEach forEach) {
        GroupedIndex ix;
        ix.groups_.init(groupCount);
        forEach([&](std::size_t group, uint32_t) { ix.groups_.insert(group); });
        ix.start_.assign(std::size_t(ix.groups_.finish()) + 1, 0);
        forEach([&](std::size_t group, uint32_t) { ++ix.start_[ix.groups_.rank(group) + 1]; });
        for (std::size_t i = 1; i < ix.start_.size(); ++i) ix.start_[i] += ix.start_[i - 1];
        ix.values_.resize(ix.start_.back());
        // Each group's start serves as its fill cursor, and ends as the next group's start: one
        // shift puts them back (a separate array of cursors would be as big as start_).
        forEach([&](std::size_t group, uint32_t value) {
            ix.values_[ix.start_[ix.groups_.rank(group)]++] = value;
        });
        for (std::size_t i = ix.start_.size() - 1; i > 0; --i) ix.start_[i] = ix.start_[i - 1];
        ix.start_[0] = 0;
        return ix;
    }

    // The values of group, in order; none for a group that has none, is at or beyond groupCount,
    // or when the index was never built.
    std::span<const uint32_t> operator[](std::size_t group) const {
        const uint32_t g = groups_.find(group);
        if (g == RankedBits::kAbsent) return {};
        return {values_.data() + start_[g], values_.data() + start_[g + 1]};
    }

private:
    RankedBits groups_;                  // the groups that have values
    std::vector<uint32_t> start_ = {0};  // by rank r: values_[start_[r], start_[r + 1])
    std::vector<uint32_t> values_;
};

}  // namespace stackline
