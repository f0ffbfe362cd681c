// The diagnostics of a run grouped for reading: by kind, then by message, then by event. The
// reference logs some warnings once per path that reaches a kernel (so twice for most), and a
// big trace has hundreds of thousands of them; grouped, they are a few lines with counts. Built
// once per run from the records alone (equal fields, equal text), without rendering a message.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "annotate/diagnostic.h"

namespace stackline {

struct DiagnosticGroups {
    struct Event {
        uint32_t diagnostic = 0;   // index of its first diagnostic in the run's list
        uint32_t occurrences = 0;  // diagnostics of this message about this event
    };
    struct Message {
        uint32_t diagnostic = 0;  // index of its first diagnostic
        uint32_t occurrences = 0;
        std::vector<Event> events;  // distinct events, in first-report order (none for kNoRow)
    };
    struct Kind {
        DiagnosticKind kind = DiagnosticKind::KernelInfoSource;
        uint32_t occurrences = 0;
        std::vector<Message> messages;  // in first-report order
    };
    // Where the first diagnostic about an event sits.
    struct Position {
        uint32_t kind = 0, message = 0, event = 0;
    };

    std::vector<Kind> kinds;  // in first-report order (Stackline's own notes come first)
    std::vector<std::pair<uint32_t, Position>> firstByRow;  // (event row, position), by row

    // Where the first diagnostic about an event row sits; null when there is none.
    const Position* find(uint32_t row) const;
};

DiagnosticGroups groupDiagnostics(std::span<const Diagnostic> diagnostics);

// The diagnostics' distinct messages (Diagnostic::sameText), numbered in first-report order: for
// each diagnostic, the number of its message.
struct MessageNumbers {
    std::vector<uint32_t> of;     // per diagnostic
    std::vector<uint32_t> first;  // per message: its first diagnostic
};
MessageNumbers numberMessages(std::span<const Diagnostic> diagnostics);

}  // namespace stackline
