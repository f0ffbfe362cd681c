#include "annotate/covered_search.h"

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

void CoveredSearch::sortRegions() {
    for (auto& [tid, regions] : byTid_) regions.sort();
}

}  // namespace stackline
