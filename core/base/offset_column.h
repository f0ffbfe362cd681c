// A column of 64-bit byte offsets at 4 bytes a row: each block of rows keeps the 64-bit offset
// of its first row, and each row its distance from it. Offsets given in file order (as events
// are) stay within 4 GiB of their block's first on any real trace; a row that does not (a block
// of huge events, offsets out of order) keeps its full offset in a side table.
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace stackline {

class OffsetColumn {
public:
    void push_back(uint64_t offset) {
        const std::size_t row = delta_.size();
        if ((row & kBlockMask) == 0) base_.push_back(offset);
        const uint64_t base = base_.back();
        if (offset >= base && offset - base < kEscaped) {
            delta_.push_back(uint32_t(offset - base));
        } else {
            delta_.push_back(kEscaped);
            escaped_.emplace(uint32_t(row), offset);
        }
    }
    uint64_t operator[](std::size_t row) const {
        const uint32_t d = delta_[row];
        return d != kEscaped ? base_[row >> kBlockBits] + d : escaped_.at(uint32_t(row));
    }
    std::size_t size() const { return delta_.size(); }
    std::size_t capacity() const { return delta_.capacity(); }
    // The bytes its buffers hold (reserved included).
    std::size_t capacityBytes() const {
        return delta_.capacity() * sizeof(uint32_t) + base_.capacity() * sizeof(uint64_t) +
               escaped_.size() * 2 * sizeof(uint64_t);
    }
    void reserve(std::size_t rows) {
        delta_.reserve(rows);
        base_.reserve((rows >> kBlockBits) + 1);
    }
    // Appends other's rows and leaves it empty.
    void append(OffsetColumn&& other) {
        reserve(size() + other.size());
        for (std::size_t row = 0; row < other.size(); ++row) push_back(other[row]);
        other = OffsetColumn();
    }

private:
    static constexpr unsigned kBlockBits = 16;
    static constexpr std::size_t kBlockMask = (std::size_t(1) << kBlockBits) - 1;
    static constexpr uint32_t kEscaped = UINT32_MAX;
    std::vector<uint32_t> delta_;  // by row: offset - its block's base, or kEscaped
    std::vector<uint64_t> base_;   // by block of 2^kBlockBits rows: its first row's offset
    std::unordered_map<uint32_t, uint64_t> escaped_;  // by row: offsets that do not fit
};

}  // namespace stackline
