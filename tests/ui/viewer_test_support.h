// What the viewer's tests share: settings kept apart from the user's, finding fixture events by
// name, counting painted pixels, opening a trace in a window, running the CLI beside the GUI.
#pragma once

#include <QCoreApplication>
#include <QDebug>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <string_view>

#include "shell/main_window.h"
#include "state/viewed_trace.h"

namespace ui_test {

// Settings (recent files, path maps) go to a test location, never the user's.
inline void isolateSettings() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("StacklineTests"));
}

// The first event with this name and category, or kNoRow.
inline uint32_t rowNamed(const stackline::EventTable& ev, std::string_view name,
                         std::string_view cat) {
    for (uint32_t r = 0; r < ev.size(); ++r)
        if (ev.nameOf(r) == name && ev.catOf(r) == cat) return r;
    return stackline::kNoRow;
}

inline uint32_t rowNamed(const ViewedTrace& doc, std::string_view name, std::string_view cat) {
    return rowNamed(doc.events(), name, cat);
}

// How many pixels of `rect` are exactly `color`.
inline int countColor(const QImage& image, const QRect& rect, const QColor& color) {
    int n = 0;
    const QRect r = rect.intersected(image.rect());
    for (int y = r.top(); y <= r.bottom(); ++y)
        for (int x = r.left(); x <= r.right(); ++x)
            n += image.pixelColor(x, y).rgb() == color.rgb();
    return n;
}

inline QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Opens a trace and waits for it; false when it did not load in time.
inline bool openTrace(MainWindow& window, const QString& path, int timeoutMs = 60000) {
    QSignalSpy loaded(&window, &MainWindow::documentLoaded);
    window.openTrace(path);
    return loaded.wait(timeoutMs) && window.document();
}

// Runs `stackline-cli args`; true when it finished with status 0 (else its errors are logged).
// Its standard output goes to `out` when given.
inline bool runCli(const QStringList& args, QByteArray* out = nullptr) {
    QProcess cli;
    cli.start(QStringLiteral(STACKLINE_CLI), args);
    const bool ok = cli.waitForFinished(60000) && cli.exitStatus() == QProcess::NormalExit &&
                    cli.exitCode() == 0;
    if (!ok) qWarning() << "stackline-cli" << args << "failed:" << cli.readAllStandardError();
    if (out) *out = cli.readAllStandardOutput();
    return ok;
}

}  // namespace ui_test
