// Notices when the open trace's file is rewritten, truncated, replaced or removed on disk: a
// QFileSystemWatcher on the file and its folder (which sees a replace by rename, after which the
// file is watched again), settled for a moment since writers write in many steps, then confirmed
// by the trace's own check of identity, size and modification time.
#pragma once

#include <QFileSystemWatcher>
#include <QObject>
#include <QTimer>
#include <memory>

#include "model/trace.h"

class TraceFileWatcher : public QObject {
    Q_OBJECT
public:
    explicit TraceFileWatcher(QObject* parent = nullptr);

    // Watches this trace's file from now on (null: none). Forgets a change already reported.
    void watch(std::shared_ptr<const stackline::Trace> trace);
    // Checks now rather than on the next file-system notice (the timer's slot).
    void check();

signals:
    // The file changed since the trace was opened; message says how, naming the file. Once per
    // trace.
    void changed(const QString& message);

private:
    void rearm();
    QFileSystemWatcher watcher_;
    QTimer settle_;
    std::shared_ptr<const stackline::Trace> trace_;
    bool reported_ = false;
};
