// Two runs compared by Python source line: what got slower, and where. Lines are matched by
// (file, function, the line's text) so that an edit shifting line numbers does not make every
// line new; kernels by name, and names that differ only in Inductor's trailing index when their
// source line and fused ops agree (a recompile renames them).
//
// Each run's times are those of computeHotspots (hotspots.h), in integer nanoseconds: a kernel's
// self time is split among the distinct innermost lines of its stacks, the remainder of the
// integer division going one ns each to the first lines in stack order, so that self times add
// up to the GPU time charged to lines; total time counts the kernel in full for every distinct
// line of its stacks.
//  - Lines: a line of one run is (file, line number) as in the hotspots. Across runs they match
//    by (file, function, code); a frame without code text (eager stacks, the short
//    "model.py:7 in forward" form) by (file, function, line number). Lines of one run with the
//    same key pair up in line-number order, the k-th with the k-th.
//  - Kernels: every GPU kernel counts (with or without a stack), by name. A name present in one
//    run only is matched as renamed with a name of the other run only that differs just in its
//    trailing "_<index>", when both have stacks charging the same set of (matched) lines and,
//    when both runs' kernel information lists them, the same post_grad_nodes (the fused ops).
//    Candidates pair in name order.
//  - Steps: when both runs have ProfilerStep#N spans and their counts differ, times are compared
//    per step (time / steps, rounded to the nearest ns): deltas, ratios and the order use those.
//    Launch counts stay totals.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/kernel_stacks.h"
#include "annotate/provenance.h"
#include "kernel_info/kernel_info.h"
#include "model/trace.h"

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

// A kernel's time is RunSide::totalNs (selfNs stays 0).
struct DiffKernel {
    std::string baseName, nextName;  // equal unless matched as a rename
    bool renamed = false;
    RunSide base, next;
    int64_t deltaNs() const { return next.totalNs - base.totalNs; }
};

struct RunDiff {
    // By |delta(...)| (compared times: per step when perStep()), largest first; then by the
    // larger compared time.
    std::vector<DiffLine> lines;            // delta of self time
    std::vector<DiffKernel> kernels;        // delta of time
    uint64_t baseSteps = 0, nextSteps = 0;  // ProfilerStep#N spans in each run
    // Times per step are compared when both runs have steps and their counts differ.
    bool perStep() const { return baseSteps && nextSteps && baseSteps != nextSteps; }
    // A time of one run as compared: per step when perStep(), else as is.
    int64_t compared(int64_t ns, bool next) const;
    // The change in compared time (self time for lines, time for kernels); ratioOf their ratio.
    int64_t delta(const DiffLine& l) const;
    int64_t delta(const DiffKernel& k) const;
};

// next / base; none when base is 0 (new in the next run).
std::optional<double> ratioOf(int64_t base, int64_t next);

struct RunInput {
    const Trace* trace = nullptr;
    const Provenance* provenance = nullptr;
    KernelStacksOptions options;  // eager stacks, range
    // The fused ops (post_grad_nodes) of renamed kernels; nullptr: compare by stacks only.
    const KernelInfo* kernelInfo = nullptr;
};
RunDiff diffRuns(const RunInput& base, const RunInput& next);
// Every time in integer ns, "base" and "new" sides (null when absent). When per_step, each side
// also has its times per step, and delta_ns and ratio are computed on those. top limits the lines
// and the kernels listed.
OrderedJson runDiffJson(const RunDiff& diff, std::size_t top);

}  // namespace stackline
