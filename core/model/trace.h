// A loaded trace, format-neutral from here on: the event table its importer filled, what it says of
// its processes and threads (metadata), a reader of its events' args, and its bytes with, for a
// trace exported by splicing into them (Kineto JSON), where the top-level members the exporter
// edits sit.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/file_system.h"
#include "base/progress.h"
#include "io/trace_bytes.h"
#include "model/event_args.h"
#include "model/event_table.h"
#include "model/launch_stacks.h"
#include "model/trace_metadata.h"

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
    std::string_view format;  // the id of the format it was read as (TraceFormat::id)
    TraceBytes bytes;
    EventTable events;
    TraceMetadata metadata;
    std::shared_ptr<const ArgsReader> argsReader;  // none: no event has args
    TraceInfo info;
    // What the reader skipped or could not resolve, a sentence each, for the trace_reader
    // diagnostics; empty when it read everything.
    std::vector<std::string> notes;
    // Python stacks recorded with launches (Nsight's --python-backtrace); empty for most formats.
    LaunchStacks launchStacks;

    EventArgs args(uint32_t row) const { return EventArgs(*this, row); }
    // Calls f(row) for each row whose args may hold key, ascending: those the args reader learnt
    // while loading (ArgsReader::rowsThatMayHold), else every row.
    template <class F>
    void forEachRowThatMayHold(std::string_view key, F&& f) const {
        if (argsReader)
            if (const auto rows = argsReader->rowsThatMayHold(key)) {
                for (const uint32_t row : *rows) f(row);
                return;
            }
        for (uint32_t row = 0, n = events.size(); row < n; ++row) f(row);
    }

    // Every read of the trace's bytes after loading goes through slice: an event, its args, the
    // runs the exporter copies. How the bytes are held (mapped, inflated; later re-inflated on
    // demand or checked for changes on disk) then changes in one place, TraceBytes.
    std::string_view slice(Span s) const { return bytes.slice(s.begin, s.end); }
    Span whole() const { return {0, bytes.size()}; }
    std::string_view text() const { return slice(whole()); }  // the whole trace (the indexes)
    // Pages of [begin, end) already read may be dropped (see TraceBytes::release).
    void release(Span s) const { bytes.release(s.begin, s.end); }
    // [begin, end) will not be read again (see TraceBytes::discard).
    void discard(Span s) const { bytes.discard(s.begin, s.end); }
    // Empty while the file is as it was when opened (or the bytes came from no file); else a
    // sentence naming the file and what changed. A trace is mapped and read lazily, so a file
    // rewritten in place shows its new bytes at the old offsets, and one truncated reads as
    // zeros (MappedFileGuard): whoever reads after loading asks this first, and after.
    std::string changedOnDisk() const {
        if (!bytes.stamp()) return {};
        const std::string what =
            bytes.faulted() ? "was truncated" : describeChange(*bytes.stamp(), fileStamp(path));
        return what.empty() ? what : path + ": the file " + what + " since it was opened";
    }
    // Throws InputError when the file changed on disk since it was opened: what was read from it
    // since may be another file's bytes.
    void throwIfChanged() const {
        if (std::string why = changedOnDisk(); !why.empty()) throw InputError(why);
    }
};

}  // namespace stackline
