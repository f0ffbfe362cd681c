// Top-level members of a loaded Kineto trace that the event table does not keep: the
// deviceProperties array and baseTimeNanoseconds, read by skipping traceEvents.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>

#include "model/trace.h"

namespace stackline::nsys {

// The "deviceProperties" array, parsed (an empty array when absent or not an array).
nlohmann::json deviceProperties(const Trace& trace);
// "baseTimeNanoseconds" when it is an integer.
std::optional<int64_t> baseTime(const Trace& trace);

}  // namespace stackline::nsys
