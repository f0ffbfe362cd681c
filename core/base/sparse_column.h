// A column that most rows leave empty: the rows that have a value, ascending, and their values.
// A plain column would cost its size for every event (an existing uid, a flow id).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace stackline {

template <class T>
class SparseColumn {
public:
    // Rows are pushed in ascending order.
    void push(uint32_t row, T value) {
        rows_.push_back(row);
        values_.push_back(value);
    }
    std::size_t size() const { return rows_.size(); }
    void reserve(std::size_t entries) {
        rows_.reserve(entries);
        values_.reserve(entries);
    }
    uint32_t row(std::size_t i) const { return rows_[i]; }
    T value(std::size_t i) const { return values_[i]; }

    // The row's value, or `none`.
    T at(uint32_t row, T none) const {
        auto it = std::lower_bound(rows_.begin(), rows_.end(), row);
        return it != rows_.end() && *it == row ? values_[std::size_t(it - rows_.begin())] : none;
    }
    // The same for rows visited in ascending order: `next` (0 at first) follows them, so a pass
    // over the table costs no search.
    T at(uint32_t row, T none, std::size_t& next) const {
        while (next < rows_.size() && rows_[next] < row) ++next;
        return next < rows_.size() && rows_[next] == row ? values_[next] : none;
    }

    // The `next` of at(row, none, next) for a pass that starts at row.
    std::size_t firstAtOrAfter(uint32_t row) const {
        return std::size_t(std::lower_bound(rows_.begin(), rows_.end(), row) - rows_.begin());
    }

    // Appends other's entries, their rows shifted by offset and their values mapped by f; other
    // is left empty.
    template <class F>
    void append(SparseColumn&& other, uint32_t offset, F f) {
        for (std::size_t i = 0; i < other.size(); ++i)
            push(other.rows_[i] + offset, f(other.values_[i]));
        other = SparseColumn();
    }

private:
    std::vector<uint32_t> rows_;
    std::vector<T> values_;
};

}  // namespace stackline
