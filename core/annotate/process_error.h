// A fault where the reference would raise: thrown for one event, reported as an error, and the
// rest goes on.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "annotate/diagnostic.h"

namespace stackline {

struct ProcessError {
    DiagnosticMessage message;
    uint32_t event;  // the event the message names ("event N"), not always the one reported at
};

// Faults met away from the reporting (on another thread, or in a step of its own), as (row,
// error), reported afterwards in order.
using ProcessErrors = std::vector<std::pair<uint32_t, ProcessError>>;

}  // namespace stackline
