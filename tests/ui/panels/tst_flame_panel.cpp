// The Flame tab on the bundled example: the icicle holds the core's GPU-time tree (the whole
// trace, then the selected range), clicking a frame asks for its source line, and the CPU mode
// shows the selected slice's thread.
#include <QSignalSpy>
#include <QtTest>

#include "panels/flame_graph_view.h"
#include "panels/flame_panel.h"
#include "shell/main_window.h"
#include "state/viewer_state.h"
#include "viewer_test_support.h"

using namespace stackline;
using namespace ui_test;

class TstFlamePanel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { isolateSettings(); }

    void showsTheCoreTreeAndOpensSource() {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(openTrace(window, QStringLiteral(STACKLINE_EXAMPLE_DIR "/example.pt.trace.json")));
        QVERIFY(window.showTab(QStringLiteral("flame")));
        auto* panel = window.findChild<FlamePanel*>();
        QVERIFY(panel);
        FlameGraphView* view = panel->view();
        const ViewedTrace& doc = *window.document();
        const FlameGraph expected = gpuFlameGraph(*doc.trace, doc.provenance);
        QVERIFY(expected.root().valueNs > 0);
        QCOMPARE(view->totalNs(), expected.root().valueNs);
        QCOMPARE(double(view->totalNs()) / 1000.0, doc.hotspots.annotatedGpuUs);
        QCOMPARE(view->graph().nodes.size(), expected.nodes.size());

        // The outermost frame spans the whole width (one root frame) or a share of it.
        const uint32_t first = view->graph().root().children.front();
        const QRectF bar = view->barRect(first);
        QVERIFY(!bar.isEmpty());
        QSignalSpy asked(view, &FlameGraphView::sourceRequested);
        QSignalSpy shown(window.state(), &ViewerState::sourceRequested);
        QTest::mouseClick(view, Qt::LeftButton, {}, bar.center().toPoint());
        QCOMPARE(asked.size(), 1);
        QCOMPARE(asked.at(0).at(0).toString().toStdString(), view->graph().nodes[first].file);
        QCOMPARE(asked.at(0).at(1).toInt(), view->graph().nodes[first].line);
        QCOMPARE(shown.size(), 1);

        // A selected range: the clipped time of its kernels.
        const TimeRange range{
            doc.tracks.startNs(),
            doc.tracks.startNs() + (doc.tracks.endNs() - doc.tracks.startNs()) / 2};
        window.state()->setSelectedRange(RangeSelection{range, {}});
        KernelStacksOptions options;
        options.range = range;
        QCOMPARE(view->totalNs(),
                 gpuFlameGraph(*doc.trace, doc.provenance, options).root().valueNs);
        QVERIFY(view->totalNs() < expected.root().valueNs);
        window.state()->setSelectedRange(std::nullopt);
        QCOMPARE(view->totalNs(), expected.root().valueNs);

        // CPU mode: the thread of the selected slice.
        panel->setMode(FlamePanel::CpuThread);
        QCOMPARE(view->totalNs(), int64_t(0));
        const uint32_t region = rowNamed(doc, "Torch-Compiled Region: 0/0", "cpu_op");
        QVERIFY(region != kNoRow);
        window.state()->select(region);
        const Track& track = doc.tracks.tracks()[doc.tracks.trackOf(region)];
        QCOMPARE(view->totalNs(), cpuFlameGraph(doc.events(), track).root().valueNs);
        QVERIFY(view->totalNs() > 0);
    }
};

QTEST_MAIN(TstFlamePanel)
#include "tst_flame_panel.moc"
