// The panels offscreen: stepping through a kernel's instances (next, previous,
// slowest) in the Kernels, Unresolved and Hotspots tabs, with the buttons and the Go menu's keys;
// Hotspots names the full path and writes times in human units; typing in a filter refilters once
// the typing pauses; a new trace clears the search and the last error; File → Open starts in the
// last trace's folder and opens a second window when one is shown; the status bar fits at 800 px.
#include <QDir>
#include <QFileInfo>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPointer>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>

#include "panels/hotspots_panel.h"
#include "panels/instance_stepper.h"
#include "panels/kernels_panel.h"
#include "panels/table_panel.h"
#include "panels/unresolved_panel.h"
#include "shell/main_window.h"
#include "shell/search_controller.h"
#include "state/viewer_state.h"
#include "state/zoom_control.h"
#include "timeline/timeline_view.h"
#include "viewer_test_support.h"
#include "widgets/elided_label.h"
#include "widgets/time_text.h"

using namespace stackline;
using namespace ui_test;

namespace {

const QString kExampleDir = QStringLiteral(STACKLINE_EXAMPLE_DIR);
const QString kExample = kExampleDir + QStringLiteral("/example.pt.trace.json");

// The events for which keep(row) holds, by start time.
template <typename Keep>
std::vector<uint32_t> eventsWhere(const ViewedTrace& doc, Keep keep) {
    const EventTable& ev = doc.events();
    std::vector<uint32_t> rows;
    for (uint32_t r = 0; r < ev.size(); ++r)
        if (keep(r)) rows.push_back(r);
    std::stable_sort(rows.begin(), rows.end(),
                     [&](uint32_t a, uint32_t b) { return ev.tsNs(a) < ev.tsNs(b); });
    return rows;
}

uint32_t longest(const ViewedTrace& doc, const std::vector<uint32_t>& rows) {
    const EventTable& ev = doc.events();
    return *std::max_element(rows.begin(), rows.end(),
                             [&](uint32_t a, uint32_t b) { return ev.durNs(a) < ev.durNs(b); });
}

}  // namespace

class TstPanels : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        isolateSettings();
        QVERIFY(tmp_.isValid());
        // The example without its kernel information: its compiled kernels are unresolved.
        plain_ = tmp_.filePath(QStringLiteral("plain/example.pt.trace.json"));
        QVERIFY(QDir().mkpath(QFileInfo(plain_).absolutePath()));
        QVERIFY(QFile::copy(kExample, plain_));
    }

    void init() {
        window_ = std::make_unique<MainWindow>();
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    }

    void cleanup() { window_.reset(); }

    void kernelsStepThroughInstances() {
        QVERIFY(openTrace(*window_, kExample));
        const ViewedTrace& doc = *window_->document();
        KernelsPanel* panel = window_->panel<KernelsPanel>();
        // The kernel with the most instances.
        int row = 0;
        for (int r = 1; r < panel->model()->rowCount(); ++r)
            if (panel->model()->entry(r).instances.size() >
                panel->model()->entry(row).instances.size())
                row = r;
        const QByteArray name = panel->model()->entry(row).name.toUtf8();
        const auto expected = eventsWhere(doc, [&](uint32_t r) {
            return doc.isKernel(r) && doc.events().nameOf(r) == name.constData();
        });
        QCOMPARE(expected.size(), size_t(10));

        panel->activateSourceRow(row);
        QCOMPARE(selected(), expected[0]);
        InstanceStepper* stepper = panel->stepper();
        QCOMPARE(stepper->labelText(), QStringLiteral("instance 1 of 10"));
        stepper->next();
        QCOMPARE(selected(), expected[1]);
        QCOMPARE(stepper->labelText(), QStringLiteral("instance 2 of 10"));
        stepper->previous();
        stepper->previous();
        QCOMPARE(selected(), expected[9]);  // wraps around
        stepper->slowest();
        QCOMPARE(selected(), longest(doc, expected));
        QVERIFY(revealed(selected()));
        QCOMPARE(panel->markedSourceRow(), row);

        // The Go menu's keys drive the Kernels tab's stepper.
        window_->showTab(QStringLiteral("kernels"));
        window_->timeline()->setFocus();
        const int at = stepper->position();
        QTest::keyClick(window_.get(), Qt::Key_N);
        QCOMPARE(selected(), expected[size_t(at + 1) % expected.size()]);
        QTest::keyClick(window_.get(), Qt::Key_P);
        QCOMPARE(selected(), expected[size_t(at)]);
        stepper->next();
        QTest::keyClick(window_.get(), Qt::Key_L);
        QCOMPARE(selected(), longest(doc, expected));
    }

    void unresolvedStepThroughInstances() {
        QVERIFY(openTrace(*window_, plain_));
        const ViewedTrace& doc = *window_->document();
        UnresolvedPanel* panel = window_->panel<UnresolvedPanel>();
        QVERIFY(panel->count() > 10);
        // The unresolved kernel name listed most often.
        auto unresolvedNamed = [&](std::string_view name) {
            return eventsWhere(doc, [&](uint32_t r) {
                return doc.isKernel(r) && doc.status(r) == KernelStatus::Unresolved &&
                       doc.events().nameOf(r) == name;
            });
        };
        std::vector<uint32_t> expected;
        int first = -1;
        for (int r = 0; r < panel->count(); ++r) {
            auto same = unresolvedNamed(doc.events().nameOf(panel->model()->eventAt(r)));
            if (same.size() > expected.size()) {
                expected = std::move(same);
                first = panel->model()->rowOf(expected.front());
            }
        }
        QVERIFY(expected.size() >= 3);

        window_->showTab(QStringLiteral("unresolved"));
        panel->activateSourceRow(first);
        QCOMPARE(selected(), expected[0]);
        InstanceStepper* stepper = panel->stepper();
        QCOMPARE(stepper->instances(), expected);
        QCOMPARE(stepper->labelText(), QStringLiteral("instance 1 of %1").arg(expected.size()));
        window_->timeline()->setFocus();
        QTest::keyClick(window_.get(), Qt::Key_N);
        QCOMPARE(selected(), expected[1]);
        QCOMPARE(panel->markedSourceRow(), panel->model()->rowOf(expected[1]));
        QTest::keyClick(window_.get(), Qt::Key_P);
        QCOMPARE(selected(), expected[0]);
        stepper->slowest();
        QCOMPARE(selected(), longest(doc, expected));
        QVERIFY(revealed(selected()));
    }

    void hotspotsStepThroughLineKernels() {
        QVERIFY(openTrace(*window_, kExample));
        const ViewedTrace& doc = *window_->document();
        HotspotsPanel* panel = window_->panel<HotspotsPanel>();
        int line = -1;
        for (int r = 0; r < panel->count(); ++r)
            if (panel->model()->line(r).line == 52) line = r;
        QVERIFY(line >= 0);
        const SourceLine& l = panel->model()->line(line);
        const auto launched = eventsWhere(doc, [&](uint32_t r) {
            return std::find(l.rows.begin(), l.rows.end(), r) != l.rows.end();
        });
        QCOMPARE(launched.size(), size_t(12));

        window_->showTab(QStringLiteral("hotspots"));
        panel->table()->activateSourceRow(line);
        InstanceStepper* stepper = panel->stepper();
        QCOMPARE(stepper->instances(), launched);
        QCOMPARE(stepper->labelText(), QStringLiteral("12 instances"));
        window_->timeline()->setFocus();
        QTest::keyClick(window_.get(), Qt::Key_N);
        QCOMPARE(selected(), launched[0]);
        QCOMPARE(stepper->labelText(), QStringLiteral("instance 1 of 12"));
        QTest::keyClick(window_.get(), Qt::Key_N);
        QCOMPARE(selected(), launched[1]);
        QTest::keyClick(window_.get(), Qt::Key_L);
        QCOMPARE(selected(), longest(doc, launched));
        QCOMPARE(panel->selectedLine(), line);  // stepping keeps the line

        // Choosing a kernel of the line steps through its instances there.
        QListWidget* list = panel->kernelList();
        QTest::mouseClick(list->viewport(), Qt::LeftButton, Qt::NoModifier,
                          list->visualItemRect(list->item(1)).center());
        const QByteArray name = list->item(1)->data(Qt::UserRole).toString().toUtf8();
        const auto kernel = eventsWhere(doc, [&](uint32_t r) {
            return std::find(l.rows.begin(), l.rows.end(), r) != l.rows.end() &&
                   doc.events().nameOf(r) == name.constData();
        });
        QVERIFY(kernel.size() >= 2 && kernel.size() < launched.size());
        QCOMPARE(stepper->instances(), kernel);
        QCOMPARE(selected(), kernel[0]);
        stepper->previous();
        QCOMPARE(selected(), kernel.back());
        QVERIFY(revealed(selected()));
    }

    void hotspotsShowFullPathAndHumanUnits() {
        QVERIFY(openTrace(*window_, kExample));
        HotspotsPanel* panel = window_->panel<HotspotsPanel>();
        QSortFilterProxyModel* proxy = panel->table()->proxy();
        const QModelIndex top = proxy->index(0, HotspotsModel::File);
        QCOMPARE(top.data().toString(), QStringLiteral("model.py"));
        QVERIFY2(top.data(Qt::ToolTipRole)
                     .toString()
                     .startsWith(QStringLiteral("/home/alice/proj/model.py:51")),
                 qPrintable(top.data(Qt::ToolTipRole).toString()));
        QVERIFY(proxy->index(0, HotspotsModel::Code)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("/home/alice/proj/model.py:51")));
        // 1989.1 µs of self time reads in milliseconds.
        const double self = panel->model()->line(proxy->mapToSource(top).row()).selfUs;
        const QString shown = proxy->index(0, HotspotsModel::Self).data().toString();
        QCOMPARE(shown, formatDuration(std::llround(self * 1000)));
        QVERIFY2(shown.endsWith(QStringLiteral(" ms")), qPrintable(shown));
        QCOMPARE(proxy->headerData(HotspotsModel::Self, Qt::Horizontal).toString(),
                 QStringLiteral("Self"));
    }

    void durationsInHumanUnits() {
        QCOMPARE(formatDuration(850), QStringLiteral("850 ns"));
        QCOMPARE(formatDuration(1'760), QStringLiteral("1.760 µs"));
        // Traces in whole microseconds: no ".000".
        QCOMPARE(formatDuration(12'000), QStringLiteral("12 µs"));
        QCOMPARE(formatDuration(250'000), QStringLiteral("250 µs"));
        QCOMPARE(formatDuration(1'500'000), QStringLiteral("1.500 ms"));
        QCOMPARE(formatDuration(4'000'000), QStringLiteral("4 ms"));
        QCOMPARE(formatDuration(250'500'000), QStringLiteral("250.5 ms"));
        QCOMPARE(formatDuration(3'000'000'000), QStringLiteral("3 s"));
        QCOMPARE(formatDuration(3'250'000'000), QStringLiteral("3.250 s"));
        QCOMPARE(formatMicroseconds(1989.1), QStringLiteral("1.989 ms"));
        QCOMPARE(formatMicroseconds(17), QStringLiteral("17 µs"));
    }

    // A table this small refilters at every keystroke, before the next one.
    void filterRefiltersAsOneTypes() {
        QVERIFY(openTrace(*window_, plain_));
        const ViewedTrace& doc = *window_->document();
        UnresolvedPanel* panel = window_->panel<UnresolvedPanel>();
        window_->showTab(QStringLiteral("unresolved"));
        QSignalSpy applied(panel, &TablePanel::filterApplied);
        const int before = panel->proxy()->rowCount();
        QTest::keyClick(panel->filter(), 'G');
        QCOMPARE(applied.count(), 1);
        QTest::keyClicks(panel->filter(), QStringLiteral("EMM_F32"));
        QCOMPARE(applied.count(), 8);
        int gemms = 0;
        for (int r = 0; r < panel->count(); ++r)
            gemms += doc.events().nameOf(panel->model()->eventAt(r)).find("gemm_f32") !=
                     std::string_view::npos;
        QVERIFY(gemms > 0 && gemms < before);
        QCOMPARE(panel->proxy()->rowCount(), gemms);
        for (int r = 0; r < panel->proxy()->rowCount(); ++r)
            QVERIFY(
                panel->proxy()->index(r, 0).data().toString().contains(QStringLiteral("gemm_f32")));
        // Clearing shows every row again.
        panel->filter()->clear();
        QTRY_COMPARE(panel->proxy()->rowCount(), before);
    }

    void newTraceClearsSearchAndErrors() {
        QVERIFY(openTrace(*window_, kExample));
        QLineEdit* field = window_->search()->field();
        field->setText(QStringLiteral("softmax"));
        window_->search()->findNext();
        // Another kernel information keeps the search.
        QSignalSpy loaded(window_.get(), &MainWindow::documentLoaded);
        window_->attachKernelInfo(kExampleDir +
                                  QStringLiteral("/example.pt.trace.kernel_info.json"));
        QVERIFY(loaded.wait(20000));
        QCOMPARE(field->text(), QStringLiteral("softmax"));
        // A failed open leaves an error...
        const QString bad = tmp_.filePath(QStringLiteral("bad.json"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"traceEvents\": [");
        f.close();
        QSignalSpy failed(window_.get(), &MainWindow::loadFailed);
        window_->openTrace(bad);
        QVERIFY(failed.wait(20000));
        QVERIFY(!window_->lastError().isEmpty());
        QVERIFY(errorBoxShown());
        // ... which another trace clears, with the search.
        QVERIFY(openTrace(*window_, plain_));
        QVERIFY(field->text().isEmpty());
        QVERIFY(window_->lastError().isEmpty());
        QVERIFY(!errorBoxShown());
        QVERIFY(window_->statusBar()->currentMessage().isEmpty());
    }

    void openDialogStartsInLastTraceFolder() {
        QSettings().remove(QStringLiteral("lastFolder"));
        QSettings().remove(QStringLiteral("recentFiles"));
        QCOMPARE(window_->openDialogFolder(), QDir::homePath());
        // The bundled example's temporary copy is not remembered.
        window_->setTransientFolder(QFileInfo(plain_).absolutePath());
        QVERIFY(openTrace(*window_, plain_));
        QCOMPARE(window_->openDialogFolder(), QDir::homePath());
        QVERIFY(!QSettings().value(QStringLiteral("recentFiles")).toStringList().contains(plain_));
        // A trace opened elsewhere is.
        QTemporaryDir other;
        const QString trace = other.filePath(QStringLiteral("run.pt.trace.json"));
        QVERIFY(QFile::copy(kExample, trace));
        QVERIFY(openTrace(*window_, trace));
        QCOMPARE(window_->openDialogFolder(), QFileInfo(trace).absolutePath());
        MainWindow later;
        QCOMPARE(later.openDialogFolder(), QFileInfo(trace).absolutePath());
        // A folder gone since: home.
        other.remove();
        QCOMPARE(later.openDialogFolder(), QDir::homePath());
    }

    void openWithTraceShownOpensSecondWindow() {
        // An empty window loads the trace itself.
        QCOMPARE(window_->openTraceInWindow(kExample), window_.get());
        QSignalSpy loaded(window_.get(), &MainWindow::documentLoaded);
        QVERIFY(loaded.wait(20000));
        const ViewedTrace* first = window_->document();
        QVERIFY(first);

        QPointer<MainWindow> second = window_->openTraceInWindow(plain_);
        QVERIFY(second && second != window_.get());
        QVERIFY(second->isVisible());
        QSignalSpy loadedThere(second.data(), &MainWindow::documentLoaded);
        QVERIFY(loadedThere.wait(20000));
        QCOMPARE(second->document()->tracePath(), plain_);
        QCOMPARE(window_->document(), first);
        const QWidgetList windows = QApplication::topLevelWidgets();
        QCOMPARE(std::count_if(
                     windows.begin(), windows.end(),
                     [](QWidget* w) { return qobject_cast<MainWindow*>(w) && w->isVisible(); }),
                 2);
        second->close();
        QTRY_VERIFY(second.isNull());  // deleted on close
    }

    void statusBarFitsAt800() {
        const QString longName = tmp_.filePath(
            QStringLiteral("a_rather_long_profile_name_from_a_training_run_on_eight_gpus_rank0_"
                           "step42.pt.trace.json"));
        QVERIFY(QFile::copy(kExample, longName));
        QVERIFY(openTrace(*window_, longName));
        window_->resize(800, 1000);
        QTRY_COMPARE(window_->width(), 800);
        QTest::qWait(50);
        QStatusBar* bar = window_->statusBar();
        const QRect inWindow(QPoint(0, 0), window_->size());
        QVERIFY(inWindow.contains(QRect(bar->mapTo(window_.get(), QPoint(0, 0)), bar->size())));
        const QRect file = window_->fileLabel()->geometry();
        const QRect counts = window_->countsLabel()->geometry();
        QVERIFY(window_->fileLabel()->isVisible() && window_->countsLabel()->isVisible());
        QVERIFY2(!file.intersects(counts), qPrintable(QStringLiteral("%1,%2 %3 / %4,%5 %6")
                                                          .arg(file.x())
                                                          .arg(file.width())
                                                          .arg(file.y())
                                                          .arg(counts.x())
                                                          .arg(counts.width())
                                                          .arg(counts.y())));
        QVERIFY(bar->rect().contains(file));
        QVERIFY(bar->rect().contains(counts));
        // The names are elided, the whole text is in the tooltip.
        QVERIFY(window_->fileLabel()->shownText().contains(QStringLiteral("…")));
        QVERIFY(window_->fileLabel()->toolTip().contains(QFileInfo(longName).fileName()));
    }

private:
    uint32_t selected() const { return window_->state()->selectedRow(window_->document()); }

    // The event's start is in the timeline's time window.
    bool revealed(uint32_t row) const {
        const int64_t ts = window_->document()->events().tsNs(row);
        const ZoomControl* zoom = window_->timeline()->zoom();
        return zoom->windowStart() <= ts && ts <= zoom->windowEnd();
    }

    bool errorBoxShown() const {
        auto* box = window_->findChild<QMessageBox*>(QStringLiteral("errorBox"));
        return box && box->isVisible();
    }

    QTemporaryDir tmp_;
    QString plain_;
    std::unique_ptr<MainWindow> window_;
};

QTEST_MAIN(TstPanels)
#include "tst_panels.moc"
