#include "state/load_job.h"

#include <QObject>
#include <algorithm>
#include <chrono>
#include <exception>
#include <future>
#include <mutex>
#include <optional>
#include <thread>

#include "base/errors.h"
#include "pipeline/load_pipeline.h"

using namespace stackline;

std::shared_ptr<ViewedTrace> loadDocument(const LoadRequest& request,
                                          BackgroundJob::Context& context) {
    PipelineInput input;
    input.tracePath = request.tracePath.toStdString();
    input.kernelInfoPath = request.kernelInfoPath.toStdString();
    input.trace = request.trace;
    input.displayIndexes = true;
    input.hotspots = true;
    LoadedTrace loaded = runLoadPipeline(input, context);

    auto doc = std::make_shared<ViewedTrace>();
    doc->trace = std::move(loaded.trace);
    doc->rank = rankInfoOf(*doc->trace);
    doc->kernelInfo = std::move(loaded.kernelInfo.info);
    doc->kernelInfoPath = QString::fromStdString(loaded.kernelInfo.path);
    doc->kernelInfoFound = loaded.kernelInfo.found;
    doc->provenance = std::move(loaded.provenance);
    doc->summary = std::move(loaded.summary);
    doc->hotspots = std::move(loaded.hotspots);
    doc->tracks = std::move(loaded.indexes.tracks);
    doc->originNs = loaded.indexes.originNs;
    doc->counters = std::move(loaded.indexes.counters);
    doc->flows = std::move(loaded.indexes.flows);
    doc->eager = std::move(loaded.indexes.eager);
    doc->styles = TrackStyles::build(doc->trace->events, doc->provenance, doc->tracks);
    return doc;
}

LoadResult loadDocuments(const std::vector<LoadRequest>& requests,
                         BackgroundJob::Context& context) {
    if (requests.size() == 1) return {{loadDocument(requests[0], context)}, {}};
    const size_t n = requests.size();
    // Each trace reports to a context of its own; this thread sums them up and passes a cancel
    // on. The loader spreads one trace over all cores already: a few at a time is enough.
    std::vector<BackgroundJob::Context> parts(n);
    std::vector<std::shared_ptr<ViewedTrace>> docs(n);
    std::vector<std::atomic<bool>> loaded(n);
    std::vector<std::optional<InputError>> refused(n);  // the skippable requests that failed
    std::atomic<size_t> next{0};
    std::mutex failed;
    std::exception_ptr failure;  // the first: a failure cancels the others
    auto worker = [&] {
        try {
            for (size_t i = next++; i < n; i = next++) {
                try {
                    docs[i] = loadDocument(requests[i], parts[i]);
                } catch (const InputError& e) {
                    if (!requests[i].skippable) throw;
                    refused[i] = e;
                }
                loaded[i] = true;
            }
        } catch (...) {
            std::lock_guard lock(failed);
            if (!failure) failure = std::current_exception();
            for (auto& p : parts) p.cancel = true;
        }
    };
    const size_t threads =
        std::min<size_t>(n, std::max(2u, std::thread::hardware_concurrency() / 2));
    std::vector<std::future<void>> running;
    for (size_t t = 0; t < threads; ++t) running.push_back(std::async(std::launch::async, worker));
    context.setStage(QObject::tr("Opening %1 traces").arg(n));
    auto finished = [&] {
        return std::all_of(running.begin(), running.end(), [](const std::future<void>& f) {
            return f.wait_for(std::chrono::milliseconds(0)) == std::future_status::ready;
        });
    };
    while (!finished()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
        uint64_t permille = 0;
        for (size_t i = 0; i < n; ++i) {
            if (context.cancelled()) parts[i].cancel = true;
            const uint64_t total = parts[i].total, done = parts[i].done;
            permille += loaded[i] ? 1000 : total ? std::min<uint64_t>(999, done * 1000 / total) : 0;
        }
        context.progress(permille, 1000 * n);
    }
    if (failure) std::rethrow_exception(failure);
    context.throwIfCancelled();
    LoadResult result;
    for (size_t i = 0; i < n; ++i) {
        if (docs[i]) result.docs.push_back(std::move(docs[i]));
        if (refused[i]) result.skipped << QString::fromUtf8(refused[i]->what());
    }
    if (result.docs.empty())  // every one skipped: fail with the first's message
        for (const auto& r : refused)
            if (r) throw *r;
    return result;
}
