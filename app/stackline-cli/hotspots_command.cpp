// hotspots: GPU kernel time by Python source line, or by call path as folded stacks; given several
// traces, each one's lines and their total.
#include <iostream>
#include <optional>

#include "analysis/flame_graph.h"
#include "analysis/hotspots.h"
#include "cli_options.h"
#include "command_support.h"
#include "commands.h"
#include "hotspots_text.h"
#include "trace_workers.h"

using namespace stackline;

namespace cli {

namespace {

Hotspots hotspotsOf(const LoadedTrace& loaded, bool eager) {
    KernelStacksOptions options;
    if (eager) options.eager = &loaded.indexes.eager;
    return computeHotspots(*loaded.trace, loaded.provenance, options);
}

// Each trace is loaded, counted and released by one of the workers (forEachTrace).
int manyHotspots(const Args& a) {
    std::vector<std::optional<HotspotTotals>> results(a.inputs.size());
    forEachTrace(a, [&](std::size_t i, PipelineInput& in, LoadObserver& observer) {
        in.displayIndexes = a.eager;
        results[i] = hotspotTotalsOf(hotspotsOf(runLoadPipeline(in, observer), a.eager));
    });
    std::vector<TraceHotspots> traces;
    for (std::size_t i = 0; i < a.inputs.size(); ++i)
        traces.push_back({a.inputs[i], std::move(*results[i])});
    if (a.json)
        std::cout << dumpJson(manyHotspotsJson(traces), 1) << "\n";
    else
        printManyHotspots(traces, a.top);
    return 0;
}

}  // namespace

int hotspots(const Args& a) {
    if (a.inputs.size() > 1) {
        if (a.folded) usageError("--folded takes one TRACE");
        return manyHotspots(a);
    }
    CliObserver observer;
    PipelineInput input = pipelineInput(a);
    input.displayIndexes = a.eager;
    const LoadedTrace loaded = runLoadPipeline(input, observer);
    if (a.folded) {
        KernelStacksOptions options;
        if (a.eager) options.eager = &loaded.indexes.eager;
        std::cout << foldedStacks(gpuFlameGraph(*loaded.trace, loaded.provenance, options));
        return 0;
    }
    const HotspotTotals totals = hotspotTotalsOf(hotspotsOf(loaded, a.eager));
    if (a.json)
        std::cout << dumpJson(traceHotspotsJson({a.trace, totals}), 1) << "\n";
    else
        printHotspotsTable(totals, a.top);
    return 0;
}

}  // namespace cli
