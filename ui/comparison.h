// Two runs of one program opened to be compared (File → Compare With…): the trace shown is the
// base run, another one the new run. Both are labelled as such, and their clocks are lined up on
// the start of the first profiler step both have (by their recorded clocks when either has none),
// so that one step of each is shown one above the other.
#pragma once

#include <QString>
#include <cstdint>
#include <memory>
#include <vector>

#include "background_job.h"
#include "document.h"
#include "load_job.h"

struct Comparison {
    std::shared_ptr<Document> base, next;
    std::vector<int64_t> offsets;  // per run, onto the window's time axis (ViewerState::setOffsets)
    int64_t alignedStep = -1;      // the ProfilerStep#N lined up; -1: by clock
};

// Loads the new run off the GUI thread and relabels the base one ("base: <file>", "new: <file>");
// throws as loadDocument does.
Comparison loadComparison(const Document& base, const LoadRequest& next,
                          BackgroundJob::Context& context);
// The offsets that line up two traces on their first common ProfilerStep#N, and N (-1: none in
// common, the offsets are by clock).
std::pair<std::vector<int64_t>, int64_t> stepAlignment(const stackline::Trace& base,
                                                       const stackline::Trace& next);
