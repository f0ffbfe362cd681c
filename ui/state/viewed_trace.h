// Everything the viewer shows about one opened trace, built once off the GUI thread and then only
// read: the trace, its kernel information, the provenance result and the display indexes.
#pragma once

#include <QString>
#include <memory>
#include <string>

#include "analysis/eager_stacks.h"
#include "analysis/hotspots.h"
#include "analysis/job_steps.h"
#include "annotate/provenance.h"
#include "annotate/summary_report.h"
#include "kernel_info/kernel_info.h"
#include "model/counter_index.h"
#include "model/flow_index.h"
#include "model/trace.h"
#include "model/track_index.h"
#include "state/track_styles.h"
#include "widgets/time_text.h"

struct ViewedTrace {
    // Shared so that attaching other kernel information reprocesses without reloading the trace.
    std::shared_ptr<const stackline::Trace> trace;
    stackline::RankInfo rank;  // its rank and label among the window's traces
    stackline::KernelInfo kernelInfo;
    QString kernelInfoPath;        // empty when there is none
    bool kernelInfoFound = false;  // discovered beside the trace rather than given
    stackline::Provenance provenance;
    stackline::Summary summary;  // the counts `stackline-cli summary` prints
    stackline::TrackIndex tracks;
    // The timeline's zero, as `--range`'s: the smallest ts of the non-metadata events.
    int64_t originNs = 0;
    stackline::CounterIndex counters;  // counter and memory graph tracks
    stackline::FlowIndex flows;
    stackline::EagerStacks eager;  // Python stacks of eager kernels, from the trace
    stackline::Hotspots hotspots;  // GPU time by source line (compiled kernels)
    TrackStyles styles;            // how the timeline paints each slice

    const stackline::EventTable& events() const { return trace->events; }
    QString tracePath() const { return QString::fromStdString(trace->path); }
    QString name(uint32_t row) const;
    // Who it is among the window's traces: its rank's label ("rank 3"), else its file's name.
    QString label() const;
    bool isKernel(uint32_t row) const { return provenance.isGpuKernel(events(), row); }
    stackline::KernelStatus status(uint32_t row) const { return provenance.status(events(), row); }
    // The slice that launched a kernel (ac2g flow), else kNoRow.
    uint32_t launchOf(uint32_t row) const { return flows.sourceOf(row); }
    // For a kernel, the compiled region around its launch; for a CPU slice, around itself.
    uint32_t compiledRegionFor(uint32_t row) const;
};

QString statusText(stackline::KernelStatus status);
