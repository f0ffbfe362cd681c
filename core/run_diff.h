// Two runs compared by Python source line: what got slower, and where. Lines are matched by
// (file, function, the line's text) so that an edit shifting line numbers does not make every
// line new; kernels by name, and names that differ only in Inductor's trailing index when their
// source line and fused ops agree (a recompile renames them).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernel_info.h"
#include "kernel_stacks.h"
#include "provenance.h"
#include "trace.h"

namespace stackline {

// One run's side of a row; count 0: absent from that run.
struct RunSide {
    int line = 0;  // the line number in this run (DiffLine only)
    int64_t selfNs = 0, totalNs = 0;
    uint64_t count = 0;          // launches
    std::vector<uint32_t> rows;  // the kernel events, in this run's trace
};

struct DiffLine {
    std::string file, function, code;
    RunSide base, next;
    int64_t deltaNs() const { return next.selfNs - base.selfNs; }
};

struct DiffKernel {
    std::string baseName, nextName;  // equal unless matched as a rename
    bool renamed = false;
    RunSide base, next;
    int64_t deltaNs() const { return next.totalNs - base.totalNs; }
};

struct RunDiff {
    std::vector<DiffLine> lines;            // by |delta| of self time, largest first
    std::vector<DiffKernel> kernels;        // by |delta|, largest first
    uint64_t baseSteps = 0, nextSteps = 0;  // ProfilerStep#N spans in each run
    // Times per step are compared when both runs have steps and their counts differ.
    bool perStep() const { return baseSteps && nextSteps && baseSteps != nextSteps; }
};

struct RunInput {
    const Trace* trace = nullptr;
    const Provenance* provenance = nullptr;
    KernelStacksOptions options;  // eager stacks, range
};
RunDiff diffRuns(const RunInput& base, const RunInput& next);
OrderedJson runDiffJson(const RunDiff& diff, std::size_t top);

}  // namespace stackline
