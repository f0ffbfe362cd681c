// Output errors: a missing or unwritable folder, a full disk, the input as the output
// without --in-place exit 1 and leave no output file (nor a temporary one), the input unchanged.
// Run through stackline-cli as a user runs it.
#include <unistd.h>

#include <QTemporaryDir>
#include <QTest>

#include "base_trace.h"
#include "test_support.h"

using namespace stackline;
using namespace stackline::test;

class TstOutputErrors : public QObject {
    Q_OBJECT
private slots:
    void outputErrors_data() {
        stringTable<3>(
            {
                "out",      // relative to the folder unless absolute
                "report",   // "" for none
                "message",  // expected after "stackline-cli: "; %1 the folder
            },
            {
                {"folder does not exist", "missing/out.json", "",
                 "%1/missing/out.json: cannot create the output in"},
                {"folder is a file", "t.json/out.json", "",
                 "%1/t.json/out.json: cannot create the output in"},
                {"folder not writable (procfs, even for root)", "/proc/stackline-out.json", "",
                 "/proc/stackline-out.json: cannot create the output in /proc/"},
                {"output is a folder", "sub", "", "%1/sub: is a directory"},
                {"full disk (/dev/full)", "/dev/full", "",
                 "/dev/full: write failed: No space left on device"},
                {"full disk, gzip output", "full.json.gz", "",
                 "%1/full.json.gz: write failed: No space left on device"},
                {"output is the input", "t.json", "",
                 "%1/t.json: refusing to overwrite the input trace"},
                {"output is the input, spelled differently", "sub/../t.json", "",
                 "%1/sub/../t.json: refusing to overwrite the input trace"},
                {"output is a link to the input", "link.json", "",
                 "%1/link.json: refusing to overwrite the input trace"},
                {"output is a hard link to the input", "hard.json", "",
                 "%1/hard.json: refusing to overwrite the input trace"},
                {"report on a full disk", "out.json", "/dev/full",
                 "/dev/full: write failed: No space left on device"},
                {"report folder does not exist", "out.json", "missing/r.json",
                 "%1/missing/r.json: cannot create the output in"},
            },
            {{"folder without write permission", "locked/out.json", "",
              "%1/locked/out.json: cannot create the output in"}});
    }
    void outputErrors() {
        QFETCH(QString, out);
        QFETCH(QString, report);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString t = dir.filePath("t.json"), k = dir.filePath("k.json");
        const QByteArray input = baseTrace();
        writeFile(t, input);
        writeFile(k, kInfo);
        QVERIFY(QDir(dir.path()).mkdir("sub") && QDir(dir.path()).mkdir("locked"));
        QVERIFY(QFile::link(t, dir.filePath("link.json")));
        QVERIFY(::link(t.toLocal8Bit().constData(),
                       dir.filePath("hard.json").toLocal8Bit().constData()) == 0);
        QVERIFY(QFile::link("/dev/full", dir.filePath("full.json.gz")));
        QVERIFY(QFile::setPermissions(dir.filePath("locked"),
                                      QFileDevice::ReadOwner | QFileDevice::ExeOwner));
        const QStringList before = folderEntries(dir.path());
        const QString outPath = out.startsWith('/') ? out : dir.filePath(out);
        QStringList args{"annotate", t, "--kernel-info", k, "-o", outPath};
        if (!report.isEmpty())
            args << "--report" << (report.startsWith('/') ? report : dir.filePath(report));
        Run r = cli(args);
        QCOMPARE(r.code, 1);
        const QString expected =
            "stackline-cli: " + (message.contains("%1") ? message.arg(dir.path()) : message);
        QVERIFY2(r.err.startsWith(expected), qPrintable(r.err + "\nexpected: " + expected));
        QCOMPARE(readFile(t), input);
        QStringList after = folderEntries(dir.path());
        // A report that cannot be written comes after the trace was: the complete trace may stay.
        if (!report.isEmpty()) after.removeAll("out.json");
        QCOMPARE(after, before);
        QCOMPARE(folderEntries(dir.filePath("sub")), QStringList());
        QVERIFY(!QFile::exists("/proc/stackline-out.json"));
        QFile::setPermissions(dir.filePath("locked"), QFileDevice::ReadOwner |
                                                          QFileDevice::WriteOwner |
                                                          QFileDevice::ExeOwner);
    }

    // --in-place is the one way to replace the input, and it does so atomically.
    void inPlaceReplacesTheInput() {
        QTemporaryDir dir;
        const QString t = dir.filePath("t.json"), k = dir.filePath("k.json");
        writeFile(t, baseTrace());
        writeFile(k, kInfo);
        Run r = cli({"annotate", t, "--kernel-info", k, "-o", t, "--in-place"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        Trace o = loadTrace(t.toStdString());
        QCOMPARE(o.slice(o.events.stackValue.at(3)), std::string_view(kStack.constData()));
        QCOMPARE(folderEntries(dir.path()), QStringList({"k.json", "t.json"}));
    }
};

QTEST_GUILESS_MAIN(TstOutputErrors)
#include "tst_output_errors.moc"
