// What the timeline paints each slice as, computed once per document off the GUI thread (the
// load job does it beside the eager stacks): a style per event, the same per level of each track
// in level order (painting reads them sequentially), each level's unresolved kernels, and each
// track's busy time.
#pragma once

#include <cstdint>
#include <vector>

#include "annotate/provenance.h"
#include "model/event_table.h"
#include "model/track_index.h"
#include "widgets/palette.h"

struct TrackStyles {
    // A level's unresolved kernels, which the view paints over everything so that no level of
    // detail can hide them: their indexes in the level and, contiguous for searching, their
    // starts and ends.
    struct Unresolved {
        std::vector<uint32_t> index;
        std::vector<int64_t> start, end;

        // The first at or after index from whose end is >= t.
        size_t firstEndingAtOrAfter(int64_t t, size_t from = 0) const {
            return stackline::gallopLowerBound(end, t, from);
        }
    };

    std::vector<uint8_t> style;                                  // per event: a SliceStyle
    std::vector<std::vector<std::vector<uint8_t>>> levelStyles;  // per track, per level
    std::vector<std::vector<Unresolved>> unresolved;             // per track, per level
    std::vector<int64_t> busy;                                   // per track: top level, ns

    bool empty() const { return style.empty(); }
    static TrackStyles build(const stackline::EventTable& events,
                             const stackline::Provenance& provenance,
                             const stackline::TrackIndex& tracks);
};
