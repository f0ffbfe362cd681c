// The ranks of one job in one window: the Steps tab names the param job's straggler
// (rank 7) with its figures and zooms every rank to a clicked step; the Hotspots and Kernels tabs
// get one column per rank and totals that add them up; a single trace without steps greys the
// Steps tab.
#include <QHeaderView>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QtTest>
#include <limits>

#include "panels/hotspots_panel.h"
#include "panels/instance_stepper.h"
#include "panels/kernels_panel.h"
#include "panels/steps_panel.h"
#include "panels/table_panel.h"
#include "shell/main_window.h"
#include "state/load_job.h"
#include "state/viewer_state.h"
#include "state/zoom_control.h"
#include "viewer_test_support.h"
#include "widgets/time_text.h"

using namespace stackline;
using namespace ui_test;

namespace {

const QString kParam = QStringLiteral(STACKLINE_DATA "/param/");

// The 8 param ranks, labelled, as the window loads them.
std::vector<std::shared_ptr<const ViewedTrace>> loadParam() {
    std::vector<std::shared_ptr<const ViewedTrace>> docs;
    for (const QString& name : QDir(kParam).entryList({"*.json.gz"}, QDir::Files, QDir::Name)) {
        BackgroundJob::Context context;
        std::shared_ptr<ViewedTrace> doc = loadDocument({kParam + name, {}, nullptr}, context);
        doc->rank = rankInfoOf(*doc->trace);
        docs.push_back(std::move(doc));
    }
    return docs;
}

// Shows the documents on their clocks' shared axis, as the window lines them up.
void showJob(ViewerState& state, std::vector<std::shared_ptr<const ViewedTrace>> docs) {
    std::vector<const Trace*> traces;
    for (const auto& d : docs) traces.push_back(d->trace.get());
    const std::vector<int64_t> offsets = alignmentOffsets(traces, Alignment::Clock);
    int64_t start = std::numeric_limits<int64_t>::max(), end = std::numeric_limits<int64_t>::min();
    for (size_t i = 0; i < docs.size(); ++i) {
        start = std::min(start, docs[i]->originNs + offsets[i]);
        end = std::max(end, docs[i]->tracks.endNs() + offsets[i]);
    }
    state.setDocuments(std::move(docs));
    state.setOffsets(offsets);
    state.zoom()->setTraceRange(start, end);
}

std::shared_ptr<const ViewedTrace> load(const QString& path) {
    BackgroundJob::Context context;
    std::shared_ptr<ViewedTrace> doc = loadDocument({path, {}, nullptr}, context);
    doc->rank = rankInfoOf(*doc->trace);
    return doc;
}

double sortValue(const QAbstractItemModel& m, int row, int column) {
    return m.data(m.index(row, column), TableModel::kSortRole).toDouble();
}

bool waitForSteps(const StepsPanel& panel) {
    return QTest::qWaitFor([&] { return !panel.isComputing(); }, 30000);
}

QString cellText(const QAbstractItemModel& m, int row, int column) {
    return m.data(m.index(row, column), Qt::DisplayRole).toString();
}

}  // namespace

class TstRankPanels : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        isolateSettings();
        docs_ = loadParam();
        QCOMPARE(docs_.size(), size_t(8));
    }

    // Rank 7 holds the others back in step 10: named, its cells marked, its figures shown.
    void stepsNameTheStraggler() {
        ViewerState state;
        StepsPanel panel(&state);
        showJob(state, docs_);
        QVERIFY(waitForSteps(panel));
        QVERIFY(panel.hasSteps());
        const StepsModel& m = *panel.model();
        QCOMPARE(m.rowCount(), 1);
        QCOMPARE(m.columnCount(), StepsModel::columnOf(8, StepsModel::Duration));
        QCOMPARE(cellText(m, 0, StepsModel::Step), QStringLiteral("10"));
        QCOMPARE(cellText(m, 0, StepsModel::Straggler), QStringLiteral("rank 7"));
        QCOMPARE(m.headerData(StepsModel::columnOf(7, StepsModel::Duration), Qt::Horizontal,
                              Qt::DisplayRole)
                     .toString(),
                 QStringLiteral("rank 7\nduration"));
        // python3 tools/job_steps_expected.py tests/data/param
        QCOMPARE(cellText(m, 0, StepsModel::columnOf(7, StepsModel::Duration)),
                 formatDuration(12509000));
        QCOMPARE(cellText(m, 0, StepsModel::columnOf(7, StepsModel::Compute)),
                 formatDuration(1059000));
        QCOMPARE(cellText(m, 0, StepsModel::columnOf(7, StepsModel::Collective)),
                 formatDuration(1746000));
        QCOMPARE(cellText(m, 0, StepsModel::columnOf(1, StepsModel::Collective)),
                 formatDuration(11336000));
        auto bold = [&](int rank) {
            return m
                .data(m.index(0, StepsModel::columnOf(rank, StepsModel::Duration)), Qt::FontRole)
                .value<QFont>()
                .bold();
        };
        QVERIFY(bold(7));
        for (int r = 0; r < 7; ++r) QVERIFY(!bold(r));
    }

    // A click on rank 3's cell shows step 10 of every rank and selects rank 3's step slice.
    void clickingACellZoomsEveryRankToTheStep() {
        ViewerState state;
        StepsPanel panel(&state);
        panel.resize(1200, 300);
        panel.show();
        showJob(state, docs_);
        QVERIFY(waitForSteps(panel));
        int64_t start = std::numeric_limits<int64_t>::max();
        int64_t end = std::numeric_limits<int64_t>::min();
        uint32_t rank3Step = kNoRow;
        for (size_t i = 0; i < docs_.size(); ++i)
            for (const StepSpan& s : profilerSteps(*docs_[i]->trace))
                if (s.step == 10) {
                    const int64_t offset = state.offsetNs(docs_[i].get());
                    start = std::min(start, s.startNs + offset);
                    end = std::max(end, s.endNs + offset);
                    if (i == 3) rank3Step = s.row;
                }
        QVERIFY(rank3Step != kNoRow);
        QVERIFY(state.zoom()->windowDuration() > end - start);  // the whole job shown first

        QTableView* view = panel.view();
        const QModelIndex cell =
            panel.model()->index(0, StepsModel::columnOf(3, StepsModel::Compute));
        view->scrollTo(cell);
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(cell).center());
        QCOMPARE(state.zoom()->windowStart(), start);
        QCOMPARE(state.zoom()->windowEnd(), end);
        QCOMPARE(state.selected(), (EventRef{docs_[3].get(), rank3Step}));
        QCOMPARE(docs_[3]->events().nameOf(rank3Step), std::string_view("ProfilerStep#10"));
    }

    // The tab lists the job's steps, and is greyed for a trace without any.
    void stepsTabGreyedWithoutSteps() {
        MainWindow window;
        QTabWidget* tabs = window.tabs();
        const int tab = tabs->indexOf(window.panel<StepsPanel>());
        QVERIFY(!tabs->isTabEnabled(tab));  // nothing open
        showJob(*window.state(), docs_);
        QVERIFY(waitForSteps(*window.panel<StepsPanel>()));
        QVERIFY(tabs->isTabEnabled(tab));
        QCOMPARE(tabs->tabText(tab), QStringLiteral("Steps (1)"));
        QVERIFY(window.showTab(QStringLiteral("steps")));
        QCOMPARE(tabs->currentWidget(), window.panel<StepsPanel>());

        QVERIFY(openTrace(window, QStringLiteral(STACKLINE_DATA "/counters/hta_counters.json")));
        QVERIFY(waitForSteps(*window.panel<StepsPanel>()));
        QVERIFY(profilerSteps(*window.document()->trace).empty());
        QVERIFY(!tabs->isTabEnabled(tab));
        QCOMPARE(tabs->tabText(tab), QStringLiteral("Steps"));
    }

    // A kernel name per row over all ranks: a time column per rank, Count and Total their sums.
    void kernelsHaveAColumnPerRank() {
        ViewerState state;
        KernelsPanel panel(&state);
        showJob(state, docs_);
        const KernelsModel& m = *panel.model();
        QCOMPARE(m.columnCount(), KernelsModel::FirstRank + 8);
        QCOMPARE(m.headerData(KernelsModel::FirstRank + 7, Qt::Horizontal, Qt::DisplayRole),
                 QVariant(QStringLiteral("rank 7")));
        QVERIFY(m.rowCount() > 0);
        for (int row = 0; row < m.rowCount(); ++row) {
            double sum = 0;
            for (int r = 0; r < 8; ++r) sum += sortValue(m, row, KernelsModel::FirstRank + r);
            QCOMPARE(sortValue(m, row, KernelsModel::Total), sum);
        }
        // Each rank's column against its own events; the stepper's instances are rank 0's.
        const QByteArray top = m.entry(0).name.toUtf8();
        for (size_t r = 0; r < docs_.size(); ++r) {
            const ViewedTrace& d = *docs_[r];
            const EventTable& ev = d.events();
            int64_t ns = 0;
            size_t count = 0;
            for (uint32_t row = 0; row < ev.size(); ++row)
                if (ev.phase[row] == 'X' && d.isKernel(row) &&
                    ev.nameOf(row) == std::string_view(top.constData(), size_t(top.size()))) {
                    ns += ev.durNs(row);
                    ++count;
                }
            QCOMPARE(qint64(sortValue(m, 0, KernelsModel::FirstRank + int(r))), qint64(ns));
            if (r == 0) QCOMPARE(m.entry(0).instances.size(), count);
        }
        // Sorting by a rank's column orders by that rank's time.
        QSortFilterProxyModel* proxy = panel.proxy();
        panel.view()->sortByColumn(KernelsModel::FirstRank + 3, Qt::DescendingOrder);
        for (int row = 1; row < proxy->rowCount(); ++row)
            QVERIFY(proxy->index(row - 1, KernelsModel::FirstRank + 3)
                        .data(TableModel::kSortRole)
                        .toLongLong() >= proxy->index(row, KernelsModel::FirstRank + 3)
                                             .data(TableModel::kSortRole)
                                             .toLongLong());
    }

    // Lines matched across traces by file, line and function: a self-time column per trace, Self
    // their sum; a chosen line's kernels highlighted on each trace.
    void hotspotsHaveAColumnPerRank() {
        const auto example = load(QStringLiteral(STACKLINE_EXAMPLE_DIR "/example.pt.trace.json"));
        const auto step = load(QStringLiteral(STACKLINE_TEST_DATA "/compiled_step.pt.trace.json"));
        const auto again = load(QStringLiteral(STACKLINE_EXAMPLE_DIR "/example.pt.trace.json"));
        QVERIFY(!example->hotspots.lines.empty() && !step->hotspots.lines.empty());
        ViewerState state;
        HotspotsPanel panel(&state);
        panel.resize(1400, 400);
        panel.show();
        state.setDocuments({example, step, again});
        QVERIFY(QTest::qWaitFor([&] { return !panel.isComputing(); }, 30000));
        const HotspotsModel& m = *panel.model();
        QCOMPARE(m.columnCount(), HotspotsModel::FirstRank + 3);
        QCOMPARE(m.rowCount(), int(example->hotspots.lines.size() + step->hotspots.lines.size()));
        QCOMPARE(m.headerData(HotspotsModel::Self, Qt::Horizontal, Qt::DisplayRole),
                 QVariant(QStringLiteral("Self (sum)")));
        for (int row = 0; row < m.rowCount(); ++row) {
            double sum = 0;
            for (int r = 0; r < 3; ++r) sum += sortValue(m, row, HotspotsModel::FirstRank + r);
            QVERIFY(qAbs(sortValue(m, row, HotspotsModel::Self) - sum) < 1e-6);
        }
        // model.py:51, the example's top line, twice.
        const SourceLine& top = example->hotspots.lines.front();
        const QSortFilterProxyModel* proxy = panel.table()->proxy();
        const int first = proxy->mapToSource(proxy->index(0, 0)).row();
        QCOMPARE(m.line(first).line, top.line);
        QCOMPARE(m.line(first).file, top.file);
        QCOMPARE(sortValue(m, first, HotspotsModel::FirstRank), top.selfUs);
        QCOMPARE(sortValue(m, first, HotspotsModel::FirstRank + 1), 0.0);
        QCOMPARE(sortValue(m, first, HotspotsModel::FirstRank + 2), top.selfUs);
        QCOMPARE(m.line(first).launches, 2 * top.launches);
        panel.selectVisualRow(0);
        QCOMPARE(state.highlighted(example.get()), top.rows);
        QVERIFY(state.highlighted(step.get()).empty());
        QCOMPARE(state.highlighted(again.get()), top.rows);
        QCOMPARE(panel.stepper()->instances().size(), top.rows.size());
        // Sorted by the second trace's column, its top line comes first.
        panel.table()->view()->sortByColumn(HotspotsModel::FirstRank + 1, Qt::DescendingOrder);
        const SourceLine& shown = m.line(proxy->mapToSource(proxy->index(0, 0)).row());
        QCOMPARE(shown.file, step->hotspots.lines.front().file);
        QCOMPARE(shown.line, step->hotspots.lines.front().line);
    }

private:
    std::vector<std::shared_ptr<const ViewedTrace>> docs_;
};

QTEST_MAIN(TstRankPanels)
#include "tst_rank_panels.moc"
