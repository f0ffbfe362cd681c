#include "load_job.h"

#include <QObject>

#include "load_pipeline.h"
#include "range_summary.h"

using namespace stackline;

std::shared_ptr<Document> loadDocument(const LoadRequest& request,
                                       BackgroundJob::Context& context) {
    PipelineInput input;
    input.tracePath = request.tracePath.toStdString();
    input.kernelInfoPath = request.kernelInfoPath.toStdString();
    input.trace = request.trace;
    LoadedTrace loaded = runLoadPipeline(input, context);

    auto doc = std::make_shared<Document>();
    doc->trace = std::move(loaded.trace);
    doc->kernelInfo = std::move(loaded.kernelInfo.info);
    doc->kernelInfoPath = QString::fromStdString(loaded.kernelInfo.path);
    doc->kernelInfoFound = loaded.kernelInfo.found;
    doc->provenance = std::move(loaded.provenance);
    doc->summary = std::move(loaded.summary);
    context.throwIfCancelled();

    context.setStage(QObject::tr("Building tracks"));
    doc->tracks = TrackIndex::build(doc->trace->events, doc->trace->text());
    doc->originNs = traceOriginNs(doc->trace->events);
    context.throwIfCancelled();

    context.setStage(QObject::tr("Reading counters"));
    doc->counters = CounterIndex::build(*doc->trace, doc->tracks);
    context.throwIfCancelled();

    context.setStage(QObject::tr("Linking flows"));
    doc->flows = FlowIndex::build(doc->trace->events, doc->tracks);
    context.throwIfCancelled();

    context.setStage(QObject::tr("Finding Python stacks of eager kernels"));
    doc->eager = EagerStacks::build(*doc->trace, doc->provenance, doc->tracks, doc->flows);
    doc->summary.eagerStacks = doc->eager.count();
    context.throwIfCancelled();

    context.setStage(QObject::tr("Summing GPU time by source line"));
    doc->hotspots = computeHotspots(*doc->trace, doc->provenance);
    return doc;
}
