#include "annotate/stack_origin.h"

#include <algorithm>

namespace stackline {

uint32_t StackOrigins::addSource(StackSource source) {
    sources_.push_back(std::move(source));
    return uint32_t(sources_.size() - 1);
}

void StackOrigins::setWritten(uint32_t row, StackOrigin origin, uint32_t source) {
    set(row, origin);
    rowSources_.emplace_back(row, source);
}

const StackSource* StackOrigins::sourceOf(uint32_t row) const {
    if (!hasStackSource(of(row))) return nullptr;
    auto it = std::find_if(rowSources_.rbegin(), rowSources_.rend(),
                           [row](const auto& e) { return e.first == row; });
    return it != rowSources_.rend() ? &sources_[it->second] : nullptr;
}

std::vector<std::pair<uint32_t, const StackSource*>> StackOrigins::sourcesByRow() const {
    std::vector<std::pair<uint32_t, uint32_t>> writes = rowSources_;
    std::stable_sort(writes.begin(), writes.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::pair<uint32_t, const StackSource*>> out;
    for (std::size_t i = 0; i < writes.size(); ++i) {
        const uint32_t row = writes[i].first;
        if (i + 1 < writes.size() && writes[i + 1].first == row) continue;  // not its last write
        if (hasStackSource(of(row))) out.emplace_back(row, &sources_[writes[i].second]);
    }
    return out;
}

}  // namespace stackline
