// make_trace OUT_DIR SIZE_MB [--compact] [--seed N] [--shape kineto|deep]
// Writes one synthetic Kineto trace and its kernel info, then prints both paths. --shape deep
// records Python frames around every op (with_stack=True), always compact.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "trace_generator.h"

namespace {

int usage() {
    std::fprintf(
        stderr, "usage: make_trace OUT_DIR SIZE_MB [--compact] [--seed N] [--shape kineto|deep]\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) return usage();
    const std::string dir = argv[1];
    char* end = nullptr;
    const double sizeMb = std::strtod(argv[2], &end);
    if (*end != '\0' || !(sizeMb > 0)) return usage();
    bool pretty = true;
    unsigned long seed = 1;
    stackline::bench::TraceShape shape = stackline::bench::TraceShape::kKineto;
    for (int i = 3; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--compact") {
            pretty = false;
        } else if (arg == "--seed" && i + 1 < argc) {
            seed = std::strtoul(argv[++i], &end, 10);
            if (*end != '\0') return usage();
        } else if (arg == "--shape" && i + 1 < argc) {
            const auto named = stackline::bench::traceShapeNamed(argv[++i]);
            if (!named) return usage();
            shape = *named;
        } else {
            return usage();
        }
    }
    try {
        const auto t0 = std::chrono::steady_clock::now();
        const stackline::bench::GeneratedTrace trace = stackline::bench::generateTrace(
            dir, uint64_t(sizeMb * 1024 * 1024), uint32_t(seed), pretty, shape);
        const double secs =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::printf("%s\n%s\n", trace.tracePath.c_str(), trace.kernelInfoPath.c_str());
        std::fprintf(stderr, "%llu bytes, %llu events, %.3f s (%.0f MB/s)\n",
                     (unsigned long long)trace.bytes, (unsigned long long)trace.events, secs,
                     double(trace.bytes) / (1 << 20) / secs);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "make_trace: %s\n", e.what());
        return 1;
    }
    return 0;
}
