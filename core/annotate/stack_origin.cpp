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
    const StackOrigin o = of(row);
    if (o != StackOrigin::Matched && o != StackOrigin::SingleStack) return nullptr;
    auto it = std::find_if(rowSources_.rbegin(), rowSources_.rend(),
                           [row](const auto& e) { return e.first == row; });
    return it != rowSources_.rend() ? &sources_[it->second] : nullptr;
}

}  // namespace stackline
