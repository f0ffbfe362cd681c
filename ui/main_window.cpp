#include "main_window.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>
#include <QVBoxLayout>
#include <algorithm>

#include "details_panel.h"
#include "diagnostic.h"
#include "diagnostics_panel.h"
#include "exporter.h"
#include "file_system.h"
#include "hotspots_panel.h"
#include "kernels_panel.h"
#include "shortcuts_dialog.h"
#include "source_view.h"
#include "timeline_view.h"
#include "track_model.h"
#include "unresolved_panel.h"
#include "zoom_control.h"

using namespace stackline;

namespace {

constexpr int kMaxRecent = 10;

QString placeholderText() {
    return QObject::tr(
        "Open a trace: File → Open, drop a file here, or pass it on the command line");
}

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(tr("Stackline"));
    setAcceptDrops(true);
    zoom_ = new ZoomControl(this);
    buildLayout();
    buildMenus();
    connect(&loadJob_, &BackgroundJob::progress, this, &MainWindow::showProgress);
    connect(&exportJob_, &BackgroundJob::progress, this, &MainWindow::showProgress);
    connect(&loadJob_, &BackgroundJob::finished, this, &MainWindow::onLoadFinished);
    connect(&exportJob_, &BackgroundJob::finished, this, &MainWindow::onExportFinished);
    setDocument(nullptr);
    timeline_->setPlaceholder(placeholderText());
    resize(1500, 950);
}

MainWindow::~MainWindow() {
    cancelJobs();
    loadJob_.wait();
    exportJob_.wait();
}

void MainWindow::buildLayout() {
    timeline_ = new TimelineView(zoom_);
    details_ = new DetailsPanel;
    kernels_ = new KernelsPanel;
    unresolved_ = new UnresolvedPanel;
    diagnostics_ = new DiagnosticsPanel;
    hotspots_ = new HotspotsPanel;
    source_ = new SourceView;

    auto* top = new QSplitter(Qt::Horizontal);
    top->addWidget(timeline_);
    top->addWidget(details_);
    top->setStretchFactor(0, 3);
    top->setStretchFactor(1, 1);
    top->setSizes({1050, 420});
    tabs_ = new QTabWidget;
    tabs_->addTab(kernels_, tr("Kernels"));
    tabs_->addTab(unresolved_, tr("Unresolved"));
    tabs_->addTab(diagnostics_, tr("Diagnostics"));
    tabs_->addTab(hotspots_, tr("Hotspots"));
    tabs_->addTab(source_, tr("Source"));
    auto* main = new QSplitter(Qt::Vertical);
    main->addWidget(top);
    main->addWidget(tabs_);
    main->setStretchFactor(0, 3);
    main->setStretchFactor(1, 1);
    main->setSizes({640, 260});
    setCentralWidget(main);

    connect(timeline_, &TimelineView::selectionChanged, this, [this](uint32_t row) {
        details_->setEvent(row);
        kernels_->setSelectedEvent(row);
        // The innermost frame of the selection's stack, ready in the Source tab.
        const auto& frames = details_->frames();
        for (auto it = frames.rbegin(); it != frames.rend(); ++it)
            if (it->isFrame()) {
                source_->showSource(it->file, it->line, it->code);
                break;
            }
    });
    connect(details_, &DetailsPanel::frameActivated, this,
            [this](const QString& file, int line, const QString& code) {
                source_->showSource(file, line, code);
                tabs_->setCurrentWidget(source_);
            });
    connect(hotspots_, &HotspotsPanel::kernelsHighlighted, this,
            [this](const std::vector<uint32_t>& rows) { timeline_->setHighlightedEvents(rows); });
    connect(hotspots_, &HotspotsPanel::eventActivated, this, &MainWindow::select);
    connect(hotspots_, &HotspotsPanel::sourceRequested, source_, &SourceView::showSource);
    connect(details_, &DetailsPanel::eventActivated, this, &MainWindow::select);
    connect(kernels_, &KernelsPanel::eventActivated, this, &MainWindow::select);
    connect(unresolved_, &UnresolvedPanel::eventActivated, this, &MainWindow::select);
    connect(diagnostics_, &DiagnosticsPanel::eventActivated, this, &MainWindow::select);

    search_ = new QLineEdit;
    search_->setPlaceholderText(tr("Search slices by name (Ctrl+F, Enter / Shift+Enter)"));
    search_->setClearButtonEnabled(true);
    search_->setMaximumWidth(420);
    search_->installEventFilter(this);
    auto* bar = addToolBar(tr("Search"));
    bar->setMovable(false);
    bar->addWidget(search_);

    fileLabel_ = new QLabel;
    countsLabel_ = new QLabel;
    progressBox_ = new QWidget;
    auto* pl = new QHBoxLayout(progressBox_);
    pl->setContentsMargins(0, 0, 0, 0);
    progressLabel_ = new QLabel;
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
    QAction* kinfo =
        file->addAction(tr("Add &Kernel Information…"), this, &MainWindow::chooseKernelInfo);
    // TORCH_TRACE folders and tlparse output are folders, which the file dialog cannot pick.
    QAction* kinfoFolder =
        file->addAction(tr("Add Kernel Information from &Folder…"), this, [this] {
            const QString dir = QFileDialog::getExistingDirectory(
                this, tr("Add Kernel Information: TORCH_TRACE or tlparse output folder"),
                doc_ ? QFileInfo(doc_->tracePath()).absolutePath() : QString());
            if (!dir.isEmpty()) attachKernelInfo(dir);
        });
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    file->addSeparator();
    QAction* exp = file->addAction(tr("&Export Annotated Trace…"), QKeySequence(tr("Ctrl+E")), this,
                                   &MainWindow::chooseExport);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    documentActions_ << kinfo << kinfoFolder << exp;
    rebuildRecentMenu();

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

    QMenu* go = menuBar()->addMenu(tr("&Go"));
    go->addAction(tr("&Find…"), QKeySequence::Find, this, [this] {
        search_->setFocus();
        search_->selectAll();
    });
    go->addAction(tr("Find &Next"), QKeySequence::FindNext, this, &MainWindow::findNext);
    go->addAction(tr("Find &Previous"), QKeySequence::FindPrevious, this,
                  &MainWindow::findPrevious);

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

void MainWindow::cancelJobs() {
    loadJob_.cancel();
    exportJob_.cancel();
}

void MainWindow::openTrace(const QString& trace, const QString& kernelInfo) {
    startLoad({trace, kernelInfo, nullptr});
}

void MainWindow::attachKernelInfo(const QString& kernelInfo) {
    if (!doc_) return;
    startLoad({doc_->tracePath(), kernelInfo, doc_->trace});
}

void MainWindow::startLoad(const LoadRequest& request) {
    if (loadJob_.isRunning()) {
        loadJob_.cancel();
        loadJob_.wait();
    }
    pendingRequest_ = request;
    pendingResult_ = std::make_shared<std::shared_ptr<Document>>();
    auto result = pendingResult_;
    showProgress(tr("Opening %1").arg(QFileInfo(request.tracePath).fileName()), -1);
    timeline_->setPlaceholder(tr("Loading %1…").arg(QFileInfo(request.tracePath).fileName()));
    loadJob_.start(
        [request, result](BackgroundJob::Context& c) { *result = loadDocument(request, c); });
}

void MainWindow::onLoadFinished(bool cancelled, const QString& error) {
    progressBox_->hide();
    timeline_->setPlaceholder(placeholderText());
    auto result = std::move(pendingResult_);
    if (cancelled) {
        statusBar()->showMessage(tr("Loading cancelled"), 5000);
        emit loadCancelled();
        return;
    }
    if (!error.isEmpty() || !result || !*result) {
        const QString file =
            pendingRequest_.trace ? pendingRequest_.kernelInfoPath : pendingRequest_.tracePath;
        showError(tr("Could not open %1").arg(QFileInfo(file).fileName()), error);
        emit loadFailed(error);
        return;
    }
    setDocument(std::move(*result));
    timeline_->setFocus();
    addRecent(doc_->tracePath(), doc_->kernelInfoFound ? QString() : doc_->kernelInfoPath);
    warnIfKernelInfoMatchesNothing();
    emit documentLoaded();
}

void MainWindow::setDocument(std::shared_ptr<const Document> doc) {
    doc_ = std::move(doc);
    trackModel_ = doc_ ? std::make_shared<TrackModel>(doc_) : nullptr;
    if (doc_) zoom_->setTraceRange(doc_->tracks.startNs(), doc_->tracks.endNs());
    timeline_->setModel(trackModel_);
    details_->setDocument(doc_);
    kernels_->setDocument(doc_);
    unresolved_->setDocument(doc_);
    diagnostics_->setDocument(doc_);
    hotspots_->setDocument(doc_);
    source_->setTraceFolder(doc_ ? QFileInfo(doc_->tracePath()).absolutePath() : QString());
    searchHits_.clear();
    searchText_.clear();
    for (QAction* a : documentActions_) a->setEnabled(bool(doc_));
    tabs_->setTabText(1, tr("Unresolved (%1)").arg(doc_ ? unresolved_->count() : 0));
    tabs_->setTabText(2, tr("Diagnostics (%1)").arg(doc_ ? diagnostics_->count() : 0));
    tabs_->setTabText(3, tr("Hotspots (%1)").arg(doc_ ? hotspots_->count() : 0));
    if (!doc_) {
        fileLabel_->setText(tr("No trace open"));
        countsLabel_->clear();
        return;
    }
    const QString name = QFileInfo(doc_->tracePath()).fileName();
    setWindowTitle(tr("%1 — Stackline").arg(name));
    QString kinfo = tr("no kernel information");
    if (!doc_->kernelInfoPath.isEmpty()) {
        kinfo = tr("kernel info: %1").arg(QFileInfo(doc_->kernelInfoPath).fileName());
        if (doc_->kernelInfoFound) kinfo += tr(" (found beside the trace)");
    }
    fileLabel_->setText(tr("trace: %1 · %2").arg(name, kinfo));
    fileLabel_->setToolTip(doc_->tracePath() + QLatin1Char('\n') + doc_->kernelInfoPath);
    const auto& models = *kernels_->model();
    uint64_t kernels = 0, annotated = 0;
    for (int r = 0; r < models.rowCount(); ++r) {
        kernels += models.entry(r).instances.size();
        annotated += models.entry(r).annotated;
    }
    countsLabel_->setText(tr("%1 events · %2 kernels · %3 annotated · %4 unresolved")
                              .arg(doc_->events().size())
                              .arg(kernels)
                              .arg(annotated)
                              .arg(unresolved_->count()));
}

void MainWindow::showError(const QString& title, const QString& message) {
    lastError_ = message;
    showMessageBox(QMessageBox::Critical, QStringLiteral("errorBox"), title, message);
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

// Kernel information from another model or run loads fine but annotates nothing; say so rather
// than leave the user wondering why no kernel has a stack.
void MainWindow::warnIfKernelInfoMatchesNothing() {
    if (!doc_ || doc_->kernelInfo.empty() || doc_->provenance.annotatedCount > 0) return;
    int regions = 0;
    for (const Diagnostic& d : doc_->provenance.diagnostics)
        regions += d.kind == DiagnosticKind::RegionWithoutKernelInfo;
    if (regions == 0) return;
    tabs_->setCurrentWidget(diagnostics_);
    const QString trace = QFileInfo(doc_->tracePath()).fileName();
    const QString where = regions == 1
                              ? tr("the compiled region of %1").arg(trace)
                              : tr("any of the %1 compiled regions of %2").arg(regions).arg(trace);
    showMessageBox(QMessageBox::Warning, QStringLiteral("warningBox"),
                   tr("Kernel information does not match"),
                   tr("%1 has no entry for %2, so no kernel was given a stack. The Diagnostics tab "
                      "lists each region and the key it was looked up under.")
                       .arg(QFileInfo(doc_->kernelInfoPath).fileName(), where));
}

void MainWindow::showProgress(const QString& stage, int permille) {
    progressBox_->show();
    progressLabel_->setText(stage);
    progressBar_->setRange(0, permille < 0 ? 0 : 1000);
    if (permille >= 0) progressBar_->setValue(permille);
}

void MainWindow::exportTo(const QString& path) {
    if (!doc_ || exportJob_.isRunning()) return;
    if (doc_->kernelInfo.empty()) {
        showError(tr("Nothing to export"),
                  tr("Exporting writes the stacks from kernel information into the trace. Add "
                     "kernel information first (File → Add Kernel Information…)."));
        emit exportFinished(false, lastError_);
        return;
    }
    pendingExport_ = path;
    auto doc = doc_;
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

bool MainWindow::showTab(const QString& name) {
    const QString n = name.trimmed().toLower();
    QWidget* pages[] = {kernels_, unresolved_, diagnostics_, hotspots_, source_};
    const char* names[] = {"kernels", "unresolved", "diagnostics", "hotspots", "source"};
    for (int i = 0; i < 5; ++i)
        if (n == QLatin1String(names[i])) {
            tabs_->setCurrentWidget(pages[i]);
            return true;
        }
    return false;
}

void MainWindow::select(uint32_t row) {
    timeline_->selectEvent(row);
    timeline_->revealEvent(row);
}

uint32_t MainWindow::findEvent(const QString& text) const {
    if (!doc_ || text.isEmpty()) return kNoRow;
    const EventTable& ev = doc_->events();
    bool isNumber = false;
    const qulonglong uid = text.toULongLong(&isNumber);
    if (isNumber && uid < ev.size()) return uint32_t(uid);
    const QByteArray utf8 = text.toUtf8();
    const std::string_view needle(utf8.constData(), size_t(utf8.size()));
    uint32_t exact = kNoRow, partial = kNoRow;
    auto earlier = [&](uint32_t a, uint32_t b) { return b == kNoRow || ev.tsNs[a] < ev.tsNs[b]; };
    for (uint32_t row = 0; row < ev.size(); ++row) {
        if (doc_->tracks.trackOf(row) == kNoTrack) continue;
        const std::string_view name = ev.nameOf(row);
        if (name == needle && earlier(row, exact))
            exact = row;
        else if (name.find(needle) != std::string_view::npos && earlier(row, partial))
            partial = row;
    }
    return exact != kNoRow ? exact : partial;
}

void MainWindow::focusEvent(uint32_t row) {
    if (!doc_ || row == kNoRow) return;
    const EventTable& ev = doc_->events();
    const int64_t dur = std::max<int64_t>(0, ev.durNs[row]);
    const int64_t centre = ev.tsNs[row] + dur / 2;
    // Wide enough to show the slice with context, and a kernel's launch unless that is so far
    // away that the kernel would shrink to a few pixels (its arrow still points that way).
    int64_t half = std::max<int64_t>(dur * 3, 2000);
    const uint32_t launch = doc_->launchOf(row);
    const int64_t reach = launch == kNoRow ? 0 : std::abs(centre - ev.tsNs[launch]) * 5 / 4;
    if (reach <= std::max<int64_t>(dur * 25, 50'000)) half = std::max(half, reach);
    zoom_->setWindow(centre - half, centre + half);
    select(row);
}

void MainWindow::updateSearchHits() {
    const QString text = search_->text().trimmed();
    if (text == searchText_) return;
    searchText_ = text;
    searchHits_.clear();
    if (!doc_ || text.isEmpty()) return;
    const EventTable& ev = doc_->events();
    // Match each distinct name once, then collect the events carrying a matching name.
    std::vector<uint8_t> matches(ev.strings.size(), 0);
    for (uint32_t id = 1; id < ev.strings.size(); ++id) {
        const std::string_view s = ev.strings.at(id);
        matches[id] =
            QString::fromUtf8(s.data(), qsizetype(s.size())).contains(text, Qt::CaseInsensitive);
    }
    for (uint32_t row = 0; row < ev.size(); ++row)
        if (ev.kinds[row].name == ValueKind::String && matches[ev.name[row]] &&
            doc_->tracks.trackOf(row) != kNoTrack)
            searchHits_.push_back(row);
    std::stable_sort(searchHits_.begin(), searchHits_.end(),
                     [&](uint32_t a, uint32_t b) { return ev.tsNs[a] < ev.tsNs[b]; });
}

void MainWindow::findNext() {
    step(+1);
}
void MainWindow::findPrevious() {
    step(-1);
}

void MainWindow::step(int direction) {
    updateSearchHits();
    if (searchHits_.empty()) {
        statusBar()->showMessage(searchText_.isEmpty() ? QString() : tr("No match"), 5000);
        return;
    }
    const EventTable& ev = doc_->events();
    const uint32_t sel = timeline_->selectedEvent();
    auto before = [&](uint32_t a, uint32_t b) {
        return ev.tsNs[a] != ev.tsNs[b] ? ev.tsNs[a] < ev.tsNs[b] : a < b;
    };
    size_t i = 0;
    if (sel != kNoRow) {
        auto it = std::find(searchHits_.begin(), searchHits_.end(), sel);
        if (it != searchHits_.end()) {
            const size_t pos = size_t(it - searchHits_.begin());
            i = (pos + searchHits_.size() + size_t(direction)) % searchHits_.size();
        } else {
            // The first hit after (or last before) the selection.
            auto after = std::upper_bound(searchHits_.begin(), searchHits_.end(), sel, before);
            i = direction > 0
                    ? (after == searchHits_.end() ? 0 : size_t(after - searchHits_.begin()))
                    : (after == searchHits_.begin() ? searchHits_.size() - 1
                                                    : size_t(after - searchHits_.begin()) - 1);
        }
    } else if (direction < 0) {
        i = searchHits_.size() - 1;
    }
    select(searchHits_[i]);
    statusBar()->showMessage(tr("Match %1 of %2").arg(i + 1).arg(searchHits_.size()), 5000);
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
    if (watched == search_ && event->type() == QEvent::KeyPress) {
        auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            step(key->modifiers() & Qt::ShiftModifier ? -1 : +1);
            return true;
        }
        if (key->key() == Qt::Key_Escape) {
            timeline_->setFocus();
            return true;
        }
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::chooseTrace() {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Trace"), QString(),
        tr("PyTorch traces (*.json *.json.gz *.pt.trace.json *.pt.trace.json.gz);;All files (*)"));
    if (!path.isEmpty()) openTrace(path);
}

void MainWindow::chooseKernelInfo() {
    const QString dir = doc_ ? QFileInfo(doc_->tracePath()).absolutePath() : QString();
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Add Kernel Information"), dir,
        tr("Kernel information (*.json *.json.gz *.log *.txt);;Kernel information registry "
           "(*.json *.json.gz);;TORCH_TRACE log (*.log *.txt);;All files (*)"));
    if (!path.isEmpty()) attachKernelInfo(path);
}

void MainWindow::chooseExport() {
    if (!doc_) return;
    QString suggested = doc_->tracePath();
    for (const char* ext : {".json.gz", ".json"})
        if (suggested.endsWith(QLatin1String(ext))) suggested.chop(int(strlen(ext)));
    suggested += QStringLiteral(".annotated.json.gz");
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export Annotated Trace"), suggested,
                                     tr("Compressed trace (*.json.gz);;Trace (*.json)"));
    if (!path.isEmpty()) exportTo(path);
}

void MainWindow::addRecent(const QString& trace, const QString& kernelInfo) {
    QSettings settings;
    QStringList recent = settings.value(QStringLiteral("recentFiles")).toStringList();
    const QString entry =
        QFileInfo(trace).absoluteFilePath() +
        (kernelInfo.isEmpty() ? QString()
                              : QLatin1Char('\n') + QFileInfo(kernelInfo).absoluteFilePath());
    recent.removeAll(entry);
    recent.prepend(entry);
    while (recent.size() > kMaxRecent) recent.removeLast();
    settings.setValue(QStringLiteral("recentFiles"), recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    recentMenu_->clear();
    const QStringList recent = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    for (const QString& entry : recent) {
        const QStringList parts = entry.split(QLatin1Char('\n'));
        QString text = QFileInfo(parts[0]).fileName();
        if (parts.size() > 1) text += tr(" + %1").arg(QFileInfo(parts[1]).fileName());
        QAction* a = recentMenu_->addAction(text, this,
                                            [this, parts] { openTrace(parts[0], parts.value(1)); });
        a->setToolTip(parts.join(QLatin1Char('\n')));
    }
    recentMenu_->setEnabled(!recent.isEmpty());
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (e->mimeData()->hasUrls()) e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
    QString trace, kinfo;
    for (const QUrl& url : e->mimeData()->urls()) {
        if (!url.isLocalFile()) continue;
        const QString path = url.toLocalFile();
        (looksLikeKernelInfo(path.toStdString()) ? kinfo : trace) = path;
    }
    if (!trace.isEmpty())
        openTrace(trace, kinfo);
    else if (!kinfo.isEmpty() && doc_)
        attachKernelInfo(kinfo);
    else
        return;
    e->acceptProposedAction();
}

void MainWindow::closeEvent(QCloseEvent* e) {
    cancelJobs();
    QMainWindow::closeEvent(e);
}
