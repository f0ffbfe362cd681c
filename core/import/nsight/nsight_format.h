// The Nsight Systems SQLite export's row of the format table.
#pragma once

#include "import/trace_format.h"

namespace stackline {

const TraceFormat& nsightSqliteFormat();

}  // namespace stackline
