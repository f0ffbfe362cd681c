// Builds a ViewedTrace off the GUI thread: the core's load pipeline (the trace, or one already
// loaded; the kernel information given or found beside it; provenance; the summary), then the
// track and flow indexes and the hotspots.
#pragma once

#include <QString>
#include <QStringList>
#include <memory>
#include <vector>

#include "state/background_job.h"
#include "state/viewed_trace.h"

struct LoadRequest {
    QString tracePath;
    QString kernelInfoPath;  // empty: look beside the trace
    // Set to reprocess a loaded trace with other kernel information instead of reading it again.
    std::shared_ptr<const stackline::Trace> trace;
    // One of several traces opened together (a folder's files): when it cannot be read, it is
    // skipped and reported, and the others open.
    bool skippable = false;
};

struct LoadResult {
    std::vector<std::shared_ptr<ViewedTrace>> docs;  // in the order of the requests read
    QStringList skipped;  // the loader's message (naming the file) for each request skipped
};

// The work itself; throws InputError (the message names the file) or Cancelled.
std::shared_ptr<ViewedTrace> loadDocument(const LoadRequest& request,
                                          BackgroundJob::Context& context);
// Several traces at once (the ranks of a job), each on a thread of its own, with the progress of
// all of them. The first failure of a request that is not skippable fails them all, and so does
// the first skipped one's when every request is skipped.
LoadResult loadDocuments(const std::vector<LoadRequest>& requests, BackgroundJob::Context& context);
