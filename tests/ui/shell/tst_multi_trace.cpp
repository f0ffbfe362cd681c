// Several traces in one window (the ranks of a job): a group of tracks per trace labelled by its
// rank and ordered by it, one time axis on which each trace is shifted by its offset (painted and
// hit there), selecting an event of another trace makes it the one the panels show, the alignment
// modes move the traces, and File → Add Trace adds a group.
#include <QDir>
#include <QMessageBox>
#include <QScrollBar>
#include <QSignalSpy>
#include <QtTest>

#include "panels/details_panel.h"
#include "state/trace_set.h"
#include "state/viewer_state.h"
#include "state/zoom_control.h"
#include "timeline/timeline_view.h"
#include "viewer_test_support.h"
#include "widgets/elided_label.h"

using namespace stackline;
using namespace ui_test;

namespace {

const QString kExample = QStringLiteral(STACKLINE_EXAMPLE_DIR "/example.pt.trace.json");
const QString kCompiled = QStringLiteral(STACKLINE_TEST_DATA "/compiled_step.pt.trace.json");

QStringList paramRanks() {
    return tracesInFolder(QStringLiteral(STACKLINE_DATA "/param"));
}

// The first GPU kernel of a document that has a row in the timeline.
EventRef firstKernel(const ViewedTrace& doc, const TrackModel& model) {
    for (uint32_t row = 0; row < doc.events().size(); ++row)
        if (doc.isKernel(row) && model.rowOf(row) >= 0) return {&doc, row};
    return {};
}

}  // namespace

class TstMultiTrace : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        isolateSettings();
        QSettings().remove(QStringLiteral("trackLayouts"));
        QCOMPARE(paramRanks().size(), 8);
    }

    void init() {
        window_ = std::make_unique<MainWindow>();
        window_->resize(1500, 950);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    }
    void cleanup() { window_.reset(); }

    void traces_data() {
        QTest::addColumn<QStringList>("files");
        QTest::addColumn<QStringList>("labels");  // in display order
        QTest::addColumn<bool>("collectives");    // they have collective kernels
        QStringList ranks;
        for (int r = 0; r < 8; ++r) ranks << QStringLiteral("rank %1").arg(r);
        // Given in reverse: shown by rank all the same.
        QStringList reversed = paramRanks();
        std::reverse(reversed.begin(), reversed.end());
        QTest::newRow("8 param ranks") << reversed << ranks << true;
        QTest::newRow("two traces without rank")
            << QStringList{kCompiled, kExample}
            << QStringList{QStringLiteral("compiled_step.pt.trace.json"),
                           QStringLiteral("example.pt.trace.json")}
            << false;
    }

    void groupsLabelledAndOrderedByRank_data() { traces_data(); }
    void groupsLabelledAndOrderedByRank() {
        QFETCH(QStringList, files);
        QFETCH(QStringList, labels);
        QVERIFY(open(files));
        const auto& docs = state()->documents();
        QCOMPARE(int(docs.size()), labels.size());
        int lastTop = -1;
        for (size_t i = 0; i < docs.size(); ++i) {
            QCOMPARE(docs[i]->label(), labels[int(i)]);
            // Each trace its own group of tracks, below the previous one's.
            QVERIFY(timeline()->model(docs[i].get()));
            const QRect header = timeline()->traceHeaderRect(docs[i].get());
            QVERIFY(!header.isEmpty());
            QVERIFY(header.top() > lastTop);
            lastTop = header.top();
        }
        QVERIFY(window_->fileLabel()->text().startsWith(
            QStringLiteral("%1 traces · %2").arg(docs.size()).arg(labels[0])));
    }

    void eventPaintedAndHitAtShiftedTime_data() { traces_data(); }
    void eventPaintedAndHitAtShiftedTime() {
        QFETCH(QStringList, files);
        QVERIFY(open(files));
        const auto& docs = state()->documents();
        const ViewedTrace& second = *docs[1];
        const EventRef kernel = firstKernel(second, *timeline()->model(&second));
        QVERIFY(kernel.isValid());
        const TrackModel& model = *timeline()->model(&second);
        // Zoom around the kernel on the axis, then shift its trace by a quarter window.
        const int64_t axisStart = zoomTo(kernel);
        std::vector<int64_t> offsets;
        for (const auto& d : docs) offsets.push_back(state()->offsetNs(d.get()));
        const QRect before = timeline()->eventRect(kernel);
        QVERIFY(!before.isEmpty());
        QCOMPARE(timeline()->hitTest(before.center()), kernel);
        offsets[1] += 25'000;
        state()->setOffsets(offsets);
        zoom()->setWindow(axisStart - 50'000, axisStart + 50'000);
        const QRect after = timeline()->eventRect(kernel);
        // A quarter of the plot's width to the right.
        const double plot = timeline()->geometry().right - timeline()->geometry().left;
        QVERIFY2(
            std::abs(after.left() - before.left() - plot / 4) <= 2,
            qPrintable(
                QStringLiteral("%1 -> %2 of %3").arg(before.left()).arg(after.left()).arg(plot)));
        QCOMPARE(timeline()->hitTest(after.center()), kernel);
        QVERIFY(timeline()->hitTest(before.center()) != kernel);
        // The shifted pixels are where the kernel's colour is painted.
        const QImage image = timeline()->viewport()->grab().toImage();
        const QColor colour = sliceColor(model.styleOf(kernel.row));
        QVERIFY(countColor(image, after.adjusted(0, 2, 0, -2), colour) > 0);
    }

    void selectingAnotherTracesEventMakesItCurrent_data() { traces_data(); }
    void selectingAnotherTracesEventMakesItCurrent() {
        QFETCH(QStringList, files);
        QFETCH(QStringList, labels);
        QVERIFY(open(files));
        const auto& docs = state()->documents();
        const ViewedTrace& second = *docs[1];
        QCOMPARE(state()->current().get(), docs[0].get());
        const EventRef kernel = firstKernel(second, *timeline()->model(&second));
        zoomTo(kernel);
        QSignalSpy current(state(), &ViewerState::currentChanged);
        QTest::mouseClick(timeline()->viewport(), Qt::LeftButton, {},
                          timeline()->eventRect(kernel).center());
        QCOMPARE(state()->selected(), kernel);
        QCOMPARE(state()->current().get(), &second);
        QCOMPARE(current.count(), 1);
        // The panels show the second trace: Details its kernel, the status bar its label.
        QCOMPARE(window_->details()->shownEvent(), kernel.row);
        QCOMPARE(window_->details()->titleLabel()->text(), second.name(kernel.row));
        QVERIFY(window_->fileLabel()->text().contains(labels[1]));
        // Its header, clicked, makes the first current again.
        timeline()->verticalScrollBar()->setValue(0);
        QTest::mouseClick(timeline()->viewport(), Qt::LeftButton, {},
                          timeline()->traceHeaderRect(docs[0].get()).center());
        QCOMPARE(state()->current().get(), docs[0].get());
    }

    void alignmentModesChangeOffsets_data() { traces_data(); }
    void alignmentModesChangeOffsets() {
        QFETCH(QStringList, files);
        QFETCH(bool, collectives);
        QVERIFY(open(files));
        const auto offsets = [&] {
            std::vector<int64_t> out;
            for (const auto& d : state()->documents()) out.push_back(state()->offsetNs(d.get()));
            return out;
        };
        const std::vector<int64_t> clock = offsets();
        QCOMPARE(clock.front(), 0);
        window_->setAlignment(Alignment::FirstCollective);
        const std::vector<int64_t> collective = offsets();
        QCOMPARE(collective.front(), 0);
        QCOMPARE(collective != clock, collectives);
        // The zoom's extent covers every trace on the new axis.
        for (const auto& d : state()->documents()) {
            const int64_t off = state()->offsetNs(d.get());
            QVERIFY(zoom()->traceStart() <= d->originNs + off);
            QVERIFY(zoom()->traceEnd() >= d->tracks.endNs() + off);
        }
        window_->setAlignment(Alignment::Clock);
        QCOMPARE(offsets(), clock);
    }

    void addTraceAddsAGroup() {
        QVERIFY(open({kCompiled}));
        QVERIFY(timeline()->traceHeaderRect(state()->current().get()).isEmpty());
        QSignalSpy loaded(window_.get(), &MainWindow::documentLoaded);
        window_->addTrace(kExample);
        QVERIFY(loaded.wait(60000));
        const auto& docs = state()->documents();
        QCOMPARE(int(docs.size()), 2);
        QCOMPARE(docs[1]->label(), QStringLiteral("example.pt.trace.json"));
        QVERIFY(!timeline()->traceHeaderRect(docs[1].get()).isEmpty());
        QVERIFY(timeline()->model(docs[1].get()));
    }

    void folderOpensEveryRankInOneWindow() {
        const QStringList traces = paramRanks();
        QCOMPARE(traces.size(), 8);
        for (const QString& t : traces) QVERIFY(t.endsWith(QLatin1String(".json.gz")));
        QVERIFY(open(traces));
        QCOMPARE(int(state()->documents().size()), 8);
        QCOMPARE(state()->documents().back()->rank.rank, 7);
    }
    // A folder's .json that is not a trace (the job's expected.json) is skipped and named; the
    // ranks open. A single file that is not a trace still fails the load.
    void folderSkipsFilesThatAreNotTraces() {
        const QStringList files = tracesInFolder(QStringLiteral(STACKLINE_DATA "/job"));
        QCOMPARE(files.size(), 5);
        QVERIFY(open(files));
        QCOMPARE(int(state()->documents().size()), 4);
        auto* box = window_->findChild<QMessageBox*>(QStringLiteral("skippedBox"));
        QVERIFY(box);
        QCOMPARE(box->text().count(QLatin1Char('\n')), 0);
        QVERIFY2(box->text().contains(QLatin1String("expected.json")), qPrintable(box->text()));
        QVERIFY(!window_->findChild<QMessageBox*>(QStringLiteral("errorBox")));

        QSignalSpy failed(window_.get(), &MainWindow::loadFailed);
        window_->openTraces({QStringLiteral(STACKLINE_DATA "/job/expected.json")});
        QVERIFY(failed.wait(30000));
        QCOMPARE(int(state()->documents().size()), 4);  // the ranks stay open
    }

private:
    // Shows the kernel in a 100 us window starting at its middle; its start on the axis.
    int64_t zoomTo(EventRef kernel) {
        timeline()->revealEvent(kernel);
        const int64_t start = timeline()->model(kernel.doc)->startOf(kernel.row);
        const int64_t axisStart = start + state()->offsetNs(kernel.doc);
        zoom()->setWindow(axisStart - 50'000, axisStart + 50'000);
        return axisStart;
    }
    bool open(const QStringList& files) {
        QSignalSpy loaded(window_.get(), &MainWindow::documentLoaded);
        window_->openTraces(files);
        return loaded.wait(120000) && window_->document();
    }
    ViewerState* state() const { return window_->state(); }
    TimelineView* timeline() const { return window_->timeline(); }
    ZoomControl* zoom() const { return state()->zoom(); }

    std::unique_ptr<MainWindow> window_;
};

QTEST_MAIN(TstMultiTrace)
#include "tst_multi_trace.moc"
