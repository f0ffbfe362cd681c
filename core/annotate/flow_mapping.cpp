#include "annotate/flow_mapping.h"

#include <algorithm>
#include <unordered_map>
#include <utility>

namespace stackline {

FlowMapping buildFlowMapping(const EventTable& events, const std::vector<bool>& isFlow,
                             const EventUids& uids, ProcessErrors& errors) {
    constexpr uint32_t kNone = FlowMapping::kNoFlow;   // also: no row, no pair yet
    std::vector<std::pair<uint32_t, uint32_t>> pairs;  // (src, dst) keys, insertion order
    // Flow ids are Python ints: keyed exactly, beyond int64 too.
    struct Hash {
        std::size_t operator()(__int128 v) const {
            return std::hash<uint64_t>()(uint64_t(v) ^ uint64_t(v >> 64) * 0x9E3779B97F4A7C15ull);
        }
    };
    std::unordered_map<__int128, uint32_t, Hash> pairOf;
    // Flow ids are mostly small non-negative ints (correlation ids): those index an array
    // when it stays within four slots per flow event; the others go to the hash map.
    int64_t maxId = -1;
    uint64_t flows = 0;
    for (std::size_t i = 0; i < events.flowIds.size(); ++i) {
        if (!isFlow[events.flowIds.row(i)]) continue;
        ++flows;
        maxId = std::max(maxId, events.flowIds.value(i));
    }
    std::vector<uint32_t> pairOfSmall;
    if (maxId >= 0 && uint64_t(maxId) < 4 * flows + (1u << 16))
        pairOfSmall.assign(std::size_t(maxId) + 1, kNone);
    uint32_t prev = kNone;
    std::size_t nextId = 0;  // into events.flowIds
    for (uint32_t row = 0, n = events.size(); row < n; ++row) {
        if (!isFlow[row]) {
            prev = row;
            continue;
        }
        char ph = events.phase[row];
        if (ph == 's' || ph == 'f') {
            if (prev == kNone) continue;
            const EventTable::Kinds& k = events.kinds[row];
            if (k.flowId == FlowIdStatus::Missing) {
                errors.emplace_back(row, ProcessError{DiagnosticMessage::FlowIdMissing, row});
            } else if (k.flowId == FlowIdStatus::Invalid) {
                errors.emplace_back(row, ProcessError{DiagnosticMessage::FlowIdRejected, row});
            } else {
                __int128 id = k.flowId == FlowIdStatus::Big ? events.bigFlowId.at(row)
                                                            : events.flowIds.at(row, 0, nextId);
                uint32_t& pair = id >= 0 && id < __int128(pairOfSmall.size())
                                     ? pairOfSmall[std::size_t(id)]
                                     : pairOf.try_emplace(id, kNone).first->second;
                if (pair == kNone) {
                    pair = uint32_t(pairs.size());
                    pairs.push_back({kNone, kNone});
                }
                (ph == 's' ? pairs[pair].first : pairs[pair].second) = uids.key(prev);
            }
        }
        prev = row;
    }
    FlowMapping m;
    for (FlowMapping::Side* side : {&m.bySrc_, &m.byDst_}) side->init(uids.count());
    for (auto [src, dst] : pairs) {
        if (src == kNone || dst == kNone) continue;
        m.bySrc_.mark(src);
        m.byDst_.mark(dst);
    }
    m.bySrc_.rank();
    m.byDst_.rank();
    // Where several pairs share a key, the last one made wins, as the reference's dict
    // assignments do.
    for (auto [src, dst] : pairs) {
        if (src == kNone || dst == kNone) continue;
        m.bySrc_.set(src, dst);
        m.byDst_.set(dst, src);
    }
    return m;
}

}  // namespace stackline
