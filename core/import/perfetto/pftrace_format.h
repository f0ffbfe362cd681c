// The Perfetto protobuf trace format's row of the format table (import/trace_formats.cpp).
#pragma once

#include "import/trace_format.h"

namespace stackline {

const TraceFormat& pftraceFormat();

}  // namespace stackline
