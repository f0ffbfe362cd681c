// The headless CLI as a user runs it: exit codes, messages naming the file, reports, no partial
// outputs.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>

#include "base_trace.h"
#include "test_support.h"

using nlohmann::json;
using stackline::test::baseTrace;
using stackline::test::cli;
using stackline::test::kInfo;
using stackline::test::Run;
using stackline::test::writeFile;

class TstCli : public QObject {
    Q_OBJECT
private slots:
    void annotatesAndReports() {
        QTemporaryDir dir;
        writeFile(dir.filePath("t.json"), baseTrace());
        writeFile(dir.filePath("k.json"), kInfo);
        Run r = cli({"annotate", dir.filePath("t.json"), "--kernel-info", dir.filePath("k.json"),
                     "-o", dir.filePath("out.json.gz"), "--report", dir.filePath("r.json")});
        QCOMPARE(r.code, 0);
        json out = json::parse(
            stackline::TraceBytes::open(dir.filePath("out.json.gz").toStdString()).text());
        QVERIFY(out["traceEvents"][3]["args"]["stack"] == json::parse("[\"m.py:1\"]"));
        json report = json::parse(stackline::test::readFile(dir.filePath("r.json").toStdString()));
        QCOMPARE(report["annotated_kernels"].get<int>(), 1);
        QCOMPARE(report["unresolved_kernels"].size(), std::size_t(1));
        QVERIFY(report["unresolved_kernels"][0]["name"] == json("triton_missing_1"));
        QCOMPARE(report["unresolved_kernels"][0]["uid"].get<int>(), 7);
        QVERIFY(report["warnings"].is_array() && report["errors"].is_array());
    }
    void findsKernelInfoBesideTheTrace() {
        QTemporaryDir dir;
        writeFile(dir.filePath("run.pt.trace.json"), baseTrace());
        writeFile(dir.filePath("run.pt.trace.kernel_info.json"), kInfo);
        Run r = cli({"summary", dir.filePath("run.pt.trace.json"), "--json"});
        QCOMPARE(r.code, 0);
        json s = json::parse(r.out.toStdString());
        QCOMPARE(s["events"].get<int>(), 9);
        QCOMPARE(s["kernels"].get<int>(), 2);
        QCOMPARE(s["compiled_regions"].get<int>(), 1);
        QCOMPARE(s["annotated_kernels"].get<int>(), 1);
        QCOMPARE(s["unresolved_kernels"].get<int>(), 1);
    }
    void badInputExitsWithTwoAndNamesTheFile() {
        QTemporaryDir dir;
        writeFile(dir.filePath("bad.json"), "{\"traceEvents\": [\n{\"name\": ");
        writeFile(dir.filePath("k.json"), kInfo);
        Run r = cli({"annotate", dir.filePath("bad.json"), "--kernel-info", dir.filePath("k.json"),
                     "-o", dir.filePath("out.json")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(dir.filePath("bad.json") + ": line 2"), qPrintable(r.err));
        QVERIFY(!QFile::exists(dir.filePath("out.json")));
        Run missing = cli({"summary", dir.filePath("nope.json")});
        QCOMPARE(missing.code, 2);
        QVERIFY(missing.err.contains("nope.json"));
        writeFile(dir.filePath("t.json"), baseTrace());
        writeFile(dir.filePath("list.json"), "[1, 2]");
        Run badInfo = cli({"annotate", dir.filePath("t.json"), "--kernel-info",
                           dir.filePath("list.json"), "-o", dir.filePath("out.json")});
        QCOMPARE(badInfo.code, 2);
        QVERIFY(badInfo.err.contains("list.json"));
        QCOMPARE(cli({"frobnicate", "x"}).code, 2);
    }
    // A trace rewritten while it is annotated (as PyTorch's _add_inductor_provenance does in
    // place, or a new profile saved over it): exit 2 naming the file, and no output at all.
    void inputChangedDuringTheRunExitsWithTwo_data() {
        QTest::addColumn<QString>("change");
        QTest::newRow("truncated") << "truncate";
        QTest::newRow("same size, rewritten in place") << "rewrite";
        QTest::newRow("replaced by rename") << "replace";
    }
    void inputChangedDuringTheRunExitsWithTwo() {
        QFETCH(QString, change);
        QTemporaryDir dir;
        const QString trace = dir.filePath("t.json"), flag = dir.filePath("loaded");
        writeFile(trace, baseTrace());
        writeFile(dir.filePath("k.json"), kInfo);
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("STACKLINE_TEST_PAUSE_BEFORE_EXPORT", flag);
        p.setProcessEnvironment(env);
        p.start(STACKLINE_CLI, {"annotate", trace, "--kernel-info", dir.filePath("k.json"), "-o",
                                dir.filePath("out.json")});
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(flag), 60000);
        QByteArray text = baseTrace();
        if (change == "truncate") {
            writeFile(trace, "");
        } else if (change == "rewrite") {
            std::replace(text.begin(), text.end(), '1', '2');
            QFile f(trace);  // the same inode, its bytes overwritten
            QVERIFY(f.open(QIODevice::ReadWrite));
            QCOMPARE(f.write(text.data(), qint64(text.size())), qint64(text.size()));
        } else {
            writeFile(dir.filePath("new.json"), text + " ");
            QVERIFY(QFile::rename(dir.filePath("new.json"), trace) ||
                    (QFile::remove(trace) && QFile::rename(dir.filePath("new.json"), trace)));
        }
        QVERIFY(QFile::remove(flag));
        QVERIFY(p.waitForFinished(60000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 2);
        QVERIFY2(err.contains(trace + ": the file ") && err.contains("since it was opened"),
                 qPrintable(err));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).filter("out"),
                 QStringList());
    }
    void outputErrorsExitWithOne() {
        QTemporaryDir dir;
        writeFile(dir.filePath("t.json"), baseTrace());
        writeFile(dir.filePath("k.json"), kInfo);
        QStringList base = {"annotate", dir.filePath("t.json"), "--kernel-info",
                            dir.filePath("k.json"), "-o"};
        QCOMPARE(cli(base + QStringList{dir.filePath("missing/out.json")}).code, 1);
        QCOMPARE(cli(base + QStringList{"/dev/full"}).code, 1);
        Run same = cli(base + QStringList{dir.filePath("t.json")});
        QCOMPARE(same.code, 1);
        QVERIFY(same.err.contains("refusing to overwrite"));
        QCOMPARE(stackline::test::readFile(dir.filePath("t.json").toStdString()),
                 std::string(baseTrace()));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 2);
    }
};

QTEST_GUILESS_MAIN(TstCli)
#include "tst_cli.moc"
