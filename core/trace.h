// A loaded trace: its bytes, the event table indexed from them, and where the top-level members
// the exporter edits sit.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "event_table.h"
#include "trace_bytes.h"

namespace stackline {

struct TraceInfo {
    uint64_t topClose = 0;  // offset of the top-level object's closing brace
    bool topEmpty = true;   // the top-level object has no members
    bool uidAssignedPresent = false;
    bool uidAssignedTruthy = false;
    Span uidAssignedValue;
};

struct Trace {
    std::string path;
    TraceBytes bytes;
    EventTable events;
    TraceInfo info;

    std::string_view text() const { return bytes.text(); }
    std::string_view slice(Span s) const { return text().substr(s.begin, s.size()); }
};

// Thrown when a load is cancelled through LoadOptions::cancel.
struct Cancelled {};

struct LoadOptions {
    unsigned threads = 0;  // 0: one per core
    // Bytes of traceEvents per parallel chunk at least (tests and fuzzers lower it to reach the
    // chunk seams with small inputs).
    uint64_t chunkBytes = uint64_t(8) << 20;
    // Fill EventTable::tsNs and durNs (exact nanoseconds, for display). Annotating does without
    // them: 16 bytes less per event to write and keep.
    bool nanoseconds = true;
    // Called on the loading thread with bytes scanned so far and the total.
    std::function<void(uint64_t done, uint64_t total)> progress;
    const std::atomic<bool>* cancel = nullptr;
};

// Opens and indexes a .json or .json.gz trace. Throws InputError naming the file and position.
Trace loadTrace(const std::string& path, const LoadOptions& options = {});
// Indexes bytes already in memory; name is used in messages.
Trace parseTrace(TraceBytes bytes, const std::string& name, const LoadOptions& options = {});

}  // namespace stackline
