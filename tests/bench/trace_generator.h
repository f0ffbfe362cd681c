// Synthetic Kineto traces for benchmarks: torch.compile training steps (forward and backward
// compiled regions, Triton and cuBLAS kernels, ac2g and fwdbwd flows) plus matching kernel info.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace stackline::bench {

// What the profiler recorded; both shapes run the same steps, kernels and flows, so provenance
// annotates their kernels alike.
enum class TraceShape {
    kKineto,      // the default profiler options, in the layout the caller picks
    kDeepStacks,  // with_stack=True: every op under 10-25 Python frames ("python_function"),
                  // always one event per line without spaces between tokens
};

// "kineto" or "deep", as make_trace and bench_annotate take them.
std::optional<TraceShape> traceShapeNamed(std::string_view name);

struct GeneratedTrace {
    std::string tracePath;
    std::string kernelInfoPath;
    uint64_t bytes = 0;   // size of the trace file
    uint64_t events = 0;  // elements of "traceEvents"
};

// Writes <dir>/bench_<targetBytes>_<seed>.pt.trace.json (bench_deep_… for kDeepStacks) of about
// targetBytes, streamed to disk, and the kernel info beside it (<same stem>.kernel_info.json). The
// same arguments give the same bytes. For kKineto, pretty=true uses Kineto's native layout (each
// event over several lines), false one line per event. Throws std::runtime_error on I/O errors.
GeneratedTrace generateTrace(const std::string& dir, uint64_t targetBytes, uint32_t seed,
                             bool pretty, TraceShape shape = TraceShape::kKineto);

}  // namespace stackline::bench
