// Navigation in the main window offscreen: the mouse's back and forward buttons step through the
// selection history, M drops markers (at the selected slice's start) whose gaps the ruler shows,
// Shift+M clears them, double-clicking a ProfilerStep selects its time range, "Show All Flows
// in View" draws arrows without a selection, and other writers' flows are said to be flows.
#include <QAction>
#include <QtTest>

#include "panels/details_panel.h"
#include "shell/main_window.h"
#include "state/viewer_state.h"
#include "state/zoom_control.h"
#include "timeline/marker_ruler.h"
#include "timeline/timeline_view.h"
#include "viewer_test_support.h"
#include "widgets/palette.h"
#include "widgets/time_text.h"

using namespace stackline;
using namespace ui_test;
using G = TimelineGeometry;

class TstNavigation : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { isolateSettings(); }

    void init() {
        window_ = std::make_unique<MainWindow>();
        window_->resize(1400, 900);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
        QVERIFY(openTrace(*window_,
                          QStringLiteral(STACKLINE_TEST_DATA "/compiled_step.pt.trace.json")));
    }

    void cleanup() { window_.reset(); }

    void mouseButtonsGoBackAndForward() {
        const ViewedTrace& doc = *window_->document();
        const uint32_t a = rowNamed(doc, "triton_poi_fused_gelu_0", "kernel");
        const uint32_t b = rowNamed(doc, "triton_red_fused_sum_1", "kernel");
        QVERIFY(a != kNoRow && b != kNoRow);
        state()->select(a);
        state()->select(b);
        QTest::mouseClick(window_->timeline()->viewport(), Qt::BackButton);
        QCOMPARE(selected(), a);
        // Anywhere in the window, not only over the timeline.
        QTest::mouseClick(window_->details(), Qt::ForwardButton);
        QCOMPARE(selected(), b);
    }

    void markersAtTheSelectionAndTheirGapOnTheRuler() {
        const ViewedTrace& doc = *window_->document();
        const uint32_t a = rowNamed(doc, "triton_poi_fused_gelu_0", "kernel");
        const uint32_t b = rowNamed(doc, "triton_red_fused_sum_1", "kernel");
        TimelineView* timeline = window_->timeline();
        timeline->setFocus();
        state()->select(a);
        QTest::keyClick(timeline, Qt::Key_M);
        state()->select(b);
        QTest::keyClick(timeline, Qt::Key_M);
        const int64_t ta = doc.events().tsNs(a), tb = doc.events().tsNs(b);
        QCOMPARE(state()->markers(), (std::vector<int64_t>{std::min(ta, tb), std::max(ta, tb)}));
        const auto gaps = markerGaps(state()->markers());
        QCOMPARE(gaps.size(), size_t(1));
        QCOMPARE(gaps[0].label, formatDuration(std::abs(tb - ta)));

        // Both flags and the gap's line are painted in the ruler.
        timeline->zoom()->setWindow(std::min(ta, tb) - 1000, std::max(ta, tb) + 1000);
        const QImage shot = timeline->viewport()->grab().toImage();
        const int xa = int(timeline->geometry().xOf(std::min(ta, tb)));
        const int xb = int(timeline->geometry().xOf(std::max(ta, tb)));
        const QColor marker = uiColor(UiColor::Marker);
        QVERIFY(countColor(shot, QRect(xa, 0, 8, G::kRulerHeight), marker) > 10);
        QVERIFY(countColor(shot, QRect(xb, 0, 8, G::kRulerHeight), marker) > 10);
        QVERIFY(countColor(shot, QRect(xa + 12, 0, xb - xa - 24, G::kRulerHeight), marker) > 0);

        QTest::keyClick(timeline, Qt::Key_M, Qt::ShiftModifier);
        QVERIFY(state()->markers().empty());
    }

    void markerWithoutSelectionAtTheCursor() {
        TimelineView* timeline = window_->timeline();
        state()->select(kNoRow);
        timeline->setFocus();
        // The cursor is not over the timeline offscreen: the window's centre.
        const ZoomControl* zoom = timeline->zoom();
        QTest::keyClick(timeline, Qt::Key_M);
        QCOMPARE(state()->markers().size(), size_t(1));
        QVERIFY(std::abs(state()->markers()[0] -
                         (zoom->windowStart() + zoom->windowDuration() / 2)) <= 1);
    }

    void doubleClickOnProfilerStepSelectsItsRange() {
        const ViewedTrace& doc = *window_->document();
        const uint32_t step = rowNamed(doc, "ProfilerStep#3", "user_annotation");
        QVERIFY(step != kNoRow);
        state()->focus(step);
        TimelineView* timeline = window_->timeline();
        const QRect r = timeline->eventRect(step);
        QVERIFY(!r.isEmpty());
        const int64_t window = timeline->zoom()->windowDuration();
        QTest::mouseDClick(timeline->viewport(), Qt::LeftButton, Qt::NoModifier, r.center());
        QVERIFY(state()->selectedRange());
        const int64_t ts = doc.events().tsNs(step);
        QCOMPARE(state()->selectedRange()->range, (TimeRange{ts, ts + doc.events().durNs(step)}));
        QVERIFY(state()->selectedRange()->tracks.empty());
        QCOMPARE(timeline->zoom()->windowDuration(), window);  // not zoomed like other slices

        // Any other slice keeps zooming to itself, without a range.
        const uint32_t kernel = rowNamed(doc, "triton_poi_fused_gelu_0", "kernel");
        state()->focus(kernel);
        // A user's double-click starts with a click, which clears the range.
        QTest::mouseClick(timeline->viewport(), Qt::LeftButton, Qt::NoModifier,
                          timeline->eventRect(kernel).center());
        QTest::mouseDClick(timeline->viewport(), Qt::LeftButton, Qt::NoModifier,
                           timeline->eventRect(kernel).center());
        QVERIFY(!state()->selectedRange());
        QCOMPARE(selected(), kernel);
    }

    void showAllFlowsDrawsArrowsWithoutSelection() {
        TimelineView* timeline = window_->timeline();
        state()->select(kNoRow);
        timeline->resetZoom();
        const QColor launch = uiColor(UiColor::LaunchFlow);
        const QRect plot(G::kGutterWidth, G::kRulerHeight, timeline->viewport()->width(),
                         timeline->viewport()->height());
        const int before = countColor(timeline->viewport()->grab().toImage(), plot, launch);
        QAction* toggle = nullptr;
        for (QAction* a : window_->findChildren<QAction*>())
            if (a->text() == QStringLiteral("Show All &Flows in View")) toggle = a;
        QVERIFY(toggle && toggle->isCheckable());
        toggle->trigger();
        QVERIFY(toggle->isChecked());
        const int after = countColor(timeline->viewport()->grab().toImage(), plot, launch);
        QVERIFY2(after > before + 20, qPrintable(QStringLiteral("%1 → %2").arg(before).arg(after)));
        toggle->trigger();
        QCOMPARE(countColor(timeline->viewport()->grab().toImage(), plot, launch), before);
    }

    // Another writer's flows (tests/data/generic_flows.pftrace: generic TrackEvent slices, each
    // "produce i" on one thread carrying flow_ids [100 + i], each "consume i" on another the
    // terminating_flow_ids [100 + i]) are said to be flows, not launches or forward/backward.
    void genericFlowsAreFlowsInTheDetails() {
        QVERIFY(openTrace(*window_, QStringLiteral(STACKLINE_TEST_DATA "/generic_flows.pftrace")));
        const ViewedTrace& doc = *window_->document();
        state()->select(rowNamed(doc, "consume 2", ""));
        QString links = window_->details()->linksText();
        QVERIFY2(links.contains(QStringLiteral("Flow from")) &&
                     links.contains(QStringLiteral("produce 2")) && !links.contains("Forward"),
                 qPrintable(links));
        state()->select(rowNamed(doc, "produce 2", ""));
        links = window_->details()->linksText();
        QVERIFY2(links.contains(QStringLiteral("Flow to")) &&
                     links.contains(QStringLiteral("consume 2")),
                 qPrintable(links));
    }

private:
    ViewerState* state() const { return window_->state(); }
    uint32_t selected() const { return state()->selectedRow(window_->document()); }

    std::unique_ptr<MainWindow> window_;
};

QTEST_MAIN(TstNavigation)
#include "tst_navigation.moc"
