// Writes a trace of a format that cannot be spliced (Perfetto protobuf, Nsight Systems SQLite) as a
// new Chrome JSON trace in Kineto's layout, annotated: one event per row of the event table, in row
// order (so each event's "uid" is its place in traceEvents, as the reference writes it), then the
// metadata events that name processes and threads. Times keep their instants: "ts" and "dur" are
// the rows' microseconds since the trace's base, and "baseTimeNanoseconds" is that base
// (README: "Annotated Chrome JSON from other formats").
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>

#include "annotate/provenance.h"
#include "model/trace.h"

namespace stackline {

// Hands the output to out in pieces, in order; told the rows written so far after each piece.
// The rows are formatted on `threads` threads (1: this one alone).
void writeChromeJson(const Trace& trace, const Provenance& provenance, unsigned threads,
                     const std::function<void(std::string_view)>& out,
                     const std::function<void(uint32_t rows)>& rowsDone);

}  // namespace stackline
