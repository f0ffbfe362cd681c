#include "stack_origin.h"

#include <algorithm>

namespace stackline {

uint32_t StackOrigins::addSource(StackSource source) {
    sources_.push_back(std::move(source));
    return uint32_t(sources_.size() - 1);
}

void StackOrigins::setWritten(uint32_t row, StackOrigin origin, uint32_t source) {
    origin_[row] = origin;
    rowSources_.emplace_back(row, source);
}

void StackOrigins::finish() {
    // Stable, so that of one row's writes the last one comes last and is kept.
    std::stable_sort(rowSources_.begin(), rowSources_.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    auto last = std::unique(rowSources_.rbegin(), rowSources_.rend(),
                            [](const auto& a, const auto& b) { return a.first == b.first; });
    rowSources_.erase(rowSources_.begin(), last.base());
    rowSources_.shrink_to_fit();
}

const StackSource* StackOrigins::sourceOf(uint32_t row) const {
    const StackOrigin o = of(row);
    if (o != StackOrigin::Matched && o != StackOrigin::SingleStack) return nullptr;
    auto it = std::lower_bound(rowSources_.begin(), rowSources_.end(), row,
                               [](const auto& e, uint32_t r) { return e.first < r; });
    return it != rowSources_.end() && it->first == row ? &sources_[it->second] : nullptr;
}

}  // namespace stackline
