// The main window offscreen: opening a trace with its kernel information found beside it (by
// argument, drag and drop, recent files), attaching kernel information later, cancelling a load,
// selecting a kernel shows its stack frames, panels select events, search, a bad trace, a bad
// kernel information file or a failed export keep the open trace (with a message), unrelated
// kernel information is listed as warnings, export writes what `stackline-cli annotate` writes,
// annotated traces open without kernel information, and letter shortcuts do not fire while typing.
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QMimeData>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <functional>

#include "analysis/rank_steps.h"
#include "annotate/diagnostic.h"
#include "cuspy_pftrace_writer.h"
#include "import/trace_formats.h"
#include "panels/details_panel.h"
#include "panels/diagnostics_panel.h"
#include "panels/kernels_panel.h"
#include "panels/unresolved_panel.h"
#include "shell/main_window.h"
#include "shell/search_controller.h"
#include "state/viewer_state.h"
#include "state/zoom_control.h"
#include "timeline/timeline_view.h"
#include "viewer_test_support.h"
#include "widgets/elided_label.h"
#include "widgets/palette.h"

using namespace stackline;
using namespace ui_test;

namespace {

const QString kTrace = QStringLiteral(STACKLINE_TEST_DATA "/compiled_step.pt.trace.json");

}  // namespace

class TstMainWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        isolateSettings();
        QVERIFY(tmp_.isValid());
    }

    void init() {
        window_ = std::make_unique<MainWindow>();
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    }

    void cleanup() { window_.reset(); }

    void opensTraceAndFindsKernelInfo() {
        QVERIFY(open(kTrace));
        const ViewedTrace* doc = window_->document();
        QVERIFY(doc->kernelInfoFound);
        QVERIFY(doc->kernelInfoPath.endsWith(
            QStringLiteral("compiled_step.pt.trace.kernel_info.json")));
        QVERIFY(window_->fileLabel()->text().contains(
            QStringLiteral("kernel info: compiled_step.pt.trace.kernel_info.json")));
        QCOMPARE(window_->panel<UnresolvedPanel>()->count(), 1);
        QCOMPARE(window_->panel<KernelsPanel>()->model()->rowCount(), 6);
    }

    void openingIsRemembered() {
        QVERIFY(open(kTrace));
        const QStringList recent = QSettings().value(QStringLiteral("recentFiles")).toStringList();
        QVERIFY(!recent.isEmpty());
        QCOMPARE(recent.first(), QFileInfo(kTrace).absoluteFilePath());
    }

    void droppedFilesOpen() {
        const QString trace = copyWithoutKernelInfo(QStringLiteral("dropped.pt.trace.json"));
        const QString kinfo =
            QStringLiteral(STACKLINE_TEST_DATA "/compiled_step.pt.trace.kernel_info.json");
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(kinfo), QUrl::fromLocalFile(trace)});
        QSignalSpy loaded(window_.get(), &MainWindow::documentLoaded);
        // Qt routes a drop to the widget that accepted the drag's enter.
        QDragEnterEvent enter(QPoint(300, 300), Qt::CopyAction, &mime, Qt::LeftButton,
                              Qt::NoModifier);
        QApplication::sendEvent(window_.get(), &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(300, 300), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(window_.get(), &drop);
        QVERIFY(loaded.wait(20000));
        QCOMPARE(window_->document()->tracePath(), trace);
        QCOMPARE(window_->document()->kernelInfoPath, kinfo);
        QVERIFY(!window_->document()->kernelInfoFound);
    }

    void kernelInfoAttachesToTheOpenTrace() {
        QVERIFY(open(copyWithoutKernelInfo(QStringLiteral("plain.pt.trace.json"))));
        const ViewedTrace* before = window_->document();
        QVERIFY(before->kernelInfoPath.isEmpty());
        const uint32_t kernel = rowNamed(*before, "triton_poi_fused_gelu_0", "kernel");
        QCOMPARE(before->status(kernel), KernelStatus::Unresolved);
        QSignalSpy loaded(window_.get(), &MainWindow::documentLoaded);
        window_->attachKernelInfo(
            QStringLiteral(STACKLINE_TEST_DATA "/compiled_step.pt.trace.kernel_info.json"));
        QVERIFY(loaded.wait(20000));
        const ViewedTrace* after = window_->document();
        QCOMPARE(after->status(kernel), KernelStatus::Annotated);
        QVERIFY(after->kernelInfoPath.endsWith(QStringLiteral("kernel_info.json")));
        QCOMPARE(window_->panel<UnresolvedPanel>()->count(), 1);
    }

    void loadingCanBeCancelled() {
        QVERIFY(open(kTrace));
        const ViewedTrace* before = window_->document();
        // Big enough that the load is still running when Cancel is pressed.
        const QString big = tmp_.filePath(QStringLiteral("big.pt.trace.json"));
        QFile f(big);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"traceEvents\": [");
        for (int i = 0; i < 200000; ++i)
            f.write(QStringLiteral("%1{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"op%2\", "
                                   "\"pid\": 1, \"tid\": 1, \"ts\": %3, \"dur\": 1}")
                        .arg(i ? "," : "")
                        .arg(i % 97)
                        .arg(i * 2)
                        .toUtf8());
        f.write("]}");
        f.close();
        QSignalSpy cancelled(window_.get(), &MainWindow::loadCancelled);
        window_->openTrace(big);
        QVERIFY(window_->isBusy());
        window_->cancelJobs();
        QVERIFY(cancelled.wait(20000));
        QCOMPARE(window_->document(), before);
    }

    void kernelsPanelFiltersAndSorts() {
        QVERIFY(open(kTrace));
        KernelsPanel* k = window_->panel<KernelsPanel>();
        k->filter()->setText(QStringLiteral("GELU"));
        k->applyFilter();
        QCOMPARE(k->proxy()->rowCount(), 2);
        k->filter()->clear();
        k->applyFilter();
        k->proxy()->sort(KernelsModel::Total, Qt::DescendingOrder);
        QCOMPARE(k->proxy()->index(0, KernelsModel::Name).data().toString(),
                 QStringLiteral("ncclDevKernel_AllReduce_Sum_f32"));
        k->proxy()->sort(KernelsModel::Status, Qt::DescendingOrder);
        QCOMPARE(k->proxy()->index(0, KernelsModel::Name).data().toString(),
                 QStringLiteral("triton_red_fused_sum_1"));
    }

    void selectingAKernelShowsItsStack() {
        QVERIFY(open(kTrace));
        const ViewedTrace& doc = *window_->document();
        const uint32_t kernel = rowNamed(doc, "triton_poi_fused_gelu_0", "kernel");
        window_->state()->focus(kernel);
        QCOMPARE(selected(), kernel);
        DetailsPanel* d = window_->details();
        QCOMPARE(d->shownEvent(), kernel);
        QCOMPARE(d->frames().size(), 2);
        QCOMPARE(d->frames()[0].file, QStringLiteral("/home/user/train.py"));
        QCOMPARE(d->frames()[0].line, 40);
        QCOMPARE(d->frames()[1].file, QStringLiteral("/home/user/model.py"));
        QCOMPARE(d->frames()[1].line, 81);
        QCOMPARE(d->frames()[1].function, QStringLiteral("forward"));
        QCOMPARE(d->frames()[1].code, QStringLiteral("x = self.gelu(self.fc(x))"));
        QCOMPARE(d->stackList()->count(), 2);
        QVERIFY(d->stackList()->item(1)->text().contains(QStringLiteral("model.py:81")));
        QVERIFY(d->statusLabelText().contains(QStringLiteral("annotated")));
        QVERIFY(d->linksText().contains(QStringLiteral("cuLaunchKernel")));
        QVERIFY(d->linksText().contains(QStringLiteral("Torch-Compiled Region: 0/0")));
        // The window shows the kernel and its launch.
        const uint32_t launch = doc.launchOf(kernel);
        QVERIFY(doc.events().tsNs(launch) >= window_->timeline()->zoom()->windowStart());

        QSignalSpy frames(window_->state(), &ViewerState::sourceRequested);
        QListWidget* list = d->stackList();
        QTest::mouseClick(list->viewport(), Qt::LeftButton, Qt::NoModifier,
                          list->visualItemRect(list->item(1)).center());
        QCOMPARE(frames.count(), 1);
        QCOMPARE(frames[0][0].toString(), QStringLiteral("/home/user/model.py"));
        QCOMPARE(frames[0][1].toInt(), 81);

        // Following the launch link selects the runtime call.
        emit d->linksLabel()->linkActivated(QString::number(launch));
        QCOMPARE(selected(), launch);
    }

    void panelsSelectEvents() {
        QVERIFY(open(kTrace));
        const ViewedTrace& doc = *window_->document();
        window_->panel<UnresolvedPanel>()->activateSourceRow(0);
        QCOMPARE(selected(), rowNamed(doc, "triton_red_fused_sum_1", "kernel"));
        KernelsModel* m = window_->panel<KernelsPanel>()->model();
        int gelu = -1;
        for (int r = 0; r < m->rowCount(); ++r)
            if (m->entry(r).name == QStringLiteral("triton_poi_fused_gelu_0")) gelu = r;
        QVERIFY(gelu >= 0);
        window_->panel<KernelsPanel>()->activateSourceRow(gelu);
        QCOMPARE(selected(), rowNamed(doc, "triton_poi_fused_gelu_0", "kernel"));
    }

    void searchStepsThroughMatches() {
        QVERIFY(open(kTrace));
        const ViewedTrace& doc = *window_->document();
        QLineEdit* field = window_->search()->field();
        field->setText(QStringLiteral("GELU_0"));
        window_->search()->findNext();
        QCOMPARE(selected(), rowNamed(doc, "triton_poi_fused_gelu_0", "cpu_op"));
        QTest::keyClick(field, Qt::Key_Return);
        QCOMPARE(selected(), rowNamed(doc, "triton_poi_fused_gelu_0", "kernel"));
        QTest::keyClick(field, Qt::Key_Return, Qt::ShiftModifier);
        QCOMPARE(selected(), rowNamed(doc, "triton_poi_fused_gelu_0", "cpu_op"));
    }

    void badFileShowsErrorAndKeepsTrace() {
        QVERIFY(open(kTrace));
        const ViewedTrace* before = window_->document();
        refuseFile(QStringLiteral("broken.pt.trace.json"),
                   "{\"traceEvents\": [{\"ph\": \"X\", \"name\": ", [this](const QString& bad) {
                       window_->openTrace(bad);
                   });
        if (QTest::currentTestFailed()) return;
        QVERIFY(visibleBox(QStringLiteral("errorBox"))
                    ->text()
                    .contains(QStringLiteral("broken.pt.trace.json")));
        // A missing file too.
        QSignalSpy failed(window_.get(), &MainWindow::loadFailed);
        window_->openTrace(tmp_.filePath(QStringLiteral("missing.json")));
        QVERIFY(failed.wait(10000));
        QCOMPARE(window_->document(), before);
    }

    void exportFailureShowsErrorAndKeepsTrace_data() {
        QTest::addColumn<QString>("target");
        QTest::newRow("missing folder") << QStringLiteral("no-such-folder/out.json");
        QTest::newRow("full disk") << QStringLiteral("/dev/full");
    }

    void exportFailureShowsErrorAndKeepsTrace() {
        QFETCH(QString, target);
        if (!target.startsWith(QLatin1Char('/'))) target = tmp_.filePath(target);
        if (target == QLatin1String("/dev/full") && !QFileInfo::exists(target))
            QSKIP("no /dev/full here");
        QVERIFY(open(kTrace));
        const ViewedTrace* before = window_->document();
        QSignalSpy done(window_.get(), &MainWindow::exportFinished);
        window_->exportTo(target);
        QVERIFY(done.wait(20000));
        QVERIFY(!done[0][0].toBool());
        QVERIFY2(done[0][1].toString().contains(target), qPrintable(done[0][1].toString()));
        QMessageBox* box = visibleBox(QStringLiteral("errorBox"));
        QVERIFY(box);
        QCOMPARE(window_->document(), before);
        QVERIFY(QDir(tmp_.path())
                    .entryList({QStringLiteral(".*.json.*")}, QDir::Files | QDir::Hidden)
                    .isEmpty());  // no temporary file left behind
        // The window goes on: the next export to a writable place succeeds.
        const QString good = tmp_.filePath(QStringLiteral("after-failure.json"));
        window_->exportTo(good);
        QVERIFY(done.wait(20000));
        QVERIFY2(done[1][0].toBool(), qPrintable(done[1][1].toString()));
        QVERIFY(QFileInfo(good).size() > 1000);
    }

    void badKernelInfoShowsErrorAndKeepsTrace() {
        QVERIFY(open(copyWithoutKernelInfo(QStringLiteral("kinfo-target.pt.trace.json"))));
        refuseFile(QStringLiteral("broken.kernel_info.json"),
                   "{\"('Torch-Compiled Region: 0/0', False)\": {\"triton_poi",
                   [this](const QString& bad) { window_->attachKernelInfo(bad); });
    }

    void unrelatedKernelInfoIsListedAsWarnings() {
        // Valid kernel information from another model: the trace opens, nothing is annotated,
        // and each compiled region without information is a warning in the Diagnostics tab.
        QVERIFY(open(copyWithoutKernelInfo(QStringLiteral("other-model.pt.trace.json"))));
        const QString other =
            writeTemp(QStringLiteral("other-model.kernel_info.json"),
                      "{\"('Torch-Compiled Region: 7/3', False)\": {\"triton_poi_fused_mul_0\": "
                      "{\"stack_traces\": [\"  File \\\"other.py\\\", line 1, in f\\n\"]}}}");
        QVERIFY(!other.isEmpty());
        QSignalSpy loaded(window_.get(), &MainWindow::documentLoaded);
        window_->attachKernelInfo(other);
        QVERIFY(loaded.wait(20000));
        const ViewedTrace& doc = *window_->document();
        QCOMPARE(doc.kernelInfoPath, other);
        int regionWarnings = 0;
        for (const Diagnostic& d : doc.provenance.diagnostics)
            regionWarnings += d.kind == DiagnosticKind::RegionWithoutKernelInfo;
        QVERIFY(regionWarnings > 0);
        QVERIFY(window_->panel<DiagnosticsPanel>()->count() >= regionWarnings);
        QCOMPARE(doc.provenance.annotatedCount, 0u);
        QMessageBox* box = visibleBox(QStringLiteral("warningBox"));
        QVERIFY(box);
        QVERIFY(box->text().contains(QStringLiteral("other-model.kernel_info.json")));
        QVERIFY(window_->panel<DiagnosticsPanel>()->isVisible());
    }

    void exportEqualsCli_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("json") << QStringLiteral("out.json");
        QTest::newRow("json.gz") << QStringLiteral("out.json.gz");
    }

    void exportEqualsCli() {
        QFETCH(QString, name);
        QVERIFY(open(kTrace));
        const QString gui = tmp_.filePath(QStringLiteral("gui-") + name);
        const QString cli = tmp_.filePath(QStringLiteral("cli-") + name);
        QSignalSpy done(window_.get(), &MainWindow::exportFinished);
        window_->exportTo(gui);
        QVERIFY(done.wait(20000));
        QVERIFY2(done[0][0].toBool(), qPrintable(done[0][1].toString()));
        QVERIFY(runCli({QStringLiteral("annotate"), kTrace, QStringLiteral("-o"), cli}));
        const QByteArray a = readAll(gui), b = readAll(cli);
        QVERIFY(a.size() > 1000);
        QVERIFY(a == b);
    }

    // A Perfetto protobuf trace (as Cuspy writes it) exports as the CLI's annotated Chrome JSON,
    // the stacks of its kernels in args.stack.
    void pftraceExportsChromeJson() {
        const Trace source = loadTrace(kTrace.toStdString());
        const QString pf = tmp_.filePath(QStringLiteral("run.pftrace"));
        {
            QFile f(pf);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray::fromStdString(bench::encodeCuspyPftrace(
                bench::cuspyLayoutOf(source, rankInfoOf(source).baseTimeNs))));
        }
        QVERIFY(QFile::copy(
            QStringLiteral(STACKLINE_TEST_DATA "/compiled_step.pt.trace.kernel_info.json"),
            tmp_.filePath(QStringLiteral("run.pftrace.kernel_info.json"))));
        QVERIFY(open(pf));
        QVERIFY(window_->document()->provenance.annotatedCount > 0);
        const QString gui = tmp_.filePath(QStringLiteral("gui.json"));
        const QString cli = tmp_.filePath(QStringLiteral("cli.json"));
        QSignalSpy done(window_.get(), &MainWindow::exportFinished);
        window_->exportTo(gui);
        QVERIFY(done.wait(20000));
        QVERIFY2(done[0][0].toBool(), qPrintable(done[0][1].toString()));
        QVERIFY(runCli({QStringLiteral("annotate"), pf, QStringLiteral("-o"), cli}));
        const QByteArray a = readAll(gui);
        QVERIFY(a.contains("\"stack\":[") && a.contains("\"uid_assigned\":true"));
        QVERIFY(a == readAll(cli));
    }

    void annotatedTraceOpensWithoutKernelInfo() {
        // A trace annotated before (here by the CLI), opened alone: its stacks show and the
        // kernel launched in a region without one is still found.
        const QString annotated = tmp_.filePath(QStringLiteral("annotated.pt.trace.json"));
        QVERIFY(runCli({QStringLiteral("annotate"), kTrace, QStringLiteral("-o"), annotated}));
        QVERIFY(open(annotated));
        const ViewedTrace& doc = *window_->document();
        QVERIFY(doc.kernelInfoPath.isEmpty());
        QCOMPARE(doc.status(rowNamed(doc, "triton_poi_fused_gelu_0", "kernel")),
                 KernelStatus::Annotated);
        QCOMPARE(doc.status(rowNamed(doc, "triton_red_fused_sum_1", "kernel")),
                 KernelStatus::Unresolved);
        window_->state()->focus(rowNamed(doc, "triton_poi_fused_gelu_0", "kernel"));
        QCOMPARE(window_->details()->frames().size(), 2);
    }

    void letterShortcutsZoomButNotWhileTyping() {
        QVERIFY(open(kTrace));
        ZoomControl* zoom = window_->timeline()->zoom();
        window_->timeline()->setFocus();
        const int64_t full = zoom->windowDuration();
        QTest::keyClick(window_->timeline(), Qt::Key_W);
        QVERIFY(zoom->windowDuration() < full);
        QTest::keyClick(window_->timeline(), Qt::Key_0);
        QCOMPARE(zoom->windowDuration(), full);
        QLineEdit* field = window_->search()->field();
        field->setFocus();
        QTest::keyClicks(field, QStringLiteral("wsad0"));
        QCOMPARE(field->text(), QStringLiteral("wsad0"));
        QCOMPARE(zoom->windowDuration(), full);
    }

    void commandLineOpensSelectsAndScreenshots() {
        // The app itself: open by argument, select by name, render to PNG, exit 0.
        const QString png = tmp_.filePath(QStringLiteral("shot.png"));
        QProcess p;
        p.setProcessEnvironment(QProcessEnvironment::systemEnvironment());
        p.start(QStringLiteral(STACKLINE_APP),
                {kTrace, QStringLiteral("--select"), QStringLiteral("triton_red_fused_sum_1"),
                 QStringLiteral("--screenshot"), png});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const QImage image(png);
        QCOMPARE(image.size(), QSize(1600, 1000));
        // The selected slice is the unresolved kernel's launcher, its kernel is on screen.
        int hot = 0;
        const QRgb unresolved = sliceColor(SliceStyle::KernelUnresolved).rgb();
        for (int y = 0; y < image.height(); y += 2)
            for (int x = 0; x < image.width(); x += 2) hot += image.pixel(x, y) == unresolved;
        QVERIFY(hot > 20);

        p.start(QStringLiteral(STACKLINE_APP), {tmp_.filePath(QStringLiteral("missing.json")),
                                                QStringLiteral("--screenshot"), png});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(p.readAllStandardError().contains("missing.json"));
    }

    void standardInputOpens() {
        // "-": the trace piped in is shown as the file is (its unresolved kernel on screen).
        const QString png = tmp_.filePath(QStringLiteral("stdin.png"));
        QProcess p;
        p.setProcessEnvironment(QProcessEnvironment::systemEnvironment());
        p.start(QStringLiteral(STACKLINE_APP),
                {QStringLiteral("-"), QStringLiteral("--select"),
                 QStringLiteral("triton_red_fused_sum_1"), QStringLiteral("--screenshot"), png});
        QVERIFY(p.waitForStarted(60000));
        QFile trace(kTrace);
        QVERIFY(trace.open(QIODevice::ReadOnly));
        p.write(trace.readAll());
        p.closeWriteChannel();
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const QImage image(png);
        QCOMPARE(image.size(), QSize(1600, 1000));
        int hot = 0;
        const QRgb unresolved = sliceColor(SliceStyle::KernelUnresolved).rgb();
        for (int y = 0; y < image.height(); y += 2)
            for (int x = 0; x < image.width(); x += 2) hot += image.pixel(x, y) == unresolved;
        QVERIFY(hot > 20);
    }

private:
    uint32_t selected() const { return window_->state()->selectedRow(window_->document()); }

    // The fixture under another name in the temporary folder, where no kernel information is.
    QString copyWithoutKernelInfo(const QString& name) {
        const QString path = tmp_.filePath(name);
        QFile::remove(path);
        return QFile::copy(kTrace, path) ? path : QString();
    }

    // A file in the temporary folder with these bytes; empty if it cannot be written.
    QString writeTemp(const QString& name, const QByteArray& bytes) {
        const QString path = tmp_.filePath(name);
        QFile f(path);
        return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size() ? path : QString();
    }

    // `load` of a file `name` holding `bytes` fails: the window keeps its document, and names the
    // file in its last error and shows an error box.
    void refuseFile(const QString& name, const QByteArray& bytes,
                    const std::function<void(const QString&)>& load) {
        const ViewedTrace* before = window_->document();
        const QString bad = writeTemp(name, bytes);
        QVERIFY(!bad.isEmpty());
        QSignalSpy failed(window_.get(), &MainWindow::loadFailed);
        load(bad);
        QVERIFY(failed.wait(10000));
        QCOMPARE(window_->document(), before);
        QVERIFY(window_->lastError().contains(name));
        QVERIFY(visibleBox(QStringLiteral("errorBox")));
    }

    // The message box the window opened under this object name, if it is showing.
    QMessageBox* visibleBox(const QString& name) {
        auto* box = window_->findChild<QMessageBox*>(name);
        return box && box->isVisible() ? box : nullptr;
    }

    bool open(const QString& path) { return openTrace(*window_, path); }

    QTemporaryDir tmp_;
    std::unique_ptr<MainWindow> window_;
};

QTEST_MAIN(TstMainWindow)
#include "tst_main_window.moc"
