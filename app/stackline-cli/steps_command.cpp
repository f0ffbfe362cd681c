// steps: per profiler step and rank, the step's duration, GPU compute, collective and idle time,
// and the straggler, from each trace's summary (analysis/rank_steps.h); several traces load at
// once, each released once summarized, so that a job of any size fits.
#include "analysis/rank_steps.h"
#include "cli_options.h"
#include "commands.h"
#include "steps_output.h"
#include "trace_workers.h"

using namespace stackline;

namespace cli {

int steps(const Args& a) {
    std::vector<RankStepSummary> ranks(a.inputs.size());
    // The trace and its indexes (the launch flows) are all a summary needs: no kernel
    // information, no provenance.
    forEachTrace(a, [&](std::size_t i, PipelineInput& in, LoadObserver& observer) {
        in.indexSet = IndexSet::Flows;
        const std::shared_ptr<const Trace> trace = traceStage(in, observer);
        ranks[i] = summarizeRankSteps(*trace, indexesStage(in, *trace, observer).flows);
        ranks[i].trace = a.inputs[i];
    });
    refuseOtherJobs(ranks);
    printSteps(a, ranks);
    return 0;
}

}  // namespace cli
