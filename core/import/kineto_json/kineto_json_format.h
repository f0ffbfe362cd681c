// Kineto JSON, the Chrome trace format torch.profiler writes (`*.pt.trace.json[.gz]`): the
// format table's fallback row, whose reader names what is wrong with any input no other format
// claims.
#pragma once

#include "import/trace_format.h"

namespace stackline {

const TraceFormat& kinetoJsonFormat();

}  // namespace stackline
