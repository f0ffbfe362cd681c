#include "pipeline/display_indexes.h"

#include "analysis/range_summary.h"

namespace stackline {

DisplayIndexes buildTraceIndexes(const Trace& trace, unsigned threads, IndexSet set) {
    DisplayIndexes ix;
    ix.tracks = TrackIndex::build(trace.events, trace.metadata, threads);
    ix.originNs = traceOriginNs(trace.events);
    if (set == IndexSet::Display) ix.counters = CounterIndex::build(trace, ix.tracks);
    ix.flows = FlowIndex::build(trace.events, ix.tracks);
    return ix;
}

void addEagerStacks(DisplayIndexes& ix, const Trace& trace, const Provenance& provenance) {
    ix.eager = EagerStacks::build(trace, provenance, ix.tracks, ix.flows);
}

}  // namespace stackline
