// hotspots: GPU kernel time by Python source line, or by call path as folded stacks; given several
// traces, each one's lines and their total.
#include <algorithm>
#include <atomic>
#include <iostream>
#include <mutex>
#include <new>
#include <optional>
#include <thread>

#include "analysis/flame_graph.h"
#include "analysis/hotspots.h"
#include "cli_options.h"
#include "command_support.h"
#include "commands.h"
#include "hotspot_results.h"
#include "io/trace_bytes.h"

using namespace stackline;

namespace cli {

namespace {

Hotspots hotspotsOf(const LoadedTrace& loaded, bool eager) {
    KernelStacksOptions options;
    if (eager) options.eager = &loaded.indexes.eager;
    return computeHotspots(*loaded.trace, loaded.provenance, options);
}

// What loading tells, a whole line at a time and naming the trace, since traces load at once.
struct TraceObserver : LoadObserver {
    explicit TraceObserver(std::string trace) : trace(std::move(trace)) {}
    void kernelInfoFound(const std::string& path) override { say("kernel information: " + path); }
    void kernelInfoRead(const LoadedKernelInfo& k) override {
        for (const std::string& note : k.info.notes()) say("kernel information: note: " + note);
    }
    void say(const std::string& what) const {
        static std::mutex m;
        std::lock_guard lock(m);
        std::cerr << trace << ": " << what << "\n";
    }
    std::string trace;
};

// Each trace is loaded, counted and released by one of the workers; at most `jobs` traces are in
// memory at once. The first failing trace (in the order given) stops the others.
int manyHotspots(const Args& a) {
    const std::size_t n = a.inputs.size();
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const unsigned jobs = unsigned(std::min<std::size_t>(a.jobs ? a.jobs : cores, n));
    std::vector<std::optional<HotspotTotals>> results(n);
    std::vector<std::string> errors(n);
    std::atomic<std::size_t> next{0};
    std::atomic<bool> failed{false};
    auto work = [&] {
        for (std::size_t i; !failed && (i = next++) < n;) {
            try {
                PipelineInput in = pipelineInput(a);
                in.tracePath = a.inputs[i];
                in.load.threads = a.threads ? a.threads : std::max(1u, cores / jobs);
                in.displayIndexes = a.eager;
                TraceObserver observer(a.inputs[i]);
                results[i] = hotspotTotalsOf(hotspotsOf(runLoadPipeline(in, observer), a.eager));
            } catch (const InputError& e) {
                errors[i] = e.what();
                failed = true;
            } catch (const std::bad_alloc&) {
                errors[i] = "out of memory";
                failed = true;
            } catch (const std::exception& e) {  // none expected; a worker must not throw
                errors[i] = e.what();
                failed = true;
            }
        }
    };
    {
        std::vector<std::jthread> workers;
        for (unsigned k = 0; k < jobs; ++k) workers.emplace_back(work);
    }
    for (std::size_t i = 0; i < n; ++i)
        if (!errors[i].empty()) {
            std::cerr << "stackline-cli: " << a.inputs[i] << ": " << errors[i] << "\n";
            return kExitInput;
        }
    std::vector<TraceHotspots> traces;
    for (std::size_t i = 0; i < n; ++i) traces.push_back({a.inputs[i], std::move(*results[i])});
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
