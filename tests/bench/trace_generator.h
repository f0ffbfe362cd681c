// Synthetic Kineto traces for benchmarks: torch.compile training steps (forward and backward
// compiled regions, Triton and cuBLAS kernels, ac2g and fwdbwd flows) plus matching kernel info.
#pragma once

#include <cstdint>
#include <string>

namespace stackline::bench {

struct GeneratedTrace {
    std::string tracePath;
    std::string kernelInfoPath;
    uint64_t bytes = 0;   // size of the trace file
    uint64_t events = 0;  // elements of "traceEvents"
};

// Writes <dir>/bench_<targetBytes>_<seed>.pt.trace.json of about targetBytes, streamed to disk, and
// <dir>/bench_<targetBytes>_<seed>.kernel_info.json. The same arguments give the same bytes.
// pretty=true uses Kineto's native layout (each event over several lines), false one line per
// event. Throws std::runtime_error on I/O errors.
GeneratedTrace generateTrace(const std::string& dir, uint64_t targetBytes, uint32_t seed,
                             bool pretty);

}  // namespace stackline::bench
