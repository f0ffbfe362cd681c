// Traces that are the worst case of one load stage or index, with a given number of events: an
// ordinary fuzzer does not find them (they need one shape held over a million events), yet each
// made a stage quadratic once. Standard library only, for make_worst_trace and bench_worst_case.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace stackline::bench {

enum class WorstShape : uint8_t {
    Nested,     // every slice at ts 1.0, dur 1.0 on one thread: each nests in the previous one
    Zero,       // every slice at ts 1.0, dur 0 on one thread
    Staircase,  // slice i at ts i with one duration: each overlaps all others without nesting
    OneThread,  // ops, their launches and their kernels, all on one thread
    OneFlow,    // launches and their kernels, every ac2g flow with the same id
    Counters,   // counter points on one track
    // Compiled backward regions whose forward flow source no compiled region encloses: each one
    // searches every forward region for the nearest around its source.
    Backward,
    // Eager launches, one after another at the bottom of a deep nest of Python frames: each
    // kernel's stack is those frames.
    DeepLaunches,
};

std::span<const WorstShape> worstShapes();
std::string_view worstShapeName(WorstShape shape);
std::optional<WorstShape> worstShapeNamed(std::string_view name);

// Writes a Kineto JSON trace of this shape with about `events` events (the slices sit in a
// compiled region, so that the provenance processor covers them), and beside it the kernel
// information that makes the processor run. Returns the kernel information's path; throws
// std::runtime_error when a file cannot be written.
std::string writeWorstTrace(const std::string& path, WorstShape shape, uint64_t events);

}  // namespace stackline::bench
