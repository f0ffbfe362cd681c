#include "state/background_job.h"

#include <QtConcurrent/QtConcurrentRun>
#include <iterator>
#include <new>

BackgroundJob::BackgroundJob(QObject* parent) : QObject(parent) {
    poll_.setInterval(50);
    connect(&poll_, &QTimer::timeout, this, [this] {
        if (!context_) return;
        QString stage;
        {
            std::lock_guard lock(context_->mutex);
            stage = context_->stage;
        }
        const uint64_t total = context_->total, done = context_->done;
        emit progress(stage, total ? int(std::min<uint64_t>(1000, done * 1000 / total)) : -1);
    });
    connect(&watcher_, &QFutureWatcher<Outcome>::finished, this, [this] {
        poll_.stop();
        const Outcome o = watcher_.result();
        emit finished(o.cancelled, o.error);
    });
}

BackgroundJob::~BackgroundJob() {
    cancel();
    wait();
}

void BackgroundJob::start(Work work) {
    context_ = std::make_shared<Context>();
    auto context = context_;
    watcher_.setFuture(QtConcurrent::run([work = std::move(work), context]() -> Outcome {
        try {
            work(*context);
            return {};
        } catch (const stackline::Cancelled&) {
            return {true, {}};
        } catch (const std::bad_alloc&) {
            return {false, QObject::tr("out of memory")};
        } catch (const std::exception& e) {
            return {false, QString::fromUtf8(e.what())};
        }
    }));
    poll_.start();
}

void BackgroundJob::cancel() {
    if (context_) context_->cancel = true;
}

void BackgroundJob::wait() {
    watcher_.waitForFinished();
}

void BackgroundJob::Context::stageStarted(stackline::LoadStage s) {
    // Indexed by LoadStage.
    static constexpr const char* kStageNames[] = {
        QT_TRANSLATE_NOOP("QObject", "Reading trace"),
        QT_TRANSLATE_NOOP("QObject", "Reading kernel information"),
        QT_TRANSLATE_NOOP("QObject", "Attaching Python stacks"),
        QT_TRANSLATE_NOOP("QObject", "Building tracks"),
        QT_TRANSLATE_NOOP("QObject", "Counting kernels"),
    };
    static_assert(std::size(kStageNames) == size_t(stackline::LoadStage::Summary) + 1);
    setStage(QObject::tr(kStageNames[size_t(s)]));
}
