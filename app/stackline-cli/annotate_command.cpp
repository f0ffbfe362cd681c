// annotate: the trace with each kernel's stack, the report and the timings.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <thread>
#include <vector>

#include "annotate/exporter.h"
#include "annotate/summary_report.h"
#include "base/file_system.h"
#include "cli_options.h"
#include "command_support.h"
#include "commands.h"
#include "import/trace_formats.h"
#include "io/trace_bytes.h"

using namespace stackline;

namespace cli {

namespace {

// Wall-clock and CPU (all threads, user and system) time of one phase, for --timings.
struct PhaseTimer {
    struct Times {
        double wall = 0, user = 0, sys = 0;
    };
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
    Times cpuStart = cpu();

    static Times cpu() {
        rusage u{};
        getrusage(RUSAGE_SELF, &u);
        auto s = [](const timeval& t) { return double(t.tv_sec) + double(t.tv_usec) / 1e6; };
        return {0, s(u.ru_utime), s(u.ru_stime)};
    }
    Times elapsed() const {
        Times now = cpu();
        return {std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
                now.user - cpuStart.user, now.sys - cpuStart.sys};
    }
};

// Tests rewrite the input at this point, with the trace loaded and not yet exported
// (tests/scenarios/tst_cli.cpp): given STACKLINE_TEST_PAUSE_BEFORE_EXPORT=FILE, FILE is created and
// the export waits until it is gone (30 s at most).
void pauseForTests() {
    const char* flag = std::getenv("STACKLINE_TEST_PAUSE_BEFORE_EXPORT");
    if (!flag) return;
    std::ofstream{flag};
    for (int i = 0; i < 3000 && isRegularFile(flag); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
}

}  // namespace

int annotate(const Args& a) {
    if (a.out.empty()) usageError("annotate needs -o OUT");
    // A pipe's trace is a copy: there is no file to rewrite.
    if (a.inPlace && isStandardInput(a.trace))
        usageError(
            "--in-place rewrites the trace file, and standard input (-) is none: "
            "write the annotated trace to -o OUT");
    // The pipeline's stages one by one, so that the export overlaps the summary.
    PipelineInput in = pipelineInput(a);
    in.requireKernelInfo = true;
    in.load.threads = a.threads;
    in.load.nanoseconds = false;  // nothing here displays times
    CliObserver observer;
    PhaseTimer t0;
    std::shared_ptr<Trace> loaded = readTraceStage(in, observer);
    Trace& trace = *loaded;
    if (a.inPlace)
        if (std::string why = inPlaceRefusal(trace); !why.empty()) usageError(why + " (-o OUT)");
    // Only a spliced export reads nothing but the bytes: a new Chrome JSON is written from the
    // event table's columns.
    const bool splicing = formatOf(trace).annotatedExport == AnnotatedExport::Splice;
    LoadedKernelInfo info = readKernelInfoStage(in, trace, observer);
    PhaseTimer::Times load = t0.elapsed();

    PhaseTimer t1;
    Provenance p = provenanceStage(in, trace, info.info, observer);
    PhaseTimer::Times process = t1.elapsed();

    // Meanwhile, on another core: the summary and report are made, then the columns the export
    // does not read are freed, rather than at exit (docs/performance.md#teardown).
    // Why the kernel information gave nothing, where that is known, once per message (the notes
    // of loading were printed as they came); rendered here, while the names are there.
    Summary s;
    std::string report;
    std::vector<std::string> notes;
    std::jthread aside([&] {  // joined on every way out
        s = summaryStage(trace, p, observer);
        if (!a.report.empty()) report = dumpJson(reportJson(trace, p), 1) + "\n";
        std::vector<Diagnostic> said;
        for (const Diagnostic& d : p.diagnostics)
            if ((d.kind == DiagnosticKind::NoCompiledRegion ||
                 d.kind == DiagnosticKind::MatchedByName) &&
                std::none_of(said.begin(), said.end(),
                             [&](const Diagnostic& e) { return e.sameText(d); })) {
                said.push_back(d);
                notes.push_back(p.diagnostics.message(d, trace.events));
            }
        if (splicing) trace.events.takeProcessingColumns();  // freed here, on this core
    });
    PhaseTimer t2;
    ExportOptions eo;
    eo.allowOverwriteInput = a.inPlace;
    eo.consumeInput = splicing;  // the summary and report beside it read the tables, not the bytes
    eo.threads = a.threads;
    pauseForTests();
    exportTrace(trace, p, a.out, eo);
    aside.join();
    if (!a.report.empty()) writeFile(a.report, report);
    PhaseTimer::Times exportTime = t2.elapsed();

    // Stacks matched by name are not in the output: not counted as carried.
    std::cerr << "annotated " << p.writtenCount << " events; "
              << s.annotatedKernels - s.matchedByName << " of " << s.kernels
              << " GPU kernels carry a stack, " << s.unresolvedKernels << " unresolved; "
              << p.diagnostics.size() << " diagnostics\n";
    for (const std::string& note : notes) std::cerr << "note: " << note << "\n";
    if (a.timings) {
        char line[256];
        std::snprintf(line, sizeof line, "timings: load=%.3f process=%.3f export=%.3f\n", load.wall,
                      process.wall, exportTime.wall);
        std::cerr << line;
        std::snprintf(line, sizeof line,
                      "cpu (user+system, all threads): load=%.2f+%.2f process=%.2f+%.2f "
                      "export=%.2f+%.2f\n",
                      load.user, load.sys, process.user, process.sys, exportTime.user,
                      exportTime.sys);
        std::cerr << line;
    }
    // Done: leave without destroying the trace's tables, which the system frees at once
    // (docs/performance.md#teardown).
    std::cout.flush();
    std::cerr.flush();
    std::_Exit(0);
}

}  // namespace cli
