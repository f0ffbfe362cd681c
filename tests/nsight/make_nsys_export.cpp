// make_nsys_export IN.json[.gz] OUT.sqlite [options]
// Writes the Nsight Systems SQLite export of the run a Kineto trace recorded (kineto_to_nsys.h),
// then prints what it wrote, one "table rows" pair a line.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "import/trace_formats.h"
#include "kineto_to_nsys.h"
#include "nsys_export_writer.h"

namespace {

int usage() {
    std::fprintf(stderr,
                 "usage: make_nsys_export IN.json[.gz] OUT.sqlite [--schema 3.0.0|3.7.2]\n"
                 "  [--no-pytorch-ranges] [--registered-names] [--api-without-kernel N]\n"
                 "  [--kernel-without-launch N] [--graph-launch N] [--processes N]\n"
                 "  [--python-backtraces] [--shuffle] [--omit TABLE]...\n"
                 "  [--corrupt header|page|truncate]\n");
    return 2;
}

bool number(const char* s, uint32_t& out) {
    char* end = nullptr;
    const unsigned long v = std::strtoul(s, &end, 10);
    if (*end != '\0') return false;
    out = uint32_t(v);
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) return usage();
    using namespace stackline;
    nsys::ConvertOptions o;
    std::string corrupt;
    for (int i = 3; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool more = i + 1 < argc;
        if (arg == "--schema" && more) {
            const std::string v = argv[++i];
            if (v == "3.0.0")
                o.version = nsys::SchemaVersion::v3_0_0;
            else if (v == "3.7.2")
                o.version = nsys::SchemaVersion::v3_7_2;
            else
                return usage();
        } else if (arg == "--no-pytorch-ranges") {
            o.pytorchRanges = false;
        } else if (arg == "--registered-names") {
            o.registeredNames = true;
        } else if (arg == "--api-without-kernel" && more) {
            if (!number(argv[++i], o.apiWithoutKernelEvery)) return usage();
        } else if (arg == "--kernel-without-launch" && more) {
            if (!number(argv[++i], o.kernelWithoutLaunchEvery)) return usage();
        } else if (arg == "--graph-launch" && more) {
            if (!number(argv[++i], o.graphLaunchRun)) return usage();
        } else if (arg == "--processes" && more) {
            if (!number(argv[++i], o.processes) || o.processes == 0) return usage();
        } else if (arg == "--python-backtraces") {
            o.pythonBacktraces = true;
        } else if (arg == "--shuffle") {
            o.shuffleRows = true;
        } else if (arg == "--omit" && more) {
            o.omitTables.insert(argv[++i]);
        } else if (arg == "--corrupt" && more) {
            corrupt = argv[++i];
        } else {
            return usage();
        }
    }
    try {
        const auto t0 = std::chrono::steady_clock::now();
        const Trace trace = loadTrace(argv[1]);
        const nsys::ConvertCounts c = nsys::writeExport(trace, argv[2], o);
        if (!corrupt.empty()) nsys::corruptExport(argv[2], corrupt);
        const double secs =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::printf(
            "NVTX_EVENTS %llu\nCUPTI_ACTIVITY_KIND_RUNTIME %llu (driver %llu)\n"
            "CUPTI_ACTIVITY_KIND_KERNEL %llu\nCUPTI_ACTIVITY_KIND_MEMCPY %llu\n"
            "CUPTI_ACTIVITY_KIND_MEMSET %llu\nCUPTI_ACTIVITY_KIND_SYNCHRONIZATION %llu\n"
            "CUDA_CALLCHAINS %llu\nCUDA_GRAPH_EVENTS %llu\nPROCESSES %llu\n"
            "ThreadNames %llu\nTARGET_INFO_GPU %llu\nStringIds %llu\n"
            "utcEpochNs %lld\n",
            (unsigned long long)c.nvtxRanges, (unsigned long long)(c.runtimeCalls + c.driverCalls),
            (unsigned long long)c.driverCalls, (unsigned long long)c.kernels,
            (unsigned long long)c.memcpys, (unsigned long long)c.memsets,
            (unsigned long long)c.syncs, (unsigned long long)c.callchainFrames,
            (unsigned long long)c.graphNodes, (unsigned long long)c.processes,
            (unsigned long long)c.threads, (unsigned long long)c.devices,
            (unsigned long long)c.strings, (long long)c.sessionStartUtcNs);
        std::fprintf(stderr, "%.2f s\n", secs);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "make_nsys_export: %s\n", e.what());
        return 1;
    }
    return 0;
}
