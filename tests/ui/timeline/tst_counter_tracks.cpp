// Counter and memory tracks in the timeline offscreen: a row per series under its process, the
// header's min and max, the value under the cursor, and a graph painted in the row.
#include <QtTest>

#include "state/load_job.h"
#include "state/viewer_state.h"
#include "state/zoom_control.h"
#include "timeline/timeline_view.h"
#include "timeline/track_model.h"
#include "viewer_test_support.h"
#include "widgets/palette.h"

using namespace stackline;
using namespace ui_test;

namespace {

std::shared_ptr<ViewedTrace> load(const char* path) {
    BackgroundJob::Context context;
    return loadDocument({path, {}, nullptr}, context);
}

// The display row of the counter series with this name, or -1.
int counterRow(const TrackModel& model, std::string_view name) {
    for (size_t r = 0; r < model.rows().size(); ++r) {
        const TrackModel::Row& row = model.rows()[r];
        if (row.kind == TrackModel::RowKind::Counter && model.counter(row).name == name)
            return int(r);
    }
    return -1;
}

}  // namespace

class TstCounterTracks : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { isolateSettings(); }

    void counterSeriesAreGraphRows() {
        ViewerState state;
        TimelineView view(&state);
        view.resize(1200, 600);
        state.setDocument(load(STACKLINE_DATA "/counters/hta_counters.json"));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const TrackModel& model = *view.model();
        const int queue = counterRow(model, "Queue Length queue_length");
        const int bw = counterRow(model, "Memory BW memory_bw_gbps");
        QVERIFY(queue > 0 && bw > queue);
        const TrackModel::Row& row = model.rows()[size_t(queue)];
        QCOMPARE(model.counter(row).min, 0.0);
        QCOMPARE(model.counter(row).max, 2.0);
        // Under its process, after the process's tracks.
        QCOMPARE(model.rows()[0].kind, TrackModel::RowKind::ProcessHeader);
        QCOMPARE(model.rows()[size_t(queue) - 1].kind, TrackModel::RowKind::Instants);
        QVERIFY(model.counterTip(row, 96'000).endsWith(QStringLiteral("<br>2")));
        QVERIFY(model.counterTip(row, 89'000).endsWith(QStringLiteral("no value yet")));
        QVERIFY(model
                    .counterTip(model.rows()[size_t(counterRow(model, "GPU 0 memory allocated"))],
                                140'000)
                    .endsWith(QStringLiteral("5.0 KiB")));

        view.zoom()->reset();  // the trace's extent, 100 to 170 us
        const QImage image = view.viewport()->grab().toImage();
        const TimelineGeometry& g = view.geometry();
        const QRect plot(g.left, g.rowY(queue), g.right - g.left,
                         TimelineGeometry::rowHeight(TrackModel::RowKind::Counter));
        const int background = countColor(image, plot, uiColor(UiColor::RowOdd));
        // The queue holds 1 or 2 until 170 us: most of the window is graph.
        QVERIFY(plot.width() * plot.height() - background > plot.width() * plot.height() / 3);
    }

    // A pid with counters only has a process of its own with the graph; a global instant is a
    // line across every process, a process-scope one across its own process only.
    void countersOnlyProcessesAndScopedInstants() {
        ViewerState state;
        TimelineView view(&state);
        view.resize(1200, 600);
        state.setDocument(load(STACKLINE_DATA "/counters/hta_counters.json"));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const TrackModel& model = *view.model();
        const int cpu = counterRow(model, "CPU util percent");
        QVERIFY(cpu > 0);
        QCOMPARE(model.rows()[size_t(cpu) - 1].kind, TrackModel::RowKind::ProcessHeader);
        QCOMPARE(model.processLabel(model.rows()[size_t(cpu)].process),
                 QStringLiteral("node counters (pid 9)"));

        view.zoom()->reset();
        const QImage image = view.viewport()->grab().toImage();
        const TimelineGeometry& g = view.geometry();
        // Pixels of an instant's column in a counter row that differ from the column 3 px to
        // its right (both graphs below are flat there).
        auto instantPixels = [&](int row, int64_t ns) {
            const int x = int(std::floor(g.xOf(ns)));
            const int top = g.rowY(row);
            int n = 0;
            for (int y = top; y < top + TimelineGeometry::rowHeight(TrackModel::RowKind::Counter);
                 ++y)
                n += image.pixel(x, y) != image.pixel(x + 3, y);
            return n;
        };
        const int reserved = counterRow(model, "GPU 0 memory reserved");  // pid 0
        QVERIFY(instantPixels(cpu, 145'000) > 8);                         // "checkpoint", "s": "g"
        QVERIFY(instantPixels(reserved, 145'000) > 8);                    // ... everywhere
        QCOMPARE(instantPixels(cpu, 120'000), 0);       // "phase change", "s": "p" of pid 0
        QVERIFY(instantPixels(reserved, 120'000) > 8);  // ... across pid 0 only
    }

    // Kineto's [memory] events of a real trace: allocated and reserved per device.
    void memoryRowsOfARealTrace() {
        ViewerState state;
        TimelineView view(&state);
        view.resize(1200, 900);
        state.setDocument(
            load(STACKLINE_CORPUS_DIR "/h100_gaunernst_bert-small-uncased__1016001/trace.json.gz"));
        const TrackModel& model = *view.model();
        const int gpu = counterRow(model, "GPU 0 memory allocated");
        QVERIFY(gpu > 0);
        QVERIFY(counterRow(model, "GPU 0 memory reserved") > 0);
        QVERIFY(counterRow(model, "CPU memory allocated") > 0);
        const CounterSeries& s = model.counter(model.rows()[size_t(gpu)]);
        QCOMPARE(s.max, 101305344.0);
        QCOMPARE(TrackModel::counterValueText(s, s.max), QStringLiteral("96.6 MiB"));
    }
};

QTEST_MAIN(TstCounterTracks)
#include "tst_counter_tracks.moc"
