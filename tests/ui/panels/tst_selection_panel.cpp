// The Selection tab shows, for a range set in the viewer, the figures of
// `stackline-cli summary --range --json` (the core's range summary), its GPU time by Python line
// too; choosing a line opens its source.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QSignalSpy>
#include <QTest>
#include <cmath>

#include "analysis/range_summary.h"
#include "panels/hotspots_panel.h"
#include "panels/selection_panel.h"
#include "state/viewer_state.h"
#include "viewer_test_support.h"
#include "widgets/time_text.h"

using namespace ui_test;

class TstSelectionPanel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { isolateSettings(); }

    void showsTheCoreFiguresOfTheSelectedRange() {
        const QString trace = QStringLiteral(STACKLINE_CORPUS_DIR
                                             "/worker0_step_12.1694128201545.pt.trace/"
                                             "trace.json.gz");
        QByteArray out;
        QVERIFY(runCli({"summary", trace, "--range", "1000:200000.5", "--json"}, &out));
        const QJsonObject cli = QJsonDocument::fromJson(out).object();

        MainWindow window;
        QVERIFY(openTrace(window, trace));
        SelectionPanel* panel = window.panel<SelectionPanel>();
        QCOMPARE(panel->count(), 0);  // no range yet
        QVERIFY(window.showTab(QStringLiteral("selection")));

        const int64_t origin = stackline::traceOriginNs(window.document()->events());
        QCOMPARE(qint64(origin), cli["origin_ns"].toInteger());
        window.state()->setSelectedRange(
            RangeSelection{{origin + 1000000, origin + 200000500}, {}});

        const QJsonArray slices = cli["slices"].toArray();
        QCOMPARE(panel->count(), slices.size());
        SelectionModel* model = panel->model();
        for (int i = 0; i < slices.size(); ++i) {
            const QJsonObject s = slices[i].toObject();
            auto cell = [&](int column) { return model->index(i, column).data().toString(); };
            QCOMPARE(cell(SelectionModel::Name), s["name"].toString());
            QCOMPARE(cell(SelectionModel::Count), QString::number(s["count"].toInteger()));
            QCOMPARE(cell(SelectionModel::Wall), formatDuration(s["wall_ns"].toInteger()));
            QCOMPARE(cell(SelectionModel::Average), formatDuration(s["average_ns"].toInteger()));
            QCOMPARE(cell(SelectionModel::Self), formatDuration(s["self_ns"].toInteger()));
        }
        const QString streams = panel->streamsText();
        for (const QJsonValue& v : cli["streams"].toArray()) {
            const QJsonObject s = v.toObject();
            QVERIFY2(streams.contains(QStringLiteral("busy %1, idle %2")
                                          .arg(formatDuration(s["busy_ns"].toInteger()),
                                               formatDuration(s["idle_ns"].toInteger()))),
                     qPrintable(streams));
        }

        window.state()->setSelectedRange(std::nullopt);
        QCOMPARE(panel->count(), 0);
    }

    void listsTheRangesPythonLinesAsTheCliDoes() {
        const QString trace = QStringLiteral(STACKLINE_EXAMPLE_DIR "/example.pt.trace.json");
        MainWindow window;
        QVERIFY(openTrace(window, trace));
        const ViewedTrace& doc = *window.document();
        const int64_t origin = stackline::traceOriginNs(doc.events());
        // The first half of the trace, in whole microseconds from the origin.
        const int64_t endUs = (doc.tracks.endNs() - origin) / 2000;
        QByteArray out;
        QVERIFY(runCli({"summary", trace, "--range", QStringLiteral("0:%1").arg(endUs), "--json"},
                       &out));
        const QJsonObject cli = QJsonDocument::fromJson(out).object();
        const QJsonArray lines = cli["gpu_by_python_line"].toObject()["lines"].toArray();
        QVERIFY(!lines.isEmpty());

        SelectionPanel* panel = window.panel<SelectionPanel>();
        QCOMPARE(panel->lines()->count(), 0);
        window.state()->setSelectedRange(RangeSelection{{origin, origin + endUs * 1000}, {}});
        HotspotsModel* model = panel->linesModel();
        QCOMPARE(model->rowCount(), lines.size());  // fewer than the CLI's --top default
        QVERIFY(model->hotspots()->annotatedGpuUs < doc.hotspots.annotatedGpuUs);
        for (int i = 0; i < lines.size(); ++i) {
            const QJsonObject want = lines[i].toObject();
            const stackline::SourceLine& got = model->line(i);
            QCOMPARE(QString::fromStdString(got.file), want["file"].toString());
            QCOMPARE(got.line, want["line"].toInt());
            QCOMPARE(QString::fromStdString(got.function), want["function"].toString());
            QCOMPARE(qint64(std::llround(got.selfUs * 1000)), want["self_ns"].toInteger());
            QCOMPARE(qint64(std::llround(got.totalUs * 1000)), want["total_ns"].toInteger());
            QCOMPARE(qint64(got.launches), want["launches"].toInteger());
            QCOMPARE(model->index(i, HotspotsModel::Self).data().toString(),
                     formatMicroseconds(got.selfUs));
        }

        // Choosing a line highlights its kernels and asks for its source.
        QSignalSpy source(window.state(), &ViewerState::sourceRequested);
        panel->lines()->activateSourceRow(0);
        QCOMPARE(source.size(), 1);
        QCOMPARE(source.at(0).at(0).toString(), lines[0].toObject()["file"].toString());
        QCOMPARE(source.at(0).at(1).toInt(), lines[0].toObject()["line"].toInt());
        QCOMPARE(window.state()->highlighted(), model->line(0).rows);

        window.state()->setSelectedRange(std::nullopt);
        QCOMPARE(panel->lines()->count(), 0);
    }
};

QTEST_MAIN(TstSelectionPanel)
#include "tst_selection_panel.moc"
