// diff: two runs compared by Python source line and by kernel (core/analysis/run_diff.h).
#include <cstdio>
#include <iostream>
#include <limits>

#include "analysis/run_diff.h"
#include "cli_options.h"
#include "command_support.h"
#include "commands.h"

using namespace stackline;

namespace cli {
namespace {

// One run as the other commands load it, with its eager stacks when asked.
struct LoadedRun {
    LoadedTrace loaded;
    bool withEager = false;
    RunInput input() const {
        RunInput in{loaded.trace.get(), &loaded.provenance, {}, &loaded.kernelInfo.info};
        if (withEager) in.options.eager = &loaded.indexes.eager;
        return in;
    }
};

LoadedRun loadRun(const std::string& trace, const std::string& kernelInfo, bool eager) {
    CliObserver observer;
    PipelineInput in;
    in.tracePath = trace;
    in.kernelInfoPath = kernelInfo;
    in.displayIndexes = eager;
    return {runLoadPipeline(in, observer), eager};
}

std::string us(int64_t ns) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", double(ns) / 1000.0);
    return text;
}

// "+1.5", "-2.0"; "0.0" when it rounds to nothing.
std::string signedUs(int64_t ns) {
    const std::string text = us(ns);
    return text == "0.0" || text == "-0.0" ? "0.0" : (ns > 0 ? "+" : "") + text;
}

std::string ratio(int64_t base, int64_t next) {
    if (!base) return next ? "new" : "-";
    if (!next) return "gone";
    char text[32];
    std::snprintf(text, sizeof text, "%.2fx", *ratioOf(base, next));
    return text;
}

std::string lineNumber(const RunSide& s) {
    return s.count ? std::to_string(s.line) : "-";
}

void printRow(int64_t base, int64_t next, int64_t delta, const std::string& what) {
    char row[96];
    std::snprintf(row, sizeof row, "%12s %12s %12s %8s  ", us(base).c_str(), us(next).c_str(),
                  signedUs(delta).c_str(), ratio(base, next).c_str());
    std::cout << row << what << "\n";
}

void printText(const RunDiff& d, std::size_t top) {
    const char* unit = d.perStep() ? "us/step" : "us";
    std::cout << "Python lines by change in self GPU time (" << unit << "), "
              << std::min(top, d.lines.size()) << " of " << d.lines.size() << ":\n";
    std::cout << "        base          new        delta    ratio  source (line base→new)\n";
    for (std::size_t i = 0; i < d.lines.size() && i < top; ++i) {
        const DiffLine& l = d.lines[i];
        printRow(d.compared(l.base.selfNs, false), d.compared(l.next.selfNs, true), d.delta(l),
                 l.file + ":" + lineNumber(l.base) + "→" + lineNumber(l.next) +
                     (l.function.empty() ? "" : " in " + l.function));
        if (!l.code.empty()) std::cout << std::string(48, ' ') << l.code << "\n";
    }
    std::cout << "\nKernels by change in GPU time (" << unit << "), "
              << std::min(top, d.kernels.size()) << " of " << d.kernels.size() << ":\n";
    std::cout << "        base          new        delta    ratio  kernel (launches base→new)\n";
    for (std::size_t i = 0; i < d.kernels.size() && i < top; ++i) {
        const DiffKernel& k = d.kernels[i];
        std::string name = k.renamed ? k.baseName + " → " + k.nextName + " (renamed)" : k.baseName;
        printRow(
            d.compared(k.base.totalNs, false), d.compared(k.next.totalNs, true), d.delta(k),
            name + " (" + std::to_string(k.base.count) + "→" + std::to_string(k.next.count) + ")");
    }
    std::cout << "\n";
    if (d.perStep())
        std::cout << "Times are per profiler step: base " << d.baseSteps << " steps, new "
                  << d.nextSteps << " steps.\n";
    else
        std::cout << "Times are totals over each run (ProfilerStep#N spans: base " << d.baseSteps
                  << ", new " << d.nextSteps << ").\n";
}

}  // namespace

int diff(const Args& a) {
    const LoadedRun base = loadRun(a.trace, a.kernelInfo, a.eager);
    const LoadedRun next = loadRun(a.newTrace, a.newKernelInfo, a.eager);
    const RunDiff d = diffRuns(base.input(), next.input());
    if (a.json)
        std::cout << dumpJson(runDiffJson(d, std::numeric_limits<std::size_t>::max()), 1) << "\n";
    else
        printText(d, a.top);
    return 0;
}

}  // namespace cli
