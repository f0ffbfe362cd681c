// bench_annotate --cli PATH [--sizes 40,200,1000] [--dir TMPDIR] [--reference ORACLE] [--gzip]
//                [--shape kineto|deep] [--baseline PATH [--runs 5]]
//
// For each size (MiB): generates a trace of the shape (kineto: Kineto's layout; deep: Python
// frames around every op, compact), times `cp` of it and
// `stackline-cli annotate ... --timings` taking turns, and prints load/process/export times, MB/s,
// the ratio to cp and peak RSS. On the first size <= 64 MiB it also runs the reference when
// --reference gives the path of its oracle.py (see tests/golden/README.md) and python3 exists, and
// checks that both outputs are equal. With --baseline (another build's stackline-cli), the two take
// turns --runs times on each input (and its .json.gz with --gzip): the medians of their wall times,
// and whether their outputs are byte-identical (.json.gz outputs once inflated). Linux only (fork,
// wait4).
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_process.h"
#include "trace_generator.h"

namespace fs = std::filesystem;
using namespace stackline::bench;

namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr uint32_t kSeed = 1;
constexpr const char* kCompareScript =
    "import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); "
    "sys.exit(0 if a==b else 1)";

struct Options {
    std::string cli;
    std::vector<double> sizesMb{40, 200, 1000};
    std::string dir;
    std::string reference;
    bool gzip = false;
    std::string baseline;
    int runs = 5;
    stackline::bench::TraceShape shape = stackline::bench::TraceShape::kKineto;
};

struct Timings {
    double load = 0, process = 0, exportSecs = 0;
};

std::optional<Timings> parseTimings(const std::string& stderrText) {
    const size_t at = stderrText.rfind("timings: load=");
    Timings t;
    if (at == std::string::npos ||
        std::sscanf(stderrText.c_str() + at, "timings: load=%lf process=%lf export=%lf", &t.load,
                    &t.process, &t.exportSecs) != 3) {
        return std::nullopt;
    }
    return t;
}

struct CliRun {
    Proc proc;
    Timings timings;
};

CliRun runCliOnce(const Options& opt, const std::string& trace, const std::string& kernelInfo,
                  const std::string& out, const std::string& errPath) {
    const Proc p = runChecked(
        {opt.cli, "annotate", trace, "--kernel-info", kernelInfo, "-o", out, "--timings"},
        "/dev/null", errPath);
    const std::string text = readFile(errPath);
    const std::optional<Timings> t = parseTimings(text);
    if (!t)
        throw std::runtime_error("no 'timings: load=... process=... export=...' line in:\n" + text);
    return {p, *t};
}

// A command and stackline-cli take turns three times and each keeps its best run (by wall time).
// Before each run both outputs are deleted, so that each starts with the other's output just freed:
// on a VM, memory freed a while ago comes back slowly, and single runs vary severalfold with it.
// The CLI's last output is kept.
struct SideBySide {
    double otherSecs = 1e300;
    CliRun cli;
};
SideBySide sideBySide(const std::vector<std::string>& other, const std::string& otherOut,
                      const Options& opt, const std::string& trace, const std::string& kernelInfo,
                      const std::string& out, const std::string& errPath) {
    SideBySide r;
    std::optional<CliRun> best;
    auto removeOutputs = [&] {
        if (!otherOut.empty()) fs::remove(otherOut);
        fs::remove(out);
    };
    for (int i = 0; i < 3; ++i) {
        removeOutputs();
        r.otherSecs = std::min(r.otherSecs, runChecked(other, "/dev/null", errPath).seconds);
        removeOutputs();
        CliRun c = runCliOnce(opt, trace, kernelInfo, out, errPath);
        if (!best || c.proc.seconds < best->proc.seconds) best = c;
    }
    r.cli = *best;
    return r;
}

// Each result keeps the runs it was measured from; the figures printed are derived from them.
struct SizeResult {
    double mb = 0;
    SideBySide run;  // against cp
    double totalSecs() const { return run.cli.proc.seconds; }
    double ratioToCp() const { return totalSecs() / run.otherSecs; }
    double rssPerInput() const { return run.cli.proc.peakRssMb / mb; }
};

struct GzipResult {
    double mb = 0;
    double gzMb = 0;
    SideBySide run;  // against gzip -dc
    double inflateSecs() const { return run.otherSecs; }
    double loadSecs() const { return run.cli.timings.load; }
};

struct ReferenceResult {
    double mb = 0;
    Proc proc;
    double speedup = 0;
    bool equal = false;
    std::string summary;  // the oracle's stdout line
};

std::string trim(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    return s;
}

void usage() {
    std::fprintf(stderr,
                 "usage: bench_annotate --cli PATH [--sizes 40,200,1000] [--dir TMPDIR] "
                 "[--reference ORACLE.py] [--gzip] [--shape kineto|deep] "
                 "[--baseline PATH [--runs 5]]\n");
    std::exit(2);
}

Options parseOptions(int argc, char** argv) {
    Options opt;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) usage();
            return argv[++i];
        };
        if (arg == "--cli") {
            opt.cli = value();
        } else if (arg == "--sizes") {
            opt.sizesMb.clear();
            std::stringstream list(value());
            for (std::string item; std::getline(list, item, ',');) {
                char* end = nullptr;
                const double mb = std::strtod(item.c_str(), &end);
                if (*end != '\0' || !(mb > 0)) usage();
                opt.sizesMb.push_back(mb);
            }
        } else if (arg == "--dir") {
            opt.dir = value();
        } else if (arg == "--reference") {
            opt.reference = value();
        } else if (arg == "--gzip") {
            opt.gzip = true;
        } else if (arg == "--baseline") {
            opt.baseline = value();
        } else if (arg == "--runs") {
            opt.runs = std::max(1, std::atoi(value().c_str()));
        } else if (arg == "--shape") {
            const auto shape = stackline::bench::traceShapeNamed(value());
            if (!shape) usage();
            opt.shape = *shape;
        } else {
            usage();
        }
    }
    if (opt.cli.empty() || opt.sizesMb.empty()) usage();
    // The CLI runs from the same working directory, but make a relative path explicit for execvp.
    if (opt.cli.find('/') == std::string::npos && fs::exists(opt.cli)) opt.cli = "./" + opt.cli;
    if (opt.baseline.find('/') == std::string::npos && fs::exists(opt.baseline))
        opt.baseline = "./" + opt.baseline;
    return opt;
}

const char* verdict(bool met) {
    return met ? "met" : "MISSED";
}

// The baseline and the CLI annotate `trace` into `out` (whose name says .json or .json.gz) taking
// turns; the medians of their wall times and whether the outputs are the same text.
struct BaselineResult {
    std::string input, output;
    double baseline = 0, cli = 0;
    bool identical = false;
};
BaselineResult againstBaseline(const Options& opt, const std::string& trace,
                               const std::string& kernelInfo, const std::string& out,
                               const std::string& err) {
    const std::string baseOut = out + ".baseline" + (out.ends_with(".gz") ? ".json.gz" : ".json");
    std::vector<double> base, cli;
    for (int i = 0; i < opt.runs; ++i) {
        fs::remove(out);
        fs::remove(baseOut);
        base.push_back(runChecked({opt.baseline, "annotate", trace, "--kernel-info", kernelInfo,
                                   "-o", baseOut},
                                  "/dev/null", err)
                           .seconds);
        fs::remove(baseOut);
        cli.push_back(
            runChecked({opt.cli, "annotate", trace, "--kernel-info", kernelInfo, "-o", out},
                       "/dev/null", err)
                .seconds);
    }
    runChecked({opt.baseline, "annotate", trace, "--kernel-info", kernelInfo, "-o", baseOut},
               "/dev/null", err);
    const std::string compare = out.ends_with(".gz")
                                    ? "cmp -s <(gzip -dc \"$0\") <(gzip -dc \"$1\")"
                                    : "cmp -s \"$0\" \"$1\"";
    const bool identical =
        runProcess({"bash", "-c", compare, out, baseOut}, "/dev/null", err).exitCode == 0;
    fs::remove(out);
    fs::remove(baseOut);
    return {fs::path(trace).filename(), fs::path(out).filename(), median(base), median(cli),
            identical};
}

// Deletes what the benchmark wrote, also when it stops on an error.
struct Cleanup {
    std::string dir;
    bool ownDir = false;
    std::vector<std::string> files;

    ~Cleanup() {
        std::error_code ignored;
        for (const std::string& f : files) fs::remove(f, ignored);
        if (ownDir) fs::remove_all(dir, ignored);
    }
};

int run(const Options& opt) {
    std::string dir = opt.dir;
    bool ownDir = false;
    if (dir.empty()) {
        const char* tmp = std::getenv("TMPDIR");
        std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/stackline-bench-XXXXXX";
        if (!mkdtemp(templ.data())) {
            throw std::runtime_error(std::string("mkdtemp: ") + std::strerror(errno));
        }
        dir = templ;
        ownDir = true;
    }
    fs::create_directories(dir);
    Cleanup cleanup{dir, ownDir, {}};

    const std::string reference = fs::exists(opt.reference) ? opt.reference : "";
    const bool canRunReference = !reference.empty() && isExecutableInPath("python3");
    if (!canRunReference) {
        std::fprintf(stderr, "reference not run: %s\n",
                     reference.empty() ? "no --reference ORACLE.py given, or not found"
                                       : "python3 not in PATH");
    }

    const std::string out = dir + "/out.json", err = dir + "/stderr.txt", copy = dir + "/copy.tmp";
    const std::string refOut = dir + "/reference.json", refResult = dir + "/result.json",
                      refStdout = dir + "/reference.txt";
    cleanup.files = {out, err, copy, refOut, refResult, refStdout};
    std::vector<SizeResult> results;
    std::vector<GzipResult> gzipResults;
    std::vector<BaselineResult> baselineResults;
    std::optional<ReferenceResult> ref;

    std::printf("Stackline annotate benchmark: %s, files in %s\n", opt.cli.c_str(), dir.c_str());
    std::printf("%8s %9s %8s %9s %8s %8s %8s %6s %7s %9s %9s\n", "size MB", "events", "load s",
                "process s", "export s", "total s", "MB/s", "x cp", "cp s", "peak MB", "RSS/input");
    std::fflush(stdout);

    for (const double sizeMb : opt.sizesMb) {
        const auto genStart = std::chrono::steady_clock::now();
        const stackline::bench::GeneratedTrace trace =
            stackline::bench::generateTrace(dir, uint64_t(sizeMb * kMiB), kSeed, true, opt.shape);
        const double genSecs =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - genStart).count();
        cleanup.files.push_back(trace.tracePath);
        cleanup.files.push_back(trace.kernelInfoPath);
        // A user's trace has long been on disk: its pages written back by the flusher meanwhile
        // would slow down whichever run they fall into (the .json.gz runs, which write the
        // scratch file to the same disk, most).
        ::sync();
        const double mb = double(trace.bytes) / kMiB;
        std::fprintf(stderr, "generated %.1f MB, %llu events in %.2f s (%.0f MB/s)\n", mb,
                     (unsigned long long)trace.events, genSecs, mb / genSecs);

        const SideBySide run =
            sideBySide({"/bin/cp", "--reflink=never", trace.tracePath, copy}, copy, opt,
                       trace.tracePath, trace.kernelInfoPath, out, err);
        const SizeResult& r = results.emplace_back(SizeResult{mb, run});
        const CliRun& cli = run.cli;
        const double total = r.totalSecs();
        std::printf("%8.1f %9llu %8.3f %9.3f %8.3f %8.3f %8.1f %6.2f %7.3f %9.1f %9.2f\n", mb,
                    (unsigned long long)trace.events, cli.timings.load, cli.timings.process,
                    cli.timings.exportSecs, total, mb / total, r.ratioToCp(), run.otherSecs,
                    cli.proc.peakRssMb, r.rssPerInput());
        std::fflush(stdout);

        if (canRunReference && !ref && sizeMb <= 64) {
            // Only here: the reference is super-linear, larger files take far too long.
            const Proc p = runChecked({"python3", reference, trace.tracePath, trace.kernelInfoPath,
                                       refOut, "--result", refResult},
                                      refStdout, err);
            const Proc cmp =
                runProcess({"python3", "-c", kCompareScript, out, refOut}, "/dev/null", err);
            ref = ReferenceResult{mb, p, p.seconds / total, cmp.exitCode == 0,
                                  trim(readFile(refStdout))};
            for (const std::string& f : {refOut, refResult, refStdout}) fs::remove(f);
        }
        fs::remove(out);
        if (!opt.baseline.empty())
            baselineResults.push_back(
                againstBaseline(opt, trace.tracePath, trace.kernelInfoPath, out, err));

        if (opt.gzip) {
            const std::string gz = trace.tracePath + ".gz";
            cleanup.files.push_back(gz);
            runChecked({"gzip", "-1", "-k", "-f", trace.tracePath}, "/dev/null", err);
            ::sync();
            const double gzMb = double(fs::file_size(gz)) / kMiB;
            gzipResults.push_back(GzipResult{
                mb, gzMb,
                sideBySide({"gzip", "-dc", gz}, "", opt, gz, trace.kernelInfoPath, out, err)});
            fs::remove(out);
            if (!opt.baseline.empty())
                for (const std::string& o : {out, out + ".gz"})
                    baselineResults.push_back(
                        againstBaseline(opt, gz, trace.kernelInfoPath, o, err));
            fs::remove(gz);
        }
        fs::remove(trace.tracePath);  // before the next, larger one: bounded disk use
        fs::remove(trace.kernelInfoPath);
    }

    if (!gzipResults.empty()) {
        std::printf("\n.json.gz input (gzip -1)\n%8s %8s %10s %8s %12s %8s\n", "size MB", "gz MB",
                    "inflate s", "load s", "load/inflate", "total s");
        for (const GzipResult& g : gzipResults) {
            std::printf("%8.1f %8.1f %10.3f %8.3f %12.2f %8.3f\n", g.mb, g.gzMb, g.inflateSecs(),
                        g.loadSecs(), g.loadSecs() / g.inflateSecs(), g.run.cli.proc.seconds);
        }
    }
    if (!baselineResults.empty()) {
        std::printf(
            "\nagainst the baseline %s (medians of %d alternating runs)\n%-40s %-14s "
            "%10s %8s %6s %s\n",
            opt.baseline.c_str(), opt.runs, "input", "output", "baseline s", "cli s", "ratio",
            "output identical");
        for (const BaselineResult& b : baselineResults)
            std::printf("%-40s %-14s %10.3f %8.3f %6.2f %s\n", b.input.c_str(), b.output.c_str(),
                        b.baseline, b.cli, b.cli / b.baseline, b.identical ? "yes" : "NO");
    }
    if (ref) {
        std::printf("\nreference on %.1f MB: %.2f s, peak RSS %.1f MB (%s)\n", ref->mb,
                    ref->proc.seconds, ref->proc.peakRssMb, ref->summary.c_str());
        std::printf("stackline is %.1fx faster; outputs equal: %s\n", ref->speedup,
                    ref->equal ? "yes" : "NO");
    }

    const SizeResult& first = results.front();
    const SizeResult& largest = results.back();
    std::printf("\ntargets\n");
    if (ref) {
        std::printf("  %.0f MB: >= 150x faster than the reference, equal output: %.1fx, %s: %s\n",
                    ref->mb, ref->speedup, ref->equal ? "equal" : "different",
                    verdict(ref->speedup >= 150 && ref->equal));
    }
    std::printf("  %.0f MB: <= 4x cp: %.2fx: %s\n", largest.mb, largest.ratioToCp(),
                verdict(largest.ratioToCp() <= 4));
    std::printf("  %.0f MB: peak RSS <= 1.0x input: %.2fx: %s\n", largest.mb, largest.rssPerInput(),
                verdict(largest.rssPerInput() <= 1.0));
    if (results.size() > 1) {
        const double scaling = largest.totalSecs() / first.totalSecs();
        std::printf(
            "  scaling %.0f MB / %.0f MB total time: %.1fx (target <= 30x for 1 GB / 40 "
            "MB): %s\n",
            largest.mb, first.mb, scaling, verdict(scaling <= 30));
    }
    for (const GzipResult& g : gzipResults) {
        std::printf("  %.0f MB .json.gz: load <= 1.2x gzip -dc: %.2fx: %s\n", g.mb,
                    g.loadSecs() / g.inflateSecs(), verdict(g.loadSecs() <= 1.2 * g.inflateSecs()));
    }
    bool sameOutputs = true;
    for (const BaselineResult& b : baselineResults) {
        std::printf("  %s -> %s: within 10%% of the baseline, identical output: %.2fx, %s: %s\n",
                    b.input.c_str(), b.output.c_str(), b.cli / b.baseline,
                    b.identical ? "identical" : "different",
                    verdict(b.cli <= 1.1 * b.baseline && b.identical));
        sameOutputs = sameOutputs && b.identical;
    }
    return (ref && !ref->equal) || !sameOutputs ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
    const Options opt = parseOptions(argc, argv);
    try {
        return run(opt);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_annotate: %s\n", e.what());
        return 1;
    }
}
