#include "annotate/event_uids.h"

#include <unordered_map>

namespace stackline {

std::vector<uint32_t> EventUids::assign(const EventTable& events, bool uidAssigned) {
    rows_ = events.size();
    std::vector<uint32_t> missing;
    if (!uidAssigned) return missing;
    fromTrace_ = true;
    keyOfRow_.resize(rows_);
    std::unordered_map<KeyId, uint32_t> dense;
    std::size_t next = 0;
    for (uint32_t row = 0; row < rows_; ++row) {
        KeyId k = events.uidKeys.at(row, kNoKey, next);
        if (events.kinds[row].event != ValueKind::Object || k == kNoKey || k == kUnhashable) {
            missing.push_back(row);
            keyOfRow_[row] = uint32_t(rowOfKey_.size());
            rowOfKey_.push_back(row);
            continue;
        }
        auto [it, inserted] = dense.try_emplace(k, uint32_t(rowOfKey_.size()));
        if (inserted) rowOfKey_.push_back(row);
        rowOfKey_[it->second] = row;  // the last event with this uid wins
        keyOfRow_[row] = it->second;
    }
    return missing;
}

}  // namespace stackline
