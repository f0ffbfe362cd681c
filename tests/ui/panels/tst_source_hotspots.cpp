// The Source pane and the Hotspots tab: a recorded path is mapped to a local folder
// (remembered per trace folder), a missing file says where it looked and shows the stack's code
// line, the bundled example's top hotspot is model.py:51 as `stackline-cli hotspots --json` says
// and selecting it highlights its kernels on the timeline, the details show a kernel's graph key
// and post/pre grad nodes, hotspots work on an annotated trace without kernel information, and
// the app opens the bundled example without arguments.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QtTest>

#include "panels/details_panel.h"
#include "panels/hotspots_panel.h"
#include "panels/source_view.h"
#include "panels/table_panel.h"
#include "shell/main_window.h"
#include "state/path_map.h"
#include "state/viewer_state.h"
#include "timeline/timeline_view.h"
#include "viewer_test_support.h"

using namespace stackline;
using namespace ui_test;

namespace {

const QString kExampleDir = QStringLiteral(STACKLINE_EXAMPLE_DIR);
const QString kExample = kExampleDir + QStringLiteral("/example.pt.trace.json");
const QString kRecorded = QStringLiteral("/home/alice/proj/model.py");

}  // namespace

class TstSourceHotspots : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        isolateSettings();
        QSettings().remove(QStringLiteral("sourcePathMaps"));
        QVERIFY(tmp_.isValid());
    }

    void sourceViewMapsRecordedPrefix() {
        QTemporaryDir src, traces;
        QVERIFY(QFile::copy(kExampleDir + QStringLiteral("/model.py"),
                            src.filePath(QStringLiteral("model.py"))));
        SourceView view;
        view.resize(800, 400);
        view.show();
        view.setTraceFolder(traces.path());
        view.showSource(kRecorded, 51);
        QVERIFY(view.isMissing());
        QVERIFY(view.messageText().contains(kRecorded));
        QVERIFY(view.messageText().contains(QStringLiteral("Map Folder")));

        view.addMapping(QStringLiteral("/home/alice/proj"), src.path());
        QVERIFY(!view.isMissing());
        QCOMPARE(view.resolvedFile(), src.filePath(QStringLiteral("model.py")));
        QCOMPARE(view.markedLine(), 51);
        const QString text = view.editor()->document()->findBlockByNumber(50).text();
        QVERIFY2(text.contains(QStringLiteral("scores.softmax")), qPrintable(text));
        QVERIFY(view.editor()->isReadOnly());
        // The marked line is scrolled into view.
        QTest::qWait(50);
        const QRect shown = view.editor()->viewport()->rect();
        const QRect line = view.editor()->cursorRect();
        QVERIFY(shown.contains(line.center()));

        // Remembered for this trace folder only.
        SourceView again;
        again.setTraceFolder(traces.path());
        again.showSource(kRecorded, 12);
        QVERIFY(!again.isMissing());
        QCOMPARE(again.markedLine(), 12);
        QTemporaryDir other;
        again.setTraceFolder(other.path());
        again.showSource(kRecorded, 12);
        QVERIFY(again.isMissing());
        QCOMPARE(pathMappings(traces.path()).size(), 1);
        QVERIFY(pathMappings(other.path()).isEmpty());
    }

    void missingFileShowsMessageAndCodeLine() {
        QTemporaryDir traces;
        SourceView view;
        view.setTraceFolder(traces.path());
        view.showSource(QStringLiteral("/nowhere/at/all/train.py"), 7,
                        QStringLiteral("    x = self.fc1(x)"));
        QVERIFY(view.isMissing());
        QVERIFY(view.messageText().contains(QStringLiteral("/nowhere/at/all/train.py")));
        QVERIFY(view.messageText().contains(QStringLiteral("/nowhere/at/all")));
        QVERIFY(view.editor()->toPlainText().contains(QStringLiteral("x = self.fc1(x)")));
        QVERIFY(view.editor()->textCursor().block().text().contains(QStringLiteral("fc1")));
    }

    void prefixMatchesWholeFolders() {
        const QList<PathMapping> maps = {{QStringLiteral("/a/b"), QStringLiteral("/x")}};
        QCOMPARE(candidatePaths(QStringLiteral("/a/b/c.py"), maps),
                 QStringList{QStringLiteral("/x/c.py")});
        QVERIFY(candidatePaths(QStringLiteral("/a/bc.py"), maps).isEmpty());
    }

    void topHotspotHighlightsItsKernels() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openTrace(w, kExample));
        HotspotsPanel* panel = w.panel<HotspotsPanel>();
        QVERIFY(panel->count() > 0);
        // The table shows self time, largest first.
        auto* proxy = panel->table()->proxy();
        const int top = proxy->mapToSource(proxy->index(0, 0)).row();
        const SourceLine& line = panel->model()->line(top);
        QCOMPARE(QString::fromStdString(line.file), kRecorded);
        QCOMPARE(line.line, 51);
        for (int r = 1; r < proxy->rowCount(); ++r)
            QVERIFY(panel->model()->line(proxy->mapToSource(proxy->index(r, 0)).row()).selfUs <=
                    line.selfUs);

        // stackline-cli agrees.
        QByteArray out;
        QVERIFY(runCli({QStringLiteral("hotspots"), kExample, QStringLiteral("--json")}, &out));
        const QJsonObject json = QJsonDocument::fromJson(out).object();
        const QJsonObject first = json.value(QStringLiteral("lines")).toArray().at(0).toObject();
        QCOMPARE(first.value(QStringLiteral("file")).toString(), kRecorded);
        QCOMPARE(first.value(QStringLiteral("line")).toInt(), 51);
        QCOMPARE(first.value(QStringLiteral("self_us")).toDouble(), line.selfUs);
        QCOMPARE(qulonglong(first.value(QStringLiteral("launches")).toInteger()),
                 qulonglong(line.launches));

        // Selecting the line highlights its kernels on the timeline and lists them.
        w.showTab(QStringLiteral("hotspots"));
        panel->selectVisualRow(0);
        std::vector<uint32_t> rows = w.state()->highlighted();
        QCOMPARE(rows.size(), size_t(line.launches));
        QCOMPARE(rows, line.rows);
        for (uint32_t r : rows) {
            QVERIFY(w.document()->isKernel(r));
            QVERIFY(w.document()->events().nameOf(r).find("softmax") != std::string_view::npos);
        }
        QCOMPARE(panel->kernelList()->count(), 2);
        // ... and shows its source (mapped? the example's folder is not; the code line is shown).
        QCOMPARE(w.panel<SourceView>()->line(), 51);

        // The highlight is painted: the outline colour around a highlighted kernel.
        QTest::qWait(50);
        const QImage shot = w.timeline()->viewport()->grab().toImage();
        const QRect r = w.timeline()->eventRect(rows.front()).adjusted(-3, -3, 3, 3);
        QVERIFY(!r.isEmpty());
        bool outlined = false;
        for (int y = std::max(0, r.top()); y <= std::min(shot.height() - 1, r.bottom()); ++y)
            for (int x = std::max(0, r.left()); x <= std::min(shot.width() - 1, r.right()); ++x) {
                const QColor c = shot.pixelColor(x, y);
                outlined |=
                    std::abs(c.red() - 230) < 20 && std::abs(c.green() - 120) < 25 && c.blue() < 40;
            }
        QVERIFY(outlined);

        // A kernel in the list selects its first instance.
        QListWidget* list = panel->kernelList();
        QTest::mouseClick(list->viewport(), Qt::LeftButton, Qt::NoModifier,
                          list->visualItemRect(list->item(0)).center());
        QVERIFY(std::find(rows.begin(), rows.end(), w.state()->selectedRow(w.document())) !=
                rows.end());

        // Clearing the selection clears the highlight.
        panel->selectVisualRow(-1);
        QVERIFY(w.state()->highlighted().empty());
    }

    void detailsShowGraphKeyAndNodes() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openTrace(w, kExample));
        const ViewedTrace& doc = *w.document();
        uint32_t kernel = kNoRow;
        for (uint32_t r = 0; r < doc.events().size() && kernel == kNoRow; ++r)
            if (doc.events().nameOf(r) == "triton_red_fused__softmax_4" && doc.isKernel(r))
                kernel = r;
        QVERIFY(kernel != kNoRow);
        w.state()->focus(kernel);
        const QString text = w.details()->provenanceText();
        QVERIFY2(text.contains(QStringLiteral("Torch-Compiled Region: 0/0")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("False")));
        QVERIFY(text.contains(QStringLiteral("post_grad_nodes")));
        QVERIFY(text.contains(QStringLiteral("amax, sub_1, exp, sum_1, div")));
        QVERIFY(text.contains(QStringLiteral("pre_grad_nodes")));
        QVERIFY(text.contains(QStringLiteral("softmax")));

        // Clicking a frame opens the Source tab at its line.
        QListWidget* stack = w.details()->stackList();
        QVERIFY(stack->count() > 0);
        QTest::mouseClick(stack->viewport(), Qt::LeftButton, Qt::NoModifier,
                          stack->visualItemRect(stack->item(stack->count() - 1)).center());
        QCOMPARE(w.tabs()->currentWidget(), static_cast<QWidget*>(w.panel<SourceView>()));
        QCOMPARE(w.panel<SourceView>()->recordedFile(), kRecorded);
        QCOMPARE(w.panel<SourceView>()->line(), 51);
    }

    void hotspotsOnAnnotatedTrace() {
        const QString annotated = tmp_.filePath(QStringLiteral("annotated.json"));
        QVERIFY(runCli({QStringLiteral("annotate"), kExample, QStringLiteral("-o"), annotated}));
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openTrace(w, annotated));
        QVERIFY(w.document()->kernelInfoPath.isEmpty());
        auto* proxy = w.panel<HotspotsPanel>()->table()->proxy();
        QVERIFY(proxy->rowCount() > 0);
        const SourceLine& top =
            w.panel<HotspotsPanel>()->model()->line(proxy->mapToSource(proxy->index(0, 0)).row());
        QCOMPARE(top.line, 51);
        QCOMPARE(QString::fromStdString(top.file), kRecorded);
    }

    void appOpensBundledExample() {
        const QString png = tmp_.filePath(QStringLiteral("example.png"));
        QProcess app;
        app.start(QStringLiteral(STACKLINE_APP),
                  {QStringLiteral("--hotspot"), QStringLiteral("1"), QStringLiteral("--tab"),
                   QStringLiteral("source"), QStringLiteral("--screenshot"), png});
        QVERIFY(app.waitForFinished(60000));
        QCOMPARE(app.exitCode(), 0);
        QVERIFY(QImage(png).width() > 0);

        // Several traces open in one window, which a screenshot shows; in separate windows, the
        // screenshot options would take one.
        QProcess many;
        many.start(QStringLiteral(STACKLINE_APP),
                   {kExample, kExample, QStringLiteral("--screenshot"), png});
        QVERIFY(many.waitForFinished(60000));
        QCOMPARE(many.exitCode(), 0);
        QProcess separate;
        separate.start(QStringLiteral(STACKLINE_APP),
                       {kExample, kExample, QStringLiteral("--separate-windows"),
                        QStringLiteral("--screenshot"), png});
        QVERIFY(separate.waitForFinished(60000));
        QCOMPARE(separate.exitCode(), 2);
    }

private:
    QTemporaryDir tmp_;
};

QTEST_MAIN(TstSourceHotspots)
#include "tst_source_hotspots.moc"
