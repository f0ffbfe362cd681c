// GPU time per Python source line: which line of the model costs the most GPU time.
//  - self time: an annotated GPU kernel's duration is split evenly among the distinct innermost
//    frames (file, line) of its stack strings, so self times add up to the annotated GPU time;
//    the innermost frame with a line number, so that an eager kernel is charged to the Python
//    line that called the built-in op (which stays in the total time and the flame graph);
//  - total time: the kernel counts in full for every distinct frame anywhere in its stacks.
// A stack string without a recognisable frame counts as one pseudo-line named by the string.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernel_stacks.h"
#include "provenance.h"
#include "trace.h"

namespace stackline {

struct SourceLine {
    std::string file;
    int line = 0;
    std::string function;
    std::string code;
    double selfUs = 0;
    double totalUs = 0;
    uint64_t launches = 0;             // kernel events whose stacks contain the line
    uint64_t guessedLaunches = 0;      // of those, stacks guessed (StackOrigin::SingleStack)
    std::vector<std::string> kernels;  // distinct kernel names
    std::vector<uint32_t> rows;        // those kernel events
};

struct Hotspots {
    std::vector<SourceLine> lines;  // by self time, largest first
    double annotatedGpuUs = 0;      // kernels charged to lines (with options.eager, eager ones too)
    double unresolvedGpuUs = 0;
};

// Over the kernels of options.range (clipped); with options.eager, eager kernels count too.
Hotspots computeHotspots(const Trace& trace, const Provenance& provenance,
                         const KernelStacksOptions& options = {});
OrderedJson hotspotsJson(const Hotspots& h, std::size_t top);

}  // namespace stackline
