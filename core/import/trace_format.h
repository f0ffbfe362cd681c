// The door for trace formats: each format Stackline reads is one TraceFormat (how to recognise
// its bytes, how to read them into the format-neutral Trace, how its annotated result is
// written), and one line of the table in trace_formats.cpp. Dialog filters, folder globs, help
// texts and the desktop's MIME types all come from that table.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/progress.h"
#include "io/trace_bytes.h"
#include "model/trace.h"

namespace stackline {

struct LoadOptions {
    unsigned threads = 0;  // 0: one per core
    // Bytes of traceEvents per parallel chunk at least (tests and fuzzers lower it to reach the
    // chunk seams with small inputs).
    uint64_t chunkBytes = uint64_t(8) << 20;
    // Read exact nanoseconds (EventTable::tsNs, durNs: for display) where they differ from the
    // microseconds' nearest. Annotating does without them: less to read.
    bool nanoseconds = true;
    // Told the bytes scanned so far and the total, on the loading thread; its cancel stops the
    // load.
    Progress* progress = nullptr;
};

// How a trace of the format is written once annotated.
enum class AnnotatedExport : uint8_t {
    Splice,      // into its own bytes (stack, uid, uid_assigned inserted; all else as it was)
    ChromeJson,  // as a new Chrome JSON trace (never in place)
    None,        // not at all
};

// A MIME type of the format, for the desktop's shared-mime-info database. One with no glob is a
// type the desktop already defines (application/vnd.sqlite3): Stackline is then listed as one
// more application for it, and its package does not claim the type's files.
struct TraceMimeType {
    std::string_view type;         // "application/x-stackline-trace"
    std::string_view comment;      // "PyTorch profiler trace"
    std::string_view glob;         // "*.pt.trace.json"
    std::string_view subClassOf;   // "application/json"
    std::string_view genericIcon;  // "text-x-generic"
};

// How torch.profiler records torch.compile's compiled regions (Kineto JSON, Cuspy's Perfetto).
inline constexpr std::string_view kRecordRegionsWithTorchProfiler =
    "profile the call of the torch.compile'd function itself (compiled code called directly, as "
    "AOTInductor's, records no region).";

struct TraceFormat {
    std::string_view id;    // "kineto-json": Trace::format, --help, the report
    std::string_view name;  // "PyTorch profiler trace (Kineto JSON)"
    // File name patterns of its files: the open dialog's filter and the traces of a folder.
    std::vector<std::string_view> patterns;
    std::vector<TraceMimeType> mimeTypes;
    // Whether bytes (after gzip inflation) are of this format, from their first bytes (at most
    // kSniffBytes). The formats are asked in table order; nullptr: the fallback, which takes
    // whatever no other format claims and whose reader says what is wrong with it.
    bool (*sniff)(std::string_view head) = nullptr;
    // Reads bytes (name is used in messages) into a trace. Throws InputError naming the file and
    // the position, or Cancelled.
    Trace (*read)(TraceBytes bytes, const std::string& name, const LoadOptions& options) = nullptr;
    AnnotatedExport annotatedExport = AnnotatedExport::None;
    // How to profile so that traces of the format record compiled regions: the advice of the
    // no_compiled_region warning on Triton kernels launched outside any.
    std::string_view recordRegions = kRecordRegionsWithTorchProfiler;
};

inline constexpr std::size_t kSniffBytes = 4096;

}  // namespace stackline
