// The provenance processor: a port of the reference's _InductorTraceProcessor.add_to_chrome_trace
// over the event table. It decides which events get args.stack (and which stack), whether uids are
// written, and what to report; the exporter writes those decisions into the original bytes.
#pragma once

#include <cstdint>
#include <vector>

#include "annotate/diagnostic.h"
#include "annotate/stack_origin.h"
#include "annotate/stack_pool.h"
#include "base/scattered_column.h"
#include "kernel_info/kernel_info.h"
#include "model/trace.h"

namespace stackline {

enum class KernelStatus : uint8_t {
    Outside,     // not reached from a compiled region
    Annotated,   // carries args.stack, or a stack matched by name (StackOrigin::MatchedByName)
    Unresolved,  // a GPU kernel reached from a compiled region that ends without a stack
};

struct Provenance {
    // The registry was not empty, so the reference rewrites the trace: uids (unless the input
    // already had uid_assigned) and "uid_assigned": true.
    bool applied = false;
    bool assignUids = false;

    // The StackPool id of args.stack in the output, or of the stack Stackline's rule by name shows
    // (annotate/matched_by_name.h, not in the output), for the rows that have one (a kernel in
    // seven on real traces: a plain column would cost 4 bytes for every event).
    ScatteredColumn<uint32_t> stack;
    // Per row, a bit each (on big traces every byte per event counts): whether this run writes
    // args.stack there, and whether the processor reached the event from a region.
    std::vector<bool> written, reached;
    StackPool stacks;
    StackOrigins origins;  // how each row's stack was obtained
    Diagnostics diagnostics;

    uint32_t annotatedCount = 0;  // events whose output args carry "stack" (not those by name)
    uint32_t writtenCount = 0;

    uint32_t stackOf(uint32_t row) const { return stack.at(row, StackPool::kNone); }
    KernelStatus status(const EventTable& events, uint32_t row) const;
    // Whether row is a GPU kernel of any category spelling (kineto::isGpuKernel).
    bool isGpuKernel(const EventTable& events, uint32_t row) const;
};

// Runs the processor, then, on a trace without compiled regions, Stackline's rule by name. With
// empty kernel information nothing is written (as in the reference), but stacks already in the
// trace are taken up and kernels reached without one are still found.
// threads: 0 uses a second core on big traces; 1 runs everything on the calling thread; more
// always splits the work (as tests do to reach that path on small traces).
Provenance runProvenance(const Trace& trace, const KernelInfo& kernelInfo, unsigned threads = 0);

}  // namespace stackline
