// A column of signed corrections that is zero on nearly every row, and on every row of most
// traces: it takes no memory until a row needs one, then 2 bytes a row up to the last such row
// (the rows after it read zero), with the rare wide values by row in a side table. For values
// that are derived from other columns and exact but for a few rows (a time's nanoseconds beside
// its microseconds as a double).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <unordered_map>
#include <vector>

namespace stackline {

class CorrectionColumn {
public:
    // Rows are set in ascending order, each once; the rows skipped read zero.
    void set(uint32_t row, int64_t value) {
        if (value == 0) return;
        small_.resize(row, 0);
        if (value > kEscaped && value <= std::numeric_limits<int16_t>::max()) {
            small_.push_back(int16_t(value));
        } else {
            wide_.emplace(row, value);
            small_.push_back(kEscaped);
        }
    }
    int64_t operator[](std::size_t row) const {
        if (row >= small_.size()) return 0;
        const int16_t s = small_[row];
        return s != kEscaped ? s : wide_.at(uint32_t(row));
    }
    // The rows that take memory: up to the last with a value.
    std::size_t heldRows() const { return small_.size(); }
    // Appends other's rows, which start at row offset, and leaves it empty.
    void append(CorrectionColumn&& other, uint32_t offset) {
        if (!other.small_.empty()) {
            small_.resize(offset, 0);
            small_.insert(small_.end(), other.small_.begin(), other.small_.end());
            for (const auto& [row, value] : other.wide_) wide_.emplace(row + offset, value);
        }
        other = CorrectionColumn();
    }

private:
    static constexpr int16_t kEscaped = std::numeric_limits<int16_t>::min();
    std::vector<int16_t> small_;
    std::unordered_map<uint32_t, int64_t> wide_;  // by row, where small_ holds kEscaped
};

}  // namespace stackline
