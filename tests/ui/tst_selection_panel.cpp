// The Selection tab shows, for a range set in the viewer, the figures of
// `stackline-cli summary --range --json` (the core's range summary).
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QTest>

#include "format.h"
#include "range_summary.h"
#include "selection_panel.h"
#include "viewer_state.h"
#include "viewer_test_support.h"

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
        SelectionPanel* panel = window.selection();
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
};

QTEST_MAIN(TstSelectionPanel)
#include "tst_selection_panel.moc"
