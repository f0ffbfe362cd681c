// bench_worst_case [--events N] [--shapes a,b,...] [--ratio R] [--max-seconds S] [--dir DIR]
// Times every load stage (loader, kernel information, provenance processor, track, flow and
// counter indexes, eager stacks, name totals, summary) on the worst-case traces of
// worst_case_trace.h, N events each (default 100000), and prints the seconds and nanoseconds per
// event of each (wall time). --ratio R also times each shape at N/8 events (the best of three
// rounds, the two sizes in turn) and fails when a stage's CPU time (all threads) is more than R
// times as much at N as at N/8 (about 8 to 12 when it is O(n log n), caches included; 64 when it
// is quadratic); stages under 100 ms of CPU at N are not judged, their times being mostly noise,
// and every quadratic stage found so far took 0.35 s or more at 80k events.
// --max-seconds S fails when a shape's stages take more than S seconds in all.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <filesystem>
#include <numeric>
#include <string>
#include <vector>

#include "analysis/name_totals.h"
#include "annotate/summary_report.h"
#include "import/trace_formats.h"
#include "kernel_info/kernel_info.h"
#include "pipeline/display_indexes.h"
#include "worst_case_trace.h"

using namespace stackline;
using namespace stackline::bench;

namespace {

constexpr std::array kStages = {"load",     "kernel_info", "provenance", "tracks", "flows",
                                "counters", "eager",       "names",      "summary"};
using StageTimes = std::array<double, kStages.size()>;
// Wall time, and the CPU time of all the process's threads: the work, which waiting for a core on
// a busy machine does not inflate.
struct Timed {
    StageTimes wall, cpu;
};

double cpuSeconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

Timed timeStages(const std::string& trace, const std::string& kernelInfoPath) {
    Timed t{};
    size_t stage = 0;
    auto clock = std::chrono::steady_clock::now();
    double cpu = cpuSeconds();
    auto lap = [&] {
        const auto now = std::chrono::steady_clock::now();
        const double nowCpu = cpuSeconds();
        t.wall[stage] = std::chrono::duration<double>(now - clock).count();
        t.cpu[stage++] = nowCpu - cpu;
        clock = now;
        cpu = nowCpu;
    };
    const Trace tr = loadTrace(trace);
    lap();
    const KernelInfo info = KernelInfo::load(kernelInfoPath);
    lap();
    const Provenance provenance = runProvenance(tr, info);
    lap();
    DisplayIndexes ix;
    ix.tracks = TrackIndex::build(tr.events, tr.metadata);
    lap();
    ix.flows = FlowIndex::build(tr.events, ix.tracks);
    lap();
    ix.counters = CounterIndex::build(tr, ix.tracks);
    lap();
    addEagerStacks(ix, tr, provenance);
    lap();
    std::vector<uint32_t> rows(tr.events.size());
    std::iota(rows.begin(), rows.end(), 0u);
    const std::vector<NameTotal> totals = totalsByName(tr.events, rows);
    const std::vector<uint32_t> ordered = byStart(tr.events, rows);
    lap();
    const Summary summary = summarize(tr, provenance);
    lap();
    if (totals.empty() || ordered.size() != rows.size() || summary.events == 0)
        throw std::runtime_error(trace + ": nothing was loaded");
    return t;
}

// The best of each stage over `runs` rounds of timing every trace in turn: a busy machine slows
// the traces alike, rather than the one that happened to run while it was busy.
std::vector<Timed> bestOf(int runs,
                          const std::vector<std::pair<std::string, std::string>>& traces) {
    std::vector<Timed> best(traces.size());
    for (Timed& b : best) {
        b.wall.fill(1e300);
        b.cpu.fill(1e300);
    }
    for (int r = 0; r < runs; ++r)
        for (size_t k = 0; k < traces.size(); ++k) {
            const Timed t = timeStages(traces[k].first, traces[k].second);
            for (size_t s = 0; s < kStages.size(); ++s) {
                best[k].wall[s] = std::min(best[k].wall[s], t.wall[s]);
                best[k].cpu[s] = std::min(best[k].cpu[s], t.cpu[s]);
            }
        }
    return best;
}

void printRow(std::string_view shape, uint64_t events, const StageTimes& t) {
    const double total = std::accumulate(t.begin(), t.end(), 0.0);
    std::printf("%-11.*s %9llu", int(shape.size()), shape.data(), (unsigned long long)events);
    for (double s : t) std::printf(" %8.3f", s);
    std::printf(" %8.3f %7.0f\n", total, total * 1e9 / double(events));
}

int usage() {
    std::fprintf(stderr,
                 "usage: bench_worst_case [--events N] [--shapes a,b,...] [--ratio R] "
                 "[--max-seconds S] [--dir DIR]\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    uint64_t events = 100000;
    double ratio = 0, maxSeconds = 0;
    std::vector<WorstShape> shapes(worstShapes().begin(), worstShapes().end());
    std::string dir;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (i + 1 >= argc) return usage();
        const std::string value = argv[++i];
        if (arg == "--events") {
            events = std::strtoull(value.c_str(), nullptr, 10);
        } else if (arg == "--ratio") {
            ratio = std::strtod(value.c_str(), nullptr);
        } else if (arg == "--max-seconds") {
            maxSeconds = std::strtod(value.c_str(), nullptr);
        } else if (arg == "--dir") {
            dir = value;
        } else if (arg == "--shapes") {
            shapes.clear();
            for (size_t from = 0; from <= value.size();) {
                const size_t comma = std::min(value.find(',', from), value.size());
                const auto shape =
                    worstShapeNamed(std::string_view(value).substr(from, comma - from));
                if (!shape) return usage();
                shapes.push_back(*shape);
                from = comma + 1;
            }
        } else {
            return usage();
        }
    }
    if (events < 100) return usage();
    try {
        namespace fs = std::filesystem;
        const bool ownDir = dir.empty();
        if (ownDir) {
            std::string pattern = (fs::temp_directory_path() / "bench_worst_case.XXXXXX").string();
            if (!mkdtemp(pattern.data())) throw std::runtime_error("no temporary folder");
            dir = pattern;
        }
        std::printf("%-11s %9s", "shape", "events");
        for (const char* s : kStages) std::printf(" %8.8s", s);
        std::printf(" %8s %7s\n", "total s", "ns/ev");
        int failures = 0;
        for (WorstShape shape : shapes) {
            const std::string name(worstShapeName(shape));
            // The trace at N, and at N/8 to compare with.
            std::vector<std::pair<std::string, std::string>> traces;
            for (uint64_t n : {events, events / 8}) {
                if (n != events && ratio <= 0) break;
                const std::string path = dir + "/" + name + "_" + std::to_string(n) + ".json";
                traces.emplace_back(path, writeWorstTrace(path, shape, n));
            }
            const std::vector<Timed> times = bestOf(ratio > 0 ? 3 : 1, traces);
            for (size_t k = 0; k < traces.size(); ++k) {
                printRow(name, k == 0 ? events : events / 8, times[k].wall);
                fs::remove(traces[k].first);
                fs::remove(traces[k].second);
            }
            const double total = std::accumulate(times[0].wall.begin(), times[0].wall.end(), 0.0);
            if (maxSeconds > 0 && total > maxSeconds) {
                std::printf("FAIL %s: %.2f s for %llu events, over %.2f s\n", name.c_str(), total,
                            (unsigned long long)events, maxSeconds);
                ++failures;
            }
            if (ratio <= 0) continue;
            const StageTimes &big = times[0].cpu, &small = times[1].cpu;
            for (size_t s = 0; s < kStages.size(); ++s) {
                if (big[s] < 0.1) continue;
                const double r = big[s] / std::max(small[s], 1e-6);
                if (r > ratio) {
                    std::printf("FAIL %s %s: %.1f times as long for 8 times the events\n",
                                name.c_str(), kStages[s], r);
                    ++failures;
                }
            }
        }
        if (ownDir) fs::remove_all(dir);
        return failures ? 1 : 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_worst_case: %s\n", e.what());
        return 1;
    }
}
