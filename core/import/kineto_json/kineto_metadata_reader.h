// Kineto JSON's metadata events (ph "M": process_name, process_labels, process_sort_index,
// thread_name, thread_sort_index) and its instants' scopes ("s": "g" or "p") read into the trace's
// TraceMetadata, once, after the events are loaded.
#pragma once

#include "model/trace.h"

namespace stackline {

void readKinetoMetadata(Trace& trace);

}  // namespace stackline
