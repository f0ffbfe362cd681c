// The ranks of one job in one window (issue 19): the Steps tab names the param job's straggler
// (rank 7) with its figures and zooms every rank to a clicked step; the Hotspots and Kernels tabs
// get one column per rank and totals that add them up; a single trace without steps greys the
// Steps tab.
#include <QHeaderView>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QtTest>
#include <limits>

#include "format.h"
#include "load_job.h"
#include "main_window.h"
#include "steps_panel.h"
#include "viewer_state.h"
#include "viewer_test_support.h"
#include "zoom_control.h"

using namespace stackline;
using namespace ui_test;

namespace {

const QString kParam = QStringLiteral(STACKLINE_DATA "/param/");

// The 8 param ranks, labelled, as the window loads them.
std::vector<std::shared_ptr<const Document>> loadParam() {
    std::vector<std::shared_ptr<const Document>> docs;
    for (const QString& name : QDir(kParam).entryList({"*.json.gz"}, QDir::Files, QDir::Name)) {
        BackgroundJob::Context context;
        std::shared_ptr<Document> doc = loadDocument({kParam + name, {}, nullptr}, context);
        doc->rank = rankInfoOf(*doc->trace);
        docs.push_back(std::move(doc));
    }
    return docs;
}

// Shows the documents on their clocks' shared axis, as the window lines them up.
void showJob(ViewerState& state, std::vector<std::shared_ptr<const Document>> docs) {
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
        const int tab = tabs->indexOf(window.steps());
        QVERIFY(!tabs->isTabEnabled(tab));  // nothing open
        showJob(*window.state(), docs_);
        QVERIFY(waitForSteps(*window.steps()));
        QVERIFY(tabs->isTabEnabled(tab));
        QCOMPARE(tabs->tabText(tab), QStringLiteral("Steps (1)"));
        QVERIFY(window.showTab(QStringLiteral("steps")));
        QCOMPARE(tabs->currentWidget(), window.steps());

        QVERIFY(openTrace(window, QStringLiteral(STACKLINE_DATA "/counters/hta_counters.json")));
        QVERIFY(waitForSteps(*window.steps()));
        QVERIFY(profilerSteps(*window.document()->trace).empty());
        QVERIFY(!tabs->isTabEnabled(tab));
        QCOMPARE(tabs->tabText(tab), QStringLiteral("Steps"));
    }

private:
    std::vector<std::shared_ptr<const Document>> docs_;
};

QTEST_MAIN(TstRankPanels)
#include "tst_rank_panels.moc"
