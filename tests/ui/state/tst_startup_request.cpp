// The viewer's --range, --marker and --show-flows: the range selected is exactly the one
// `stackline-cli summary --range` summarises (same text, same zero), markers are at the same times.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "analysis/range_option.h"
#include "panels/selection_panel.h"
#include "state/startup_request.h"
#include "state/viewer_state.h"
#include "state/zoom_control.h"
#include "viewer_test_support.h"

using namespace ui_test;

namespace {

// A counter sample (ts 90 µs) before the first slice (100 µs): the trace's origin is not the
// first slice's start.
const QString kTrace = QStringLiteral(STACKLINE_DATA "/counters/hta_counters.json");

}  // namespace

class TstStartupRequest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { isolateSettings(); }

    void rangeAndMarkersUseTheZeroOfTheCliSummary() {
        const char* text = "5:65.5";  // from before the first slice
        QByteArray out;
        QVERIFY(runCli({"summary", kTrace, "--range", text, "--json"}, &out));
        const QJsonObject cli = QJsonDocument::fromJson(out).object();
        const qint64 origin = cli["origin_ns"].toInteger();
        const QJsonObject cliRange = cli["range"].toObject();

        MainWindow window;
        QVERIFY(openTrace(window, kTrace));
        std::string error;
        StartupRequest view;
        view.range = stackline::parseRangeOption(text, &error);
        QVERIFY(view.range);
        view.markers = {*stackline::parseMicroseconds("7"), *stackline::parseMicroseconds("12.25")};
        applyStartupView(*window.state(), view);

        const auto& selected = window.state()->selectedRange();
        QVERIFY(selected);
        QCOMPARE(qint64(selected->range.start), origin + cliRange["start_ns"].toInteger());
        QCOMPARE(qint64(selected->range.end), origin + cliRange["end_ns"].toInteger());
        QCOMPARE(qint64(selected->range.length()), cliRange["length_ns"].toInteger());
        QVERIFY(selected->tracks.empty());  // every track, as the CLI
        QCOMPARE(window.panel<SelectionPanel>()->count(), cli["slices"].toArray().size());
        QVERIFY(window.panel<SelectionPanel>()->count() > 0);

        const ZoomControl* zoom = window.state()->zoom();
        QCOMPARE(qint64(zoom->traceStart()), origin);  // the ruler's zero
        QCOMPARE(zoom->windowStart(), selected->range.start);
        QCOMPARE(zoom->windowEnd(), selected->range.end);
        QCOMPARE(window.state()->markers(), (std::vector<int64_t>{origin + 7000, origin + 12250}));
    }

    void appAppliesTheOptionsAndRejectsBadOnes() {
        QTemporaryDir tmp;
        const QString png = tmp.filePath(QStringLiteral("range.png"));
        QProcess p;
        p.start(QStringLiteral(STACKLINE_APP),
                {kTrace, QStringLiteral("--range"), QStringLiteral("15:65.5"),
                 QStringLiteral("--marker"), QStringLiteral("7"), QStringLiteral("--marker"),
                 QStringLiteral("12.25"), QStringLiteral("--show-flows"), QStringLiteral("--tab"),
                 QStringLiteral("selection"), QStringLiteral("--screenshot"), png});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(!QImage(png).isNull());

        for (const QStringList& bad :
             {QStringList{QStringLiteral("--range"), QStringLiteral("5")},
              QStringList{QStringLiteral("--range"), QStringLiteral("9:3")},
              QStringList{QStringLiteral("--marker"), QStringLiteral("x")}}) {
            p.start(QStringLiteral(STACKLINE_APP),
                    QStringList{kTrace, QStringLiteral("--screenshot"), png} + bad);
            QVERIFY(p.waitForFinished(60000));
            QCOMPARE(p.exitCode(), 2);
            QVERIFY2(p.readAllStandardError().contains(bad[0].toUtf8()), qPrintable(bad.join(' ')));
        }
    }
};

QTEST_MAIN(TstStartupRequest)
#include "tst_startup_request.moc"
