// The forward-backward links of an export's NVTX ranges, which Kineto writes as fwdbwd flows and
// an export has no counterpart of: emit_nvtx names a forward op and the autograd node that runs its
// backward with the same sequence number ("aten::mse_loss, seq = 42" and, inside
// "autograd::engine::evaluate_function: MseLossBackward0, seq = 42", "MseLossBackward0, seq = 42").
// Provenance follows the link from a CompiledFunctionBackward region to its forward region.
#pragma once

#include <cstdint>
#include <vector>

#include "base/string_pool.h"

namespace stackline::nsight {

struct SequencedRange {
    int64_t start = 0;
    int32_t pid = 0;    // 24 bits (pidOfGlobalId): the struct takes 24 bytes
    uint32_t name = 0;  // StringPool id of the plain name
    int64_t sequence = -1;
};

// By range: 0, k > 0 (the forward end of pair k) or -k (its backward end). Each backward node is
// paired with the latest forward range of its process and sequence number that started before it
// and is not yet paired (sequence numbers are per thread and may repeat across iterations).
std::vector<int64_t> pairForwardBackward(const std::vector<SequencedRange>& ranges,
                                         const StringPool& names, int64_t firstId);

}  // namespace stackline::nsight
