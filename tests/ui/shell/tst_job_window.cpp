// The job view (shell/job_window.h) over the merged steps result of the 8 param ranks, made by
// stackline-cli steps --json: it opens without loading a trace, switches metric, filters ranks,
// names rank 7 the straggler of step 10, opens a clicked cell's trace zoomed to its step, and,
// when the recorded trace is not here, says where it was recorded and maps its folder.
#include <QtTest>

#include "panels/job_heat_map_view.h"
#include "shell/job_window.h"
#include "shell/main_window.h"
#include "state/viewer_state.h"
#include "state/zoom_control.h"
#include "viewer_test_support.h"

using namespace stackline;
using namespace ui_test;

namespace {

const QString kParam = QStringLiteral(STACKLINE_DATA "/param");
// Where the rewritten result says its traces were recorded: not on this machine.
const QString kRecordedElsewhere = QStringLiteral("/cluster/job42/traces");

std::unique_ptr<JobWindow> openJob(const QString& path) {
    QString error;
    std::unique_ptr<JobWindow> window(JobWindow::open(path, &error));
    if (!window) qWarning() << error;
    if (window) {
        window->setAttribute(Qt::WA_DeleteOnClose, false);
        window->resize(1200, 700);
        window->show();
    }
    return window;
}

// The row of the heat map that shows this rank index.
size_t rowOf(const JobWindow& window, size_t rank) {
    const auto& rows = window.heatMap()->rows();
    return size_t(std::find(rows.begin(), rows.end(), rank) - rows.begin());
}

MainWindow* waitLoaded(MainWindow* window) {
    if (!window) return nullptr;
    QSignalSpy loaded(window, &MainWindow::documentLoaded);
    if (!window->document() && !loaded.wait(60000)) return nullptr;
    return window;
}

}  // namespace

class TstJobWindow : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    QString job_, elsewhere_;

private slots:
    void initTestCase() {
        isolateSettings();
        qRegisterMetaType<MainWindow*>();
        QVERIFY(dir_.isValid());
        QStringList args{QStringLiteral("steps")};
        for (const QString& name : QDir(kParam).entryList({QStringLiteral("*.pt.trace.json.gz")},
                                                          QDir::Files, QDir::Name))
            args << QDir(kParam).filePath(name);
        QCOMPARE(args.size(), 9);
        args << QStringLiteral("--json");
        QByteArray result;
        QVERIFY(runCli(args, &result));
        job_ = dir_.filePath(QStringLiteral("job.json"));
        QFile out(job_);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(result);
        out.close();
        // The same job as recorded on a cluster: only the traces' paths differ.
        QDir(dir_.path()).mkdir(QStringLiteral("elsewhere"));
        elsewhere_ = dir_.filePath(QStringLiteral("elsewhere/job.json"));
        QFile moved(elsewhere_);
        QVERIFY(moved.open(QIODevice::WriteOnly));
        moved.write(result.replace(kParam.toUtf8(), kRecordedElsewhere.toUtf8()));
    }

    void opensTheJobWithoutATrace() {
        const auto window = openJob(job_);
        QVERIFY(window);
        QCOMPARE(window->map().rankCount(), size_t(8));
        QCOMPARE(window->map().stepCount(), size_t(1));
        QCOMPARE(window->heatMap()->bandCount(), size_t(8));
        QCOMPARE(window->spreadTree()->topLevelItemCount(), 8);
        QVERIFY(window->bannerText().isEmpty());
        const QString tip = window->heatMap()->toolTipAt(
            window->heatMap()->cellRect(rowOf(*window, 7), 0).center());
        QVERIFY2(tip.startsWith(QStringLiteral("rank 7, step 10: step time 12.509 ms")),
                 qPrintable(tip));
    }

    void theStragglerOfStep10IsRank7() {
        const auto window = openJob(job_);
        QVERIFY(window);
        QTreeWidgetItem* step = window->stepsTree()->topLevelItem(0);
        QCOMPARE(step->text(0), QStringLiteral("step 10"));
        QCOMPARE(step->text(1), QStringLiteral("rank 7"));
        QCOMPARE(step->childCount(), 5);
        QCOMPARE(step->text(2), QStringLiteral("7.624 ms"));  // the largest skew, as steps says
        QCOMPARE(step->child(0)->text(2), step->text(2));
    }

    void theMetricSwitchRepaintsAndRanksAgain() {
        const auto window = openJob(job_);
        QVERIFY(window);
        const QImage before = window->heatMap()->grab().toImage();
        QCOMPARE(window->spreadTree()->topLevelItem(0)->text(0), QStringLiteral("rank 7"));
        window->metricBox()->setCurrentIndex(int(JobMetric::CollectiveSkew));
        QCOMPARE(window->heatMap()->shownMetric(), JobMetric::CollectiveSkew);
        QVERIFY(window->heatMap()->grab().toImage() != before);
        QCOMPARE(window->spreadTree()->headerItem()->text(1),
                 QStringLiteral("Collective skew vs median"));
        // Skew is how late a rank starts the collectives: the straggler is the latest, above the
        // median; rank 1, which starts them first, is the farthest below it.
        const auto& rows = window->heatMap()->rows();
        QCOMPARE(
            window->map().aggregate(JobMetric::CollectiveSkew, rows, 0, rows.size(), 0).maxRank,
            size_t(7));
        QCOMPARE(window->spreadTree()->topLevelItem(0)->text(0), QStringLiteral("rank 1"));
        QVERIFY(window->spreadTree()->topLevelItem(0)->text(1).startsWith(QStringLiteral("−")));
        const auto seven =
            window->spreadTree()->findItems(QStringLiteral("rank 7"), Qt::MatchExactly);
        QCOMPARE(seven.size(), 1);
        QVERIFY(seven.front()->text(1).startsWith(QLatin1Char('+')));
        const QString tip = window->heatMap()->toolTipAt(
            window->heatMap()->cellRect(rowOf(*window, 7), 0).center());
        QVERIFY2(tip.contains(QStringLiteral("collective skew")), qPrintable(tip));
    }

    void theRankFilterShowsTheRanksGiven() {
        const auto window = openJob(job_);
        QVERIFY(window);
        QTest::keyClicks(window->rankFilterEdit(), QStringLiteral("0-3, 7"));
        QCOMPARE(window->heatMap()->rows().size(), size_t(5));
        QCOMPARE(window->heatMap()->bandCount(), size_t(5));
        QCOMPARE(window->spreadTree()->topLevelItemCount(), 5);
        QVERIFY(window->filterError().isEmpty());
        QVERIFY(!window->setRankFilter(QStringLiteral("rank 3")));
        QVERIFY(!window->filterError().isEmpty());
        QCOMPARE(window->heatMap()->rows().size(), size_t(5));  // the last good filter stays
        QVERIFY(window->setRankFilter(QString()));
        QCOMPARE(window->heatMap()->rows().size(), size_t(8));
    }

    void clickingACellOpensThatRanksTraceAtTheStep() {
        const auto window = openJob(job_);
        QVERIFY(window);
        QSignalSpy opened(window.get(), &JobWindow::traceOpened);
        const QRect cell = window->heatMap()->cellRect(rowOf(*window, 3), 0);
        QTest::mouseClick(window->heatMap(), Qt::LeftButton, {}, cell.center());
        QCOMPARE(opened.size(), 1);
        std::unique_ptr<MainWindow> trace(waitLoaded(opened.front().front().value<MainWindow*>()));
        QVERIFY(trace);
        trace->setAttribute(Qt::WA_DeleteOnClose, false);
        QVERIFY2(trace->document()->tracePath().contains(QStringLiteral("/worker3_")),
                 qPrintable(trace->document()->tracePath()));
        const RankStep& step = window->map().job().steps[0].ranks[3];
        const int64_t offset = trace->state()->offsetNs(trace->document());
        QCOMPARE(trace->state()->zoom()->windowStart(), step.startNs + offset);
        QCOMPARE(trace->state()->zoom()->windowEnd(), step.endNs + offset);
    }

    void aMissingTraceSaysWhereItWasRecordedAndMapsItsFolder() {
        const auto window = openJob(elsewhere_);
        QVERIFY(window);
        QVERIFY(!window->openRankTrace(2, 0));
        const QString banner = window->bannerText();
        QVERIFY2(banner.contains(QStringLiteral("rank 2")) &&
                     banner.contains(kRecordedElsewhere + QStringLiteral("/worker2_")),
                 qPrintable(banner));
        QVERIFY(window->mapFolderButton()->isVisible());
        std::unique_ptr<MainWindow> trace(
            waitLoaded(window->mapFolder(kRecordedElsewhere, kParam)));
        QVERIFY(trace);
        trace->setAttribute(Qt::WA_DeleteOnClose, false);
        QVERIFY(window->bannerText().isEmpty());
        QVERIFY(trace->document()->tracePath().startsWith(kParam + QStringLiteral("/worker2_")));
        // Remembered for results in that folder: another rank opens at once.
        std::unique_ptr<MainWindow> other(waitLoaded(window->openRankTrace(5, 0)));
        QVERIFY(other);
        other->setAttribute(Qt::WA_DeleteOnClose, false);
    }

    void onlyAStepsResultOpensAsAJob() {
        QCOMPARE(JobWindow::openIfJob(
                     kParam + QStringLiteral("/worker0_step_12.1694128201545.pt.trace.json.gz"),
                     nullptr),
                 JobWindow::Opened::NotAJob);
        const QString truncated = dir_.filePath(QStringLiteral("truncated.json"));
        QFile out(truncated);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(readAll(job_).left(4000));
        out.close();
        QString error;
        QVERIFY(!JobWindow::open(truncated, &error));
        QVERIFY2(error.startsWith(truncated + QStringLiteral(": not JSON")), qPrintable(error));
    }

    void theViewerOpensAJobFromTheCommandLine() {
        const QString png = dir_.filePath(QStringLiteral("job.png"));
        QProcess app;
        app.start(QStringLiteral(STACKLINE_APP),
                  {job_, QStringLiteral("--screenshot"), png, QStringLiteral("--window-size"),
                   QStringLiteral("900x600")});
        QVERIFY(app.waitForFinished(60000));
        QCOMPARE(app.exitCode(), 0);
        QCOMPARE(QImage(png).size(), QSize(900, 600));
        app.start(QStringLiteral(STACKLINE_APP),
                  {job_, QStringLiteral("--select"), QStringLiteral("x")});
        QVERIFY(app.waitForFinished(60000));
        QCOMPARE(app.exitCode(), 2);
        QVERIFY(app.readAllStandardError().contains("does not apply to a job"));
    }
};

QTEST_MAIN(TstJobWindow)
#include "tst_job_window.moc"
