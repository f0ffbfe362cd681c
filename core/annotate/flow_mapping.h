// _build_flow_mapping, as the provenance processor reads it: each s/f event binds to the event
// just before it in the file, and starts and finishes pair by their "id".
#pragma once

#include <cstdint>
#include <vector>

#include "annotate/event_uids.h"
#include "annotate/process_error.h"
#include "base/ranked_bits.h"
#include "model/event_table.h"

namespace stackline {

// src2dst and dst2src by uid key. Few events are flow ends, so each direction keeps the set of
// keys that have another end (RankedBits) and those ends in key order: no search, and no array
// over every event.
class FlowMapping {
public:
    static constexpr uint32_t kNoFlow = UINT32_MAX;
    // The other end of a flow, kNoFlow where there is none.
    uint32_t dstOf(uint32_t srcKey) const { return bySrc_.at(srcKey); }
    uint32_t srcOf(uint32_t dstKey) const { return byDst_.at(dstKey); }

private:
    friend FlowMapping buildFlowMapping(const EventTable&, const std::vector<bool>&,
                                        const EventUids&, ProcessErrors&);
    // Which keys have a value: mark() each, then rank(), then set() their values.
    class Side {
    public:
        void init(uint32_t keys) { keys_.init(keys); }
        void mark(uint32_t key) { keys_.insert(key); }
        void rank() { values_.assign(keys_.finish(), kNoFlow); }
        void set(uint32_t key, uint32_t value) { values_[keys_.rank(key)] = value; }
        uint32_t at(uint32_t key) const {
            const uint32_t slot = keys_.find(key);
            return slot == RankedBits::kAbsent ? kNoFlow : values_[slot];
        }

    private:
        RankedBits keys_;
        std::vector<uint32_t> values_;  // by rank
    };
    Side bySrc_, byDst_;
};

// isFlow: by row, whether the processor's partition took the event as a flow event. Errors are
// appended in file order.
FlowMapping buildFlowMapping(const EventTable& events, const std::vector<bool>& isFlow,
                             const EventUids& uids, ProcessErrors& errors);

}  // namespace stackline
