// The traces a window shows together: opening several (a folder, a selection), adding one,
// reloading them all, and lining their clocks up (View → Align Traces). MainWindow's members
// declared in shell/main_window.h, in a file of their own.
#include <QActionGroup>
#include <QFileDialog>
#include <QInputDialog>
#include <QMenu>
#include <climits>

#include "import/trace_formats.h"
#include "shell/main_window.h"
#include "state/trace_set.h"
#include "state/viewer_state.h"

using namespace stackline;

void MainWindow::buildAlignMenu(QMenu* align) {
    alignActions_ << align->addAction(tr("By &Clock"), this,
                                      [this] { setAlignment(Alignment::Clock); })
                  << align->addAction(tr("Align &Step N…"), this, &MainWindow::chooseAlignmentStep)
                  << align->addAction(tr("Align First &Collective"), this,
                                      [this] { setAlignment(Alignment::FirstCollective); });
    auto* alignGroup = new QActionGroup(this);
    for (QAction* a : alignActions_) {
        a->setCheckable(true);
        alignGroup->addAction(a);
    }
    alignActions_.front()->setChecked(true);
}

void MainWindow::openTraces(const QStringList& traces) {
    std::vector<LoadRequest> requests;
    for (const QString& t : traces) requests.push_back({t, {}, nullptr});
    if (!requests.empty()) startLoad(std::move(requests), LoadMode::Open);
}

void MainWindow::addTrace(const QString& trace) {
    startLoad({{trace, {}, nullptr}}, document() ? LoadMode::Add : LoadMode::Open);
}

void MainWindow::reload() {
    std::vector<LoadRequest> requests;
    for (const auto& doc : state_->documents())
        requests.push_back(
            {doc->tracePath(), doc->kernelInfoFound ? QString() : doc->kernelInfoPath, nullptr});
    if (!requests.empty()) startLoad(std::move(requests), LoadMode::Open);
}

void MainWindow::setAlignment(Alignment alignment, int64_t step) {
    alignment_ = alignment;
    alignStep_ = step;
    alignActions_[int(alignment)]->setChecked(true);
    applyAlignment();
}

void MainWindow::applyAlignment() {
    state_->setOffsets(alignedOffsets(state_->documents(), alignment_, alignStep_));
}

void MainWindow::chooseAlignmentStep() {
    const std::optional<int64_t> common = firstCommonStep(state_->documents());
    bool ok = false;
    const int step = QInputDialog::getInt(this, tr("Align Step"),
                                          tr("Start every trace's ProfilerStep#N at once; N:"),
                                          int(common.value_or(alignStep_)), 0, INT_MAX, 1, &ok);
    if (ok)
        setAlignment(Alignment::Step, step);
    else
        alignActions_[int(alignment_)]->setChecked(true);
}

MainWindow* MainWindow::openTracesInWindow(const QStringList& traces) {
    MainWindow* target = this;
    if (document()) {
        target = new MainWindow;
        target->setAttribute(Qt::WA_DeleteOnClose);
        target->resize(size());
        target->show();
    }
    target->openTraces(traces);
    return target;
}

QStringList MainWindow::tracesInFolder(const QString& folder) {
    return ::tracesInFolder(folder);
}

void MainWindow::chooseFolder() {
    const QString dir =
        QFileDialog::getExistingDirectory(this, tr("Open Folder of Traces"), openDialogFolder());
    if (dir.isEmpty()) return;
    const QStringList traces = ::tracesInFolder(dir);
    if (traces.isEmpty())
        showError(tr("No trace in %1").arg(QFileInfo(dir).fileName()),
                  tr("The folder has no trace (%1).")
                      .arg(QString::fromStdString(stackline::traceFilePatternsText())));
    else
        openTracesInWindow(traces);
}

void MainWindow::chooseAddedTrace() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Add Trace"), openDialogFolder(),
                                                      traceFileDialogFilter());
    if (!path.isEmpty()) addTrace(path);
}
