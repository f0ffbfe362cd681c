// What the processor has to say about a trace: the reference's own warning, Stackline's warnings,
// and errors where the reference would have raised (Stackline skips that part and goes on).
#pragma once

#include <cstdint>
#include <string>

namespace stackline {

inline constexpr uint32_t kNoRow = UINT32_MAX;

struct Diagnostic {
    enum class Severity : uint8_t { Warning, Error };
    Severity severity = Severity::Warning;
    std::string kind;       // e.g. "unrecognized_kernel", "region_without_kernel_info"
    uint32_t row = kNoRow;  // the event's index in traceEvents (its uid)
    std::string name;       // the event's (or kernel's) name
    std::string message;
};

}  // namespace stackline
