#include "shell/main_window.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>
#include <QVBoxLayout>

#include "annotate/diagnostic.h"
#include "base/file_system.h"
#include "panels/details_panel.h"
#include "panels/instance_stepper.h"
#include "panels/panel_table.h"
#include "shell/job_window.h"
#include "shell/mouse_history_filter.h"
#include "shell/reload_banner.h"
#include "shell/search_controller.h"
#include "shell/shortcuts_dialog.h"
#include "state/recent_files.h"
#include "state/trace_file_watcher.h"
#include "state/trace_set.h"
#include "state/viewer_state.h"
#include "timeline/timeline_view.h"
#include "widgets/elided_label.h"

using namespace stackline;

namespace {

// The first widget takes three quarters of what the window gains, the second one quarter.
QSplitter* splitThreeToOne(Qt::Orientation o, QWidget* first, QWidget* second,
                           const QList<int>& sizes) {
    auto* split = new QSplitter(o);
    split->addWidget(first);
    split->addWidget(second);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setSizes(sizes);
    return split;
}

QString placeholderText() {
    return QObject::tr(
        "Open a trace: File → Open, drop a file here, or pass it on the command line");
}

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(tr("Stackline"));
    setAcceptDrops(true);
    state_ = new ViewerState(this);
    buildLayout();
    buildMenus();
    connect(&loadJob_, &BackgroundJob::progress, this, &MainWindow::showProgress);
    connect(&exportJob_, &BackgroundJob::progress, this, &MainWindow::showProgress);
    connect(&loadJob_, &BackgroundJob::finished, this, &MainWindow::onLoadFinished);
    connect(&exportJob_, &BackgroundJob::finished, this, &MainWindow::onExportFinished);
    connect(state_, &ViewerState::documentsChanged, this, &MainWindow::showDocument);
    connect(state_, &ViewerState::currentChanged, this, &MainWindow::showDocument);
    showDocument();
    timeline_->setPlaceholder(placeholderText());
    resize(1500, 950);
}

MainWindow::~MainWindow() {
    cancelJobs();
    loadJob_.wait();
    exportJob_.wait();
}

void MainWindow::buildLayout() {
    timeline_ = new TimelineView(state_);
    details_ = new DetailsPanel(state_);

    auto* top = splitThreeToOne(Qt::Horizontal, timeline_, details_, {1050, 420});
    tabs_ = new QTabWidget;
    for (const PanelInfo& info : panelTable()) {
        QWidget* page = info.create(state_);
        panels_.push_back(page);
        tabs_->addTab(page, info.title);
        if (info.badgeChanged) info.badgeChanged(page, this, [this] { updateTabs(); });
        if (info.opens) info.opens(page, this, [this](const QString& id) { showTab(id); });
    }
    updateTabs();
    // The side panel is no tab: its stack frames open the Source tab.
    connect(details_, &DetailsPanel::frameActivated, this,
            [this] { showTab(QStringLiteral("source")); });
    banner_ = new ReloadBanner;
    auto* central = new QWidget;
    auto* column = new QVBoxLayout(central);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    column->addWidget(banner_);
    column->addWidget(splitThreeToOne(Qt::Vertical, top, tabs_, {640, 260}), 1);
    setCentralWidget(central);
    watcher_ = new TraceFileWatcher(this);
    connect(watcher_, &TraceFileWatcher::changed, this, [this](const QString& message) {
        banner_->showChange(message);
        statusBar()->showMessage(message, 10000);
    });
    connect(banner_, &ReloadBanner::reloadRequested, this, &MainWindow::reload);

    search_ = new SearchController(state_, this);
    connect(search_, &SearchController::message, this,
            [this](const QString& text) { statusBar()->showMessage(text, 5000); });
    connect(search_, &SearchController::escaped, timeline_, qOverload<>(&QWidget::setFocus));
    auto* bar = addToolBar(tr("Search"));
    bar->setMovable(false);
    bar->addWidget(search_->field());

    fileLabel_ = new ElidedLabel(Qt::ElideMiddle);
    countsLabel_ = new ElidedLabel(Qt::ElideRight);
    progressBox_ = new QWidget;
    auto* pl = new QHBoxLayout(progressBox_);
    pl->setContentsMargins(0, 0, 0, 0);
    progressLabel_ = new ElidedLabel(Qt::ElideMiddle);
    progressBar_ = new QProgressBar;
    progressBar_->setMaximumWidth(220);
    progressBar_->setTextVisible(false);
    cancelButton_ = new QPushButton(tr("Cancel"));
    connect(cancelButton_, &QPushButton::clicked, this, &MainWindow::cancelJobs);
    pl->addWidget(progressLabel_);
    pl->addWidget(progressBar_);
    pl->addWidget(cancelButton_);
    progressBox_->hide();
    statusBar()->addWidget(fileLabel_, 1);
    statusBar()->addPermanentWidget(progressBox_);
    statusBar()->addPermanentWidget(countsLabel_);
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open Trace…"), QKeySequence::Open, this, &MainWindow::chooseTrace);
    file->addAction(tr("Open &Folder of Traces…"), this, &MainWindow::chooseFolder);
    QAction* addTraceAction =
        file->addAction(tr("A&dd Trace…"), this, &MainWindow::chooseAddedTrace);
    QAction* kinfo =
        file->addAction(tr("Add &Kernel Information…"), this, &MainWindow::chooseKernelInfo);
    // TORCH_TRACE folders and tlparse output are folders, which the file dialog cannot pick.
    QAction* kinfoFolder =
        file->addAction(tr("Add Kernel Information from &Folder…"), this, [this] {
            const QString dir = QFileDialog::getExistingDirectory(
                this, tr("Add Kernel Information: TORCH_TRACE or tlparse output folder"),
                document() ? QFileInfo(document()->tracePath()).absolutePath() : QString());
            if (!dir.isEmpty()) attachKernelInfo(dir);
        });
    QAction* compare = file->addAction(tr("Compare &With…"), this, &MainWindow::chooseComparison);
    recent_ = new RecentFiles(file->addMenu(tr("Open &Recent")), this);
    connect(recent_, &RecentFiles::openRequested, this,
            [this](const QString& trace, const QString& kernelInfo) {
                if (!openIfJob(trace)) openTraceInWindow(trace, kernelInfo);
            });
    QAction* reloadAction =
        file->addAction(tr("Re&load"), QKeySequence::Refresh, this, &MainWindow::reload);
    file->addSeparator();
    QAction* exp = file->addAction(tr("&Export Annotated Trace…"), QKeySequence(tr("Ctrl+E")), this,
                                   &MainWindow::chooseExport);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    documentActions_ << addTraceAction << compare << kinfo << kinfoFolder << reloadAction << exp;

    QMenu* view = menuBar()->addMenu(tr("&View"));
    auto add = [&](QMenu* menu, const QString& text, const QKeySequence& key, auto slot) {
        QAction* a = menu->addAction(text, key, timeline_, slot);
        documentActions_ << a;
        return a;
    };
    add(view, tr("Zoom &In"), QKeySequence(Qt::Key_W), &TimelineView::zoomIn);
    add(view, tr("Zoom &Out"), QKeySequence(Qt::Key_S), &TimelineView::zoomOut);
    add(view, tr("Pan &Left"), QKeySequence(Qt::Key_A), &TimelineView::panLeft);
    add(view, tr("Pan &Right"), QKeySequence(Qt::Key_D), &TimelineView::panRight);
    add(view, tr("Zoom to &Selection"), QKeySequence(Qt::Key_F), &TimelineView::zoomToSelection);
    add(view, tr("Re&set Zoom"), QKeySequence(Qt::Key_0), &TimelineView::resetZoom);
    view->addSeparator();
    showAllFlows_ = add(view, tr("Show All &Flows in View"), {}, &TimelineView::setShowAllFlows);
    showAllFlows_->setCheckable(true);
    add(view, tr("Drop &Marker"), QKeySequence(Qt::Key_M), &TimelineView::dropMarker);
    documentActions_ << view->addAction(tr("&Clear Markers"), QKeySequence(Qt::SHIFT | Qt::Key_M),
                                        state_, &ViewerState::clearMarkers);
    view->addSeparator();
    buildAlignMenu(view->addMenu(tr("&Align Traces")));

    QMenu* go = menuBar()->addMenu(tr("&Go"));
    go->addAction(tr("&Find…"), QKeySequence::Find, this, [this] {
        search_->field()->setFocus();
        search_->field()->selectAll();
    });
    go->addAction(tr("Find &Next"), QKeySequence::FindNext, search_, &SearchController::findNext);
    go->addAction(tr("Find &Previous"), QKeySequence::FindPrevious, search_,
                  &SearchController::findPrevious);
    go->addSeparator();
    new MouseHistoryFilter(this, state_);
    QAction* back = go->addAction(tr("&Back"), QKeySequence(Qt::ALT | Qt::Key_Left), state_,
                                  &ViewerState::back);
    QAction* forward = go->addAction(tr("For&ward"), QKeySequence(Qt::ALT | Qt::Key_Right), state_,
                                     &ViewerState::forward);
    auto updateHistory = [this, back, forward] {
        back->setEnabled(state_->canGoBack());
        forward->setEnabled(state_->canGoForward());
    };
    connect(state_, &ViewerState::historyChanged, this, updateHistory);
    connect(state_, &ViewerState::selectionChanged, this, updateHistory);
    updateHistory();
    go->addSeparator();
    auto step = [&](const QString& text, Qt::Key key, void (InstanceStepper::*slot)()) {
        documentActions_ << go->addAction(text, QKeySequence(key), this,
                                          [this, slot] { (currentStepper()->*slot)(); });
    };
    step(tr("&Next Instance"), Qt::Key_N, &InstanceStepper::next);
    step(tr("&Previous Instance"), Qt::Key_P, &InstanceStepper::previous);
    step(tr("&Longest Instance"), Qt::Key_L, &InstanceStepper::slowest);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* keys =
        help->addAction(tr("&Keyboard Shortcuts"), this, [this] { showShortcutsDialog(this); });
    keys->setShortcuts(
        {QKeySequence(Qt::Key_Question), QKeySequence(Qt::SHIFT | Qt::Key_Question)});
    help->addAction(tr("&About Stackline"), this, [this] {
        QMessageBox::about(this, tr("About Stackline"),
                           tr("<b>Stackline</b><br>See which line of your model launched each GPU "
                              "kernel in a PyTorch profiler trace."));
    });
}

bool MainWindow::isBusy() const {
    return loadJob_.isRunning() || exportJob_.isRunning();
}

const ViewedTrace* MainWindow::document() const {
    return state_->current().get();
}

void MainWindow::cancelJobs() {
    loadJob_.cancel();
    exportJob_.cancel();
}

void MainWindow::openTrace(const QString& trace, const QString& kernelInfo) {
    startLoad({{trace, kernelInfo, nullptr}}, LoadMode::Open);
}

MainWindow* MainWindow::openTraceInWindow(const QString& trace, const QString& kernelInfo) {
    MainWindow* target = openTracesInWindow({});
    target->openTrace(trace, kernelInfo);
    return target;
}

QString MainWindow::openDialogFolder() const {
    return recent_->lastFolder();
}

InstanceStepper* MainWindow::currentStepper() const {
    const auto& table = panelTable();
    const int current = tabs_->currentIndex();
    if (current >= 0 && table[size_t(current)].stepper)
        return table[size_t(current)].stepper(panels_[size_t(current)]);
    for (size_t i = 0; i < table.size(); ++i)
        if (table[i].stepper) return table[i].stepper(panels_[i]);
    return nullptr;
}

void MainWindow::attachKernelInfo(const QString& kernelInfo) {
    if (!document()) return;
    startLoad({{document()->tracePath(), kernelInfo, document()->trace}}, LoadMode::Reprocess);
}

void MainWindow::startLoad(std::vector<LoadRequest> requests, LoadMode mode) {
    if (loadJob_.isRunning()) {
        loadJob_.cancel();
        loadJob_.wait();
    }
    pendingRequests_ = requests;
    pendingMode_ = mode;
    pendingResult_ = std::make_shared<LoadResult>();
    auto result = pendingResult_;
    const QString what = requests.size() == 1 ? QFileInfo(requests[0].tracePath).fileName()
                                              : tr("%1 traces").arg(requests.size());
    showProgress(tr("Opening %1").arg(what), -1);
    timeline_->setPlaceholder(tr("Loading %1…").arg(what));
    loadJob_.start([requests = std::move(requests), result](BackgroundJob::Context& c) {
        *result = loadDocuments(requests, c);
    });
}

void MainWindow::compareWith(const QString& trace, const QString& kernelInfo) {
    // Comparing already: the new run replaces the compared one, against the same base.
    const auto base = state_->documents().empty() ? nullptr : state_->documents().front();
    if (!base) {
        openTrace(trace, kernelInfo);
        return;
    }
    // The base run reprocessed from its loaded trace (not read again) beside the new run: two new
    // documents, labelled as runs when loaded.
    startLoad(
        {{base->tracePath(), base->kernelInfoFound ? QString() : base->kernelInfoPath, base->trace},
         {trace, kernelInfo, nullptr}},
        LoadMode::Compare);
}

void MainWindow::showComparison(const std::vector<std::shared_ptr<ViewedTrace>>& runs) {
    const char* roles[] = {"base", "new"};
    for (size_t i = 0; i < 2; ++i)
        runs[i]->rank.label =
            std::string(roles[i]) + ": " + QFileInfo(runs[i]->tracePath()).fileName().toStdString();
    comparing_ = true;
    state_->setDocuments({runs[0], runs[1]});
    const std::optional<int64_t> step = firstCommonStep(state_->documents());
    setAlignment(step ? Alignment::Step : Alignment::Clock, step.value_or(0));
    showTab(QStringLiteral("diff"));
    timeline_->setFocus();
    statusBar()->showMessage(
        step ? tr("The runs are lined up on ProfilerStep#%1").arg(*step)
             : tr("The runs are lined up by their clocks: they have no profiler step in common"),
        10000);
    emit comparisonLoaded();
}

void MainWindow::onLoadFinished(bool cancelled, const QString& error) {
    progressBox_->hide();
    timeline_->setPlaceholder(placeholderText());
    const auto loaded = std::move(pendingResult_);
    const auto* result = loaded ? &loaded->docs : nullptr;
    if (cancelled) {
        statusBar()->showMessage(tr("Loading cancelled"), 5000);
        emit loadCancelled();
        return;
    }
    if (!error.isEmpty() || !result || result->empty()) {
        const LoadRequest& first = pendingRequests_.front();
        // The loader's message names the file that failed.
        const QString file = pendingMode_ == LoadMode::Reprocess ? first.kernelInfoPath
                             : pendingMode_ == LoadMode::Compare ? pendingRequests_.back().tracePath
                             : pendingRequests_.size() == 1
                                 ? first.tracePath
                                 : tr("%1 traces").arg(pendingRequests_.size());
        showError(tr("Could not open %1").arg(QFileInfo(file).fileName()), error);
        emit loadFailed(error);
        return;
    }
    // Other traces, not the same one with other kernel information.
    if (pendingMode_ != LoadMode::Reprocess) clearMessages();
    if (pendingMode_ == LoadMode::Compare) {
        showComparison(*result);
        return;
    }
    comparing_ = false;
    std::vector<std::shared_ptr<const ViewedTrace>> docs;
    const auto current = state_->current();
    if (pendingMode_ != LoadMode::Open) docs = state_->documents();
    if (pendingMode_ == LoadMode::Reprocess)
        std::replace(docs.begin(), docs.end(), current,
                     std::shared_ptr<const ViewedTrace>(result->front()));
    else
        docs.insert(docs.end(), result->begin(), result->end());
    orderByRank(docs);
    state_->setDocuments(std::move(docs));
    if (pendingMode_ == LoadMode::Reprocess) state_->setCurrent(result->front().get());
    applyAlignment();
    timeline_->setFocus();
    const ViewedTrace* doc = document();
    // Neither the bundled example nor a trace read from a pipe (no file) can be opened again.
    if (doc->trace->bytes.stamp() &&
        (transientFolder_.isEmpty() || QFileInfo(doc->tracePath()).absolutePath() !=
                                           QFileInfo(transientFolder_).absoluteFilePath()))
        recent_->add(doc->tracePath(), doc->kernelInfoFound ? QString() : doc->kernelInfoPath);
    warnIfKernelInfoMatchesNothing();
    if (!loaded->skipped.isEmpty())
        showMessageBox(QMessageBox::Warning, QStringLiteral("skippedBox"),
                       tr("Skipped %n file(s) that could not be read", "", loaded->skipped.size()),
                       loaded->skipped.join(QLatin1Char('\n')));
    emit documentLoaded();
}

void MainWindow::showDocument() {
    const ViewedTrace* doc = document();
    banner_->hide();
    watcher_->watch(doc ? doc->trace : nullptr);
    for (QAction* a : documentActions_) a->setEnabled(bool(doc));
    updateTabs();
    countsLabel_->setText(countsText());
    if (!doc) {
        fileLabel_->setText(tr("No trace open"));
        return;
    }
    const QString name = QFileInfo(doc->tracePath()).fileName();
    const size_t traces = state_->documents().size();
    setWindowTitle(traces == 1 ? tr("%1 — Stackline").arg(name)
                               : tr("%1 traces — Stackline").arg(traces));
    QString kinfo = tr("no kernel information");
    if (!doc->kernelInfoPath.isEmpty()) {
        kinfo = tr("kernel info: %1").arg(QFileInfo(doc->kernelInfoPath).fileName());
        if (doc->kernelInfoFound) kinfo += tr(" (found beside the trace)");
    }
    // With several traces: how many, and which one the panels show.
    const QString trace = traces == 1 ? tr("trace: %1").arg(name)
                          : doc->label() == name
                              ? tr("%1 traces · %2").arg(traces).arg(name)
                              : tr("%1 traces · %2 · %3").arg(traces).arg(doc->label(), name);
    fileLabel_->setText(tr("%1 · %2").arg(trace, kinfo));
    fileLabel_->setToolTip(doc->tracePath() + QLatin1Char('\n') + doc->kernelInfoPath);
}

QString MainWindow::countsText() const {
    const ViewedTrace* doc = document();
    if (!doc) return {};
    const stackline::Summary& s = doc->summary;
    const QString annotated =
        s.matchedByName ? tr("%1 (%2 matched by name)").arg(s.annotatedKernels).arg(s.matchedByName)
                        : QString::number(s.annotatedKernels);
    return tr("%1 events · %2 kernels · %3 annotated · %4 unresolved")
        .arg(s.events)
        .arg(s.kernels)
        .arg(annotated)
        .arg(s.unresolvedKernels);
}

void MainWindow::showError(const QString& title, const QString& message) {
    lastError_ = message;
    showMessageBox(QMessageBox::Critical, QStringLiteral("errorBox"), title, message);
}

void MainWindow::clearMessages() {
    lastError_.clear();
    statusBar()->clearMessage();
    for (QMessageBox* box : findChildren<QMessageBox*>(Qt::FindDirectChildrenOnly)) box->close();
}

void MainWindow::showMessageBox(QMessageBox::Icon icon, const QString& name, const QString& title,
                                const QString& message) {
    statusBar()->showMessage(title, 10000);
    // Not modal-blocking: loading goes on in the event loop, and tests can inspect the box.
    auto* box = new QMessageBox(icon, title, message, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setObjectName(name);
    box->open();
}

// Kernel information from another model or run loads fine but annotates nothing (at most some
// kernels by name, in a trace without compiled regions); say so rather than leave the user
// wondering why no kernel has a stack.
void MainWindow::warnIfKernelInfoMatchesNothing() {
    const ViewedTrace* doc = document();
    if (!doc || doc->kernelInfo.empty() || doc->provenance.annotatedCount > 0) return;
    int regions = 0;
    const Diagnostic* noRegion = nullptr;  // the trace has no compiled region: says why
    bool byName = false;                   // Stackline's rule by name placed some kernels
    for (const Diagnostic& d : doc->provenance.diagnostics) {
        byName = byName || d.kind == DiagnosticKind::MatchedByName;
        regions += d.kind == DiagnosticKind::RegionWithoutKernelInfo;
        if (!noRegion && d.kind == DiagnosticKind::NoCompiledRegion) noRegion = &d;
    }
    if (regions == 0 && !noRegion) return;
    showTab(QStringLiteral("diagnostics"));
    if (noRegion) {
        showMessageBox(
            QMessageBox::Warning, QStringLiteral("warningBox"),
            byName ? tr("Kernel information applies by name only")
                   : tr("Kernel information cannot apply"),
            QString::fromStdString(doc->provenance.diagnostics.message(*noRegion, doc->events())));
        return;
    }
    const QString trace = QFileInfo(doc->tracePath()).fileName();
    const QString where = regions == 1
                              ? tr("the compiled region of %1").arg(trace)
                              : tr("any of the %1 compiled regions of %2").arg(regions).arg(trace);
    showMessageBox(QMessageBox::Warning, QStringLiteral("warningBox"),
                   tr("Kernel information does not match"),
                   tr("%1 has no entry for %2, so no kernel was given a stack. The Diagnostics tab "
                      "lists each region and the key it was looked up under.")
                       .arg(QFileInfo(doc->kernelInfoPath).fileName(), where));
}

void MainWindow::showProgress(const QString& stage, int permille) {
    progressBox_->show();
    progressLabel_->setText(stage);
    progressBar_->setRange(0, permille < 0 ? 0 : 1000);
    if (permille >= 0) progressBar_->setValue(permille);
}

void MainWindow::updateTabs() {
    const TabContext context{*state_, comparing_};
    const auto& table = panelTable();
    for (size_t i = 0; i < table.size(); ++i) {
        const TabBadge badge = table[i].badge ? table[i].badge(panels_[i], context) : TabBadge{};
        const int tab = int(i);
        tabs_->setTabText(tab, tabText(table[i], badge));
        tabs_->setTabEnabled(tab, badge.enabled);
        tabs_->setTabVisible(tab, badge.visible);
    }
}

bool MainWindow::showTab(const QString& name) {
    const QString id = name.trimmed().toLower();
    const auto& table = panelTable();
    for (size_t i = 0; i < table.size(); ++i)
        if (table[i].id == id && tabs_->isTabVisible(int(i))) {
            tabs_->setCurrentIndex(int(i));
            return true;
        }
    return false;
}

void MainWindow::chooseTrace() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Trace"), openDialogFolder(),
                                                      traceFileDialogFilter());
    if (!path.isEmpty() && !openIfJob(path)) openTraceInWindow(path);
}

bool MainWindow::openIfJob(const QString& path) {
    const JobWindow::Opened opened = JobWindow::openIfJob(path, this);
    if (opened == JobWindow::Opened::Shown) recent_->add(path, {});
    return opened != JobWindow::Opened::NotAJob;
}

void MainWindow::chooseComparison() {
    if (!document()) return;
    const QString path = QFileDialog::getOpenFileName(this, tr("Compare With: the New Run's Trace"),
                                                      openDialogFolder(), traceFileDialogFilter());
    if (!path.isEmpty()) compareWith(path);
}

void MainWindow::chooseKernelInfo() {
    const QString dir = document() ? QFileInfo(document()->tracePath()).absolutePath() : QString();
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Add Kernel Information"), dir,
        tr("Kernel information (*.json *.json.gz *.log *.txt);;Kernel information registry "
           "(*.json *.json.gz);;TORCH_TRACE log (*.log *.txt);;All files (*)"));
    if (!path.isEmpty()) attachKernelInfo(path);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (e->mimeData()->hasUrls()) e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
    QStringList traces;
    QString kinfo;
    bool jobs = false;  // a steps result dropped opens in a job window of its own
    for (const QUrl& url : e->mimeData()->urls()) {
        if (!url.isLocalFile()) continue;
        const QString path = url.toLocalFile();
        if (openIfJob(path))
            jobs = true;
        else if (looksLikeKernelInfo(path.toStdString()))
            kinfo = path;
        else
            traces << path;
    }
    // Several traces dropped together are the ranks of a job, shown together.
    if (traces.size() > 1)
        openTraces(traces);
    else if (!traces.isEmpty())
        openTrace(traces.front(), kinfo);
    else if (!kinfo.isEmpty() && document())
        attachKernelInfo(kinfo);
    else if (!jobs)
        return;
    e->acceptProposedAction();
}

void MainWindow::closeEvent(QCloseEvent* e) {
    cancelJobs();
    QMainWindow::closeEvent(e);
}
