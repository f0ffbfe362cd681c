// What the viewer's command line asks to show once a trace is loaded: `--range START_US:END_US`
// and `--marker US`, in the same time as `stackline-cli summary --range` (from the trace's
// origin, core's traceOriginNs), so that a screenshot shows the range the CLI summarises.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "base/time_range.h"

class ViewerState;

struct StartupRequest {
    std::optional<stackline::TimeRange> range;  // ns from the origin
    std::vector<int64_t> markers;               // ns from the origin
};

// Selects the range over every track, zooms the timeline to it and drops the markers, in the
// state's current document.
void applyStartupView(ViewerState& state, const StartupRequest& view);
