// The viewer when the open trace's file changes on disk (the reproduction: open a trace, truncate
// it, click a few slices; and a same-size rewrite): it keeps running and keeps what it shows, the
// details panel does not read the changed bytes, a banner offers to reload (which reopens the file
// as it is now), and an export is refused with a message.
#include <QFile>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

#include "panels/details_panel.h"
#include "shell/main_window.h"
#include "shell/reload_banner.h"
#include "state/trace_file_watcher.h"
#include "state/viewer_state.h"
#include "viewer_test_support.h"

using namespace stackline;
using namespace ui_test;

namespace {

const QString kTrace = QStringLiteral(STACKLINE_TEST_DATA "/compiled_step.pt.trace.json");
const QString kKernelInfo =
    QStringLiteral(STACKLINE_TEST_DATA "/compiled_step.pt.trace.kernel_info.json");

// Every item's text of the details panel's argument tree.
QString argsText(DetailsPanel* details) {
    QString text;
    auto* tree = details->findChild<QTreeWidget*>();
    for (QTreeWidgetItemIterator it(tree); *it; ++it)
        text += (*it)->text(0) + QLatin1Char(' ') + (*it)->text(1) + QLatin1Char('\n');
    return text;
}

}  // namespace

class TstFileChanged : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { isolateSettings(); }

    void changedFileKeepsViewerRunningAndOffersReload_data() {
        QTest::addColumn<QString>("how");
        QTest::newRow("truncated (: > trace.json)") << "truncate";
        QTest::newRow("rewritten in place, same size") << "rewrite";
    }
    void changedFileKeepsViewerRunningAndOffersReload() {
        QFETCH(QString, how);
        QTemporaryDir dir;
        const QString trace = dir.filePath(QStringLiteral("step.pt.trace.json"));
        QVERIFY(QFile::copy(kTrace, trace));
        QVERIFY(QFile::copy(kKernelInfo,
                            dir.filePath(QStringLiteral("step.pt.trace.kernel_info.json"))));
        MainWindow window;
        window.show();
        QVERIFY(openTrace(window, trace));
        const ViewedTrace* doc = window.document();
        const QString eventsBefore = window.countsText();
        QVERIFY(!window.reloadBanner()->isVisible());

        QByteArray bytes = readAll(trace);
        QTest::qWait(20);  // a later modification time on coarse file systems
        QFile f(trace);
        if (how == "truncate") {
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        } else {
            bytes.replace("\"ts\"", "\"tS\"");  // same size: other bytes at the same offsets
            QVERIFY(f.open(QIODevice::ReadWrite));
            QCOMPARE(f.write(bytes), qint64(bytes.size()));
        }
        f.close();

        // Click a few slices: every one with args shows why they are not read, none crashes.
        const auto& events = doc->events();
        int withArgs = 0;
        for (uint32_t row = 0; row < events.size() && withArgs < 5; ++row) {
            if (events.argsSpan(row).empty()) continue;
            window.state()->select(row);
            ++withArgs;
            QVERIFY2(argsText(window.details()).contains(QStringLiteral("reload the trace")),
                     qPrintable(argsText(window.details())));
        }
        QCOMPARE(withArgs, 5);
        QCOMPARE(window.document(), doc);  // what is shown stays
        QCOMPARE(window.countsText(), eventsBefore);

        // The watcher notices (QFileSystemWatcher; checked at once here) and offers to reload.
        QTRY_VERIFY_WITH_TIMEOUT(window.reloadBanner()->isVisible(), 5000);
        QVERIFY2(window.reloadBanner()->text().contains(trace),
                 qPrintable(window.reloadBanner()->text()));

        // An export from the changed file is refused, with a message and no output.
        QSignalSpy exported(&window, &MainWindow::exportFinished);
        const QString out = dir.filePath(QStringLiteral("out.json"));
        window.exportTo(out);
        QCOMPARE(exported.size(), 1);
        QVERIFY(!exported[0][0].toBool());
        QVERIFY2(window.lastError().contains(QStringLiteral("Reload the trace")),
                 qPrintable(window.lastError()));
        QVERIFY(!QFile::exists(out));

        // Reload: the file as it is now (a truncated one cannot be opened: the shown trace stays).
        QSignalSpy loaded(&window, &MainWindow::documentLoaded);
        QSignalSpy failed(&window, &MainWindow::loadFailed);
        window.reloadBanner()->reloadButton()->click();
        if (how == "truncate") {
            QVERIFY(failed.wait(20000));
            QCOMPARE(window.document(), doc);
        } else {
            QVERIFY(loaded.wait(20000));
            QVERIFY(window.document() != doc);
            QVERIFY(!window.reloadBanner()->isVisible());
            QCOMPARE(window.document()->trace->changedOnDisk(), std::string());
        }
    }

    // A new profile saved over the trace by rename replaces the watched file: still noticed.
    void replacedByRenameIsNoticed() {
        QTemporaryDir dir;
        const QString trace = dir.filePath(QStringLiteral("run.json"));
        QVERIFY(QFile::copy(kTrace, trace));
        MainWindow window;
        QVERIFY(openTrace(window, trace));
        QVERIFY(QFile::copy(kTrace, trace + QStringLiteral(".new")));
        QVERIFY(::rename(QFile::encodeName(trace + QStringLiteral(".new")),
                         QFile::encodeName(trace)) == 0);
        QTRY_VERIFY_WITH_TIMEOUT(window.reloadBanner()->isVisibleTo(&window), 5000);
        QVERIFY(window.reloadBanner()->text().contains(QStringLiteral("replaced")));
    }
};

QTEST_MAIN(TstFileChanged)
#include "tst_file_changed.moc"
