// The keys the processor indexes events by, as the reference's uids: the row itself, unless the
// trace already has uid_assigned, in which case each event's own "uid" value is the key and
// uid_2_events maps it to the last event carrying it.
#pragma once

#include <cstdint>
#include <vector>

#include "model/event_table.h"

namespace stackline {

class EventUids {
public:
    // _assign_uniq_id_to_event. Returns the rows with no usable uid (in uid_assigned mode), which
    // are given one of their own.
    std::vector<uint32_t> assign(const EventTable& events, bool uidAssigned);

    bool fromTrace() const { return fromTrace_; }  // uid_assigned mode
    uint32_t key(uint32_t row) const { return fromTrace_ ? keyOfRow_[row] : row; }
    uint32_t rowOf(uint32_t key) const { return fromTrace_ ? rowOfKey_[key] : key; }
    uint32_t count() const { return fromTrace_ ? uint32_t(rowOfKey_.size()) : rows_; }
    // By row; empty unless fromTrace().
    const std::vector<uint32_t>& keyOfRow() const { return keyOfRow_; }

private:
    bool fromTrace_ = false;
    uint32_t rows_ = 0;
    std::vector<uint32_t> keyOfRow_, rowOfKey_;
};

}  // namespace stackline
