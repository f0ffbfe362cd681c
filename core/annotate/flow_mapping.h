// _build_flow_mapping, as the provenance processor reads it: each s/f event binds to the event
// just before it in the file, and starts and finishes pair by their "id".
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

#include "annotate/event_uids.h"
#include "annotate/process_error.h"
#include "model/event_table.h"

namespace stackline {

// src2dst and dst2src by uid key. Few events are flow ends, so each direction keeps a bit per key
// and the other ends of the keys that have one, in key order: a key's value is found by counting
// the bits before it (a count per 64 keys, then one popcount), without a search or an array over
// every event.
class FlowMapping {
public:
    static constexpr uint32_t kNoFlow = UINT32_MAX;
    // The other end of a flow, kNoFlow where there is none.
    uint32_t dstOf(uint32_t srcKey) const { return bySrc_.at(srcKey); }
    uint32_t srcOf(uint32_t dstKey) const { return byDst_.at(dstKey); }

private:
    friend FlowMapping buildFlowMapping(const EventTable&, const std::vector<uint8_t>&,
                                        const EventUids&, ProcessErrors&);
    class Side {
    public:
        // Which keys have a value: mark() each, then rank(), then set() their values.
        void mark(uint32_t key) { bits_[key >> 6] |= uint64_t(1) << (key & 63); }
        void init(uint32_t keys) { bits_.assign((std::size_t(keys) + 63) / 64, 0); }
        void rank();
        void set(uint32_t key, uint32_t value) { values_[slot(key)] = value; }
        uint32_t at(uint32_t key) const {
            std::size_t w = key >> 6;
            if (w >= bits_.size() || !(bits_[w] >> (key & 63) & 1)) return kNoFlow;
            return values_[slot(key)];
        }

    private:
        std::size_t slot(uint32_t key) const {
            const uint64_t below = (uint64_t(1) << (key & 63)) - 1;
            return before_[key >> 6] + std::size_t(std::popcount(bits_[key >> 6] & below));
        }
        std::vector<uint64_t> bits_;
        std::vector<uint32_t> before_;  // per word of bits_: the keys marked in earlier words
        std::vector<uint32_t> values_;  // by slot
    };
    Side bySrc_, byDst_;
};

// isFlow: by row, whether the processor's partition took the event as a flow event. Errors are
// appended in file order.
FlowMapping buildFlowMapping(const EventTable& events, const std::vector<uint8_t>& isFlow,
                             const EventUids& uids, ProcessErrors& errors);

}  // namespace stackline
