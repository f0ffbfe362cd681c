// Two helpers for panels that compute what they show, each owning one piece of bookkeeping the
// panels used to write by hand:
//  - ShowGate: compute when shown. A panel that is hidden (another tab is current) does not
//    recompute on every change of the selection, range or documents; it marks itself stale and
//    updates when next shown (or when read, through catchUp()).
//  - LazyResult<T>: compute off the GUI thread and deliver only the latest result. A newer
//    start() or a drop() supersedes the computation running, whose result is then never
//    delivered, so a slow result for the previous documents or options cannot overwrite a newer
//    one.
// Two helpers rather than one: Flame, Kernels and Kernel code compute on the GUI thread behind
// the gate, Steps computes in the background whether shown or not (its tab's state needs the
// result), and Hotspots and Diff use both.
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QtConcurrent/QtConcurrentRun>
#include <cstdint>
#include <functional>
#include <utility>

class QWidget;

class ShowGate : public QObject {
public:
    // update brings the widget up to date; it runs on the GUI thread, from invalidate(), run(),
    // catchUp() or the widget's show event (the gate filters the widget's events).
    ShowGate(QWidget* widget, std::function<void()> update);

    // What the widget shows changed: update now when it is visible, else when next shown.
    void invalidate();
    // Update now, shown or not (the result is needed anyway): the widget is no longer stale.
    void run();
    // Update now if an invalidate() is pending: a hidden widget's contents are read.
    void catchUp();
    bool isStale() const { return stale_; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QWidget* widget_;
    std::function<void()> update_;
    bool stale_ = false;
};

template <class T>
class LazyResult {
public:
    // deliver receives, on the GUI thread, the result of the latest start() unless it was
    // dropped or superseded.
    explicit LazyResult(std::function<void(T)> deliver) : deliver_(std::move(deliver)) {
        QObject::connect(&watcher_, &QFutureWatcherBase::finished, [this] {
            // A superseded future's late signal: the current one delivers when it finishes.
            if (!watcher_.isFinished()) return;
            Tagged done = watcher_.result();
            if (done.generation != generation_) return;
            computing_ = false;
            deliver_(std::move(done.value));
        });
    }
    LazyResult(const LazyResult&) = delete;
    LazyResult& operator=(const LazyResult&) = delete;

    // Runs work() (a callable returning T, safe to run on another thread: it should capture
    // its inputs by value) on the global thread pool; supersedes the computation running.
    template <class Work>
    void start(Work work) {
        computing_ = true;
        watcher_.setFuture(
            QtConcurrent::run([work = std::move(work), generation = ++generation_]() -> Tagged {
                return {generation, work()};
            }));
    }
    // The computation running (if any) is obsolete: its result is not delivered.
    void drop() {
        ++generation_;
        computing_ = false;
    }
    // A start() whose result is not delivered yet, nor dropped.
    bool isComputing() const { return computing_; }

private:
    struct Tagged {
        uint64_t generation = 0;
        T value{};
    };
    std::function<void(T)> deliver_;
    QFutureWatcher<Tagged> watcher_;
    uint64_t generation_ = 0;  // of the latest start() or drop()
    bool computing_ = false;
};
