#include "pipeline/load_pipeline.h"

#include <future>

#include "base/file_system.h"
#include "import/trace_formats.h"
#include "io/trace_bytes.h"

namespace stackline {

std::shared_ptr<Trace> readTraceStage(const PipelineInput& input, LoadObserver& observer) {
    observer.throwIfCancelled();
    observer.stageStarted(LoadStage::Trace);
    LoadOptions options = input.load;
    options.progress = &observer;
    // A file rewritten while it is indexed fails to parse, or parses as another trace: say so.
    // (A pipe is copied first: what is read is that copy.)
    std::optional<FileStamp> before;
    if (!isStandardInput(input.tracePath) && isRegularFile(input.tracePath))
        before = fileStamp(input.tracePath);
    auto changed = [&] {
        std::string what = before ? describeChange(*before, fileStamp(input.tracePath)) : "";
        if (!what.empty())
            throw InputError(input.tracePath + ": the file " + what + " while it was read");
    };
    std::shared_ptr<Trace> trace;
    try {
        trace = std::make_shared<Trace>(loadTrace(input.tracePath, options));
    } catch (const InputError&) {
        changed();
        throw;
    }
    trace->throwIfChanged();
    // The loader's last tick comes before the end; the stage ends complete.
    observer.progress(trace->whole().size(), trace->whole().size());
    observer.traceLoaded(*trace);
    return trace;
}

LoadedKernelInfo readKernelInfoStage(const PipelineInput& input, const Trace& trace,
                                     LoadObserver& observer) {
    observer.throwIfCancelled();
    observer.stageStarted(LoadStage::KernelInfo);
    LoadedKernelInfo k;
    k.path = input.kernelInfoPath;
    // Standard input has no folder to look in.
    const bool beside = !isStandardInput(input.tracePath);
    if (k.path.empty() && beside) {
        k.path = findKernelInfoFor(trace.path);
        k.found = !k.path.empty();
        if (k.found) observer.kernelInfoFound(k.path);
    }
    if (k.path.empty() && input.requireKernelInfo)
        throw InputError(trace.path + (beside ? ": no kernel information given (--kernel-info) "
                                                "or found beside the trace"
                                              : ": no kernel information given (--kernel-info)"));
    if (!k.path.empty()) k.info = KernelInfo::load(k.path);
    observer.kernelInfoRead(k);
    return k;
}

Provenance provenanceStage(const PipelineInput& input, const Trace& trace,
                           const KernelInfo& kernelInfo, LoadObserver& observer) {
    observer.throwIfCancelled();
    observer.stageStarted(LoadStage::Provenance);
    Provenance p = runProvenance(trace, kernelInfo, input.load.threads);
    observer.provenanceDone(p);
    return p;
}

Summary summaryStage(const Trace& trace, const Provenance& provenance, LoadObserver& observer) {
    observer.throwIfCancelled();
    observer.stageStarted(LoadStage::Summary);
    Summary s = summarize(trace, provenance);
    observer.summaryDone(s);
    return s;
}

std::shared_ptr<const Trace> traceStage(const PipelineInput& input, LoadObserver& observer) {
    if (!input.trace) return readTraceStage(input, observer);
    observer.traceLoaded(*input.trace);
    return input.trace;
}

DisplayIndexes indexesStage(const PipelineInput& input, const Trace& trace,
                            LoadObserver& observer) {
    observer.throwIfCancelled();
    DisplayIndexes ix = buildTraceIndexes(trace, input.load.threads, input.indexSet);
    observer.throwIfCancelled();
    return ix;
}

LoadedTrace runLoadPipeline(const PipelineInput& input, LoadObserver& observer) {
    LoadedTrace out;
    out.trace = traceStage(input, observer);
    const Trace& trace = *out.trace;
    // The display indexes need only the trace: they are built on one thread while the kernel
    // information is read and the processor runs on the other (both spread over the cores when
    // the other is done). Declared after out, the future is waited for before out goes, also
    // when a stage throws.
    std::future<DisplayIndexes> indexes;
    if (input.displayIndexes)
        indexes =
            std::async(std::launch::async, [&] { return indexesStage(input, trace, observer); });
    out.kernelInfo = readKernelInfoStage(input, trace, observer);
    out.provenance = provenanceStage(input, trace, out.kernelInfo.info, observer);
    if (input.displayIndexes) {
        observer.stageStarted(LoadStage::Indexes);
        out.indexes = indexes.get();
    }
    // What needs both, side by side again.
    std::future<Summary> summary = std::async(std::launch::async, [&] {
        Summary s = summarize(trace, out.provenance);
        if (input.hotspots) out.hotspots = computeHotspots(trace, out.provenance);
        return s;
    });
    observer.stageStarted(LoadStage::Summary);
    if (input.displayIndexes) addEagerStacks(out.indexes, trace, out.provenance);
    out.summary = summary.get();
    if (input.displayIndexes) out.summary.eagerStacks = out.indexes.eager.count();
    observer.summaryDone(out.summary);
    trace.throwIfChanged();  // the processor read args from it
    return out;
}

}  // namespace stackline
