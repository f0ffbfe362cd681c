// Hotspots as numbers that add up across traces: per Python line, integer nanoseconds, launches
// and the set of kernel names. This is what `stackline-cli hotspots --json` writes and `merge`
// reads back, so that results computed on many machines sum exactly.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analysis/hotspots.h"
#include "kernel_info/kernel_info.h"

namespace stackline {

struct LineTotals {
    std::string file;
    int line = 0;
    std::string function;
    std::string code;
    int64_t selfNs = 0;
    int64_t totalNs = 0;
    uint64_t launches = 0;
    uint64_t byNameLaunches = 0;    // of those, stacks matched by name (StackOrigin::MatchedByName)
    std::set<std::string> kernels;  // distinct kernel names
};

struct HotspotTotals {
    std::vector<LineTotals> lines;  // by self time, then total time, largest first; then by
                                    // (file, line), as Hotspots lists them
    int64_t annotatedGpuNs = 0;     // the sum of the lines' self time
    int64_t unresolvedGpuNs = 0;
    int64_t byNameGpuNs = 0;  // of annotatedGpuNs, kernels whose stacks were matched by name
};

HotspotTotals hotspotTotalsOf(const Hotspots& h);

// Adds results up, in the order given: a line's function and code are the first non-empty ones
// seen, so the sum depends on the order of its parts only there.
class HotspotSum {
public:
    void add(const HotspotTotals& t);
    HotspotTotals result() const;

private:
    std::map<std::pair<std::string, int>, LineTotals> lines_;
    int64_t annotatedGpuNs_ = 0, unresolvedGpuNs_ = 0, byNameGpuNs_ = 0;
};

// Every line (no --top here: the JSON is for adding up). Times in integer nanoseconds and, for
// reading, in microseconds. What was matched by name ("matched_by_name_gpu_ns", a line's
// "matched_by_name_launches") is written only where there is any, and read as 0 where absent.
OrderedJson hotspotTotalsJson(const HotspotTotals& t);

// Reads hotspotTotalsJson's output back; throws InputError saying what is missing or
// inconsistent (a line's self times not adding up to the annotated time, say).
HotspotTotals hotspotTotalsFromJson(const OrderedJson& j);

// One trace's totals, named as the trace was given (on hotspots' command line, to load()).
struct TraceHotspots {
    std::string trace;
    HotspotTotals totals;
};

// The traces' totals summed in the order given.
HotspotTotals sumOfTraces(const std::vector<TraceHotspots>& traces);

// {"trace": ..., "lines": [...], ...}: one trace's result, as hotspots TRACE --json writes it.
OrderedJson traceHotspotsJson(const TraceHotspots& t);

// {"traces": [traceHotspotsJson...], "total": {"trace_count": N, "lines": [...], ...}}, the
// total summed in the order given: what hotspots TRACE... --json writes.
OrderedJson manyHotspotsJson(const std::vector<TraceHotspots>& traces);

// The traces of a hotspots --json result read back: hotspots TRACE's one, or hotspots TRACE...'s
// several, whose total must be theirs. Throws InputError saying what is wrong.
std::vector<TraceHotspots> hotspotsResultTraces(const OrderedJson& j);

}  // namespace stackline
