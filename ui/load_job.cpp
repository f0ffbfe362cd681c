#include "load_job.h"

#include <QObject>

using namespace stackline;

std::shared_ptr<Document> loadDocument(const LoadRequest& request,
                                       BackgroundJob::Context& context) {
    auto doc = std::make_shared<Document>();
    auto checkCancel = [&] {
        if (context.cancel) throw Cancelled{};
    };
    if (request.trace) {
        doc->trace = request.trace;
    } else {
        context.setStage(QObject::tr("Reading trace"));
        LoadOptions options;
        options.cancel = &context.cancel;
        options.progress = [&](uint64_t done, uint64_t total) { context.progress(done, total); };
        doc->trace = std::make_shared<Trace>(loadTrace(request.tracePath.toStdString(), options));
    }
    checkCancel();

    std::string kinfo = request.kernelInfoPath.toStdString();
    if (kinfo.empty()) {
        kinfo = findKernelInfoFor(doc->trace->path);
        doc->kernelInfoFound = !kinfo.empty();
    }
    if (!kinfo.empty()) {
        context.setStage(QObject::tr("Reading kernel information"));
        doc->kernelInfo = KernelInfo::load(kinfo);
        doc->kernelInfoPath = QString::fromStdString(kinfo);
    }
    checkCancel();

    context.setStage(QObject::tr("Attaching Python stacks"));
    doc->provenance = runProvenance(*doc->trace, doc->kernelInfo);
    checkCancel();

    context.setStage(QObject::tr("Building tracks"));
    doc->tracks = TrackIndex::build(doc->trace->events, doc->trace->text());
    checkCancel();

    context.setStage(QObject::tr("Linking flows"));
    doc->flows = FlowIndex::build(doc->trace->events, doc->tracks);
    checkCancel();

    context.setStage(QObject::tr("Summing GPU time by source line"));
    doc->hotspots = computeHotspots(*doc->trace, doc->provenance);
    doc->summary = summarize(*doc->trace, doc->provenance);
    return doc;
}
