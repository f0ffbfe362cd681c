// _build_flow_mapping, as the provenance processor reads it: each s/f event binds to the event
// just before it in the file, and starts and finishes pair by their "id".
#pragma once

#include <cstdint>
#include <vector>

#include "event_table.h"
#include "event_uids.h"
#include "process_error.h"

namespace stackline {

struct FlowMapping {
    static constexpr uint32_t kNoFlow = UINT32_MAX;
    // By uid key: the other end of a flow; kNoFlow where there is none. Both empty when the trace
    // has no flow event.
    std::vector<uint32_t> src2dst, dst2src;
};

// isFlow: by row, whether the processor's partition took the event as a flow event. Errors are
// appended in file order.
FlowMapping buildFlowMapping(const EventTable& events, const std::vector<uint8_t>& isFlow,
                             const EventUids& uids, ProcessErrors& errors);

}  // namespace stackline
