// The viewer's state in one place: one selection, made through the ViewerState, by a
// click in the timeline or on a panel row, reaches the timeline and every panel (details show the
// kernel's stack, the Kernels / Unresolved / Diagnostics / Hotspots rows follow, the Source pane
// shows the launching line); the selection history goes back and forward; a highlight reaches the
// timeline's pixels; loading other documents clears what belonged to the old ones; the status
// bar's counts are the core summary's, as `stackline-cli summary` prints them.
#include <QJsonDocument>
#include <QJsonObject>
#include <QListWidget>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTableView>
#include <QtTest>

#include "panels/details_panel.h"
#include "panels/diagnostics_panel.h"
#include "panels/hotspots_panel.h"
#include "panels/kernels_panel.h"
#include "panels/source_view.h"
#include "panels/unresolved_panel.h"
#include "shell/main_window.h"
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

class TstViewerState : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { isolateSettings(); }

    void init() {
        window_ = std::make_unique<MainWindow>();
        window_->resize(1500, 950);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
        QSignalSpy loaded(window_.get(), &MainWindow::documentLoaded);
        window_->openTrace(kTrace);
        QVERIFY(loaded.wait(20000));
        doc_ = window_->document();
        QVERIFY(doc_);
        gelu_ = rowNamed(*doc_, "triton_poi_fused_gelu_0", "kernel");
        unresolved_ = rowNamed(*doc_, "triton_red_fused_sum_1", "kernel");
        QVERIFY(gelu_ != kNoRow && unresolved_ != kNoRow);
    }

    void cleanup() { window_.reset(); }

    void selectionThroughTheStateReachesEveryView() {
        ViewerState* state = window_->state();
        QSignalSpy changed(state, &ViewerState::selectionChanged);
        state->select(gelu_, true);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(state->selected().doc, doc_);
        QCOMPARE(state->selected().row, gelu_);
        expectAnnotatedKernelShown();

        // An unresolved kernel: the Unresolved row follows, the Kernels row moves, the details
        // say why there is no stack.
        state->select(unresolved_, true);
        expectSelectionOnTimeline(unresolved_);
        QCOMPARE(window_->details()->shownEvent(), unresolved_);
        QVERIFY(window_->details()->frames().isEmpty());
        QVERIFY(window_->details()->statusLabelText().contains(QStringLiteral("unresolved")));
        const int u = window_->panel<UnresolvedPanel>()->markedSourceRow();
        QVERIFY(u >= 0);
        QCOMPARE(
            static_cast<UnresolvedModel*>(window_->panel<UnresolvedPanel>()->proxy()->sourceModel())
                ->eventAt(u),
            unresolved_);
        const int k = window_->panel<KernelsPanel>()->markedSourceRow();
        QVERIFY(k >= 0);
        QCOMPARE(window_->panel<KernelsPanel>()->model()->entry(k).name,
                 QStringLiteral("triton_red_fused_sum_1"));
        // The Diagnostics row about it, when the processor reported one.
        int diagnostic = -1;
        const auto& diags = doc_->provenance.diagnostics;
        for (size_t i = 0; i < diags.size() && diagnostic < 0; ++i)
            if (diags[i].row == unresolved_) diagnostic = int(i);
        QCOMPARE(window_->panel<DiagnosticsPanel>()->markedDiagnostic(), diagnostic);

        // Clearing the selection clears the marks.
        state->select(kNoRow);
        QCOMPARE(window_->details()->shownEvent(), kNoRow);
        QCOMPARE(window_->panel<KernelsPanel>()->markedSourceRow(), -1);
        QCOMPARE(window_->panel<UnresolvedPanel>()->markedSourceRow(), -1);
    }

    void clickInTheTimelineReachesEveryPanel() {
        TimelineView* timeline = window_->timeline();
        window_->state()->zoom()->setWindow(doc_->events().tsNs(gelu_) - 20'000,
                                            doc_->events().tsNs(gelu_) + 40'000);
        timeline->revealEvent(gelu_);
        const QRect r = timeline->eventRect(gelu_);
        QVERIFY(timeline->viewport()->rect().contains(r.center()));
        QTest::mouseClick(timeline->viewport(), Qt::LeftButton, Qt::NoModifier, r.center());
        QCOMPARE(window_->state()->selectedRow(doc_), gelu_);
        expectAnnotatedKernelShown();
    }

    void clickOnAPanelRowReachesTheTimeline() {
        window_->showTab(QStringLiteral("unresolved"));
        QTableView* view = window_->panel<UnresolvedPanel>()->view();
        QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::NoModifier,
                          view->visualRect(view->model()->index(0, 0)).center());
        QCOMPARE(window_->state()->selectedRow(doc_), unresolved_);
        expectSelectionOnTimeline(unresolved_);
        QCOMPARE(window_->details()->shownEvent(), unresolved_);
        QCOMPARE(window_->panel<KernelsPanel>()
                     ->model()
                     ->entry(window_->panel<KernelsPanel>()->markedSourceRow())
                     .name,
                 QStringLiteral("triton_red_fused_sum_1"));
    }

    void historyGoesBackAndForward() {
        ViewerState* state = window_->state();
        const uint32_t launch = doc_->launchOf(gelu_);
        QVERIFY(launch != UINT32_MAX);
        QVERIFY(!state->canGoBack());
        state->select(gelu_);
        state->select(launch);
        state->select(unresolved_);
        QVERIFY(state->canGoBack());
        QVERIFY(!state->canGoForward());

        QSignalSpy revealed(state, &ViewerState::revealRequested);
        state->back();
        QCOMPARE(state->selectedRow(doc_), launch);
        QCOMPARE(window_->details()->shownEvent(), launch);
        QCOMPARE(revealed.count(), 1);
        state->back();
        QCOMPARE(state->selectedRow(doc_), gelu_);
        QVERIFY(!state->canGoBack());
        state->back();  // nothing further back
        QCOMPARE(state->selectedRow(doc_), gelu_);
        state->forward();
        QCOMPARE(state->selectedRow(doc_), launch);
        QVERIFY(state->canGoForward());

        // A new selection drops what was ahead.
        state->select(unresolved_);
        QVERIFY(!state->canGoForward());
        // Clearing is not a step: back returns to the last selection, then further.
        state->select(kNoRow);
        state->back();
        QCOMPARE(state->selectedRow(doc_), unresolved_);
        state->back();
        QCOMPARE(state->selectedRow(doc_), launch);

        // The Go menu's Back and Forward are the state's.
        window_->timeline()->setFocus();
        QTest::keyClick(window_->timeline(), Qt::Key_Right, Qt::AltModifier);
        QCOMPARE(state->selectedRow(doc_), unresolved_);
        QTest::keyClick(window_->timeline(), Qt::Key_Left, Qt::AltModifier);
        QCOMPARE(state->selectedRow(doc_), launch);
    }

    void highlightReachesTheTimeline() {
        ViewerState* state = window_->state();
        TimelineView* timeline = window_->timeline();
        state->zoom()->setWindow(doc_->events().tsNs(gelu_) - 20'000,
                                 doc_->events().tsNs(gelu_) + 40'000);
        timeline->revealEvent(gelu_);
        const QRect r = timeline->eventRect(gelu_).adjusted(-3, -3, 3, 3);
        const QColor outline = uiColor(UiColor::HighlightOutline);
        QCOMPARE(countColor(timeline->viewport()->grab().toImage(), r, outline), 0);

        QSignalSpy changed(state, &ViewerState::highlightChanged);
        state->setHighlighted({gelu_});
        state->setHighlighted({gelu_});  // the same again is no change
        QCOMPARE(changed.count(), 1);
        QTest::qWait(20);
        QVERIFY(countColor(timeline->viewport()->grab().toImage(), r, outline) > 4);
        // Selecting does not touch the highlight.
        state->select(unresolved_);
        QCOMPARE(state->highlighted(), std::vector<uint32_t>{gelu_});

        // A hotspot line's kernels are highlighted through the state.
        window_->panel<HotspotsPanel>()->selectVisualRow(0);
        const int line = window_->panel<HotspotsPanel>()->selectedLine();
        QVERIFY(line >= 0);
        QCOMPARE(state->highlighted(), window_->panel<HotspotsPanel>()->model()->line(line).rows);
        window_->panel<HotspotsPanel>()->selectVisualRow(-1);
        QVERIFY(state->highlighted().empty());
    }

    void otherDocumentsClearWhatBelongedToTheOld() {
        ViewerState* state = window_->state();
        state->select(gelu_);
        state->setHighlighted({gelu_});
        // Two runs in one window: the first is the current one, the panels show it.
        auto other = std::make_shared<ViewedTrace>(*doc_);
        const auto first = state->current();
        QSignalSpy documents(state, &ViewerState::documentsChanged);
        state->setDocuments({first, other});
        QCOMPARE(documents.count(), 1);
        QCOMPARE(state->documents().size(), size_t(2));
        QCOMPARE(state->current(), first);
        QVERIFY(!state->selected().isValid());
        QVERIFY(state->highlighted().empty());
        QVERIFY(!state->canGoBack());
        // A selection in the second document is not one of the first's; it makes the second the
        // current one, which the panels show.
        state->select(EventRef{other.get(), gelu_});
        QCOMPARE(state->selected().doc, other.get());
        QCOMPARE(state->selectedRow(first.get()), kNoRow);
        QCOMPARE(state->current(), other);
        QCOMPARE(window_->details()->shownEvent(), gelu_);
        // An event of a document that is not loaded selects nothing.
        ViewedTrace stray;
        state->select(EventRef{&stray, 0});
        QVERIFY(!state->selected().isValid());
    }

    void statusBarCountsAreTheSummary() {
        const Summary s = summarize(*doc_->trace, doc_->provenance);
        QCOMPARE(doc_->summary.events, s.events);
        QCOMPARE(doc_->summary.kernels, s.kernels);
        QCOMPARE(doc_->summary.annotatedKernels, s.annotatedKernels);
        QCOMPARE(doc_->summary.unresolvedKernels, s.unresolvedKernels);
        const QString expected = QStringLiteral(
                                     "%1 events · %2 kernels · %3 annotated · %4 "
                                     "unresolved")
                                     .arg(s.events)
                                     .arg(s.kernels)
                                     .arg(s.annotatedKernels)
                                     .arg(s.unresolvedKernels);
        QCOMPARE(window_->countsLabel()->text(), expected);

        // The same figures as `stackline-cli summary --json`.
        QByteArray out;
        QVERIFY(runCli({QStringLiteral("summary"), kTrace, QStringLiteral("--json")}, &out));
        const QJsonObject json = QJsonDocument::fromJson(out).object();
        QCOMPARE(json.value(QStringLiteral("events")).toInteger(), qint64(s.events));
        QCOMPARE(json.value(QStringLiteral("kernels")).toInteger(), qint64(s.kernels));
        QCOMPARE(json.value(QStringLiteral("annotated_kernels")).toInteger(),
                 qint64(s.annotatedKernels));
        QCOMPARE(json.value(QStringLiteral("unresolved_kernels")).toInteger(),
                 qint64(s.unresolvedKernels));
        QVERIFY(s.kernels > 0 && s.annotatedKernels > 0 && s.unresolvedKernels > 0);
    }

private:
    // The selected event is outlined on the timeline, in view.
    void expectSelectionOnTimeline(uint32_t row) {
        TimelineView* timeline = window_->timeline();
        const QRect r = timeline->eventRect(row);
        QVERIFY(!r.isEmpty());
        QVERIFY(timeline->viewport()->rect().contains(r.center()));
        QTest::qWait(20);
        const QImage image = timeline->viewport()->grab().toImage();
        QVERIFY(countColor(image, r.adjusted(-3, -3, 3, 3), selectionColor()) > 4);
    }

    // The annotated GELU kernel is selected: every view shows it.
    void expectAnnotatedKernelShown() {
        expectSelectionOnTimeline(gelu_);
        DetailsPanel* d = window_->details();
        QCOMPARE(d->shownEvent(), gelu_);
        QCOMPARE(d->frames().size(), 2);
        QCOMPARE(d->frames()[1].file, QStringLiteral("/home/user/model.py"));
        QCOMPARE(d->frames()[1].line, 81);
        const int k = window_->panel<KernelsPanel>()->markedSourceRow();
        QVERIFY(k >= 0);
        QCOMPARE(window_->panel<KernelsPanel>()->model()->entry(k).name,
                 QStringLiteral("triton_poi_fused_gelu_0"));
        QCOMPARE(window_->panel<UnresolvedPanel>()->markedSourceRow(), -1);
        // The hotspot line that launched it is marked and listed.
        HotspotsPanel* h = window_->panel<HotspotsPanel>();
        const int line = h->selectedLine();
        QVERIFY(line >= 0);
        QCOMPARE(h->table()->markedSourceRow(), line);
        QCOMPARE(QString::fromStdString(h->model()->line(line).file),
                 QStringLiteral("/home/user/model.py"));
        QCOMPARE(h->model()->line(line).line, 81);
        QVERIFY(h->kernelList()->count() > 0);
        QVERIFY(h->kernelList()->item(0)->text().contains(QStringLiteral("gelu")));
        // The Source pane shows the innermost frame.
        QCOMPARE(window_->panel<SourceView>()->recordedFile(),
                 QStringLiteral("/home/user/model.py"));
        QCOMPARE(window_->panel<SourceView>()->line(), 81);
    }

    std::unique_ptr<MainWindow> window_;
    const ViewedTrace* doc_ = nullptr;
    uint32_t gelu_ = kNoRow, unresolved_ = kNoRow;
};

QTEST_MAIN(TstViewerState)
#include "tst_viewer_state.moc"
