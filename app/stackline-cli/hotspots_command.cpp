// hotspots: GPU kernel time by Python source line, or by call path as folded stacks.
#include <cstdio>
#include <iostream>

#include "cli_options.h"
#include "command_support.h"
#include "commands.h"
#include "flame_graph.h"
#include "hotspots.h"

using namespace stackline;

namespace cli {

int hotspots(const Args& a) {
    CliObserver observer;
    const LoadedTrace loaded = runLoadPipeline(pipelineInput(a), observer);
    KernelStacksOptions options;
    const EagerStacks eager = a.eager ? eagerStacksOf(loaded) : EagerStacks();
    if (a.eager) options.eager = &eager;
    if (a.folded) {
        std::cout << foldedStacks(gpuFlameGraph(*loaded.trace, loaded.provenance, options));
        return 0;
    }
    Hotspots h = computeHotspots(*loaded.trace, loaded.provenance, options);
    if (a.json) {
        std::cout << dumpJson(hotspotsJson(h, a.top), 1) << "\n";
        return 0;
    }
    char line[160];
    std::snprintf(line, sizeof line,
                  "GPU time of annotated kernels: %.1f us; unresolved: %.1f us\n\n",
                  h.annotatedGpuUs, h.unresolvedGpuUs);
    std::cout << line << "   self us   total us  launches  kernels  source\n";
    for (std::size_t i = 0; i < h.lines.size() && i < a.top; ++i) {
        const SourceLine& l = h.lines[i];
        std::snprintf(line, sizeof line, "%10.1f %10.1f %9llu %8zu  ", l.selfUs, l.totalUs,
                      static_cast<unsigned long long>(l.launches), l.kernels.size());
        std::cout << line << l.file << ":" << l.line
                  << (l.function.empty() ? "" : " in " + l.function) << "\n";
        if (!l.code.empty()) std::cout << std::string(42, ' ') << l.code << "\n";
    }
    return 0;
}

}  // namespace cli
