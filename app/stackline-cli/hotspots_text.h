// Hotspots as text: one trace's table, and several traces with their total, as hotspots and merge
// print them alike.
#pragma once

#include <cstddef>
#include <vector>

#include "analysis/hotspot_totals.h"

namespace cli {

// The text: a line per trace, then the total's top lines.
void printManyHotspots(const std::vector<stackline::TraceHotspots>& traces, std::size_t top);

// The table of hotspots' text output: the annotated and unresolved time, then the top lines.
void printHotspotsTable(const stackline::HotspotTotals& t, std::size_t top);

}  // namespace cli
