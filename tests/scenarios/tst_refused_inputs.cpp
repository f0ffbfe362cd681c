// Refused inputs: what cannot be a trace or kernel information, what cannot be read, and
// bad command lines exit 2 with a message naming the file (and the position: line, column and
// byte for traces, byte for kernel information), leave no output and no report file, nothing else
// in the folder, and the input unchanged. Also the inputs at that boundary that look odd but are
// traces: processed, exit 0.
//
// Unreadable input: the tests run as root in CI, where chmod 000 does not stop reading, so the
// rows use a folder and a path through a regular file (ENOTDIR); the chmod 000 row runs only when
// the tests do not run as root. A FIFO is not used: opening one without a writer blocks.
#include <QTemporaryDir>
#include <QTest>

#include "base_trace.h"
#include "test_support.h"

using namespace stackline;
using namespace stackline::test;

namespace {

QByteArray dataFile(const QString& name) {
    return readFile(QStringLiteral(STACKLINE_TEST_DATA "/malformed/") + name);
}

}  // namespace

class TstRefusedInputs : public QObject {
    Q_OBJECT
private slots:
    // ---- What cannot be a trace: "FILE: line L, column C (byte B): reason". ----
    void refusedTraces_data();
    void refusedTraces() {
        QFETCH(QByteArray, trace);
        QFETCH(QString, where);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        const QString t = dir.filePath("t.json"), k = dir.filePath("k.json");
        writeFile(t, trace);
        writeFile(k, kInfo);
        const QStringList before = folderEntries(dir.path());
        for (const QStringList& args :
             {QStringList{"annotate", t, "--kernel-info", k, "-o", dir.filePath("out.json"),
                          "--report", dir.filePath("r.json")},
              QStringList{"summary", t, "--kernel-info", k}}) {
            Run r = cli(args);
            QCOMPARE(r.code, 2);
            const QString expected = "stackline-cli: " + t + ": " + where + ": ";
            QVERIFY2(r.err.startsWith(expected),
                     qPrintable(r.err.left(400) + "\nexpected: " + expected));
            QVERIFY2(r.err.contains(reason), qPrintable(r.err.left(400)));
            QCOMPARE(folderEntries(dir.path()), before);  // no output, no report, no temporary file
            QCOMPARE(readFile(t), trace);
        }
    }

    // ---- gzip input that is not a complete gzip stream, or not a trace once inflated. ----
    void refusedGzip_data();
    void refusedGzip() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        QVERIFY(!bytes.isEmpty());
        QTemporaryDir dir;
        const QString t = dir.filePath("t.json.gz"), k = dir.filePath("k.json");
        writeFile(t, bytes);
        writeFile(k, kInfo);
        Run r = cli({"annotate", t, "--kernel-info", k, "-o", dir.filePath("out.json"), "--report",
                     dir.filePath("r.json")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.startsWith("stackline-cli: " + t + ": " + message), qPrintable(r.err));
        QCOMPARE(folderEntries(dir.path()), QStringList({"k.json", "t.json.gz"}));
        QCOMPARE(readFile(t), bytes);
    }

    // ---- Inputs that look odd but are traces: processed, exit 0. ----
    void acceptedOddities_data();
    void acceptedOddities() {
        QFETCH(QByteArray, trace);
        QFETCH(int, events);
        QTemporaryDir dir;
        const QString t = dir.filePath("t.json"), k = dir.filePath("k.json"),
                      out = dir.filePath("out.json");
        writeFile(t, trace);
        writeFile(k, kInfo);
        Run r = cli({"annotate", t, "--kernel-info", k, "-o", out});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(readFile(t), trace);
        Trace o = loadTrace(out.toStdString());
        QCOMPARE(int(o.events.size()), events);
        if (events == 9)
            QCOMPARE(o.slice(o.events.stackValue.at(3)), std::string_view(kStack.constData()));
    }

    // ---- Kernel information that cannot be read: "KINFO: byte B: reason". ----
    void refusedKernelInfo_data();
    void refusedKernelInfo() {
        QFETCH(QByteArray, kinfo);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString t = dir.filePath("t.json"), k = dir.filePath("k.json");
        writeFile(t, baseTrace());
        writeFile(k, kinfo);
        Run r = cli({"annotate", t, "--kernel-info", k, "-o", dir.filePath("out.json"), "--report",
                     dir.filePath("r.json")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.startsWith("stackline-cli: " + k + ": " + message),
                 qPrintable(r.err.left(400)));
        QCOMPARE(folderEntries(dir.path()), QStringList({"k.json", "t.json"}));
        QCOMPARE(readFile(k), kinfo);
        QCOMPARE(cli({"summary", t, "--kernel-info", k}).code, 2);
    }

    // ---- Inputs that do not exist or cannot be read: naming the file. ----
    void unreadableInputs_data();
    void unreadableInputs() {
        QFETCH(QString, trace);
        QFETCH(QString, kinfo);
        QFETCH(QString, message);
        QTemporaryDir dir;
        writeFile(dir.filePath("t.json"), baseTrace());
        writeFile(dir.filePath("k.json"), kInfo);
        QVERIFY(QDir(dir.path()).mkdir("sub"));
        writeFile(dir.filePath("locked.json"), baseTrace());
        QVERIFY(QFile::setPermissions(dir.filePath("locked.json"), QFileDevice::Permissions()));
        const QStringList before = folderEntries(dir.path());
        Run r = cli({"annotate", dir.filePath(trace), "--kernel-info", dir.filePath(kinfo), "-o",
                     dir.filePath("out.json")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.startsWith("stackline-cli: " + dir.path() + "/" + message),
                 qPrintable(r.err));
        QCOMPARE(folderEntries(dir.path()), before);
        QCOMPARE(readFile(dir.filePath("t.json")), baseTrace());
    }

    // ---- Bad command lines: exit 2 with the usage, never a crash. ----
    void badArguments_data();
    void badArguments() {
        QFETCH(QStringList, args);
        QTemporaryDir dir;
        writeFile(dir.filePath("t.json"), baseTrace());
        writeFile(dir.filePath("k.json"), kInfo);
        for (QString& a : args) {
            if (a == "T") a = dir.filePath("t.json");
            if (a == "K") a = dir.filePath("k.json");
            if (a == "O") a = dir.filePath("out.json");
        }
        Run r = cli(args);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("usage") || r.err.contains("stackline-cli"), qPrintable(r.err));
        QCOMPARE(folderEntries(dir.path()), QStringList({"k.json", "t.json"}));
    }
};

// moc 6.4 misreads raw string literals that hold an odd number of quotes: it skips the tables.
#ifndef Q_MOC_RUN

void TstRefusedInputs::refusedTraces_data() {
    QTest::addColumn<QByteArray>("trace");
    QTest::addColumn<QString>("where");  // expected right after "FILE: "
    QTest::addColumn<QString>("reason");
    auto row = [](const char* name, const QByteArray& t, const QString& where,
                  const QString& reason) { QTest::newRow(name) << t << where << reason; };
    row("empty file", "", "line 1, column 1 (byte 0)", "the file is empty");
    row("only whitespace", " \n\t\r\n", "line 3, column 1 (byte 5)", "the file is empty");
    row("only a BOM", "\xEF\xBB\xBF", "line 1, column 4 (byte 3)", "the file is empty");
    row("truncated in a key",
        R"({"traceEvents": [{"name": "x"},)"
        "\n"
        R"( {"na)",
        "line 2, column 6 (byte 37)", "unterminated string");
    row("truncated after [", R"({"traceEvents": [)", "line 1, column 18 (byte 17)",
        "invalid number");
    row("truncated in a number", R"({"traceEvents": [{"ts": 12)", "line 1, column 27 (byte 26)",
        "expected ',' or '}' in an object");
    row("truncated in nested args", R"({"traceEvents": [{"args": {"a": [1, 2)",
        "line 1, column 38 (byte 37)", "expected ',' or ']' in an array");
    row("truncated before the last }", R"({"traceEvents": [])", "line 1, column 19 (byte 18)",
        "expected ',' or '}' in an object");
    row("truncated after a key", R"({"traceEvents")", "line 1, column 15 (byte 14)",
        "expected ':' after an object key");
    row("truncated event list", baseTrace().left(700), "line 9, column 19 (byte 700)",
        "invalid number");
    row("random bytes", dataFile("random.bin"), "line 1, column 1 (byte 0)",
        "not a JSON trace: the top level is not an object");
    row("top level array", R"([{"ph": "X"}])", "line 1, column 1 (byte 0)",
        R"(the top level is an array; a Kineto trace is an object with "traceEvents")");
    row("top level number", "42", "line 1, column 1 (byte 0)", "the top level is not an object");
    row("top level string", R"("traceEvents")", "line 1, column 1 (byte 0)",
        "the top level is not an object");
    row("top level null", "null", "line 1, column 1 (byte 0)", "the top level is not an object");
    row("no traceEvents", R"({"events": []})", "line 1, column 15 (byte 14)",
        R"(not a trace: the top-level object has no "traceEvents")");
    row("empty object", "{}", "line 1, column 3 (byte 2)", R"(no "traceEvents")");
    row("traceEvents an object", R"({"traceEvents": {}})", "line 1, column 17 (byte 16)",
        R"("traceEvents" is not a list)");
    row("traceEvents a string", R"({"traceEvents": "[]"})", "line 1, column 17 (byte 16)",
        R"("traceEvents" is not a list)");
    row("traceEvents null", R"({"traceEvents": null})", "line 1, column 17 (byte 16)",
        R"("traceEvents" is not a list)");
    row("traceEvents a number", R"({"traceEvents": 0})", "line 1, column 17 (byte 16)",
        R"("traceEvents" is not a list)");
    row("duplicate traceEvents, the last not a list", R"({"traceEvents": [], "traceEvents": 1})",
        "line 1, column 36 (byte 35)", R"("traceEvents" is not a list)");
    row("trailing data", R"({"traceEvents": []} {})", "line 1, column 21 (byte 20)",
        "unexpected data after the top-level object");
    row("missing comma", R"({"traceEvents": [{"a": 1 "b": 2}]})", "line 1, column 26 (byte 25)",
        "expected ',' or '}' in an object");
    row("missing colon", R"({"traceEvents" []})", "line 1, column 16 (byte 15)",
        "expected ':' after an object key");
    row("trailing comma", R"({"traceEvents": [{},]})", "line 1, column 21 (byte 20)",
        "invalid number");
    row("single quotes", "{'traceEvents': []}", "line 1, column 2 (byte 1)",
        "expected a string key");
    row("comment",
        R"({"traceEvents": [] // x)"
        "\n}",
        "line 1, column 20 (byte 19)", "expected ',' or '}' in an object");
    row("bad literal", R"({"traceEvents": [tru]})", "line 1, column 18 (byte 17)",
        "invalid literal");
    row("lowercase nan", R"({"traceEvents": [{"ts": nan}]})", "line 1, column 25 (byte 24)",
        "invalid literal");
    row("-Inf", R"({"traceEvents": [{"ts": -Inf}]})", "line 1, column 26 (byte 25)",
        "invalid literal");
    row("leading zero", R"({"traceEvents": [{"ts": 01}]})", "line 1, column 26 (byte 25)",
        "expected ',' or '}' in an object");
    row("plus sign", R"({"traceEvents": [{"ts": +1}]})", "line 1, column 25 (byte 24)",
        "invalid number");
    row("no digit after the point", R"({"traceEvents": [{"ts": 1.}]})",
        "line 1, column 27 (byte 26)", "digit expected after '.'");
    row("no exponent digits", R"({"traceEvents": [{"ts": 1e}]})", "line 1, column 27 (byte 26)",
        "digit expected in exponent");
    row("hex number", R"({"traceEvents": [{"ts": 0x10}]})", "line 1, column 26 (byte 25)",
        "expected ',' or '}' in an object");
    row("invalid escape", R"({"traceEvents": [{"name": "a\xb"}]})", "line 1, column 29 (byte 28)",
        R"(invalid \escape)");
    row("invalid \\u escape", R"({"traceEvents": [{"name": "\u12G4"}]})",
        "line 1, column 28 (byte 27)", R"(invalid \uXXXX escape)");
    row("NUL byte between events", R"({"traceEvents": [{}, )" + QByteArray(1, '\0') + "{}]}",
        "line 1, column 22 (byte 21)", "invalid number");
    row("trailing NUL bytes", R"({"traceEvents": []})" + QByteArray(2, '\0'),
        "line 1, column 20 (byte 19)", "unexpected data after the top-level object");
    row("unclosed nesting 10^5 deep", R"({"traceEvents": [{"args": )" + QByteArray(100000, '['),
        "line 1, column 100027 (byte 100026)", "unexpected end of document");
    row("unclosed string at the end", R"({"traceEvents": [{"name": "x}]})",
        "line 1, column 32 (byte 31)", "unterminated string");
}

void TstRefusedInputs::refusedGzip_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("message");  // expected right after "FILE: "
    auto row = [](const char* name, const QByteArray& bytes, const QString& message) {
        QTest::newRow(name) << bytes << message;
    };
    // The byte is where inflating stopped: the end of a truncated file, or the bad data.
    auto corrupt = [](int byte) {
        return QString("corrupt or truncated gzip data (compressed byte %1)").arg(byte);
    };
    row("truncated gzip", dataFile("truncated.json.gz"), corrupt(219));
    row("corrupt gzip", dataFile("corrupt.json.gz"), corrupt(55));
    row("gzip magic only", QByteArray("\x1f\x8b", 2), corrupt(2));
    row("gzip header only", QByteArray("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10),
        corrupt(10));
    row("gzip of text", dataFile("not-json.json.gz"),
        "line 1, column 1 (byte 0): not a JSON trace: the top level is not an object");
}

void TstRefusedInputs::acceptedOddities_data() {
    QTest::addColumn<QByteArray>("trace");
    QTest::addColumn<int>("events");             // 9: the base trace, whose kernel 3 gets its stack
    const QByteArray rest = baseTrace().mid(1);  // after the base trace's '{'
    auto row = [](const char* name, const QByteArray& trace, int events) {
        QTest::newRow(name) << trace << events;
    };
    row("BOM", "\xEF\xBB\xBF" + baseTrace(), 9);
    row("gzip with trailing garbage", dataFile("trailing-garbage.json.gz"), 5);
    row("empty traceEvents", R"({"traceEvents": []})", 0);
    row("duplicate traceEvents: the last wins", R"({"traceEvents": [1, 2, 3], )" + rest, 9);
    row("NaN and Infinity elsewhere", R"({"x": [NaN, Infinity, -Infinity, 1e400, -1e400], )" + rest,
        9);
    row("10^5 nesting elsewhere", R"({"deviceProperties": )" + nested(100000) + ", " + rest, 9);
    row("deep uid_assigned", R"({"uid_assigned": )" + nested(100000) + ", " + rest, 9);
    row("lone surrogate escape", R"({"name": "\ud800", )" + rest, 9);
}

void TstRefusedInputs::refusedKernelInfo_data() {
    QTest::addColumn<QByteArray>("kinfo");
    QTest::addColumn<QString>("message");  // expected right after "KINFO: "
    auto row = [](const char* name, const QByteArray& k, const QString& message) {
        QTest::newRow(name) << k << message;
    };
    const QByteArray region = kRegionKey;
    row("empty file", "",
        "byte 1: not valid JSON kernel information ([json.exception.parse_error.101] "
        "parse error at line 1, column 1: syntax error while parsing value - unexpected "
        "end of input");
    row("not JSON", "graph keys", "byte 1: not valid JSON kernel information");
    row("truncated", "{" + region + R"(: {"k": ["m.py:1")",
        "byte 58: not valid JSON kernel information");
    row("a list", "[1, 2]", "kernel information must be a JSON object");
    row("a string", region, "kernel information must be a JSON object");
    row("NaN", "{" + region + R"(: {"k": NaN}})", "byte 49: not valid JSON kernel information");
    row("number beyond double", "{" + region + R"(: {"k": 1e400}})",
        "byte 48: not valid JSON kernel information ([json.exception.out_of_range.406] number "
        "overflow parsing '1e400')");
    row("invalid UTF-8",
        "{" + region +
            R"(: {"k": ["m)"
            "\xff"
            R"(.py"]}})",
        "byte 52: not valid JSON kernel information");
    row("raw control character",
        "{" + region +
            R"(: {"k": ["m)"
            "\x01"
            R"(.py"]}})",
        "byte 52: not valid JSON kernel information");
    row("nested 10^5 deep",
        "{" + region + R"(: {"triton_poi_fused_add_0": {"stack_traces": )" + nested(100000) + "}}}",
        "byte 1083: kernel information nested deeper than 1000 levels");
}

void TstRefusedInputs::unreadableInputs_data() {
    stringTable<3>(
        {
            "trace",  // relative to the folder; "k.json" is good kernel info
            "kinfo",
            "message",  // expected after "stackline-cli: <folder>/"
        },
        {
            {"nonexistent trace", "nope.json", "k.json",
             "nope.json: cannot open: No such file or directory"},
            {"trace is a folder", "sub", "k.json", "sub: is a directory, not a file"},
            {"trace path through a file", "t.json/x.json", "k.json",
             "t.json/x.json: cannot open: Not a directory"},
            {"nonexistent kernel information", "t.json", "nope.json",
             "nope.json: cannot open: No such file or directory"},
            {"kernel information path through a file", "t.json", "t.json/k.json",
             "t.json/k.json: cannot open: Not a directory"},
        },
        {{"trace without read permission", "locked.json", "k.json",
          "locked.json: cannot open: Permission denied"}});
}

void TstRefusedInputs::badArguments_data() {
    QTest::addColumn<QStringList>("args");  // "T", "K", "O": a good trace, kernel info, output
    auto row = [](const char* name, const QStringList& args) { QTest::newRow(name) << args; };
    row("no command", {});
    row("unknown command", {"frobnicate", "T"});
    row("two traces", {"summary", "T", "T"});
    row("unknown option", {"summary", "T", "--frobnicate"});
    row("option without its value", {"annotate", "T", "-o"});
    row("annotate without -o", {"annotate", "T", "--kernel-info", "K"});
    row("--threads not a number",
        {"annotate", "T", "--kernel-info", "K", "-o", "O", "--threads", "abc"});
    row("--threads out of range",
        {"annotate", "T", "--kernel-info", "K", "-o", "O", "--threads", "99999999999999999999"});
    row("--threads negative",
        {"annotate", "T", "--kernel-info", "K", "-o", "O", "--threads", "-1"});
    row("--top with a unit", {"hotspots", "T", "--top", "10x"});
}
#endif  // Q_MOC_RUN

QTEST_GUILESS_MAIN(TstRefusedInputs)
#include "tst_refused_inputs.moc"
