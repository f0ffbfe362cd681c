// _build_flow_mapping, as the provenance processor reads it: each s/f event binds to the event
// just before it in the file, and starts and finishes pair by their "id".
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "event_table.h"
#include "event_uids.h"
#include "process_error.h"

namespace stackline {

// src2dst and dst2src by uid key. Few events are flow ends, so they are kept as pairs sorted by
// key rather than as arrays over every event (8 bytes per event).
class FlowMapping {
public:
    static constexpr uint32_t kNoFlow = UINT32_MAX;
    // The other end of a flow, kNoFlow where there is none.
    uint32_t dstOf(uint32_t srcKey) const {
        // Asked for every op of every region: one bit per key spares most the search.
        return srcKey < isSrc_.size() && isSrc_[srcKey] ? find(bySrc_, srcKey) : kNoFlow;
    }
    uint32_t srcOf(uint32_t dstKey) const { return find(byDst_, dstKey); }

private:
    friend FlowMapping buildFlowMapping(const EventTable&, const std::vector<uint8_t>&,
                                        const EventUids&, ProcessErrors&);
    using Pairs = std::vector<std::pair<uint32_t, uint32_t>>;  // (key, other end), by key
    static uint32_t find(const Pairs& pairs, uint32_t key);
    Pairs bySrc_, byDst_;
    std::vector<bool> isSrc_;  // by key
};

// isFlow: by row, whether the processor's partition took the event as a flow event. Errors are
// appended in file order.
FlowMapping buildFlowMapping(const EventTable& events, const std::vector<uint8_t>& isFlow,
                             const EventUids& uids, ProcessErrors& errors);

}  // namespace stackline
