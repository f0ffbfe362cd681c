// Builds a ViewedTrace off the GUI thread: the core's load pipeline (the trace, or one already
// loaded; the kernel information given or found beside it; provenance; the summary), then the
// track and flow indexes and the hotspots.
#pragma once

#include <QString>
#include <memory>
#include <vector>

#include "state/background_job.h"
#include "state/viewed_trace.h"

struct LoadRequest {
    QString tracePath;
    QString kernelInfoPath;  // empty: look beside the trace
    // Set to reprocess a loaded trace with other kernel information instead of reading it again.
    std::shared_ptr<const stackline::Trace> trace;
};

// The work itself; throws InputError (the message names the file) or Cancelled.
std::shared_ptr<ViewedTrace> loadDocument(const LoadRequest& request,
                                          BackgroundJob::Context& context);
// Several traces at once (the ranks of a job), each on a thread of its own, with the progress of
// all of them; the documents in the order of the requests. The first failure fails them all.
std::vector<std::shared_ptr<ViewedTrace>> loadDocuments(const std::vector<LoadRequest>& requests,
                                                        BackgroundJob::Context& context);
