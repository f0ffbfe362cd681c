// The Diff tab on two generated eager runs whose per-line times are known: line `attn` launches
// kernel `ka`, line `mlp` kernel `kb`, once per profiler step, both inside `main`; the new run
// makes `ka` slower and `kb` faster. The table shows each line's delta, sorts by it, outlines a
// line's kernels in both runs, and File → Compare With… opens the second run beside the first.
#include <QAbstractButton>
#include <QImage>
#include <QProcess>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include "panels/diff_panel.h"
#include "panels/table_panel.h"
#include "shell/main_window.h"
#include "state/load_job.h"
#include "state/viewer_state.h"
#include "state/zoom_control.h"
#include "viewer_test_support.h"
#include "widgets/elided_label.h"

using namespace stackline;

namespace {

// One run: `steps` profiler steps of 1 ms from startUs on, each with ka (kaUs long) then kb (kbUs
// long).
QByteArray eagerRun(int steps, int kaUs, int kbUs, int startUs = 0) {
    QByteArray events;
    int correlation = 0;
    auto add = [&](const QByteArray& e) { events += (events.isEmpty() ? "" : ",\n") + e; };
    auto launch = [&](int ts, const char* frame, const char* kernel, int durUs) {
        ++correlation;
        add(QStringLiteral(R"({"ph": "X", "cat": "python_function", "name": "%1", "pid": 1, )"
                           R"("tid": 1, "ts": %2, "dur": 20})")
                .arg(QLatin1String(frame))
                .arg(ts)
                .toUtf8());
        add(QStringLiteral(
                R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", )"
                R"("pid": 1, "tid": 1, "ts": %1, "dur": 5, "args": {"correlation": %2}})")
                .arg(ts + 5)
                .arg(correlation)
                .toUtf8());
        add(QStringLiteral(R"({"ph": "X", "cat": "kernel", "name": "%1", "pid": 0, "tid": 7, )"
                           R"("ts": %2, "dur": %3, "args": {"correlation": %4}})")
                .arg(QLatin1String(kernel))
                .arg(ts + 100)
                .arg(durUs)
                .arg(correlation)
                .toUtf8());
    };
    for (int s = 0; s < steps; ++s) {
        const int t = startUs + s * 1000;
        add(QStringLiteral(R"({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%1", )"
                           R"("pid": 1, "tid": 1, "ts": %2, "dur": 999})")
                .arg(s + 1)
                .arg(t)
                .toUtf8());
        add(QStringLiteral(R"({"ph": "X", "cat": "python_function", "name": "m.py(1): main", )"
                           R"("pid": 1, "tid": 1, "ts": %1, "dur": 900})")
                .arg(t + 1)
                .toUtf8());
        launch(t + 10, "m.py(10): attn", "ka", kaUs);
        launch(t + 400, "m.py(20): mlp", "kb", kbUs);
    }
    return "{\"traceEvents\": [\n" + events + "\n]}\n";
}

QString writeRun(const QTemporaryDir& dir, const QString& name, const QByteArray& json) {
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(json) != json.size()) return {};
    return path;
}

std::shared_ptr<const ViewedTrace> load(const QString& path, const QString& kernelInfo = {}) {
    BackgroundJob::Context context;
    return loadDocument({path, kernelInfo, nullptr}, context);
}

// The source-model row of the line in this function, or -1.
int lineRow(const DiffLinesModel& model, const std::string& function) {
    for (int r = 0; r < model.rowCount(); ++r)
        if (model.line(r).function == function) return r;
    return -1;
}

QString cell(const QAbstractItemModel& model, int row, int column) {
    return model.index(row, column).data().toString();
}

// The names of these events, sorted.
QStringList names(const ViewedTrace& doc, const std::vector<uint32_t>& rows) {
    QStringList out;
    for (uint32_t r : rows) out << QString::fromUtf8(doc.events().nameOf(r));
    out.sort();
    return out;
}

}  // namespace

class TstDiffPanel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        ui_test::isolateSettings();
        QVERIFY(dir_.isValid());
        base_ = writeRun(dir_, QStringLiteral("base.json"), eagerRun(2, 20, 30));
        // Recorded later: lined up on ProfilerStep#1 with the base run.
        next_ = writeRun(dir_, QStringLiteral("new.json"), eagerRun(2, 40, 15, 7000));
        threeSteps_ = writeRun(dir_, QStringLiteral("three.json"), eagerRun(3, 30, 30));
        QVERIFY(!base_.isEmpty() && !next_.isEmpty() && !threeSteps_.isEmpty());
    }

    void showsEachLineWithItsDelta() {
        ViewerState state;
        DiffPanel panel(&state);
        QVERIFY(!panel.isComparing());
        compare(state, panel, base_, next_);
        const DiffLinesModel& m = *panel.lines();
        const int attn = lineRow(m, "attn"), mlp = lineRow(m, "mlp");
        QVERIFY(attn >= 0 && mlp >= 0);
        // Two steps of each run, whole runs compared: 2×20 → 2×40 and 2×30 → 2×15 µs.
        QCOMPARE(m.baseNs(attn), 40'000);
        QCOMPARE(m.nextNs(attn), 80'000);
        QCOMPARE(cell(m, attn, DiffLinesModel::Delta), QStringLiteral("+40 µs"));
        QCOMPARE(cell(m, attn, DiffLinesModel::Ratio), QStringLiteral("×2.00"));
        QCOMPARE(cell(m, attn, DiffLinesModel::Where), QStringLiteral("m.py:10"));
        QCOMPARE(cell(m, attn, DiffLinesModel::Launches), QStringLiteral("2"));
        QCOMPARE(cell(m, mlp, DiffLinesModel::Delta), QStringLiteral("-30 µs"));
        QCOMPARE(cell(m, mlp, DiffLinesModel::Ratio), QStringLiteral("×0.50"));
        // Slower red, faster green; the larger change the stronger.
        const QColor slower = m.index(attn, 0).data(Qt::BackgroundRole).value<QColor>();
        const QColor faster = m.index(mlp, 0).data(Qt::BackgroundRole).value<QColor>();
        QVERIFY(slower.red() > slower.green());
        QVERIFY(faster.green() > faster.red());
        QVERIFY(slower.alphaF() > faster.alphaF());
        QVERIFY(panel.header()->text().contains(QStringLiteral("whole run")));

        // The kernels: the same figures by name.
        const DiffKernelsModel& k = *panel.kernels();
        QCOMPARE(k.rowCount(), 2);
        for (int r = 0; r < k.rowCount(); ++r) {
            const bool ka = k.kernel(r).baseName == "ka";
            QCOMPARE(cell(k, r, DiffKernelsModel::Delta),
                     ka ? QStringLiteral("+40 µs") : QStringLiteral("-30 µs"));
            QCOMPARE(cell(k, r, DiffKernelsModel::BaseCount), QStringLiteral("2"));
        }
    }

    void sortsByDelta() {
        ViewerState state;
        DiffPanel panel(&state);
        compare(state, panel, base_, next_);
        QTableView* view = panel.lineTable()->view();
        const QAbstractItemModel* shown = view->model();
        // By default the slowest first, the fastest last.
        QCOMPARE(cell(*shown, 0, DiffLinesModel::Function), QStringLiteral("attn"));
        QCOMPARE(cell(*shown, shown->rowCount() - 1, DiffLinesModel::Function),
                 QStringLiteral("mlp"));
        view->sortByColumn(DiffLinesModel::Delta, Qt::AscendingOrder);
        QCOMPARE(cell(*shown, 0, DiffLinesModel::Function), QStringLiteral("mlp"));
        QCOMPARE(cell(*shown, shown->rowCount() - 1, DiffLinesModel::Function),
                 QStringLiteral("attn"));
    }

    void choosingALineOutlinesItsKernelsInBothRuns() {
        ViewerState state;
        DiffPanel panel(&state);
        compare(state, panel, base_, next_);
        const auto docs = state.documents();
        const int attn = lineRow(*panel.lines(), "attn");
        // Clicking its row, as a user does.
        QTableView* view = panel.lineTable()->view();
        const QModelIndex index =
            panel.lineTable()->proxy()->mapFromSource(panel.lines()->index(attn, 0));
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(index).center());
        const QStringList both{QStringLiteral("ka"), QStringLiteral("ka")};
        QCOMPARE(names(*docs[0], state.highlighted(docs[0].get())), both);
        QCOMPARE(names(*docs[1], state.highlighted(docs[1].get())), both);
        // The base run's first one is selected, and in view.
        const EventRef selected = state.selected();
        QCOMPARE(selected.doc, docs[0].get());
        QCOMPARE(docs[0]->events().nameOf(selected.row), std::string_view("ka"));
        QCOMPARE(docs[0]->events().tsNs(selected.row), 110'000);
        const int64_t at = docs[0]->events().tsNs(selected.row) + state.offsetNs(docs[0].get());
        QVERIFY(state.zoom()->windowStart() <= at && at <= state.zoom()->windowEnd());

        // A kernel row does the same for that kernel.
        panel.kernelsToggle()->click();
        QVERIFY(panel.kernelTable()->isVisibleTo(&panel));
        for (int r = 0; r < panel.kernels()->rowCount(); ++r)
            if (panel.kernels()->kernel(r).baseName == "kb") panel.chooseKernel(r);
        QCOMPARE(names(*docs[1], state.highlighted(docs[1].get())),
                 QStringList({QStringLiteral("kb"), QStringLiteral("kb")}));
    }

    void comparesPerStepWhenStepCountsDiffer() {
        ViewerState state;
        DiffPanel panel(&state);
        compare(state, panel, base_, threeSteps_);
        QVERIFY(panel.header()->text().contains(QStringLiteral("per profiler step")));
        const DiffLinesModel& m = *panel.lines();
        const int attn = lineRow(m, "attn");
        // Per step: 20 → 30 µs.
        QCOMPARE(m.baseNs(attn), 20'000);
        QCOMPARE(m.nextNs(attn), 30'000);
        QCOMPARE(cell(m, attn, DiffLinesModel::Delta), QStringLiteral("+10 µs"));
        QCOMPARE(cell(m, attn, DiffLinesModel::Launches), QStringLiteral("2→3"));
    }

    // The diff helper's compiled case: Inductor renamed a kernel between the runs.
    void marksRenamedKernels() {
        const QString dir = QStringLiteral(STACKLINE_DATA "/run_diff/renamed/");
        ViewerState state;
        DiffPanel panel(&state);
        panel.show();
        state.setDocuments({load(dir + "base.json", dir + "kinfo_base.json"),
                            load(dir + "new.json", dir + "kinfo_new.json")});
        QTRY_VERIFY_WITH_TIMEOUT(!panel.isComputing(), 30000);
        const DiffKernelsModel& k = *panel.kernels();
        int renamed = -1;
        for (int r = 0; r < k.rowCount(); ++r)
            if (k.kernel(r).renamed) renamed = r;
        QVERIFY(renamed >= 0);
        QCOMPARE(
            cell(k, renamed, DiffKernelsModel::Kernel),
            QStringLiteral("triton_poi_fused_add_mul_0 → triton_poi_fused_add_mul_3 (renamed)"));
        QCOMPARE(cell(k, renamed, DiffKernelsModel::Delta), QStringLiteral("+1.500 µs"));
        QVERIFY(k.index(renamed, 0).data(Qt::FontRole).value<QFont>().italic());
        // Its line, matched by its code: one row with both runs' line numbers.
        const DiffLinesModel& l = *panel.lines();
        int fc1 = -1;
        for (int r = 0; r < l.rowCount(); ++r)
            if (l.line(r).code == "x = self.fc1(x)") fc1 = r;
        QVERIFY(fc1 >= 0);
        QCOMPARE(cell(l, fc1, DiffLinesModel::Where), QStringLiteral("model.py:10"));
        QCOMPARE(cell(l, fc1, DiffLinesModel::Delta), QStringLiteral("+1.500 µs"));
        QCOMPARE(panel.lines()->rowCount(), 4);
    }

    void leavesTheTablesEmptyWithOneRun() {
        ViewerState state;
        DiffPanel panel(&state);
        compare(state, panel, base_, next_);
        QVERIFY(panel.lines()->rowCount() > 0);
        state.setDocument(load(base_));
        QTRY_VERIFY(!panel.isComputing());
        QCOMPARE(panel.lines()->rowCount(), 0);
        QCOMPARE(panel.kernels()->rowCount(), 0);
        QVERIFY(panel.header()->text().contains(QStringLiteral("Compare With")));
    }

    void compareWithOpensTheNewRunBesideTheBase() {
        MainWindow window;
        window.show();
        QVERIFY(ui_test::openTrace(window, base_));
        QTabWidget* tabs = window.tabs();
        QVERIFY(!tabs->isTabVisible(tabs->indexOf(window.panel<DiffPanel>())));
        QVERIFY(!window.showTab(QStringLiteral("diff")));

        QSignalSpy compared(&window, &MainWindow::comparisonLoaded);
        window.compareWith(next_);
        QVERIFY(compared.wait(60000));
        const auto docs = window.state()->documents();
        QCOMPARE(docs.size(), size_t(2));
        QCOMPARE(docs[0]->tracePath(), base_);
        QCOMPARE(docs[1]->tracePath(), next_);
        QCOMPARE(docs[0]->rank.label, std::string("base: base.json"));
        QCOMPARE(docs[1]->rank.label, std::string("new: new.json"));
        QVERIFY(tabs->isTabVisible(tabs->indexOf(window.panel<DiffPanel>())));
        QCOMPARE(tabs->currentWidget(), window.panel<DiffPanel>());
        QTRY_VERIFY_WITH_TIMEOUT(!window.panel<DiffPanel>()->isComputing(), 30000);
        QCOMPARE(cell(*window.panel<DiffPanel>()->lineTable()->view()->model(), 0,
                      DiffLinesModel::Function),
                 QStringLiteral("attn"));
        // ProfilerStep#1 of both runs at the same time on the window's axis.
        auto stepStart = [&](const ViewedTrace& doc) {
            const uint32_t step = ui_test::rowNamed(doc, "ProfilerStep#1", "user_annotation");
            return doc.events().tsNs(step) + window.state()->offsetNs(&doc);
        };
        QCOMPARE(stepStart(*docs[1]), stepStart(*docs[0]));

        // Opening a trace again ends the comparison.
        QVERIFY(ui_test::openTrace(window, next_));
        QCOMPARE(window.state()->documents().size(), size_t(1));
        QVERIFY(!tabs->isTabVisible(tabs->indexOf(window.panel<DiffPanel>())));
    }

    void commandLineComparesAndScreenshotsTheDiffTab() {
        const QString png = dir_.filePath(QStringLiteral("diff.png"));
        QProcess p;
        p.start(QStringLiteral(STACKLINE_APP),
                {base_, QStringLiteral("--compare"), next_, QStringLiteral("--tab"),
                 QStringLiteral("diff"), QStringLiteral("--screenshot"), png});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QCOMPARE(QImage(png).size(), QSize(1600, 1000));
        QVERIFY(!p.readAllStandardError().contains("no tab named"));

        // A new run that cannot be opened fails as the trace does.
        p.start(QStringLiteral(STACKLINE_APP),
                {base_, QStringLiteral("--compare"), dir_.filePath(QStringLiteral("missing.json")),
                 QStringLiteral("--screenshot"), png});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(p.readAllStandardError().contains("missing.json"));
    }

private:
    // Shows base and next in state and waits for the diff.
    static void compare(ViewerState& state, DiffPanel& panel, const QString& base,
                        const QString& next) {
        // Computed while the tab is shown.
        panel.resize(1200, 400);
        panel.show();
        QSignalSpy shown(&panel, &DiffPanel::diffChanged);
        state.setDocuments({load(base), load(next)});
        QVERIFY(panel.isComparing());
        QVERIFY(panel.isComputing());
        QTRY_VERIFY_WITH_TIMEOUT(!panel.isComputing(), 30000);
        QVERIFY(!shown.isEmpty());
    }

    QTemporaryDir dir_;
    QString base_, next_, threeSteps_;
};

QTEST_MAIN(TstDiffPanel)
#include "tst_diff_panel.moc"
