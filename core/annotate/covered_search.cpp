#include "annotate/covered_search.h"

#include <bit>

namespace stackline {

void ThreadRegions::sort() {
    sortByStart(items_);
    bool floats = true;
    starts_.reserve(items_.size());
    for (const Interval& i : items_) {
        starts_.push_back(i.start);
        if (pyIsNan(i.start)) ordered_ = false;
        floats = floats && i.start.kind == PyNum::Kind::Float && !pyIsNan(i.start);
    }
    if (floats) {
        floatStarts_.reserve(items_.size());
        floatEnds_.reserve(items_.size());
        for (const Interval& i : items_) {
            floatStarts_.push_back(i.start.f);
            floatEnds_.push_back(i.end.f);
        }
    }
    groupOf_.assign(items_.size(), kNoGroup);
}

RegionEnds::RegionEnds(const std::vector<Interval>& sorted) {
    for (const Interval& i : sorted) exact_ = exact_ && !pyIsNan(i.start) && !pyIsNan(i.end);
    if (!exact_ || sorted.empty()) return;
    width_ = std::bit_ceil(sorted.size());
    max_.assign(2 * width_, sorted[0].end);
    for (std::size_t i = 0; i < sorted.size(); ++i) max_[width_ + i] = sorted[i].end;
    for (std::size_t i = width_; i-- > 1;)
        max_[i] = pyLess(max_[2 * i], max_[2 * i + 1]) ? max_[2 * i + 1] : max_[2 * i];
}

long RegionEnds::search(std::size_t node, std::size_t lo, std::size_t hi, std::size_t before,
                        const PyNum& x) const {
    if (lo >= before || !pyLess(x, max_[node])) return -1;
    if (hi - lo == 1) return long(lo);
    const std::size_t mid = lo + (hi - lo) / 2;
    const long right = search(2 * node + 1, mid, hi, before, x);
    return right >= 0 ? right : search(2 * node, lo, mid, before, x);
}

void CoveredSearch::sortRegions() {
    for (auto& [tid, regions] : byTid_) regions.sort();
}

}  // namespace stackline
