// Writing the annotated trace: File → Export Annotated Trace…, off the GUI thread, refused when
// there is nothing to write or the file changed on disk since it was loaded. MainWindow's members
// declared in shell/main_window.h, in a file of their own.
#include <QFileDialog>
#include <QFileInfo>
#include <QStatusBar>
#include <QWidget>
#include <algorithm>
#include <string_view>
#include <vector>

#include "annotate/exporter.h"
#include "import/trace_formats.h"
#include "shell/main_window.h"
#include "state/viewer_state.h"

using namespace stackline;

void MainWindow::exportTo(const QString& path) {
    if (!document() || exportJob_.isRunning()) return;
    if (document()->kernelInfo.empty()) {
        showError(tr("Nothing to export"),
                  tr("Exporting writes the stacks from kernel information into the trace. Add "
                     "kernel information first (File → Add Kernel Information…)."));
        emit exportFinished(false, lastError_);
        return;
    }
    // The export copies the file's bytes: from a changed file it would write another trace's
    // bytes at this one's offsets. (exportTrace checks again, before and after writing.)
    if (const std::string why = document()->trace->changedOnDisk(); !why.empty()) {
        showError(tr("Export refused"),
                  tr("%1.\n\nThe export copies the trace's bytes from the file, which no longer "
                     "holds what is shown. Reload the trace (File → Reload Trace), then export.")
                      .arg(QString::fromStdString(why)));
        emit exportFinished(false, lastError_);
        return;
    }
    pendingExport_ = path;
    auto doc = state_->current();
    showProgress(tr("Exporting"), -1);
    exportJob_.start([doc, path](BackgroundJob::Context& c) {
        c.setStage(QObject::tr("Writing %1").arg(QFileInfo(path).fileName()));
        ExportOptions options;
        options.cancel = &c.cancel;
        options.progress = [&](uint64_t done, uint64_t total) { c.progress(done, total); };
        exportTrace(*doc->trace, doc->provenance, path.toStdString(), options);
    });
}

void MainWindow::onExportFinished(bool cancelled, const QString& error) {
    progressBox_->hide();
    if (cancelled) {
        statusBar()->showMessage(tr("Export cancelled"), 5000);
        emit exportFinished(false, tr("cancelled"));
    } else if (!error.isEmpty()) {
        showError(tr("Could not export"), error);
        emit exportFinished(false, error);
    } else {
        statusBar()->showMessage(tr("Exported %1").arg(pendingExport_), 10000);
        emit exportFinished(true, pendingExport_);
    }
}

void MainWindow::chooseExport() {
    if (!document()) return;
    QString suggested = document()->tracePath();
    // The trace's name without the longest of the formats' suffixes ("*.json.gz" before "*.json").
    std::vector<std::string_view> patterns = stackline::traceFilePatterns();
    std::sort(patterns.begin(), patterns.end(),
              [](std::string_view a, std::string_view b) { return a.size() > b.size(); });
    for (std::string_view p : patterns) {
        const QString suffix = QString::fromUtf8(p.data(), qsizetype(p.size())).mid(1);
        if (p.starts_with('*') && suggested.endsWith(suffix)) {
            suggested.chop(suffix.size());
            break;
        }
    }
    suggested += QStringLiteral(".annotated.json.gz");
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export Annotated Trace"), suggested,
                                     tr("Compressed trace (*.json.gz);;Trace (*.json)"));
    if (!path.isEmpty()) exportTo(path);
}
