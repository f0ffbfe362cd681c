// The timeline view offscreen: hit testing at several zoom levels, the unresolved-kernel highlight
// in rendered pixels, level of detail that never leaves a covered pixel column empty, and the
// zoom control's arithmetic.
#include <QSignalSpy>
#include <QtTest>

#include "annotate/diagnostic.h"
#include "state/load_job.h"
#include "state/viewer_state.h"
#include "state/zoom_control.h"
#include "synthetic_trace.h"
#include "timeline/timeline_view.h"
#include "timeline/track_model.h"
#include "viewer_test_support.h"

using namespace stackline;
using namespace ui_test;

class TstTimeline : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        isolateSettings();
        QSettings().remove(QStringLiteral("trackLayouts"));
        BackgroundJob::Context context;
        doc_ = loadDocument({STACKLINE_TEST_DATA "/compiled_step.pt.trace.json", {}, nullptr},
                            context);
        const EventTable& ev = doc_->events();
        annotated_ = rowNamed(ev, "triton_poi_fused_gelu_0", "kernel");
        unresolved_ = rowNamed(ev, "triton_red_fused_sum_1", "kernel");
        QCOMPARE(doc_->status(annotated_), KernelStatus::Annotated);
        QCOMPARE(doc_->status(unresolved_), KernelStatus::Unresolved);
        view_ = std::make_unique<TimelineView>(&state_);
        view_->resize(1200, 600);
        state_.setDocument(doc_);
        QVERIFY(view_->model());
        view_->show();
        QVERIFY(QTest::qWaitForWindowExposed(view_.get()));
    }

    void hitTesting_data() {
        QTest::addColumn<int64_t>("window");
        QTest::newRow("whole trace") << int64_t(0);
        QTest::newRow("300 us") << int64_t(300'000);
        QTest::newRow("40 us") << int64_t(40'000);
        QTest::newRow("2 us") << int64_t(2'000);
    }

    void hitTesting() {
        QFETCH(int64_t, window);
        const EventTable& ev = doc_->events();
        const int64_t centre = ev.tsNs(annotated_);
        if (window == 0)
            zoom().reset();
        else
            zoom().setWindow(centre - window / 2, centre + window / 2);
        const TimelineGeometry& g = view_->geometry();
        int checked = 0;
        for (uint32_t row = 0; row < ev.size(); ++row) {
            const QRect r = view_->eventRect(row);
            if (r.isEmpty() || r.center().x() < g.left || r.center().x() >= g.right) continue;
            if (r.center().y() < TimelineGeometry::kRulerHeight) continue;
            const uint32_t hit = view_->eventAt(r.center());
            if (r.width() >= 3) {
                QCOMPARE(hit, row);
            } else {
                // Sub-pixel slices share a column with neighbours: the hit is on the same row.
                QVERIFY(hit != kNoRow);
                QCOMPARE(doc_->tracks.trackOf(hit), doc_->tracks.trackOf(row));
                QCOMPARE(doc_->tracks.levelOf(hit), doc_->tracks.levelOf(row));
            }
            ++checked;
        }
        QVERIFY(checked > 0);
        // Gutter, ruler and the space between rows hit nothing.
        QCOMPARE(view_->eventAt(QPoint(10, 100)), kNoRow);
        QCOMPARE(view_->eventAt(QPoint(600, 5)), kNoRow);
        QCOMPARE(view_->eventAt(QPoint(600, g.contentHeight + 40)), kNoRow);
    }

    void clickSelects() {
        zoom().reset();
        QSignalSpy spy(&state_, &ViewerState::selectionChanged);
        const QRect r = view_->eventRect(annotated_);
        QTest::mouseClick(view_->viewport(), Qt::LeftButton, Qt::NoModifier, r.center());
        QCOMPARE(state_.selectedRow(doc_.get()), annotated_);
        QCOMPARE(spy.count(), 1);
        QTest::mouseClick(view_->viewport(), Qt::LeftButton, Qt::NoModifier, QPoint(700, 590));
        QCOMPARE(state_.selectedRow(doc_.get()), kNoRow);
    }

    void processHeadersCollapse() {
        zoom().reset();
        TrackModel* model = view_->model();
        const size_t rows = model->rows().size();
        const uint32_t compiled = rowNamed(doc_->events(), "CompiledFunction", "cpu_op");
        const uint32_t cpu = uint32_t(model->processOf(compiled));
        const int header = view_->geometry().rowY(headerRow(*model, cpu)) + 5;
        QTest::mouseClick(view_->viewport(), Qt::LeftButton, Qt::NoModifier, QPoint(400, header));
        QVERIFY(model->isCollapsed(cpu));
        QVERIFY(model->rows().size() < rows);
        QCOMPARE(view_->eventRect(compiled).isEmpty(), true);
        QCOMPARE(view_->eventRect(annotated_).isEmpty(), false);  // GPU rows still there
        // Revealing an event inside a collapsed process expands it.
        view_->revealEvent(compiled);
        QVERIFY(!model->isCollapsed(cpu));
        QCOMPARE(model->rows().size(), rows);
    }

    void unresolvedKernelIsPaintedInItsHighlight() {
        const EventTable& ev = doc_->events();
        zoom().setWindow(ev.tsNs(annotated_) - 20'000, ev.tsNs(unresolved_) + 60'000);
        state_.select(kNoRow);
        const QImage image = view_->viewport()->grab().toImage();
        const QColor hot = sliceColor(SliceStyle::KernelUnresolved);
        const QRect bad = view_->eventRect(unresolved_), good = view_->eventRect(annotated_);
        QVERIFY(bad.width() > 20);
        // Fill and hatch: most of the rect is the highlight colour, the rest the hatch.
        QVERIFY(countColor(image, bad, hot) > bad.width() * bad.height() / 2);
        QVERIFY(countColor(image, bad, unresolvedOutline()) > 0);
        QCOMPARE(countColor(image, good, hot), 0);
        QVERIFY(countColor(image, good, sliceColor(SliceStyle::KernelAnnotated)) >
                good.width() * good.height() / 2);
        // Nothing but unresolved kernels uses the highlight colour.
        QCOMPARE(countColor(image, image.rect(), hot), countColor(image, bad, hot));
    }

    void unresolvedKernelsSurviveLevelOfDetail() {
        // 30k events zoomed out: kernels are far below a pixel, yet each unresolved one shows.
        auto doc = syntheticDocument(30'000);
        ViewerState state;
        TimelineView view(&state);
        view.resize(1000, 400);
        state.setDocument(doc);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QImage image(view.viewport()->size(), QImage::Format_RGB32);
        QPainter p(&image);
        view.renderTracks(p, image.size());
        p.end();
        const QColor hot = sliceColor(SliceStyle::KernelUnresolved);
        int unresolved = 0;
        for (uint32_t row = 0; row < doc->events().size(); ++row) {
            if (doc->status(row) != KernelStatus::Unresolved) continue;
            const QRect r = view.eventRect(row);
            if (r.bottom() >= image.height()) continue;
            ++unresolved;
            QVERIFY2(countColor(image, r, hot) > 0, qPrintable(QString::number(row)));
        }
        QVERIFY(unresolved > 100);
    }

    void levelOfDetailFillsEveryCoveredColumn() {
        auto doc = syntheticDocument(60'000, 7);
        ViewerState state;
        ZoomControl& zoom = *state.zoom();
        TimelineView view(&state);
        view.resize(1000, 400);
        state.setDocument(doc);
        const TrackModel* model = view.model();
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QSize size = view.viewport()->size();
        const int64_t full = zoom.windowDuration();
        for (int64_t window : {full, full / 7, full / 60}) {
            zoom.setWindow(zoom.traceStart() + window / 3, zoom.traceStart() + window / 3 + window);
            QImage image(size, QImage::Format_RGB32);
            QPainter p(&image);
            view.renderTracks(p, image.size());
            p.end();
            const TimelineGeometry& g = view.geometry();
            for (size_t r = 0; r < model->rows().size(); ++r) {
                const TrackModel::Row& row = model->rows()[r];
                if (row.kind != TrackModel::RowKind::Slices || g.rowY(int(r)) + 10 > size.height())
                    continue;
                const TrackLevel& lv = model->level(row);
                const QColor background = image.pixelColor(g.left + 1, g.rowY(int(r)));
                std::vector<uint8_t> expected(size_t(size.width()), 0);
                for (size_t i = 0; i < lv.size(); ++i) {
                    if (lv.end[i] < g.t0 || lv.start[i] > g.t1) continue;
                    auto [a, b] = g.columns(lv.start[i], lv.end[i]);
                    // The column a slice starts in is always painted (a 1-px gap may follow).
                    if (a >= g.left && a < size.width()) expected[size_t(a)] = 1;
                }
                const int y = g.rowY(int(r)) + TimelineGeometry::kSliceHeight / 2;
                for (int x = g.left; x < size.width(); ++x)
                    if (expected[size_t(x)])
                        QVERIFY2(image.pixelColor(x, y) != background,
                                 qPrintable(QStringLiteral("row %1 x %2").arg(r).arg(x)));
            }
        }
    }

    void zoomControlKeepsTheAnchor() {
        ZoomControl z;
        z.setTraceRange(1'000'000, 2'000'000);
        const int64_t before = z.windowStart();
        z.zoomAt(1'500'000, 0.5);
        QVERIFY(z.windowStart() > before);
        QVERIFY(std::abs((z.windowStart() + z.windowEnd()) / 2 - 1'500'000) < 2);
        for (int i = 0; i < 200; ++i) z.zoomAt(1'500'000, 0.5);
        QCOMPARE(z.windowDuration(), ZoomControl::kMinWindowNs);
        QVERIFY(z.windowStart() <= 1'500'000 && z.windowEnd() >= 1'500'000);
        z.panBy(-10'000'000);
        QCOMPARE(z.windowStart(), z.traceStart() - (z.traceEnd() - z.traceStart()) / 50 - 1);
        z.reset();
        QVERIFY(z.windowStart() < z.traceStart() && z.windowEnd() > z.traceEnd());
    }

private:
    ZoomControl& zoom() { return *state_.zoom(); }

    static int headerRow(const TrackModel& model, uint32_t process) {
        for (size_t r = 0; r < model.rows().size(); ++r)
            if (model.rows()[r].kind == TrackModel::RowKind::ProcessHeader &&
                model.rows()[r].process == process)
                return int(r);
        return -1;
    }

    std::shared_ptr<ViewedTrace> doc_;
    ViewerState state_;
    std::unique_ptr<TimelineView> view_;
    uint32_t annotated_ = 0, unresolved_ = 0;
};

QTEST_MAIN(TstTimeline)
#include "tst_timeline.moc"
