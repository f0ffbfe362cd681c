// A column that few rows of a big table have a value in, set in any order, then sealed for
// lookups. While it fills it holds 8 bytes a set; sealed, a bit a row and the values of the rows
// that have one, where a plain column costs sizeof(T) for every row (the stacks the processor
// writes: one row in seven of a trace, set region by region).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/ranked_bits.h"

namespace stackline {

template <class T>
class ScatteredColumn {
public:
    // A later set of a row replaces an earlier one, as an assignment to a plain column would.
    void set(uint32_t row, T value) { pending_.push_back({row, value}); }

    // After the last set(); every row set is below rows. Sealed again after more sets, the
    // earlier values are kept where no later set replaces them.
    void seal(std::size_t rows) {
        if (!values_.empty()) {
            std::vector<Set> all;
            all.reserve(values_.size() + pending_.size());
            std::size_t i = 0;
            rows_.forEachMember([&](std::size_t row) {
                all.push_back({uint32_t(row), values_[i++]});
            });
            all.insert(all.end(), pending_.begin(), pending_.end());
            pending_ = std::move(all);
        }
        std::stable_sort(pending_.begin(), pending_.end(),
                         [](const Set& a, const Set& b) { return a.row < b.row; });
        rows_.init(rows);
        values_.clear();
        for (std::size_t i = 0; i < pending_.size(); ++i) {
            if (i + 1 < pending_.size() && pending_[i + 1].row == pending_[i].row) continue;
            rows_.insert(pending_[i].row);
            values_.push_back(pending_[i].value);
        }
        rows_.finish();
        std::vector<Set>().swap(pending_);
    }

    // The row's value, or none (also before seal()).
    T at(uint32_t row, T none) const {
        const uint32_t i = rows_.find(row);
        return i == RankedBits::kAbsent ? none : values_[i];
    }
    // The rows that have a value (after seal()).
    std::size_t size() const { return values_.size(); }

private:
    struct Set {
        uint32_t row;
        T value;
    };
    std::vector<Set> pending_;
    RankedBits rows_;
    std::vector<T> values_;  // by rank of the row
};

}  // namespace stackline
