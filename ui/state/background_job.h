// Runs one piece of work off the GUI thread (QtConcurrent) and reports its progress, which the
// work publishes through atomics and a timer polls, so a busy worker never floods the event loop.
// Cancelling sets a flag the work checks; the core's loader and exporter stop at the next chunk.
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QTimer>
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>

#include "pipeline/load_pipeline.h"

class BackgroundJob : public QObject {
    Q_OBJECT
public:
    // The core's progress and cancel interface, published for the poll: the load pipeline's
    // stages show as the stage text, bytes as the bar.
    struct Context : stackline::LoadObserver {
        std::atomic<uint64_t> done{0}, total{0};
        void setStage(const QString& s) {
            std::lock_guard lock(mutex);
            stage = s;
            done = 0;
            total = 0;
        }
        void progress(uint64_t d, uint64_t t) override {
            done = d;
            total = t;
        }
        void stageStarted(stackline::LoadStage s) override;
        std::mutex mutex;
        QString stage;
    };
    // Returns normally on success; throws to fail (the message is shown) or throws
    // stackline::Cancelled after a cancel.
    using Work = std::function<void(Context&)>;

    explicit BackgroundJob(QObject* parent = nullptr);
    ~BackgroundJob() override;

    bool isRunning() const { return watcher_.isRunning(); }
    void start(Work work);
    void cancel();
    // Blocks until the work has finished (for shutdown).
    void wait();

signals:
    // permille < 0: no total known.
    void progress(const QString& stage, int permille);
    // error is empty on success; cancelled is true when the work stopped on a cancel.
    void finished(bool cancelled, const QString& error);

private:
    struct Outcome {
        bool cancelled = false;
        QString error;
    };
    QFutureWatcher<Outcome> watcher_;
    QTimer poll_;
    std::shared_ptr<Context> context_;
};
