// A trace file rewritten while it is open (PyTorch's _add_inductor_provenance rewrites it in
// place; users save a new profile over it): reading its mapped bytes never crashes, the change is
// reported naming the file, and an export from it is refused without leaving an output.
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include "base_trace.h"
#include "test_support.h"

using namespace stackline;
using stackline::test::baseTrace;
using stackline::test::folderEntries;
using stackline::test::kInfo;
using stackline::test::writeFile;

namespace {

// baseTrace with enough events after it to span several pages of the mapping.
QByteArray pagesLongTrace() {
    QByteArray extra;
    for (int i = 0; i < 400; ++i) {
        if (i) extra += ",\n";
        extra += R"({"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 2, "ts": )" +
                 QByteArray::number(200 + i) + R"(, "dur": 1, "args": {"seq": )" +
                 QByteArray::number(i) + "}}";
    }
    return baseTrace(extra);
}

// Changes the file at path as the row says.
void change(const QString& how, const QString& path) {
    QByteArray text = pagesLongTrace();
    if (how == "truncate") {
        writeFile(path, "");
    } else if (how == "rewrite") {  // same size, same inode, other bytes
        std::replace(text.begin(), text.end(), '1', '2');
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadWrite));
        QCOMPARE(f.write(text), qint64(text.size()));
    } else if (how == "replace") {  // a new file renamed over it
        writeFile(path + ".new", text + " ");
        QVERIFY(::rename(QFile::encodeName(path + ".new"), QFile::encodeName(path)) == 0);
    } else {
        QVERIFY(QFile::remove(path));
    }
}

void changeRows() {
    QTest::addColumn<QString>("how");
    QTest::addColumn<QString>("said");
    QTest::newRow("truncated") << "truncate"
                               << "changed size from";
    QTest::newRow("rewritten in place, same size") << "rewrite"
                                                   << "was modified";
    QTest::newRow("replaced by rename") << "replace"
                                        << "was replaced by another file";
    QTest::newRow("removed") << "remove"
                             << "no longer exists";
}

}  // namespace

class TstChangedInput : public QObject {
    Q_OBJECT
private slots:
    void unchangedFileIsNotReported() {
        QTemporaryDir dir;
        writeFile(dir.filePath("t.json"), pagesLongTrace());
        Trace t = loadTrace(dir.filePath("t.json").toStdString());
        QCOMPARE(t.changedOnDisk(), std::string());
        QCOMPARE(stackline::test::traceFrom(R"({"traceEvents": []})").changedOnDisk(),
                 std::string());
    }

    // The truncated pages read as zeros instead of raising SIGBUS (which kills the viewer).
    void truncatedMappingReadsWithoutCrashing() {
        QTemporaryDir dir;
        const QString path = dir.filePath("t.json");
        writeFile(path, pagesLongTrace());
        Trace t = loadTrace(path.toStdString());
        QVERIFY(!t.bytes.wasCompressed());
        writeFile(path, "");
        std::string_view text = t.text();
        std::size_t nonZero = 0;
        for (char c : text) nonZero += c != 0;  // every page, each one past the new end
        QCOMPARE(nonZero, std::size_t(0));
        const std::string why = t.changedOnDisk();
        QCOMPARE(why, path.toStdString() + ": the file was truncated since it was opened");
        QVERIFY_THROWS_EXCEPTION(InputError, t.throwIfChanged());
    }

    void changeIsReportedNamingTheFile_data() { changeRows(); }
    void changeIsReportedNamingTheFile() {
        QFETCH(QString, how);
        QFETCH(QString, said);
        QTemporaryDir dir;
        const QString path = dir.filePath("t.json");
        writeFile(path, pagesLongTrace());
        Trace t = loadTrace(path.toStdString());
        QTest::qWait(20);  // a later modification time, on file systems that keep it coarse
        change(how, path);
        const std::string why = t.changedOnDisk();
        QVERIFY2(why.find(path.toStdString() + ": the file ") == 0, why.c_str());
        QVERIFY2(why.find(said.toStdString()) != std::string::npos, why.c_str());
    }

    // Bytes at the old offsets belong to another trace now: no output at all, no temporary file.
    void exportFromChangedFileIsRefused_data() { changeRows(); }
    void exportFromChangedFileIsRefused() {
        QFETCH(QString, how);
        QTemporaryDir dir;
        const QString path = dir.filePath("t.json");
        writeFile(path, pagesLongTrace());
        Trace t = loadTrace(path.toStdString());
        Provenance p = runProvenance(t, stackline::test::kernelInfoFrom(kInfo.toStdString()));
        QTest::qWait(20);
        change(how, path);
        for (const char* out : {"out.json", "out.json.gz"}) {
            try {
                exportTrace(t, p, dir.filePath(out).toStdString());
                QFAIL("exported from a changed file");
            } catch (const InputError& e) {
                QVERIFY2(std::string(e.what()).find(path.toStdString()) == 0, e.what());
            }
        }
        const QStringList left = folderEntries(dir.path()).filter("out");
        QCOMPARE(left, QStringList());
    }
};

QTEST_GUILESS_MAIN(TstChangedInput)
#include "tst_changed_input.moc"
