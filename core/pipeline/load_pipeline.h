// The one way a trace becomes something to show or write, in one stage order: the trace is read
// (or a loaded one reused), its kernel information given or found beside it is read, the
// provenance processor runs, on request the display indexes are built (beside the processor: they
// need only the trace) and the hotspots summed, and the summary is made. stackline-cli, the
// viewer's load job and the Python module all go through it.
// Each stage reports to a LoadObserver as soon as its result is there, the trace first, so that a
// caller can show the trace before the rest is done.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "analysis/hotspots.h"
#include "annotate/provenance.h"
#include "annotate/summary_report.h"
#include "base/progress.h"
#include "import/trace_format.h"
#include "kernel_info/kernel_info.h"
#include "model/trace.h"
#include "pipeline/display_indexes.h"

namespace stackline {

enum class LoadStage : uint8_t { Trace, KernelInfo, Provenance, Indexes, Summary };

struct PipelineInput {
    std::string tracePath;       // "-": standard input
    std::string kernelInfoPath;  // empty: look beside the trace (findKernelInfoFor), not for "-"
    bool requireKernelInfo = false;  // fail when none is given or found (annotating needs it)
    // Set to reprocess a trace already loaded (other kernel information) instead of reading it.
    std::shared_ptr<const Trace> trace;
    bool displayIndexes = false;  // build LoadedTrace::indexes (and the summary's eager count)
    IndexSet indexSet = IndexSet::Display;  // which of them indexesStage builds
    bool hotspots = false;                  // sum LoadedTrace::hotspots
    // The loader's threads (also the processor's), chunk size and nanoseconds; its progress is
    // the observer.
    LoadOptions load;
};

struct LoadedKernelInfo {
    KernelInfo info;
    std::string path;    // empty when there is none
    bool found = false;  // discovered beside the trace rather than given
};

struct LoadedTrace {
    std::shared_ptr<const Trace> trace;
    LoadedKernelInfo kernelInfo;
    Provenance provenance;
    DisplayIndexes indexes;  // when PipelineInput::displayIndexes
    Hotspots hotspots;       // when PipelineInput::hotspots
    Summary summary;
};

// One interface for progress, cancel and the stages' results. The stages call it on the loading
// thread, in the order of LoadStage: stageStarted, then (for the trace, with byte progress) the
// stage's result. A reused trace is handed over without a Trace stage.
class LoadObserver : public Progress {
public:
    virtual void stageStarted(LoadStage /*stage*/) {}
    virtual void traceLoaded(const Trace& /*trace*/) {}
    // Kernel information found beside the trace, before it is read.
    virtual void kernelInfoFound(const std::string& /*path*/) {}
    virtual void kernelInfoRead(const LoadedKernelInfo& /*kernelInfo*/) {}
    virtual void provenanceDone(const Provenance& /*provenance*/) {}
    virtual void summaryDone(const Summary& /*summary*/) {}
};

// The stages, for callers that put work of their own between them (stackline-cli annotate exports
// while another core makes the summary). Each throws Cancelled when the observer's cancel is set
// before it starts, and InputError for an input that cannot be used.
std::shared_ptr<Trace> readTraceStage(const PipelineInput& input, LoadObserver& observer);
// The input's loaded trace, handed over without a Trace stage; else readTraceStage's.
std::shared_ptr<const Trace> traceStage(const PipelineInput& input, LoadObserver& observer);
LoadedKernelInfo readKernelInfoStage(const PipelineInput& input, const Trace& trace,
                                     LoadObserver& observer);
Provenance provenanceStage(const PipelineInput& input, const Trace& trace,
                           const KernelInfo& kernelInfo, LoadObserver& observer);
Summary summaryStage(const Trace& trace, const Provenance& provenance, LoadObserver& observer);
// The display indexes' trace-only part, for a caller that runs it beside the other stages.
DisplayIndexes indexesStage(const PipelineInput& input, const Trace& trace, LoadObserver& observer);

// Every stage in order.
LoadedTrace runLoadPipeline(const PipelineInput& input, LoadObserver& observer);

}  // namespace stackline
