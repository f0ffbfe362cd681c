// A fault where the reference would raise: thrown for one event, reported as an error, and the
// rest goes on.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "annotate/diagnostic.h"

namespace stackline {

struct ProcessError {
    DiagnosticKind kind;
    std::string message;
};

// Faults met away from the reporting (on another thread, or in a step of its own), as (row,
// error), reported afterwards in order.
using ProcessErrors = std::vector<std::pair<uint32_t, ProcessError>>;

inline std::string eventLabel(uint32_t row) {
    return "event " + std::to_string(row);
}

}  // namespace stackline
