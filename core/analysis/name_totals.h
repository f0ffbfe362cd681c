// Events summed by name: the kernels of a source line as the Hotspots tab and the Source tab's
// kernel menu list them.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "model/event_table.h"

namespace stackline {

struct NameTotal {
    std::string_view name;
    uint32_t first = 0;  // the earliest event of the name (by start, then row)
    uint64_t count = 0;
    int64_t ns = 0;  // summed durations, negative ones as 0
};

// One entry per distinct name among rows, the longest total first (ties by name). Names are
// compared by their interned ids: tens of thousands of rows with long template names would cost
// a string compare each.
std::vector<NameTotal> totalsByName(const EventTable& events, std::span<const uint32_t> rows);

// rows by start time, ties in their given order: the instances a line's kernels step through.
std::vector<uint32_t> byStart(const EventTable& events, std::span<const uint32_t> rows);

}  // namespace stackline
