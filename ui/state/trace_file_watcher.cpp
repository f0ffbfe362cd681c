#include "state/trace_file_watcher.h"

#include <QFileInfo>

TraceFileWatcher::TraceFileWatcher(QObject* parent) : QObject(parent) {
    settle_.setSingleShot(true);
    settle_.setInterval(200);
    connect(&settle_, &QTimer::timeout, this, &TraceFileWatcher::check);
    auto noticed = [this] {
        rearm();
        settle_.start();
    };
    connect(&watcher_, &QFileSystemWatcher::fileChanged, this, noticed);
    connect(&watcher_, &QFileSystemWatcher::directoryChanged, this, noticed);
}

void TraceFileWatcher::watch(std::shared_ptr<const stackline::Trace> trace) {
    if (!watcher_.files().isEmpty()) watcher_.removePaths(watcher_.files());
    if (!watcher_.directories().isEmpty()) watcher_.removePaths(watcher_.directories());
    trace_ = std::move(trace);
    reported_ = false;
    // A trace read from a pipe was copied: there is no file to watch.
    if (!trace_ || trace_->path.empty() || !trace_->bytes.stamp()) return;
    const QString path = QString::fromStdString(trace_->path);
    watcher_.addPath(QFileInfo(path).absolutePath());
    watcher_.addPath(path);
}

// A file replaced by rename or removed drops out of the watcher: watch the new one.
void TraceFileWatcher::rearm() {
    if (!trace_) return;
    const QString path = QString::fromStdString(trace_->path);
    if (!watcher_.files().contains(path) && QFileInfo::exists(path)) watcher_.addPath(path);
}

void TraceFileWatcher::check() {
    if (!trace_ || reported_) return;
    const std::string why = trace_->changedOnDisk();
    if (why.empty()) return;
    reported_ = true;
    emit changed(QString::fromStdString(why));
}
