// GPU time per source line over several traces side by side (the ranks of a job): each trace's
// hotspot lines matched by file, line and function, with each trace's self time and the sums.
#pragma once

#include <vector>

#include "analysis/hotspots.h"

namespace stackline {

struct RankedLine {
    // file, line, function, code; times, launches, guessed and by-name launches summed over the
    // traces; kernels: their distinct names. No rows: event rows belong to one trace (see rows).
    SourceLine sum;
    std::vector<double> selfUs;               // per trace; 0 where it has no such line
    std::vector<std::vector<uint32_t>> rows;  // per trace: the line's kernel events there
};

struct RankedHotspots {
    std::vector<RankedLine> lines;  // by summed self time, largest first
    double annotatedGpuUs = 0;      // summed over the traces
    double unresolvedGpuUs = 0;
};

RankedHotspots rankHotspots(const std::vector<const Hotspots*>& perTrace);

}  // namespace stackline
