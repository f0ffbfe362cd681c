// Kineto JSON (torch.profiler's Chrome trace) read into a Trace: one pass over the bytes, no DOM,
// the traceEvents array cut into chunks indexed on several threads; then its metadata events read
// into TraceMetadata and its args left as bytes for kinetoArgsReader.
#pragma once

#include <string>

#include "import/trace_format.h"

namespace stackline {

// Throws InputError naming the file, line, column and byte of what is wrong.
Trace readKinetoJson(TraceBytes bytes, const std::string& name, const LoadOptions& options);

}  // namespace stackline
