// Reads an Nsight Systems SQLite export (`nsys export --type sqlite`) into the format-neutral
// Trace, shaped as the Kineto trace of the same run would be: NVTX ranges as cpu_op slices on
// their threads, runtime and driver calls as cuda_runtime / cuda_driver slices, kernels, memcpys
// and memsets on their device's streams, each linked to its launch by an ac2g flow (correlation
// ids are unique per process only, so the link is by (globalPid, correlationId)). Times are ns
// from the session start, whose absolute time becomes TraceMetadata::baseTimeNs.
#pragma once

#include <string>

#include "import/trace_format.h"

namespace stackline::nsight {

// Whether head (a file's first bytes) starts as an SQLite 3 database does.
bool looksLikeSqlite(std::string_view head);

// Opens the file `name` (the bytes' own file) read-only and immutable. Throws InputError naming
// the file: not an SQLite database, corrupt (SQLite's message), or no Nsight tables (naming them).
Trace readNsightSqlite(TraceBytes bytes, const std::string& name, const LoadOptions& options);

}  // namespace stackline::nsight
