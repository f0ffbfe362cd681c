// Flow arrows for display: each s/f/t event is bound to a slice by where it is (its track and ts),
// not by its position in the file, and starts and finishes are paired by (cat, id). Kineto puts a
// flow event right after its slice with the same ts, but post-processed traces move flows around
// and ids collide across categories (kineto-format.md section 8), so:
//  1. the neighbouring X event in the file with the same track and ts, else
//  2. the deepest slice on the track starting exactly at ts, else the deepest one containing ts,
//  3. for a finish, the next slice on the track starting after ts.
// The provenance processor keeps the reference's own positional rule; this index is only for
// arrows and the details panel's links.
#pragma once

#include <cstdint>
#include <vector>

#include "model/event_table.h"
#include "model/kineto.h"
#include "model/track_index.h"

namespace stackline {

struct FlowLink {
    uint32_t from = 0, to = 0;  // slice rows: the flow's start (launch) and finish (kernel)
    kineto::Category category = kineto::Category::Other;  // LaunchFlow, ForwardBackwardFlow, ...
    bool isLaunch() const { return category == kineto::Category::LaunchFlow; }
};

class FlowIndex {
public:
    static FlowIndex build(const EventTable& events, const TrackIndex& tracks);

    const std::vector<FlowLink>& links() const { return links_; }
    // Links with row at either end (indexes into links()).
    std::vector<uint32_t> linksOf(uint32_t row) const;
    // The slice whose flow finishes at row (a kernel's launching runtime call); kNoRow if none.
    uint32_t sourceOf(uint32_t row) const;
    // Flow events that could not be bound to a slice or have no partner.
    uint32_t unboundCount() const { return unbound_; }

private:
    std::vector<FlowLink> links_;
    std::vector<std::pair<uint32_t, uint32_t>> byRow_;  // (slice row, link), sorted
    uint32_t unbound_ = 0;
};

// Whether a slice is a compiled region: a cpu_op "Torch-Compiled Region…" or
// "CompiledFunctionBackward", as the provenance processor defines them (the reference's rule).
bool isCompiledRegion(const EventTable& events, uint32_t row);

// The innermost compiled region enclosing row on its track (for a kernel, pass its launch);
// kNoRow when there is none.
uint32_t compiledRegionOf(const EventTable& events, const TrackIndex& tracks, uint32_t row);

}  // namespace stackline
