// Kineto JSON's metadata events (ph "M": process_name, process_labels, process_sort_index,
// thread_name, thread_sort_index) and its instants' scopes ("s": "g" or "p") read into the trace's
// TraceMetadata, once, after the events are loaded; the top-level members the loader meets on its
// way (distributedInfo, baseTimeNanoseconds) as it meets them. Out of the loader's file, which
// keeps its hot loop's inlining as it was.
#pragma once

#include <cstdint>
#include <optional>

#include "json/json_cursor.h"
#include "model/trace.h"

namespace stackline {

void readKinetoMetadata(Trace& trace);

// An integer member value at c; anything else is skipped and gives nullopt.
std::optional<int64_t> readJsonInteger(json::Cursor& c);
// The distributedInfo object at c: its rank and world_size (repeated keys: the last one counts,
// as in Python; a repeated distributedInfo updates what it names).
void readDistributedInfo(json::Cursor& c, TraceMetadata& metadata);

}  // namespace stackline
