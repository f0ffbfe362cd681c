// stackline-cli: the headless entry point, for cluster nodes. Links the core only.
#include <sys/resource.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "eager_stacks.h"
#include "exporter.h"
#include "flame_graph.h"
#include "flow_index.h"
#include "hotspots.h"
#include "kernel_info.h"
#include "load_pipeline.h"
#include "range_summary.h"
#include "report.h"

using namespace stackline;

namespace {

constexpr int kExitOutput = 1;
constexpr int kExitInput = 2;

const char* kUsage = R"(usage:
  stackline-cli annotate TRACE [--kernel-info KINFO] -o OUT [--report REPORT.json] [--in-place]
                              [--timings] [--threads N]
  stackline-cli summary TRACE [--kernel-info KINFO] [--range START_US:END_US] [--json]
  stackline-cli hotspots TRACE [--kernel-info KINFO] [--top N] [--json | --folded] [--eager]
  stackline-cli kernel-info KINFO [-o OUT]

TRACE is a Chrome/Kineto trace (.json or .json.gz). KINFO is the kernel information: the
registry (JSON, as stackline_handler.py saves it), a TORCH_TRACE log (dedicated_log_torch_trace_*.log)
or its folder, a tlparse output folder, or AOTInductor's kernel_information.json. Without
--kernel-info, TRACE's "<name>.kernel_info.json" or "kernel_info.json" beside it is used when
present. OUT is written as gzip when it ends in .gz.

kernel-info reads KINFO in any of these forms and writes it as a registry file (to stdout without
-o): save it as "<trace without .json>.kernel_info.json" and the trace opens with its stacks.

summary --range summarizes [START_US, END_US): microseconds (up to 3 decimals) from the trace's
origin, the smallest ts of its events other than metadata (ph "M"), which is also the zero of the
viewer's ruler. Per name and process: the X slices overlapping the range, clipped to it (count,
wall, average and self time, share of the range); per GPU stream: busy and idle time and the time
its compute kernels overlap NCCL/RCCL kernels; GPU kernel time by Python line. --json gives
integer nanoseconds.

hotspots lists GPU kernel time by Python source line: self time (each annotated kernel's time
split among the innermost lines of its stacks) and total time (in full for every line of them).
With --folded it writes GPU time by Python call path as folded stacks ("frame;frame;frame NS",
frames outermost first as "file:line function", time in integer nanoseconds), the input of
flamegraph.pl, speedscope and Perfetto.
With --eager, kernels outside compiled regions count too, with their eager stack: the
python_function slices around their launch in a trace recorded with with_stack=True.

exit status: 0 success (also with diagnostics), 1 output error, 2 bad input or usage.
)";

struct Args {
    std::string command, trace, kernelInfo, out, report, range;
    bool json = false, inPlace = false, timings = false, folded = false, eager = false;
    unsigned threads = 0;
    std::size_t top = 20;
};

[[noreturn]] void usageError(const std::string& message) {
    std::cerr << "stackline-cli: " << message << "\n\n" << kUsage;
    std::exit(kExitInput);
}

Args parseArgs(int argc, char** argv) {
    Args a;
    std::vector<std::string> positional;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) usageError(arg + " needs a value");
            return argv[++i];
        };
        auto count = [&](unsigned long max) -> unsigned long {
            std::string v = value();
            unsigned long n = 0;
            auto [end, error] = std::from_chars(v.data(), v.data() + v.size(), n);
            if (error != std::errc() || end != v.data() + v.size() || v.empty() || n > max)
                usageError(arg + " needs a whole number up to " + std::to_string(max) + ", not '" +
                           v + "'");
            return n;
        };
        if (arg == "-h" || arg == "--help") {
            std::cout << kUsage;
            std::exit(0);
        } else if (arg == "--kernel-info") {
            a.kernelInfo = value();
        } else if (arg == "-o" || arg == "--output") {
            a.out = value();
        } else if (arg == "--range") {
            a.range = value();
        } else if (arg == "--report") {
            a.report = value();
        } else if (arg == "--eager") {
            a.eager = true;
        } else if (arg == "--json") {
            a.json = true;
        } else if (arg == "--folded") {
            a.folded = true;
        } else if (arg == "--in-place") {
            a.inPlace = true;
        } else if (arg == "--timings") {
            a.timings = true;
        } else if (arg == "--top") {
            a.top = count(1000000000);
        } else if (arg == "--threads") {
            a.threads = unsigned(count(1024));
        } else if (arg.size() > 1 && arg[0] == '-') {
            usageError("unknown option " + arg);
        } else {
            positional.push_back(arg);
        }
    }
    if (positional.empty()) usageError("no command given");
    a.command = positional[0];
    if (positional.size() != 2)
        usageError(a.command + (a.command == "kernel-info" ? " takes exactly one KINFO"
                                                           : " takes exactly one TRACE"));
    a.trace = positional[1];
    return a;
}

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

std::string dumpJson(const OrderedJson& j, int indent) {
    return j.dump(indent, ' ', false, OrderedJson::error_handler_t::replace);
}

// Throws OutputError, which main() reports.
void writeFile(const std::string& path, std::string_view text) {
    AtomicFile file(path);
    file.write(text);
    file.commit();
}

void printNotes(const KernelInfo& info) {
    for (const std::string& note : info.notes())
        std::cerr << "kernel information: note: " << note << "\n";
}

// What the commands tell while loading: the kernel information found beside the trace, and the
// notes of the one read.
struct CliObserver : LoadObserver {
    void kernelInfoFound(const std::string& path) override {
        std::cerr << "kernel information: " << path << "\n";
    }
    void kernelInfoRead(const LoadedKernelInfo& k) override { printNotes(k.info); }
};

// Tests rewrite the input at this point, with the trace loaded and not yet exported
// (tests/core/tst_cli.cpp): given STACKLINE_TEST_PAUSE_BEFORE_EXPORT=FILE, FILE is created and
// the export waits until it is gone (30 s at most).
void pauseForTests() {
    const char* flag = std::getenv("STACKLINE_TEST_PAUSE_BEFORE_EXPORT");
    if (!flag) return;
    std::ofstream{flag};
    for (int i = 0; i < 3000 && isRegularFile(flag); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
}

PipelineInput pipelineInput(const Args& a) {
    PipelineInput in;
    in.tracePath = a.trace;
    in.kernelInfoPath = a.kernelInfo;
    return in;
}

int annotate(const Args& a) {
    if (a.out.empty()) usageError("annotate needs -o OUT");
    // The pipeline's stages one by one, so that the export overlaps the summary.
    PipelineInput in = pipelineInput(a);
    in.requireKernelInfo = true;
    in.load.threads = a.threads;
    in.load.nanoseconds = false;  // nothing here displays times
    CliObserver observer;
    PhaseTimer t0;
    std::shared_ptr<Trace> loaded = readTraceStage(in, observer);
    Trace& trace = *loaded;
    LoadedKernelInfo info = readKernelInfoStage(in, trace, observer);
    PhaseTimer::Times load = t0.elapsed();

    PhaseTimer t1;
    Provenance p = provenanceStage(in, trace, info.info, observer);
    PhaseTimer::Times process = t1.elapsed();

    // Meanwhile, on another core: the summary and report are made, then the columns the export
    // does not read are freed, rather than at exit (docs/performance.md#teardown).
    Summary s;
    std::string report;
    std::jthread aside([&] {  // joined on every way out
        s = summaryStage(trace, p, observer);
        if (!a.report.empty()) report = dumpJson(reportJson(trace, p), 1) + "\n";
        EventTable::ProcessingColumns freed = trace.events.takeProcessingColumns();
    });
    PhaseTimer t2;
    ExportOptions eo;
    eo.allowOverwriteInput = a.inPlace;
    eo.threads = a.threads;
    pauseForTests();
    exportTrace(trace, p, a.out, eo);
    aside.join();
    if (!a.report.empty()) writeFile(a.report, report);
    PhaseTimer::Times exportTime = t2.elapsed();

    std::cerr << "annotated " << p.writtenCount << " events; " << s.annotatedKernels << " of "
              << s.kernels << " GPU kernels carry a stack, " << s.unresolvedKernels
              << " unresolved; " << p.diagnostics.size() << " diagnostics\n";
    // Why the kernel information gave nothing, where that is known, once per message (the notes
    // of loading were printed as they came).
    std::vector<std::string_view> said;
    for (const Diagnostic& d : p.diagnostics)
        if (d.kind == DiagnosticKind::NoCompiledRegion &&
            std::find(said.begin(), said.end(), d.message) == said.end()) {
            said.push_back(d.message);
            std::cerr << "note: " << d.message << "\n";
        }
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

// "START_US:END_US", microseconds with up to 3 decimals, as nanoseconds from the origin.
TimeRange parseRange(const std::string& text) {
    auto fail = [&]() -> int64_t {
        usageError("--range needs START_US:END_US (microseconds, up to 3 decimals), not '" + text +
                   "'");
    };
    auto ns = [&](std::string_view v) -> int64_t {
        const size_t dot = v.find('.');
        const std::string_view whole = v.substr(0, dot);
        const std::string_view frac = dot == v.npos ? std::string_view() : v.substr(dot + 1);
        if (whole.empty() || frac.size() > 3 || (dot != v.npos && frac.empty())) return fail();
        int64_t w = 0, f = 0;
        auto [end, error] = std::from_chars(whole.data(), whole.data() + whole.size(), w);
        if (error != std::errc() || end != whole.data() + whole.size() || w < 0 ||
            w > INT64_MAX / 1000 - 1)
            return fail();
        for (size_t i = 0; i < 3; ++i) {
            const char c = i < frac.size() ? frac[i] : '0';
            if (c < '0' || c > '9') return fail();
            f = f * 10 + (c - '0');
        }
        return w * 1000 + f;
    };
    const size_t colon = text.find(':');
    if (colon == std::string::npos) fail();
    TimeRange r{ns(std::string_view(text).substr(0, colon)),
                ns(std::string_view(text).substr(colon + 1))};
    if (r.end <= r.start) usageError("--range: END_US must be after START_US");
    return r;
}

int rangeSummary(const Args& a) {
    const TimeRange relative = parseRange(a.range);
    CliObserver observer;
    const LoadedTrace loaded = runLoadPipeline(pipelineInput(a), observer);
    const Trace& trace = *loaded.trace;
    const TrackIndex tracks = TrackIndex::build(trace.events, trace.text(), a.threads);
    const int64_t origin = traceOriginNs(trace.events);
    const TimeRange range{relative.start + origin, relative.end + origin};
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

// The eager stacks need the timeline's tracks and flows, which the load pipeline does not
// build.
EagerStacks eagerStacksOf(const LoadedTrace& loaded) {
    const TrackIndex tracks = TrackIndex::build(loaded.trace->events, loaded.trace->text());
    return EagerStacks::build(*loaded.trace, loaded.provenance, tracks,
                              FlowIndex::build(loaded.trace->events, tracks));
}

int summary(const Args& a) {
    if (!a.range.empty()) return rangeSummary(a);
    CliObserver observer;
    const LoadedTrace loaded = runLoadPipeline(pipelineInput(a), observer);
    Summary s = loaded.summary;
    s.eagerStacks = eagerStacksOf(loaded).count();
    if (a.json) {
        std::cout << dumpJson(summaryJson(s), 1) << "\n";
        return 0;
    }
    std::cout << "trace:              " << a.trace << "\n"
              << "events:             " << s.events << "\n"
              << "tracks:             " << s.tracks << "\n"
              << "GPU kernels:        " << s.kernels << "\n"
              << "compiled regions:   " << s.compiledRegions << "\n"
              << "annotated kernels:  " << s.annotatedKernels << "\n"
              << "unresolved kernels: " << s.unresolvedKernels << "\n"
              << "eager stacks:       " << *s.eagerStacks << "\n"
              << "diagnostics:" << (s.diagnostics.empty() ? " none" : "") << "\n";
    for (auto& [kind, count] : s.diagnostics) std::cout << "  " << kind << ": " << count << "\n";
    if (!s.kernelInfoNotes.empty()) {
        std::cout << "kernel information notes:\n";
        for (const std::string& note : s.kernelInfoNotes) std::cout << "  " << note << "\n";
    }
    return 0;
}

// The kernel information as a registry file. A kernel-only one (AOTInductor's form) is written
// as it is, since no graph key can express "every compiled region".
int kernelInfo(const Args& a) {
    KernelInfo info = KernelInfo::load(a.trace);
    printNotes(info);
    const OrderedJson* kernelOnly = info.kernelOnlyJson();
    const OrderedJson& out =
        kernelOnly && info.graphCount() == 0 ? *kernelOnly : info.registryJson();
    if (kernelOnly && info.graphCount() != 0)
        std::cerr << "stackline-cli: the kernels without a compile id are left out: one file holds "
                     "either graph keys or kernels only\n";
    std::string text = dumpJson(out, 1) + "\n";
    if (a.out.empty()) {
        std::cout << text;
        return 0;
    }
    writeFile(a.out, text);
    return 0;
}

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

}  // namespace

int main(int argc, char** argv) {
    Args a = parseArgs(argc, argv);
    try {
        if (a.command == "annotate") return annotate(a);
        if (a.command == "summary") return summary(a);
        if (a.command == "hotspots") return hotspots(a);
        if (a.command == "kernel-info") return kernelInfo(a);
        usageError("unknown command " + a.command);
    } catch (const InputError& e) {
        std::cerr << "stackline-cli: " << e.what() << "\n";
        return kExitInput;
    } catch (const OutputError& e) {
        std::cerr << "stackline-cli: " << e.what() << "\n";
        return kExitOutput;
    } catch (const std::bad_alloc&) {
        std::cerr << "stackline-cli: out of memory reading " << a.trace << "\n";
        return kExitInput;
    }
}
