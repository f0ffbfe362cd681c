// make_pftrace IN.json[.gz] OUT.pftrace [--raw] [--level N] [--repeat N]
// Writes a Kineto JSON trace as a Cuspy-layout Perfetto trace (cuspy_pftrace_writer.h): gzip
// (level 1) unless --raw; --repeat writes the events N times, shifted, for files of any size.
// Prints what was written and what Cuspy drops.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "analysis/job_steps.h"
#include "cuspy_pftrace_writer.h"

namespace {

int usage() {
    std::fprintf(stderr,
                 "usage: make_pftrace IN.json OUT.pftrace [--raw] [--level N] [--repeat N]\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) return usage();
    stackline::bench::PftraceWriteOptions options;
    for (int i = 3; i < argc; ++i) {
        const std::string arg = argv[i];
        char* end = nullptr;
        if (arg == "--raw") {
            options.gzip = false;
        } else if ((arg == "--level" || arg == "--repeat") && i + 1 < argc) {
            const unsigned long v = std::strtoul(argv[++i], &end, 10);
            if (*end != '\0') return usage();
            if (arg == "--level")
                options.level = int(v);
            else
                options.repeat = uint32_t(v);
        } else {
            return usage();
        }
    }
    try {
        const auto t0 = std::chrono::steady_clock::now();
        const stackline::Trace trace = stackline::loadTrace(argv[1]);
        const auto layout =
            stackline::bench::cuspyLayoutOf(trace, stackline::rankInfoOf(trace).baseTimeNs);
        const auto written = stackline::bench::writeCuspyPftrace(layout, argv[2], options);
        const double secs =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::printf(
            "json events %u\ncpu slices %llu\napi slices %llu\nkernels %llu\nmemcpys %llu\n"
            "memsets %llu\ngpu annotations %llu\ntracks %zu\nnames %zu\n"
            "dropped instants %llu\ndropped flow events %llu\ndropped other %llu\n"
            "packets %llu\nbytes %llu\nserialized bytes %llu\n",
            trace.events.size(), (unsigned long long)layout.cpuSlices,
            (unsigned long long)layout.apiSlices, (unsigned long long)layout.kernels_,
            (unsigned long long)layout.memcpys, (unsigned long long)layout.memsets,
            (unsigned long long)layout.annotations, layout.tracks.size(), layout.names.size(),
            (unsigned long long)layout.droppedInstants, (unsigned long long)layout.droppedFlows,
            (unsigned long long)layout.droppedOther, (unsigned long long)written.packets,
            (unsigned long long)written.bytes, (unsigned long long)written.rawBytes);
        std::fprintf(stderr, "%.3f s\n", secs);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "make_pftrace: %s\n", e.what());
        return 1;
    }
    return 0;
}
