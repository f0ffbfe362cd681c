// The notes a .pftrace import leaves in Trace::notes: what the decoder counted and skipped, and
// what provenance cannot reach.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "import/perfetto/pftrace_table.h"

namespace stackline::pftrace {

// noSlices: the trace has no TrackEvent slices; unlinkedKernels: GPU kernels no launch links to.
std::vector<std::string> importNotes(const DecodeStats& stats, bool noSlices,
                                     uint64_t unlinkedKernels);

}  // namespace stackline::pftrace
