// GPU time per Python source line: which line of the model costs the most GPU time.
//  - self time: an annotated GPU kernel's duration is split evenly among the distinct innermost
//    frames (file, line) of its stack strings, in integer nanoseconds, the remainder going one
//    nanosecond each to the first frames, so self times add up exactly to the annotated GPU time;
//    the innermost frame with a line number, so that an eager kernel is charged to the Python
//    line that called the built-in op (which stays in the total time and the flame graph);
//  - total time: the kernel counts in full for every distinct frame anywhere in its stacks.
// A stack string without a recognisable frame counts as one pseudo-line named by the string.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/kernel_stacks.h"
#include "annotate/provenance.h"
#include "model/trace.h"

namespace stackline {

struct SourceLine {
    std::string file;
    int line = 0;
    std::string function;
    std::string code;
    int64_t selfNs = 0;
    int64_t totalNs = 0;
    double selfUs = 0;                 // selfNs / 1000, for display
    double totalUs = 0;                // totalNs / 1000
    uint64_t launches = 0;             // kernel events whose stacks contain the line
    uint64_t guessedLaunches = 0;      // of those, stacks guessed (StackOrigin::SingleStack)
    uint64_t byNameLaunches = 0;       // of those, stacks matched by name (MatchedByName)
    std::vector<std::string> kernels;  // distinct kernel names
    std::vector<uint32_t> rows;        // those kernel events
};

struct Hotspots {
    std::vector<SourceLine> lines;  // by self time, then total time, largest first
    int64_t annotatedGpuNs = 0;     // kernels charged to lines (with options.eager, eager ones too)
    int64_t unresolvedGpuNs = 0;
    int64_t byNameGpuNs = 0;    // of annotatedGpuNs, kernels whose stacks were matched by name
    double annotatedGpuUs = 0;  // annotatedGpuNs / 1000, for display
    double unresolvedGpuUs = 0;
};

// Over the kernels of options.range (clipped); with options.eager, eager kernels count too.
Hotspots computeHotspots(const Trace& trace, const Provenance& provenance,
                         const KernelStacksOptions& options = {});

}  // namespace stackline
