#include "hotspots_text.h"

#include <cstdio>
#include <iostream>

using namespace stackline;

namespace cli {

void printHotspotsTable(const HotspotTotals& t, std::size_t top) {
    char line[200];
    std::snprintf(line, sizeof line, "GPU time of annotated kernels: %.1f us",
                  double(t.annotatedGpuNs) / 1e3);
    std::cout << line;
    if (t.byNameGpuNs) {
        std::snprintf(line, sizeof line, " (%.1f us matched by name: Stackline's rule, marked *)",
                      double(t.byNameGpuNs) / 1e3);
        std::cout << line;
    }
    std::snprintf(line, sizeof line, "; unresolved: %.1f us\n\n", double(t.unresolvedGpuNs) / 1e3);
    std::cout << line << "   self us   total us  launches  kernels  source\n";
    for (std::size_t i = 0; i < t.lines.size() && i < top; ++i) {
        const LineTotals& l = t.lines[i];
        std::snprintf(line, sizeof line, "%10.1f %10.1f %9llu %8zu  ", double(l.selfNs) / 1e3,
                      double(l.totalNs) / 1e3, static_cast<unsigned long long>(l.launches),
                      l.kernels.size());
        std::cout << line << l.file << ":" << l.line
                  << (l.function.empty() ? "" : " in " + l.function);
        if (l.byNameLaunches) std::cout << "  *" << l.byNameLaunches << " matched by name";
        std::cout << "\n";
        if (!l.code.empty()) std::cout << std::string(42, ' ') << l.code << "\n";
    }
}

void printManyHotspots(const std::vector<TraceHotspots>& traces, std::size_t top) {
    char line[160];
    std::cout << "annotated us  unresolved us   lines  trace\n";
    for (const TraceHotspots& t : traces) {
        std::snprintf(line, sizeof line, "%12.1f %14.1f %7zu  ",
                      double(t.totals.annotatedGpuNs) / 1e3, double(t.totals.unresolvedGpuNs) / 1e3,
                      t.totals.lines.size());
        std::cout << line << t.trace << "\n";
    }
    std::cout << "\ntotal of " << traces.size() << " traces: ";
    printHotspotsTable(sumOfTraces(traces), top);
}

}  // namespace cli
