// Commands over many traces (hotspots, steps): each trace loaded, used and released by one of
// --jobs workers, so that at most that many are in memory at once, whatever the number of traces.
#pragma once

#include <cstddef>
#include <functional>

#include "pipeline/load_pipeline.h"

namespace cli {

struct Args;

// Calls load(i, input, observer) for each of a.inputs on one of the workers: input is
// pipelineInput(a) for that trace, loading with --threads threads (default: the cores divided
// among the jobs), and observer tells what loading finds on stderr, a line at a time naming the
// trace. load runs the stages it needs and keeps what it wants of the trace, which is released
// when it returns. The first trace to fail (in the order given) stops the others: throws
// InputError naming it.
void forEachTrace(const Args& a, const std::function<void(std::size_t, stackline::PipelineInput&,
                                                          stackline::LoadObserver&)>& load);

}  // namespace cli
