// Writes the annotated trace as its format says (TraceFormat::annotatedExport). Kineto JSON is
// spliced: "uid" at the end of each event, "stack" into (or as) args, "uid_assigned" at the top
// level, every other byte copied as it is. Other formats are written as new Chrome JSON
// (annotate/chrome_json_writer.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "annotate/provenance.h"
#include "io/atomic_file.h"
#include "model/trace.h"

namespace stackline {

struct ExportOptions {
    bool allowOverwriteInput = false;  // --in-place
    int gzipLevel = 2;                 // for .gz outputs: ISA-L's levels 0-3
    unsigned threads =
        0;  // threads formatting new Chrome JSON and compressing gzip; 0: one per core
    std::size_t gzipChunk = 0;  // bytes compressed apart in a .gz output; 0: chosen by size
    // Nothing reads the trace's bytes after (or beside) this export, as in stackline-cli: they are
    // discarded as they are copied, so a .json.gz's inflated text gives its memory to the output.
    bool consumeInput = false;
    std::function<void(uint64_t done, uint64_t total)> progress;
    const std::atomic<bool>* cancel = nullptr;
};

// Why the trace cannot be rewritten in place (--in-place) although it can be exported; empty when
// it can (its format splices).
std::string inPlaceRefusal(const Trace& trace);

// Writes to outPath (gzip when it ends in ".gz") through a temporary file, as the trace's format
// says (TraceFormat::annotatedExport). Throws OutputError (also for a format that is not written
// annotated, and for allowOverwriteInput where inPlaceRefusal says why not), or InputError when the
// trace's file changed on disk since it was opened (before or during the export; then no output is
// left).
void exportTrace(const Trace& trace, const Provenance& provenance, const std::string& outPath,
                 const ExportOptions& options = {});

// The annotated trace as a string (for tests and small traces).
std::string exportToString(const Trace& trace, const Provenance& provenance);

}  // namespace stackline
