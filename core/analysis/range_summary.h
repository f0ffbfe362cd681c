// What happened in a span of trace time: the figures of the viewer's Selection tab and of
// `stackline-cli summary --range`. Slices overlapping the range count with their time clipped to
// it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/hotspots.h"
#include "annotate/provenance.h"
#include "base/time_range.h"
#include "model/trace.h"
#include "model/track_index.h"

namespace stackline {

// X slices of one name in one process.
struct SliceTotals {
    std::string name;
    uint32_t process = 0;  // index into TrackIndex::processes()
    uint64_t count = 0;
    int64_t wallNs = 0;
    // Wall time minus the clipped time of the slices nested directly inside each slice on its
    // track (never below 0, when nested slices overlap each other).
    int64_t selfNs = 0;

    int64_t averageNs() const { return count ? wallNs / int64_t(count) : 0; }
};

// One GPU stream: a track with kernels, memory copies or sets anywhere in the trace.
struct StreamTotals {
    uint32_t track = 0;
    int64_t busyNs = 0;  // union of its kernels, memory copies and sets
    int64_t idleNs = 0;  // the range's length minus busyNs
    // Time its compute kernels (those not NCCL/RCCL) run while a communication kernel runs on any
    // stream of the same process (device).
    int64_t commOverlapNs = 0;
};

struct RangeSummary {
    TimeRange range;
    std::vector<SliceTotals> slices;    // by wall time, largest first
    std::vector<StreamTotals> streams;  // in track order
    Hotspots hotspots;                  // GPU kernels of the range by Python line (all tracks)
};

// tracks: the tracks to count (empty: all). range must be finite.
RangeSummary summarizeRange(const Trace& trace, const Provenance& provenance,
                            const TrackIndex& tracks, TimeRange range,
                            const std::vector<uint32_t>& trackSet = {});

// The zero of the timeline's ruler and of `--range`: the smallest ts of the trace's events other
// than metadata (ph "M"), in ns; 0 for a trace without any.
int64_t traceOriginNs(const EventTable& events);

// Integer nanoseconds; times relative to origin where they are instants.
OrderedJson rangeSummaryJson(const RangeSummary& s, const TrackIndex& tracks, int64_t origin,
                             std::size_t topLines);

}  // namespace stackline
