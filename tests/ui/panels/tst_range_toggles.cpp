// The Kernels and Hotspots tabs follow the selected range when "Range only" is ticked, and
// Hotspots counts eager kernels when "All kernels" is: the rows are then exactly the core's
// (computeHotspots with that range / eager flag, the kernels overlapping the range). On a trace
// without compiled kernels the Flame tab says to tick "All kernels" rather than just being empty.
#include <QCheckBox>
#include <QSignalSpy>
#include <QTabWidget>
#include <QtTest>
#include <set>

#include "panels/flame_graph_view.h"
#include "panels/flame_panel.h"
#include "panels/hotspots_panel.h"
#include "panels/kernels_panel.h"
#include "panels/range_toggle.h"
#include "shell/main_window.h"
#include "state/viewer_state.h"
#include "viewer_test_support.h"

using namespace stackline;
using namespace ui_test;

namespace {

const QString kExample = QStringLiteral(STACKLINE_EXAMPLE_DIR "/example.pt.trace.json");
const QString kEagerOnly = QStringLiteral(
    STACKLINE_CORPUS_DIR "/h100_gaunernst_bert-small-uncased__1016001/trace.json.gz");

// The first half of the trace.
TimeRange firstHalf(const ViewedTrace& doc) {
    return {doc.tracks.startNs(),
            doc.tracks.startNs() + (doc.tracks.endNs() - doc.tracks.startNs()) / 2};
}

// The panel's rows are the core's lines, in order, with the same figures and kernel events.
bool showsLines(HotspotsPanel* panel, const Hotspots& expected) {
    if (panel->count() != int(expected.lines.size())) {
        qWarning() << "rows" << panel->count() << "expected" << expected.lines.size();
        return false;
    }
    for (int r = 0; r < panel->count(); ++r) {
        const SourceLine& got = panel->model()->line(r);
        const SourceLine& want = expected.lines[size_t(r)];
        if (got.file != want.file || got.line != want.line || got.selfUs != want.selfUs ||
            got.totalUs != want.totalUs || got.launches != want.launches || got.rows != want.rows) {
            qWarning() << "row" << r << got.file.c_str() << got.line << "expected"
                       << want.file.c_str() << want.line;
            return false;
        }
    }
    return true;
}

// Waits for a recomputation the toggles started (if any) to be shown.
bool settled(HotspotsPanel* panel) {
    return QTest::qWaitFor([&] { return !panel->isComputing(); }, 60000);
}

// The title of a page's tab.
QString tabTitle(MainWindow& window, QWidget* page) {
    for (QTabWidget* tabs : window.findChildren<QTabWidget*>())
        if (tabs->indexOf(page) >= 0) return tabs->tabText(tabs->indexOf(page));
    return {};
}

// Every kernel event the Kernels tab lists.
std::set<uint32_t> listedKernels(KernelsPanel* panel) {
    std::set<uint32_t> rows;
    for (int r = 0; r < panel->count(); ++r)
        for (uint32_t e : panel->model()->entry(r).instances) rows.insert(e);
    return rows;
}

}  // namespace

class TstRangeToggles : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { isolateSettings(); }

    void hotspotsFollowTheRange() {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(openTrace(window, kExample));
        QVERIFY(window.showTab(QStringLiteral("hotspots")));
        HotspotsPanel* panel = window.panel<HotspotsPanel>();
        const ViewedTrace& doc = *window.document();
        QVERIFY(showsLines(panel, doc.hotspots));
        QVERIFY(!panel->rangeOnly()->isEnabled());  // no range yet

        const TimeRange half = firstHalf(doc);
        window.state()->setSelectedRange(RangeSelection{half, {}});
        QVERIFY(panel->rangeOnly()->isEnabled());
        QVERIFY(showsLines(panel, doc.hotspots));  // not ticked: the whole trace
        panel->rangeOnly()->setChecked(true);
        QVERIFY(settled(panel));
        const Hotspots inHalf = computeHotspots(*doc.trace, doc.provenance, {half, nullptr});
        QVERIFY(inHalf.annotatedGpuUs < doc.hotspots.annotatedGpuUs);
        QVERIFY(showsLines(panel, inHalf));
        QCOMPARE(panel->options().range, half);

        // Another range while the tab is hidden: recomputed when shown again.
        const TimeRange quarter{half.start, half.start + half.length() / 2};
        QVERIFY(window.showTab(QStringLiteral("kernels")));
        window.state()->setSelectedRange(RangeSelection{quarter, {}});
        QVERIFY(!panel->isComputing());
        QCOMPARE(panel->options().range, half);
        QVERIFY(window.showTab(QStringLiteral("hotspots")));
        QVERIFY(settled(panel));
        QVERIFY(showsLines(panel, computeHotspots(*doc.trace, doc.provenance, {quarter, nullptr})));

        // No range: the whole trace again, and the toggle waits for one.
        window.state()->setSelectedRange(std::nullopt);
        QVERIFY(settled(panel));
        QVERIFY(!panel->rangeOnly()->isEnabled());
        QVERIFY(showsLines(panel, doc.hotspots));
    }

    void hotspotsCountEagerKernelsWhenAsked() {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(openTrace(window, kEagerOnly));
        QVERIFY(window.showTab(QStringLiteral("hotspots")));
        HotspotsPanel* panel = window.panel<HotspotsPanel>();
        const ViewedTrace& doc = *window.document();
        QVERIFY(doc.eager.count() > 0);
        QCOMPARE(panel->count(), 0);  // no compiled kernels

        panel->allKernels()->setChecked(true);
        QVERIFY(settled(panel));
        const Hotspots all = computeHotspots(*doc.trace, doc.provenance, {{}, &doc.eager});
        QVERIFY(!all.lines.empty());
        QVERIFY(showsLines(panel, all));
        QCOMPARE(tabTitle(window, panel), QStringLiteral("Hotspots (%1)").arg(all.lines.size()));

        const TimeRange half = firstHalf(doc);
        window.state()->setSelectedRange(RangeSelection{half, {}});
        panel->rangeOnly()->setChecked(true);
        QVERIFY(settled(panel));
        QVERIFY(showsLines(panel, computeHotspots(*doc.trace, doc.provenance, {half, &doc.eager})));

        panel->allKernels()->setChecked(false);
        QVERIFY(settled(panel));
        QCOMPARE(panel->count(), 0);
    }

    void kernelsFollowTheRangeAndItsTracks() {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(openTrace(window, kExample));
        QVERIFY(window.showTab(QStringLiteral("kernels")));
        KernelsPanel* panel = window.panel<KernelsPanel>();
        const ViewedTrace& doc = *window.document();
        const EventTable& ev = doc.events();
        std::set<uint32_t> all;
        for (uint32_t r = 0; r < ev.size(); ++r)
            if (ev.phase[r] == 'X' && doc.isKernel(r)) all.insert(r);
        QCOMPARE(listedKernels(panel), all);

        const TimeRange half = firstHalf(doc);
        window.state()->setSelectedRange(RangeSelection{half, {}});
        QCOMPARE(listedKernels(panel), all);  // not ticked
        panel->rangeOnly()->setChecked(true);
        std::set<uint32_t> inHalf;
        for (uint32_t r : all)
            if (half.overlaps(ev.tsNs(r), ev.durNs(r))) inHalf.insert(r);
        QVERIFY(!inHalf.empty() && inHalf.size() < all.size());
        QCOMPARE(listedKernels(panel), inHalf);
        // The total is the time inside the range.
        int64_t clipped = 0, listed = 0;
        for (uint32_t r : inHalf) clipped += half.clip(ev.tsNs(r), ev.durNs(r));
        for (int r = 0; r < panel->count(); ++r) listed += panel->model()->entry(r).total;
        QCOMPARE(listed, clipped);

        // A range naming a track: its kernels only.
        const uint32_t track = doc.tracks.trackOf(*inHalf.begin());
        window.state()->setSelectedRange(RangeSelection{half, {track}});
        std::set<uint32_t> onTrack;
        for (uint32_t r : inHalf)
            if (doc.tracks.trackOf(r) == track) onTrack.insert(r);
        QCOMPARE(listedKernels(panel), onTrack);

        panel->rangeOnly()->setChecked(false);
        QCOMPARE(listedKernels(panel), all);
    }

    void flameSaysToTickAllKernelsOnAnEagerTrace() {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(openTrace(window, kEagerOnly));
        QVERIFY(window.showTab(QStringLiteral("flame")));
        auto* panel = window.findChild<FlamePanel*>();
        QVERIFY(panel);
        QCOMPARE(panel->view()->totalNs(), int64_t(0));
        QVERIFY2(panel->view()->emptyText().contains(QStringLiteral("All kernels")),
                 qPrintable(panel->view()->emptyText()));
        panel->setAllKernels(true);
        QVERIFY(panel->view()->totalNs() > 0);
        QVERIFY(panel->view()->emptyText().isEmpty());
    }

    // No compiled kernel and no python_function slice: the empty graph says how to get stacks.
    void flameSaysWhereStacksComeFrom() {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(openTrace(
            window, QStringLiteral(STACKLINE_CORPUS_DIR "/worker0_step_12.1694128201545.pt.trace/"
                                                        "trace.json.gz")));
        QVERIFY(window.showTab(QStringLiteral("flame")));
        auto* panel = window.findChild<FlamePanel*>();
        QVERIFY(panel);
        QCOMPARE(panel->view()->totalNs(), int64_t(0));
        QVERIFY2(panel->view()->emptyText().contains(QStringLiteral("with_stack=True")),
                 qPrintable(panel->view()->emptyText()));
        panel->setAllKernels(true);  // nothing to add
        QCOMPARE(panel->view()->totalNs(), int64_t(0));
        QVERIFY(panel->view()->emptyText().contains(QStringLiteral("with_stack=True")));
    }
};

QTEST_MAIN(TstRangeToggles)
#include "tst_range_toggles.moc"
