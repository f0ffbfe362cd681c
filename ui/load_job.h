// Builds a Document off the GUI thread: reads the trace (or reuses one already loaded), finds or
// reads the kernel information, runs provenance and builds the track and flow indexes.
#pragma once

#include <QString>
#include <memory>

#include "background_job.h"
#include "document.h"

struct LoadRequest {
    QString tracePath;
    QString kernelInfoPath;  // empty: look beside the trace
    // Set to reprocess a loaded trace with other kernel information instead of reading it again.
    std::shared_ptr<const stackline::Trace> trace;
};

// The work itself; throws InputError (the message names the file) or Cancelled.
std::shared_ptr<Document> loadDocument(const LoadRequest& request, BackgroundJob::Context& context);
