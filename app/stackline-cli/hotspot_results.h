// Hotspots of several traces and their total, as hotspots and merge print them alike.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "analysis/hotspot_totals.h"

namespace cli {

struct TraceHotspots {
    std::string trace;  // as given on hotspots' command line
    stackline::HotspotTotals totals;
};

// {"trace": ..., "lines": [...], ...}: one trace's result, as hotspots TRACE --json writes it.
stackline::OrderedJson traceHotspotsJson(const TraceHotspots& t);

// {"traces": [traceHotspotsJson...], "total": {"trace_count": N, "lines": [...], ...}}, the
// total summed in the order given.
stackline::OrderedJson manyHotspotsJson(const std::vector<TraceHotspots>& traces);

// The text: a line per trace, then the total's top lines.
void printManyHotspots(const std::vector<TraceHotspots>& traces, std::size_t top);

// The table of hotspots' text output: the annotated and unresolved time, then the top lines.
void printHotspotsTable(const stackline::HotspotTotals& t, std::size_t top);

}  // namespace cli
