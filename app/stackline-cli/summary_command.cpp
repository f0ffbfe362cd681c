// summary: the trace's counts, or with --range the aggregates of a time range.
#include <cstdio>
#include <iostream>

#include "analysis/range_option.h"
#include "analysis/range_summary.h"
#include "annotate/summary_report.h"
#include "cli_options.h"
#include "command_support.h"
#include "commands.h"

using namespace stackline;

namespace cli {

namespace {

int rangeSummary(const Args& a) {
    std::string error;
    const std::optional<TimeRange> parsed = parseRangeOption(a.range, &error);
    if (!parsed) usageError(error);
    const TimeRange relative = *parsed;
    CliObserver observer;
    PipelineInput input = pipelineInput(a);
    input.displayIndexes = true;
    const LoadedTrace loaded = runLoadPipeline(input, observer);
    const Trace& trace = *loaded.trace;
    const TrackIndex& tracks = loaded.indexes.tracks;
    const int64_t origin = loaded.indexes.originNs;
    const TimeRange range = fromOrigin(relative, origin);
    const RangeSummary s = summarizeRange(trace, loaded.provenance, tracks, range);
    if (a.json) {
        std::cout << dumpJson(rangeSummaryJson(s, tracks, origin, a.top), 1) << "\n";
        return 0;
    }
    char line[200];
    std::snprintf(line, sizeof line, "range: %.3f us to %.3f us (%.3f us)\n\n",
                  double(relative.start) / 1e3, double(relative.end) / 1e3,
                  double(range.length()) / 1e3);
    std::cout << line << "     count    wall us     avg us    self us  share  name (process)\n";
    for (const SliceTotals& t : s.slices) {
        std::snprintf(line, sizeof line, "%10llu %10.3f %10.3f %10.3f %5.1f%%  ",
                      static_cast<unsigned long long>(t.count), double(t.wallNs) / 1e3,
                      double(t.averageNs()) / 1e3, double(t.selfNs) / 1e3,
                      100.0 * double(t.wallNs) / double(range.length()));
        std::cout << line << t.name << " (" << tracks.processes()[t.process].label() << ")\n";
    }
    std::cout << "\n   busy us    idle us  comm overlap us  stream\n";
    for (const StreamTotals& st : s.streams) {
        const Track& track = tracks.tracks()[st.track];
        std::snprintf(line, sizeof line, "%10.3f %10.3f %16.3f  ", double(st.busyNs) / 1e3,
                      double(st.idleNs) / 1e3, double(st.commOverlapNs) / 1e3);
        std::cout << line << tracks.processes()[track.process].label() << " " << track.name << "\n";
    }
    std::snprintf(line, sizeof line,
                  "\nGPU time by Python line (annotated %.3f us, unresolved %.3f us):\n",
                  s.hotspots.annotatedGpuUs, s.hotspots.unresolvedGpuUs);
    std::cout << line;
    for (std::size_t i = 0; i < s.hotspots.lines.size() && i < a.top; ++i) {
        const SourceLine& l = s.hotspots.lines[i];
        std::snprintf(line, sizeof line, "%10.3f %10.3f  ", l.selfUs, l.totalUs);
        std::cout << line << l.file << ":" << l.line << "\n";
    }
    return 0;
}

}  // namespace

int summary(const Args& a) {
    if (!a.range.empty()) return rangeSummary(a);
    CliObserver observer;
    PipelineInput input = pipelineInput(a);
    input.displayIndexes = true;  // the count of eager stacks
    const LoadedTrace loaded = runLoadPipeline(input, observer);
    const Summary& s = loaded.summary;
    if (a.json) {
        std::cout << dumpJson(summaryJson(s), 1) << "\n";
        return 0;
    }
    std::cout << "trace:              " << a.trace << "\n"
              << "events:             " << s.events << "\n"
              << "tracks:             " << s.tracks << "\n"
              << "GPU kernels:        " << s.kernels << "\n"
              << "compiled regions:   " << s.compiledRegions << "\n"
              << "annotated kernels:  " << s.annotatedKernels << "\n";
    if (s.matchedByName)
        std::cout << "  matched by name:  " << s.matchedByName
                  << " (Stackline's rule, not the reference's; annotate does not write them)\n";
    std::cout << "unresolved kernels: " << s.unresolvedKernels << "\n"
              << "eager stacks:       " << *s.eagerStacks << "\n"
              << "diagnostics:" << (s.diagnostics.empty() ? " none" : "") << "\n";
    for (auto& [kind, count] : s.diagnostics) std::cout << "  " << kind << ": " << count << "\n";
    if (!s.kernelInfoNotes.empty()) {
        std::cout << "kernel information notes:\n";
        for (const std::string& note : s.kernelInfoNotes) std::cout << "  " << note << "\n";
    }
    return 0;
}

}  // namespace cli
