// The traces one window shows together (the ranks of a job): which files of a folder are traces,
// their order by rank, and the offsets that line their clocks up on the window's time axis.
#pragma once

#include <QString>
#include <QStringList>
#include <memory>
#include <optional>
#include <vector>

#include "analysis/job_steps.h"
#include "state/viewed_trace.h"

// A folder's files that match a trace format's patterns and are not kernel information, by name.
QStringList tracesInFolder(const QString& folder);
// The file dialog's filter for traces: every format's patterns at once, then each format's.
QString traceFileDialogFilter();
// By rank (traces without one after those with one, in the order given).
void orderByRank(std::vector<std::shared_ptr<const ViewedTrace>>& docs);
// Per document, its offset on the axis for this alignment; the first document's is 0, so that
// the axis is its own time (a single trace is shown as recorded).
std::vector<int64_t> alignedOffsets(const std::vector<std::shared_ptr<const ViewedTrace>>& docs,
                                    stackline::Alignment alignment, int64_t step);
// The first ProfilerStep number every document has; nullopt when they share none.
std::optional<int64_t> firstCommonStep(const std::vector<std::shared_ptr<const ViewedTrace>>& docs);
