// What the timeline, the panels and the CLI commands that show a trace's structure read besides
// the event table, built once per loaded trace (by the load pipeline, on request): its tracks and
// their origin, its counter series, its launch and forward-backward flows, and the Python stacks
// of its eager kernels.
#pragma once

#include <cstdint>

#include "analysis/eager_stacks.h"
#include "annotate/provenance.h"
#include "model/counter_index.h"
#include "model/flow_index.h"
#include "model/track_index.h"

namespace stackline {

struct DisplayIndexes {
    TrackIndex tracks;
    // The timeline's zero, as `--range`'s: the smallest ts of the non-metadata events.
    int64_t originNs = 0;
    CounterIndex counters;
    FlowIndex flows;
    EagerStacks eager;  // empty until addEagerStacks
};

// Which of the trace-only indexes to build: the counter series cost a quarter of a `steps` run
// and only the viewer and `summary --range` read them.
enum class IndexSet : uint8_t {
    Display,  // all of them
    Flows,    // tracks, origin and flows; counters left empty
};

// The indexes that need only the trace (all but eager). threads = 0 uses every core.
DisplayIndexes buildTraceIndexes(const Trace& trace, unsigned threads = 0,
                                 IndexSet set = IndexSet::Display);
// The eager kernels' stacks, which need the provenance result (compiled kernels have theirs).
void addEagerStacks(DisplayIndexes& indexes, const Trace& trace, const Provenance& provenance);

}  // namespace stackline
