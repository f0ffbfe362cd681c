// Pairs the SLICE_BEGIN and SLICE_END TrackEvents of a decoded trace into slices.
//
// Cuspy writes each group of slices as all its begins, then all its ends in the same order
// (cuspy_pftrace.cpp), so the k-th end of a run pairs with the k-th begin of the run before it:
// exact, whatever the timestamps. Pairing by time instead (Perfetto's trace processor: a stable
// sort by timestamp, then a stack per track) pairs touching slices wrongly in that layout, since
// at an equal timestamp the next slice's begin comes before the previous slice's end. A run that
// does not have that shape (other writers, which emit in time order) is paired the trace
// processor's way. Ends with no open slice and begins never closed are reported, not paired.
#pragma once

#include <cstdint>
#include <vector>

#include "import/perfetto/pftrace_table.h"

namespace stackline::pftrace {

// A slice's end is a TrackEvent row, or a bare end (SliceEnds) i as code rows + i.
struct SlicePairs {
    std::vector<uint32_t> begin;  // TrackEvent rows, one pair per slice, in begin order
    std::vector<uint32_t> end;    // end codes
    uint64_t groupedPairs = 0;    // paired by Cuspy's group structure
    uint64_t timedPairs = 0;      // paired by time on their track
    std::vector<uint32_t> unmatchedEnds, unclosedBegins;  // end codes, begin rows
};

SlicePairs pairSlices(const TrackEvents& events);

// The flow ids of a slice's end become its begin's (a slice is one event, as Perfetto links
// them); those of unpaired ends are dropped. Each list is sorted by row after, as it is read.
void flowsToBegins(TrackEvents& events, const SlicePairs& pairs);

// The time of an end code.
inline int64_t endTs(const TrackEvents& events, uint32_t code) {
    return code < events.size() ? events.ts[code] : events.ends.ts[code - events.size()];
}

}  // namespace stackline::pftrace
