// Every GPU kernel with the Python stacks its time is charged to: the provenance processor's
// args.stack (each stack string parsed into frames) and, when asked, its eager stack from the
// trace's python_function slices. Hotspots, flame graphs and range summaries all read kernels
// through here, so that they agree on which kernels count and for how long.
#pragma once

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

#include "analysis/eager_stacks.h"
#include "annotate/provenance.h"
#include "base/time_range.h"
#include "model/trace.h"
#include "python/source_frames.h"

namespace stackline {

struct KernelStacksOptions {
    TimeRange range;                     // kernels overlapping it, their time clipped to it
    const EagerStacks* eager = nullptr;  // also kernels with an eager stack ("all kernels")
};

enum class KernelStackKind : uint8_t {
    None,      // no stack: unresolved, or outside compiled regions without an eager stack
    Compiled,  // the processor's args.stack
    Eager,     // EagerOrigin::Launch
    EagerFromForward,
};

using FrameStack = std::vector<SourceFrame>;  // outermost first

struct KernelSample {
    uint32_t row = 0;
    int64_t ns = 0;  // the kernel's duration inside the range
    KernelStatus status = KernelStatus::Outside;
    KernelStackKind kind = KernelStackKind::None;
    bool guessed = false;  // the processor's stack is a guess (StackOrigin::SingleStack)
    bool byName = false;   // Stackline's rule by name gave the stack (StackOrigin::MatchedByName)
    // Equal for kernels with equal stacks (0 for none), for callers that cache what they derive.
    uint64_t stackKey = 0;
    // Each stack outermost first; a stack string without a recognisable frame is one pseudo-frame
    // named by the string. Empty for None (and for an annotated kernel whose stack list is empty).
    const std::vector<FrameStack>* stacks = nullptr;
};

// The frame of one stack that its kernel's self time is charged to: the innermost with a line
// number, so that an eager kernel is charged to the Python line that called the built-in op (an
// eager stack's `<built-in function linear>` has none); else the innermost. frames is not empty.
const SourceFrame& chargedFrame(const FrameStack& frames);
// The self time, in whole ns, of the i-th of n lines sharing a kernel of ns: an even split whose
// remainder goes one ns each to the first lines, so that the shares add up to ns exactly.
inline int64_t selfShareNs(int64_t ns, int64_t n, int64_t i) {
    return ns / n + (i < ns % n);
}

// Calls visit for every GPU kernel (of every category spelling) that overlaps options.range, in
// row order. Parses each distinct stack once per call.
void forEachKernelSample(const Trace& trace, const Provenance& provenance,
                         const KernelStacksOptions& options,
                         const std::function<void(const KernelSample&)>& visit);

}  // namespace stackline
