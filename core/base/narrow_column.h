// A column of Wide values stored as Narrow ones: the values that fit below Narrow's maximum take
// sizeof(Narrow) a row, the rare others go to a side table by row. For columns whose values are
// small on nearly every row of a real trace (an args object's place in its event, a duration in
// nanoseconds), where a full-width column would cost its size for every event.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <unordered_map>
#include <vector>

namespace stackline {

template <class Wide, class Narrow>
class NarrowColumn {
public:
    // Narrow when it fits.
    void push_back(Wide value) {
        if (value >= Wide(0) && value < Wide(kEscaped))
            narrow_.push_back(Narrow(value));
        else
            pushEscaped(value);
    }
    // Into the side table whatever the value, for a caller whose narrow values mean something
    // else (an encoding of Wide): isEscaped() tells the two apart.
    void pushEscaped(Wide value) {
        escaped_.emplace(uint32_t(narrow_.size()), value);
        narrow_.push_back(kEscaped);
    }

    Wide operator[](std::size_t row) const {
        const Narrow n = narrow_[row];
        return n != kEscaped ? Wide(n) : escaped_.at(uint32_t(row));
    }
    bool isEscaped(std::size_t row) const { return narrow_[row] == kEscaped; }
    // For a loop that knows which rows it reads next.
    void prefetch(std::size_t row) const { __builtin_prefetch(narrow_.data() + row); }
    std::size_t size() const { return narrow_.size(); }
    bool empty() const { return narrow_.empty(); }
    void reserve(std::size_t rows) { narrow_.reserve(rows); }
    // Appends other's rows and leaves it empty.
    void append(NarrowColumn&& other) {
        const auto offset = uint32_t(narrow_.size());
        narrow_.insert(narrow_.end(), other.narrow_.begin(), other.narrow_.end());
        for (const auto& [row, value] : other.escaped_) escaped_.emplace(row + offset, value);
        other = NarrowColumn();
    }

private:
    static constexpr Narrow kEscaped = std::numeric_limits<Narrow>::max();
    std::vector<Narrow> narrow_;
    std::unordered_map<uint32_t, Wide> escaped_;  // by row, where narrow_ holds kEscaped
};

}  // namespace stackline
