// The forward op of a backward op in a trace whose format writes no fwdbwd flows
// (TraceMetadata::forwardBackwardFlows false: PyTorch's Cuspy protobuf). Kineto draws those flows
// from the ops' own fields (generateForwardBackwardLink in PyTorch's profiler): a backward op
// (its "Fwd thread id" > 0) links to the forward op of the same "Sequence number" on the forward
// thread, the latest to start of several. The forward op's own thread id, which Kineto keys by,
// is not in the trace, so here the forward op is the latest-starting cpu_op before the backward
// op with its Sequence number, no "Fwd thread id" of its own (absent or 0), on another thread.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "model/trace.h"

namespace stackline {

class ForwardBySequence {
public:
    // Reads the Sequence number of every cpu_op once (of those the args reader names, where it
    // knows which may have one).
    explicit ForwardBySequence(const Trace& trace);
    // The forward op of backwardRow; kNoRow when there is none.
    uint32_t forwardOf(uint32_t backwardRow) const;

private:
    const Trace& trace_;
    std::unordered_map<int64_t, std::vector<uint32_t>> forwardOps_;  // by Sequence number
};

}  // namespace stackline
