// Bad input never crashes and never loses data (issue 7): a catalogue of malformed inputs, each row
// with the behaviour it gets, run through stackline-cli as a user runs it.
//
// Policy checked on every row:
//  - what cannot be a trace (or kernel information) is refused: exit 2, a message naming the file
//    and the position (line, column and byte for traces; byte for kernel information), no output
//    and no report file, nothing else left in the folder, the input unchanged;
//  - a malformed event inside a valid trace is reported by its index in traceEvents (the report's
//    "uid") and the rest is processed: exit 0, the other events annotated as usual, every event's
//    bytes kept (only "uid" and args.stack are added);
//  - output errors exit 1 and leave no output file (nor a temporary one), the input unchanged.
// Never a crash: a run that dies on a signal counts as exit -1 and fails the row.
//
// Unreadable input: the tests run as root in CI, where chmod 000 does not stop reading, so the
// rows use a folder and a path through a regular file (ENOTDIR); the chmod 000 row runs only when
// the tests do not run as root. A FIFO is not used: opening one without a writer blocks.
#include <unistd.h>

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "flow_index.h"
#include "graph_key.h"
#include "py_value.h"
#include "report.h"
#include "test_support.h"
#include "track_index.h"

using namespace stackline;
using nlohmann::json;

namespace {

struct Run {
    int code;
    QString err, out;
};

Run cli(const QStringList& args) {
    QProcess p;
    p.start(STACKLINE_CLI, args);
    if (!p.waitForFinished(120000)) p.kill();
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardError()),
            QString::fromUtf8(p.readAllStandardOutput())};
}

bool writeFile(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

QByteArray readFile(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QByteArray dataFile(const QString& name) {
    return readFile(QStringLiteral(STACKLINE_TEST_DATA "/malformed/") + name);
}

// Every entry of a folder, hidden ones (temporary outputs) included.
QStringList entries(const QString& dir) {
    QStringList e =
        QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
    e.sort();
    return e;
}

QByteArray nested(int depth) {
    return QByteArray(depth, '[') + QByteArray(depth, ']');
}

// The trace every event row extends: region 0 on tid 1, kernel 3 launched from it (annotated),
// kernel 7 launched from it without kernel information (unresolved). Extra events follow row 8.
QByteArray baseTrace(const QByteArray& extra = {}) {
    QByteArray t =
        "{\"traceEvents\": [\n"
        "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"Torch-Compiled Region: 0/0\", \"pid\": "
        "1, \"tid\": 1, \"ts\": 0, \"dur\": 100},\n"
        "{\"ph\": \"X\", \"cat\": \"cuda_driver\", \"name\": \"cuLaunchKernel\", \"pid\": 1, "
        "\"tid\": 1, \"ts\": 10, \"dur\": 5},\n"
        "{\"ph\": \"s\", \"id\": 1, \"pid\": 1, \"tid\": 1, \"ts\": 10, \"cat\": \"ac2g\", "
        "\"name\": \"ac2g\"},\n"
        "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"triton_poi_fused_add_0\", \"pid\": 0, "
        "\"tid\": 7, \"ts\": 20, \"dur\": 1},\n"
        "{\"ph\": \"f\", \"id\": 1, \"pid\": 0, \"tid\": 7, \"ts\": 20, \"cat\": \"ac2g\", "
        "\"name\": \"ac2g\"},\n"
        "{\"ph\": \"X\", \"cat\": \"cuda_driver\", \"name\": \"cuLaunchKernel\", \"pid\": 1, "
        "\"tid\": 1, \"ts\": 30, \"dur\": 5},\n"
        "{\"ph\": \"s\", \"id\": 2, \"pid\": 1, \"tid\": 1, \"ts\": 30, \"cat\": \"ac2g\", "
        "\"name\": \"ac2g\"},\n"
        "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"triton_missing_1\", \"pid\": 0, \"tid\": "
        "7, \"ts\": 40, \"dur\": 1},\n"
        "{\"ph\": \"f\", \"id\": 2, \"pid\": 0, \"tid\": 7, \"ts\": 40, \"cat\": \"ac2g\", "
        "\"name\": \"ac2g\"}";
    if (!extra.isEmpty()) t += ",\n" + extra;
    return t + "\n], \"traceName\": \"malformed\"}\n";
}

const QByteArray kInfo =
    "{\"('Torch-Compiled Region: 0/0', False)\": {\"triton_poi_fused_add_0:1\": {\"stack_traces\": "
    "[\"m.py:1\"]},"
    " \"other\": {\"stack_traces\": [\"m.py:2\"]}}}";
const QByteArray kStack = "[\"m.py:1\"]";

// An op on the region's thread inside it (row 9 when appended): the processor reads its ts, dur,
// tid and args.
QByteArray op(const QByteArray& fields) {
    return "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::bad\", \"pid\": 1" + fields +
           "}";
}
// A kernel launched from the region (rows 9-12; the kernel is row 11).
QByteArray launched(const QByteArray& kernel) {
    return "{\"ph\": \"X\", \"cat\": \"cuda_driver\", \"name\": \"cuLaunchKernel\", \"pid\": 1, "
           "\"tid\": 1, \"ts\": 50, \"dur\": 5},\n"
           "{\"ph\": \"s\", \"id\": 3, \"pid\": 1, \"tid\": 1, \"ts\": 50, \"cat\": \"ac2g\", "
           "\"name\": \"ac2g\"},\n" +
           kernel +
           ",\n{\"ph\": \"f\", \"id\": 3, \"pid\": 0, \"tid\": 7, \"ts\": 60, \"cat\": \"ac2g\", "
           "\"name\": \"ac2g\"}";
}
QByteArray kernel(const QByteArray& fields) {
    return "{\"ph\": \"X\", \"cat\": \"kernel\", \"pid\": 0, \"tid\": 7, \"ts\": 60, \"dur\": 1" +
           fields + "}";
}
// A flow start after launch 1 (row 9).
QByteArray flow(const QByteArray& id) {
    return "{\"ph\": \"s\"" + id +
           ", \"pid\": 1, \"tid\": 1, \"ts\": 10, \"cat\": \"ac2g\", \"name\": \"ac2g\"}";
}

// "kind@uid" for each report entry, in order.
QStringList kinds(const json& list) {
    QStringList out;
    for (const json& d : list)
        out << QString::fromStdString(d["kind"].get<std::string>()) + "@" +
                   (d["uid"].is_null() ? QStringLiteral("-")
                                       : QString::number(d["uid"].get<int>()));
    return out;
}

// Runs what each fuzz target runs on one input, outside libFuzzer (no property checks: those
// are the fuzzers' job; here it must neither crash nor trip the sanitizers).
void exercise(const QString& target, const QByteArray& input) {
    std::string_view text(input.constData(), size_t(input.size()));
    auto annotateAll = [](const Trace& t, const KernelInfo& k) {
        Provenance p = runProvenance(t, k);
        (void)reportJson(t, p).dump(1, ' ', false, OrderedJson::error_handler_t::replace);
        (void)summarize(t, p);
        (void)exportToString(t, p);
    };
    try {
        if (target == "graph_key") {
            (void)parseGraphKey(text);
        } else if (target == "kernel_info") {
            KernelInfo k = KernelInfo::parse(text, "regression");
            for (const std::string& key : k.graphKeys()) {
                try {
                    (void)k.singleStack(key);
                    (void)k.stackForKernel(key, "triton_poi_fused_add_0");
                } catch (const RegistryError&) {
                }
                (void)k.backwardKeys(key);
            }
        } else if (target == "trace_loader") {
            QTemporaryDir dir;
            QString path = dir.filePath("regression.json");
            QVERIFY(writeFile(path, input));  // a file: gzip inputs are inflated on the way
            Trace t = loadTrace(path.toStdString());
            TrackIndex tracks = TrackIndex::build(t.events, t.text(), 1);
            (void)FlowIndex::build(t.events, tracks);
        } else if (target == "annotate") {
            std::size_t sep = text.find("#KI#");
            Trace t = parseTrace(TraceBytes::fromString(text.substr(0, sep)), "regression");
            annotateAll(t, test::kernelInfoFrom(std::string(kInfo.constData())));
            if (sep != std::string_view::npos)
                annotateAll(t, KernelInfo::parse(text.substr(sep + 4), "regression"));
        } else {
            QFAIL(qPrintable("unknown fuzz target folder " + target));
        }
    } catch (const InputError&) {
    }
}

}  // namespace

class TstMalformed : public QObject {
    Q_OBJECT
private slots:
    // ---- What cannot be a trace: exit 2, "FILE: line L, column C (byte B): reason". ----
    void refusedTraces_data() {
        QTest::addColumn<QByteArray>("trace");
        QTest::addColumn<QString>("where");  // expected right after "FILE: "
        QTest::addColumn<QString>("reason");
        auto row = [](const char* name, const QByteArray& t, const QString& where,
                      const QString& reason) { QTest::newRow(name) << t << where << reason; };
        row("empty file", "", "line 1, column 1 (byte 0)", "the file is empty");
        row("only whitespace", " \n\t\r\n", "line 3, column 1 (byte 5)", "the file is empty");
        row("only a BOM", "\xEF\xBB\xBF", "line 1, column 4 (byte 3)", "the file is empty");
        row("truncated in a key", "{\"traceEvents\": [{\"name\": \"x\"},\n {\"na",
            "line 2, column 6 (byte 37)", "unterminated string");
        row("truncated after [", "{\"traceEvents\": [", "line 1, column 18 (byte 17)",
            "invalid number");
        row("truncated in a number", "{\"traceEvents\": [{\"ts\": 12",
            "line 1, column 27 (byte 26)", "expected ',' or '}' in an object");
        row("truncated in nested args", "{\"traceEvents\": [{\"args\": {\"a\": [1, 2",
            "line 1, column 38 (byte 37)", "expected ',' or ']' in an array");
        row("truncated before the last }", "{\"traceEvents\": []", "line 1, column 19 (byte 18)",
            "expected ',' or '}' in an object");
        row("truncated after a key", "{\"traceEvents\"", "line 1, column 15 (byte 14)",
            "expected ':' after an object key");
        row("truncated event list", baseTrace().left(700), "line 9, column 19 (byte 700)",
            "invalid number");
        row("random bytes", dataFile("random.bin"), "line 1, column 1 (byte 0)",
            "not a JSON trace: the top level is not an object");
        row("top level array", "[{\"ph\": \"X\"}]", "line 1, column 1 (byte 0)",
            "the top level is an array; a Kineto trace is an object with \"traceEvents\"");
        row("top level number", "42", "line 1, column 1 (byte 0)",
            "the top level is not an object");
        row("top level string", "\"traceEvents\"", "line 1, column 1 (byte 0)",
            "the top level is not an object");
        row("top level null", "null", "line 1, column 1 (byte 0)",
            "the top level is not an object");
        row("no traceEvents", "{\"events\": []}", "line 1, column 15 (byte 14)",
            "not a trace: the top-level object has no \"traceEvents\"");
        row("empty object", "{}", "line 1, column 3 (byte 2)", "no \"traceEvents\"");
        row("traceEvents an object", "{\"traceEvents\": {}}", "line 1, column 17 (byte 16)",
            "\"traceEvents\" is not a list");
        row("traceEvents a string", "{\"traceEvents\": \"[]\"}", "line 1, column 17 (byte 16)",
            "\"traceEvents\" is not a list");
        row("traceEvents null", "{\"traceEvents\": null}", "line 1, column 17 (byte 16)",
            "\"traceEvents\" is not a list");
        row("traceEvents a number", "{\"traceEvents\": 0}", "line 1, column 17 (byte 16)",
            "\"traceEvents\" is not a list");
        row("duplicate traceEvents, the last not a list",
            "{\"traceEvents\": [], \"traceEvents\": 1}", "line 1, column 36 (byte 35)",
            "\"traceEvents\" is not a list");
        row("trailing data", "{\"traceEvents\": []} {}", "line 1, column 21 (byte 20)",
            "unexpected data after the top-level object");
        row("missing comma", "{\"traceEvents\": [{\"a\": 1 \"b\": 2}]}",
            "line 1, column 26 (byte 25)", "expected ',' or '}' in an object");
        row("missing colon", "{\"traceEvents\" []}", "line 1, column 16 (byte 15)",
            "expected ':' after an object key");
        row("trailing comma", "{\"traceEvents\": [{},]}", "line 1, column 21 (byte 20)",
            "invalid number");
        row("single quotes", "{'traceEvents': []}", "line 1, column 2 (byte 1)",
            "expected a string key");
        row("comment", "{\"traceEvents\": [] // x\n}", "line 1, column 20 (byte 19)",
            "expected ',' or '}' in an object");
        row("bad literal", "{\"traceEvents\": [tru]}", "line 1, column 18 (byte 17)",
            "invalid literal");
        row("lowercase nan", "{\"traceEvents\": [{\"ts\": nan}]}", "line 1, column 25 (byte 24)",
            "invalid literal");
        row("-Inf", "{\"traceEvents\": [{\"ts\": -Inf}]}", "line 1, column 26 (byte 25)",
            "invalid literal");
        row("leading zero", "{\"traceEvents\": [{\"ts\": 01}]}", "line 1, column 26 (byte 25)",
            "expected ',' or '}' in an object");
        row("plus sign", "{\"traceEvents\": [{\"ts\": +1}]}", "line 1, column 25 (byte 24)",
            "invalid number");
        row("no digit after the point", "{\"traceEvents\": [{\"ts\": 1.}]}",
            "line 1, column 27 (byte 26)", "digit expected after '.'");
        row("no exponent digits", "{\"traceEvents\": [{\"ts\": 1e}]}",
            "line 1, column 27 (byte 26)", "digit expected in exponent");
        row("hex number", "{\"traceEvents\": [{\"ts\": 0x10}]}", "line 1, column 26 (byte 25)",
            "expected ',' or '}' in an object");
        row("invalid escape", "{\"traceEvents\": [{\"name\": \"a\\xb\"}]}",
            "line 1, column 29 (byte 28)", "invalid \\escape");
        row("invalid \\u escape", "{\"traceEvents\": [{\"name\": \"\\u12G4\"}]}",
            "line 1, column 28 (byte 27)", "invalid \\uXXXX escape");
        row("NUL byte between events", QByteArray("{\"traceEvents\": [{}, \0{}]}", 26),
            "line 1, column 22 (byte 21)", "invalid number");
        row("trailing NUL bytes", QByteArray("{\"traceEvents\": []}\0\0", 21),
            "line 1, column 20 (byte 19)", "unexpected data after the top-level object");
        row("unclosed nesting 10^5 deep",
            "{\"traceEvents\": [{\"args\": " + QByteArray(100000, '['),
            "line 1, column 100027 (byte 100026)", "unexpected end of document");
        row("unclosed string at the end", "{\"traceEvents\": [{\"name\": \"x}]}",
            "line 1, column 32 (byte 31)", "unterminated string");
    }
    void refusedTraces() {
        QFETCH(QByteArray, trace);
        QFETCH(QString, where);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        const QString t = dir.filePath("t.json"), k = dir.filePath("k.json");
        QVERIFY(writeFile(t, trace) && writeFile(k, kInfo));
        const QStringList before = entries(dir.path());
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
            QCOMPARE(entries(dir.path()), before);  // no output, no report, no temporary file
            QCOMPARE(readFile(t), trace);
        }
    }

    // gzip input that is not a complete gzip stream, or not a trace once inflated.
    void refusedGzip_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");  // expected right after "FILE: "
        QTest::newRow("truncated gzip") << dataFile("truncated.json.gz")
                                        << "corrupt or truncated gzip data (compressed byte 0)";
        QTest::newRow("corrupt gzip")
            << dataFile("corrupt.json.gz") << "corrupt or truncated gzip data (compressed byte 0)";
        QTest::newRow("gzip magic only")
            << QByteArray("\x1f\x8b", 2) << "corrupt or truncated gzip data (compressed byte 0)";
        QTest::newRow("gzip header only")
            << QByteArray("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10)
            << "corrupt or truncated gzip data (compressed byte 0)";
        QTest::newRow("gzip of text")
            << dataFile("not-json.json.gz")
            << "line 1, column 1 (byte 0): not a JSON trace: the top level is not an object";
    }
    void refusedGzip() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        QVERIFY(!bytes.isEmpty());
        QTemporaryDir dir;
        const QString t = dir.filePath("t.json.gz"), k = dir.filePath("k.json");
        QVERIFY(writeFile(t, bytes) && writeFile(k, kInfo));
        Run r = cli({"annotate", t, "--kernel-info", k, "-o", dir.filePath("out.json"), "--report",
                     dir.filePath("r.json")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.startsWith("stackline-cli: " + t + ": " + message), qPrintable(r.err));
        QCOMPARE(entries(dir.path()), QStringList({"k.json", "t.json.gz"}));
        QCOMPARE(readFile(t), bytes);
    }

    // Inputs that look odd but are traces: processed, exit 0.
    void acceptedOddities_data() {
        QTest::addColumn<QByteArray>("trace");
        QTest::addColumn<int>("events");  // 9: the base trace, whose kernel 3 gets its stack
        QTest::newRow("BOM") << "\xEF\xBB\xBF" + baseTrace() << 9;
        QTest::newRow("gzip with trailing garbage") << dataFile("trailing-garbage.json.gz") << 5;
        QTest::newRow("empty traceEvents") << QByteArray("{\"traceEvents\": []}") << 0;
        QTest::newRow("duplicate traceEvents: the last wins")
            << "{\"traceEvents\": [1, 2, 3], " + baseTrace().mid(1) << 9;
        QTest::newRow("NaN and Infinity elsewhere")
            << "{\"x\": [NaN, Infinity, -Infinity, 1e400, -1e400], " + baseTrace().mid(1) << 9;
        QTest::newRow("10^5 nesting elsewhere")
            << "{\"deviceProperties\": " + nested(100000) + ", " + baseTrace().mid(1) << 9;
        QTest::newRow("deep uid_assigned")
            << "{\"uid_assigned\": " + nested(100000) + ", " + baseTrace().mid(1) << 9;
        QTest::newRow("lone surrogate escape")
            << "{\"name\": \"\\ud800\", " + baseTrace().mid(1) << 9;
    }
    void acceptedOddities() {
        QFETCH(QByteArray, trace);
        QFETCH(int, events);
        QTemporaryDir dir;
        const QString t = dir.filePath("t.json"), k = dir.filePath("k.json"),
                      out = dir.filePath("out.json");
        QVERIFY(writeFile(t, trace) && writeFile(k, kInfo));
        Run r = cli({"annotate", t, "--kernel-info", k, "-o", out});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(readFile(t), trace);
        Trace o = loadTrace(out.toStdString());
        QCOMPARE(int(o.events.size()), events);
        if (events == 9)
            QCOMPARE(o.slice(o.events.stackValue.at(3)), std::string_view(kStack.constData()));
    }

    // ---- Kernel information that cannot be read: exit 2, "KINFO: byte B: reason". ----
    void refusedKernelInfo_data() {
        QTest::addColumn<QByteArray>("kinfo");
        QTest::addColumn<QString>("message");  // expected right after "KINFO: "
        auto row = [](const char* name, const QByteArray& k, const QString& message) {
            QTest::newRow(name) << k << message;
        };
        row("empty file", "",
            "byte 1: not valid JSON kernel information ([json.exception.parse_error.101] "
            "parse error at line 1, column 1: syntax error while parsing value - unexpected "
            "end of input");
        row("not JSON", "graph keys", "byte 1: not valid JSON kernel information");
        row("truncated", "{\"('Torch-Compiled Region: 0/0', False)\": {\"k\": [\"m.py:1\"",
            "byte 58: not valid JSON kernel information");
        row("a list", "[1, 2]", "kernel information must be a JSON object");
        row("a string", "\"('Torch-Compiled Region: 0/0', False)\"",
            "kernel information must be a JSON object");
        row("NaN", "{\"('Torch-Compiled Region: 0/0', False)\": {\"k\": NaN}}",
            "byte 49: not valid JSON kernel information");
        row("number beyond double", "{\"('Torch-Compiled Region: 0/0', False)\": {\"k\": 1e400}}",
            "byte 48: not valid JSON kernel information ([json.exception.out_of_range.406] number "
            "overflow parsing '1e400')");
        row("invalid UTF-8", "{\"('Torch-Compiled Region: 0/0', False)\": {\"k\": [\"m\xff.py\"]}}",
            "byte 52: not valid JSON kernel information");
        row("raw control character",
            "{\"('Torch-Compiled Region: 0/0', False)\": {\"k\": [\"m\x01.py\"]}}",
            "byte 52: not valid JSON kernel information");
        row("nested 10^5 deep",
            "{\"('Torch-Compiled Region: 0/0', False)\": {\"triton_poi_fused_add_0\": "
            "{\"stack_traces\": " +
                nested(100000) + "}}}",
            "byte 1083: kernel information nested deeper than 1000 levels");
    }
    void refusedKernelInfo() {
        QFETCH(QByteArray, kinfo);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString t = dir.filePath("t.json"), k = dir.filePath("k.json");
        QVERIFY(writeFile(t, baseTrace()) && writeFile(k, kinfo));
        Run r = cli({"annotate", t, "--kernel-info", k, "-o", dir.filePath("out.json"), "--report",
                     dir.filePath("r.json")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.startsWith("stackline-cli: " + k + ": " + message),
                 qPrintable(r.err.left(400)));
        QCOMPARE(entries(dir.path()), QStringList({"k.json", "t.json"}));
        QCOMPARE(readFile(k), kinfo);
        QCOMPARE(cli({"summary", t, "--kernel-info", k}).code, 2);
    }

    // ---- Inputs that do not exist or cannot be read: exit 2, naming the file. ----
    void unreadableInputs_data() {
        QTest::addColumn<QString>("trace");  // relative to the folder; "k.json" is good kernel info
        QTest::addColumn<QString>("kinfo");
        QTest::addColumn<QString>("message");  // expected after "stackline-cli: <folder>/"
        QTest::newRow("nonexistent trace") << "nope.json"
                                           << "k.json"
                                           << "nope.json: cannot open: No such file or directory";
        QTest::newRow("trace is a folder") << "sub"
                                           << "k.json"
                                           << "sub: is a directory, not a file";
        QTest::newRow("trace path through a file") << "t.json/x.json"
                                                   << "k.json"
                                                   << "t.json/x.json: cannot open: Not a directory";
        QTest::newRow("nonexistent kernel information")
            << "t.json"
            << "nope.json"
            << "nope.json: cannot open: No such file or directory";
        QTest::newRow("kernel information path through a file")
            << "t.json"
            << "t.json/k.json"
            << "t.json/k.json: cannot open: Not a directory";
        if (::geteuid() != 0)
            QTest::newRow("trace without read permission")
                << "locked.json"
                << "k.json"
                << "locked.json: cannot open: Permission denied";
    }
    void unreadableInputs() {
        QFETCH(QString, trace);
        QFETCH(QString, kinfo);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QVERIFY(writeFile(dir.filePath("t.json"), baseTrace()) &&
                writeFile(dir.filePath("k.json"), kInfo));
        QVERIFY(QDir(dir.path()).mkdir("sub"));
        QVERIFY(writeFile(dir.filePath("locked.json"), baseTrace()));
        QVERIFY(QFile::setPermissions(dir.filePath("locked.json"), QFileDevice::Permissions()));
        const QStringList before = entries(dir.path());
        Run r = cli({"annotate", dir.filePath(trace), "--kernel-info", dir.filePath(kinfo), "-o",
                     dir.filePath("out.json")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.startsWith("stackline-cli: " + dir.path() + "/" + message),
                 qPrintable(r.err));
        QCOMPARE(entries(dir.path()), before);
        QCOMPARE(readFile(dir.filePath("t.json")), baseTrace());
    }

    // ---- Malformed events inside a valid trace: reported by index, the rest processed. ----
    void malformedEvents_data() {
        QTest::addColumn<QByteArray>("extra");  // events after row 8
        QTest::addColumn<QByteArray>("kinfo");
        QTest::addColumn<QStringList>("errors");  // the report's errors, "kind@uid", in order
        QTest::addColumn<QStringList>("warnings");
        QTest::addColumn<QByteArray>("stack3");  // args.stack of kernel 3 in the output ("" none)
        auto row = [](const char* name, const QByteArray& extra, const QStringList& errors,
                      const QStringList& warnings = {}) {
            QTest::newRow(name) << extra << kInfo << errors << warnings << kStack;
        };
        const QStringList none;
        row("valid (control)", {}, none);
        // Events that are not objects (the reference's event.get() would raise).
        row("event is a number", "42", {"malformed_event@9"});
        row("event is a string", "\"event\"", {"malformed_event@9"});
        row("event is null", "null", {"malformed_event@9"});
        row("event is a list", "[{\"ph\": \"X\"}]", {"malformed_event@9"});
        row("event is true", "true", {"malformed_event@9"});
        row("event nested 10^5 deep", nested(100000), {"malformed_event@9"});
        row("event is an empty object", "{}", none);
        // ts, on an op the processor reads (inside the region, on its thread).
        row("ts a string", op(", \"tid\": 1, \"ts\": \"50\", \"dur\": 1"), {"bad_ts@9"});
        row("ts null", op(", \"tid\": 1, \"ts\": null, \"dur\": 1"), {"bad_ts@9"});
        row("ts a list", op(", \"tid\": 1, \"ts\": [50], \"dur\": 1"), {"bad_ts@9"});
        row("ts an object", op(", \"tid\": 1, \"ts\": {\"us\": 50}, \"dur\": 1"), {"bad_ts@9"});
        row("ts missing", op(", \"tid\": 1, \"dur\": 1"), {"missing_ts@9"});
        row("ts true (Python's 1)", op(", \"tid\": 1, \"ts\": true, \"dur\": 1"), none);
        row("region ts a string",
            "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"Torch-Compiled Region: 1/0\", "
            "\"tid\": 2, \"ts\": \"0\", \"dur\": 9}",
            {"bad_ts@9"});
        // dur
        row("dur a string", op(", \"tid\": 1, \"ts\": 50, \"dur\": \"1\""), {"bad_dur@9"});
        row("dur a list", op(", \"tid\": 1, \"ts\": 50, \"dur\": [1]"), {"bad_dur@9"});
        row("dur null", op(", \"tid\": 1, \"ts\": 50, \"dur\": null"), {"bad_dur@9"});
        row("dur missing (0)", op(", \"tid\": 1, \"ts\": 50"), none);
        // pid: never read by the processor (nor by the reference).
        row("pid a list", op(", \"pid\": [1], \"tid\": 1, \"ts\": 50, \"dur\": 1"), none);
        row("pid an object", op(", \"pid\": {\"a\": 1}, \"tid\": 1, \"ts\": 50, \"dur\": 1"), none);
        row("pid a string", op(", \"pid\": \"one\", \"tid\": 1, \"ts\": 50, \"dur\": 1"), none);
        row("pid null", op(", \"pid\": null, \"tid\": 1, \"ts\": 50, \"dur\": 1"), none);
        // tid
        row("tid a list", op(", \"tid\": [1], \"ts\": 50, \"dur\": 1"), {"bad_tid@9"});
        row("tid an object", op(", \"tid\": {\"a\": 1}, \"ts\": 50, \"dur\": 1"), {"bad_tid@9"});
        row("tid a string (another thread)", op(", \"tid\": \"1\", \"ts\": 50, \"dur\": 1"), none);
        row("tid missing (None: no region there)", op(", \"ts\": 50, \"dur\": 1"), none);
        row("region tid missing",
            "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"Torch-Compiled Region: 1/0\", "
            "\"ts\": 0, \"dur\": 9}",
            {"missing_tid@9"});
        row("region tid a list",
            "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"Torch-Compiled Region: 1/0\", "
            "\"tid\": [2], \"ts\": 0, \"dur\": 9}",
            {"bad_tid@9"});
        // name
        row("name a number",
            "{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": 5, \"tid\": 1, \"ts\": 50}",
            {"malformed_event@9"});
        row("name a list",
            "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": [\"x\"], \"tid\": 1, \"ts\": 50}",
            {"malformed_event@9"});
        row("name an object",
            "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": {\"x\": 1}, \"tid\": 1, \"ts\": 50}",
            {"malformed_event@9"});
        row("cpu_op name null",
            "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": null, \"tid\": 1, \"ts\": 50}",
            {"malformed_event@9"});
        row("kernel name null", launched(kernel(", \"name\": null")), {"bad_name@11"});
        row("kernel name false", launched(kernel(", \"name\": false")), {"bad_name@11"});
        row("kernel name missing", launched(kernel("")), {"missing_name@11"});
        // cat
        row("cat a list",
            "{\"ph\": \"X\", \"cat\": [\"cpu_op\"], \"name\": \"x\", \"tid\": 1, \"ts\": 50}",
            {"malformed_event@9"});
        row("cat an object",
            "{\"ph\": \"X\", \"cat\": {\"a\": 1}, \"name\": \"x\", \"tid\": 1, \"ts\": 50}",
            {"malformed_event@9"});
        row("cat a number", "{\"ph\": \"X\", \"cat\": 5, \"name\": \"x\", \"tid\": 1, \"ts\": 50}",
            none);
        row("cat null", "{\"ph\": \"X\", \"cat\": null, \"name\": \"x\", \"tid\": 1, \"ts\": 50}",
            none);
        // args
        row("args a number", op(", \"tid\": 1, \"ts\": 50, \"dur\": 1, \"args\": 5"),
            {"bad_args@9"});
        row("args true", op(", \"tid\": 1, \"ts\": 50, \"dur\": 1, \"args\": true"),
            {"bad_args@9"});
        row("args null", op(", \"tid\": 1, \"ts\": 50, \"dur\": 1, \"args\": null"),
            {"bad_args@9"});
        row("args a string", op(", \"tid\": 1, \"ts\": 50, \"dur\": 1, \"args\": \"x\""),
            {"bad_args@9"});
        row("args a string with CallFrom (skipped)",
            op(", \"tid\": 1, \"ts\": 50, \"dur\": 1, \"args\": \"CallFrom x\""), none);
        row("kernel args a string",
            launched(kernel(", \"name\": \"triton_poi_fused_add_0\", \"args\": \"x\"")),
            {"bad_args@11"});
        row("kernel args a list",
            launched(kernel(", \"name\": \"triton_poi_fused_add_0\", \"args\": [1]")),
            {"bad_args@11"});
        row("External id a list",
            op(", \"tid\": 1, \"ts\": 50, \"dur\": 1, \"args\": {\"External id\": [7]}"),
            {"bad_external_id@9"});
        row("args 10^5 deep",
            op(", \"tid\": 1, \"ts\": 50, \"dur\": 1, \"args\": {\"x\": " + nested(100000) + "}"),
            none);
        // id of flow events
        row("flow id a string", flow(", \"id\": \"abc\""), {"bad_flow@9"});
        row("flow id missing", flow(""), {"bad_flow@9"});
        row("flow id a list", flow(", \"id\": [1]"), {"bad_flow@9"});
        row("flow id null", flow(", \"id\": null"), {"bad_flow@9"});
        row("flow id 1e400", flow(", \"id\": 1e400"), {"bad_flow@9"});
        row("flow id NaN", flow(", \"id\": NaN"), {"bad_flow@9"});
        row("flow id beyond 128 bits", flow(", \"id\": 340282366920938463463374607431768211456"),
            {"bad_flow@9"});
        row("flow id a numeric string", flow(", \"id\": \" 9 \""), none);
        // NaN, Infinity, numbers out of range
        row("ts NaN", op(", \"tid\": 1, \"ts\": NaN, \"dur\": 1"), none);
        row("ts Infinity", op(", \"tid\": 1, \"ts\": Infinity, \"dur\": 1"), none);
        row("dur -Infinity", op(", \"tid\": 1, \"ts\": 50, \"dur\": -Infinity"), none);
        row("region ts NaN",
            "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"Torch-Compiled Region: 1/0\", "
            "\"tid\": 1, \"ts\": NaN, \"dur\": 9}",
            none);
        row("ts 1e400", op(", \"tid\": 1, \"ts\": 1e400, \"dur\": 1"), none);
        row("ts -1e400", op(", \"tid\": 1, \"ts\": -1e400, \"dur\": 1"), none);
        row("ts with 42 digits",
            op(", \"tid\": 1, \"ts\": 123456789012345678901234567890123456789012, \"dur\": 1"),
            none);
        row("ts beyond int64",
            op(", \"tid\": 1, \"ts\": 9223372036854775807, \"dur\": 9223372036854775807"), none);
        row("dur 1e-400", op(", \"tid\": 1, \"ts\": 50, \"dur\": 1e-400"), none);
        row("pid 1e999", op(", \"pid\": 1e999, \"tid\": 1, \"ts\": 50, \"dur\": 1"), none);
        row("External id beyond int64",
            op(", \"tid\": 1, \"ts\": 50, \"dur\": 1, \"args\": {\"External id\": "
               "99999999999999999999999}"),
            none);
        // Invalid UTF-8 and raw control characters are kept byte for byte.
        row("name with invalid UTF-8",
            "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"bad\xff\xfe\", \"tid\": 1, \"ts\": "
            "50}",
            none);
        row("name with raw control characters",
            "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"a\x01\tb\nc\", \"tid\": 1, \"ts\": "
            "50}",
            none);
        row("kernel name with invalid UTF-8", launched(kernel(", \"name\": \"triton_\xc3\x28\"")),
            none);
        row("kernel name neither triton nor extern (the reference's warning)",
            launched(kernel(", \"name\": \"other\"")), none, {"unrecognized_kernel@11"});
        // Duplicate keys: the last one counts, as in Python.
        row("duplicate ts, the last bad", op(", \"tid\": 1, \"ts\": 50, \"ts\": \"x\", \"dur\": 1"),
            {"bad_ts@9"});
        row("duplicate ts, the last good",
            op(", \"tid\": 1, \"ts\": \"x\", \"ts\": 50, \"dur\": 1"), none);
        row("duplicate name, the last a number",
            "{\"ph\": \"X\", \"name\": \"x\", \"name\": 5, \"tid\": 1, \"ts\": 50}",
            {"malformed_event@9"});
        row("duplicate args, the last bad",
            op(", \"tid\": 1, \"ts\": 50, \"dur\": 1, \"args\": {}, \"args\": 1"), {"bad_args@9"});

        // Kernel information that loads but is malformed inside.
        auto info = [](const char* name, const QByteArray& k, const QStringList& errors,
                       const QStringList& warnings, const QByteArray& stack3) {
            QTest::newRow(name) << QByteArray() << k << errors << warnings << stack3;
        };
        const QByteArray region = "\"('Torch-Compiled Region: 0/0', False)\"";
        info("graph value a list", "{" + region + ": [\"m.py:1\"]}",
             {"bad_kernel_info@3", "bad_kernel_info@7"}, none, "");
        info("graph value a string", "{" + region + ": \"m.py:1\"}",
             {"bad_kernel_info@3", "bad_kernel_info@7"}, none, "");
        info("graph value a number", "{" + region + ": 5}",
             {"bad_kernel_info@3", "bad_kernel_info@7"}, none, "");
        info("graph value null", "{" + region + ": null}",
             {"bad_kernel_info@3", "bad_kernel_info@7"}, none, "");
        info("graph key not a tuple",
             "{\"Torch-Compiled Region: 0/0\": {\"triton_poi_fused_add_0\": [\"m.py:1\"]}}", none,
             {"region_without_kernel_info@0"}, "");
        info("graph key unclosed",
             "{\"('Torch-Compiled Region: 0/0', False\": {\"triton_poi_fused_add_0\": "
             "[\"m.py:1\"]}}",
             none, {"region_without_kernel_info@0"}, "");
        info("graph key raising in literal_eval", "{\"{[]: 1}\": {\"x\": [\"m.py:1\"]}}",
             {"bad_graph_key@0"}, {"region_without_kernel_info@0"}, "");
        info("graph key with wrong flag type",
             "{\"('Torch-Compiled Region: 0/0', 0)\": {\"triton_poi_fused_add_0\": [\"m.py:1\"]}}",
             none, {"region_without_kernel_info@0"}, "");
        info("stack_traces a number",
             "{" + region + ": {\"triton_poi_fused_add_0\": {\"stack_traces\": 5}}}", none, none,
             "5");
        info("stack_traces a string",
             "{" + region + ": {\"triton_poi_fused_add_0\": {\"stack_traces\": \"m.py:1\"}}}", none,
             none, "\"m.py:1\"");
        info("stack_traces an object",
             "{" + region + ": {\"triton_poi_fused_add_0\": {\"stack_traces\": {\"a\": 1}}}}", none,
             none, "{\"a\":1}");
        info("stack_traces null",
             "{" + region + ": {\"triton_poi_fused_add_0\": {\"stack_traces\": null}}}", none, none,
             "");
        info("kernel entry a string", "{" + region + ": {\"triton_poi_fused_add_0\": \"m.py:1\"}}",
             none, none, "\"m.py:1\"");
        info("kernel entry null", "{" + region + ": {\"triton_poi_fused_add_0\": null}}", none,
             none, "");
        info("duplicate graph key: the last wins",
             "{" + region + ": {\"triton_poi_fused_add_0\": [\"first\"]}, " + region +
                 ": {\"triton_poi_fused_add_0\": [\"last\"]}}",
             none, none, "[\"last\"]");
        info("empty registry: nothing written", "{}", none, none, "");
    }
    void malformedEvents() {
        QFETCH(QByteArray, extra);
        QFETCH(QByteArray, kinfo);
        QFETCH(QStringList, errors);
        QFETCH(QStringList, warnings);
        QFETCH(QByteArray, stack3);
        QTemporaryDir dir;
        const QString t = dir.filePath("t.json"), k = dir.filePath("k.json"),
                      out = dir.filePath("out.json"), rep = dir.filePath("r.json");
        const QByteArray input = baseTrace(extra);
        QVERIFY(writeFile(t, input) && writeFile(k, kinfo));
        Run r = cli({"annotate", t, "--kernel-info", k, "-o", out, "--report", rep});
        QVERIFY2(r.code == 0, qPrintable(QString::number(r.code) + " " + r.err.left(400)));
        QCOMPARE(readFile(t), input);
        QCOMPARE(entries(dir.path()), QStringList({"k.json", "out.json", "r.json", "t.json"}));

        json report = json::parse(readFile(rep).toStdString());
        QVERIFY2(kinds(report["errors"]) == errors, qPrintable(kinds(report["errors"]).join(' ')));
        QVERIFY2(kinds(report["warnings"]) == warnings,
                 qPrintable(kinds(report["warnings"]).join(' ')));
        for (const json& e : report["errors"]) QVERIFY(!e["message"].get<std::string>().empty());

        // The output loads, kernel 3 carries its stack, and every event's bytes are kept: the
        // processor only appends "uid" (and "stack" to the kernels it annotates).
        Trace in = loadTrace(t.toStdString()), o = loadTrace(out.toStdString());
        QCOMPARE(o.events.size(), in.events.size());
        auto stack = o.events.stackValue.find(3);
        QCOMPARE(stack == o.events.stackValue.end() ? std::string()
                                                    : std::string(o.slice(stack->second)),
                 stack3.toStdString());
        const bool applied = kinfo != "{}";
        for (uint32_t row = 0; row < in.events.size(); ++row) {
            if (row == 3 || (o.events.stackValue.count(row) && !in.events.stackValue.count(row)))
                continue;
            std::string before(in.slice(in.events.eventSpan(row))),
                after(o.slice(o.events.eventSpan(row)));
            if (applied && in.events.kinds[row].event == ValueKind::Object) {
                std::size_t close = before.find_last_not_of(" \t\r\n", before.size() - 2) + 1;
                before.insert(close, (in.events.kinds[row].objectEmpty ? "\"uid\":" : ",\"uid\":") +
                                         std::to_string(row));
            }
            QVERIFY2(before == after,
                     qPrintable(QString("row %1:\n%2\n%3")
                                    .arg(row)
                                    .arg(QString::fromStdString(before.substr(0, 300)),
                                         QString::fromStdString(after.substr(0, 300)))));
        }
        if (!applied) QCOMPARE(readFile(out), input);
    }

    // A trace whose uids were assigned before: events without a usable "uid" are reported.
    void eventsWithoutUsableUid() {
        QTemporaryDir dir;
        const QByteArray input =
            baseTrace("{\"ph\": \"X\", \"uid\": [9]},\n{\"ph\": \"X\"},\n7")
                .replace("\"traceName\"", "\"uid_assigned\": true, \"traceName\"");
        QVERIFY(writeFile(dir.filePath("t.json"), input) &&
                writeFile(dir.filePath("k.json"), kInfo));
        Run r = cli({"annotate", dir.filePath("t.json"), "--kernel-info", dir.filePath("k.json"),
                     "-o", dir.filePath("out.json"), "--report", dir.filePath("r.json")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        json report = json::parse(readFile(dir.filePath("r.json")).toStdString());
        QStringList errors = kinds(report["errors"]);
        QVERIFY2(errors.contains("missing_uid@9") && errors.contains("missing_uid@10") &&
                     errors.contains("missing_uid@11"),
                 qPrintable(errors.join(' ')));
        QCOMPARE(readFile(dir.filePath("t.json")), input);
    }

    // ---- Output errors: exit 1, no output file (nor temporary file), the input unchanged. ----
    void outputErrors_data() {
        QTest::addColumn<QString>("out");      // relative to the folder unless absolute
        QTest::addColumn<QString>("report");   // "" for none
        QTest::addColumn<QString>("message");  // expected after "stackline-cli: "
        QTest::newRow("folder does not exist")
            << "missing/out.json"
            << ""
            << "%1/missing/out.json: cannot create the output in";
        QTest::newRow("folder is a file") << "t.json/out.json"
                                          << ""
                                          << "%1/t.json/out.json: cannot create the output in";
        QTest::newRow("folder not writable (procfs, even for root)")
            << "/proc/stackline-out.json"
            << ""
            << "/proc/stackline-out.json: cannot create the output in /proc/";
        QTest::newRow("output is a folder") << "sub"
                                            << ""
                                            << "%1/sub: is a directory";
        QTest::newRow("full disk (/dev/full)")
            << "/dev/full"
            << ""
            << "/dev/full: write failed: No space left on device";
        QTest::newRow("full disk, gzip output")
            << "full.json.gz"
            << ""
            << "%1/full.json.gz: write failed: No space left on device";
        QTest::newRow("output is the input") << "t.json"
                                             << ""
                                             << "%1/t.json: refusing to overwrite the input trace";
        QTest::newRow("output is the input, spelled differently")
            << "sub/../t.json"
            << ""
            << "%1/sub/../t.json: refusing to overwrite the input trace";
        QTest::newRow("output is a link to the input")
            << "link.json"
            << ""
            << "%1/link.json: refusing to overwrite the input trace";
        QTest::newRow("output is a hard link to the input")
            << "hard.json"
            << ""
            << "%1/hard.json: refusing to overwrite the input trace";
        QTest::newRow("report on a full disk")
            << "out.json"
            << "/dev/full"
            << "/dev/full: write failed: No space left on device";
        QTest::newRow("report folder does not exist")
            << "out.json"
            << "missing/r.json"
            << "%1/missing/r.json: cannot create the output in";
        if (::geteuid() != 0)
            QTest::newRow("folder without write permission")
                << "locked/out.json"
                << ""
                << "%1/locked/out.json: cannot create the output in";
    }
    void outputErrors() {
        QFETCH(QString, out);
        QFETCH(QString, report);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString t = dir.filePath("t.json"), k = dir.filePath("k.json");
        const QByteArray input = baseTrace();
        QVERIFY(writeFile(t, input) && writeFile(k, kInfo));
        QVERIFY(QDir(dir.path()).mkdir("sub") && QDir(dir.path()).mkdir("locked"));
        QVERIFY(QFile::link(t, dir.filePath("link.json")));
        QVERIFY(::link(t.toLocal8Bit().constData(),
                       dir.filePath("hard.json").toLocal8Bit().constData()) == 0);
        QVERIFY(QFile::link("/dev/full", dir.filePath("full.json.gz")));
        QVERIFY(QFile::setPermissions(dir.filePath("locked"),
                                      QFileDevice::ReadOwner | QFileDevice::ExeOwner));
        const QStringList before = entries(dir.path());
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
        QStringList after = entries(dir.path());
        // A report that cannot be written comes after the trace was: the complete trace may stay.
        if (!report.isEmpty()) after.removeAll("out.json");
        QCOMPARE(after, before);
        QCOMPARE(entries(dir.filePath("sub")), QStringList());
        QVERIFY(!QFile::exists("/proc/stackline-out.json"));
        QFile::setPermissions(dir.filePath("locked"), QFileDevice::ReadOwner |
                                                          QFileDevice::WriteOwner |
                                                          QFileDevice::ExeOwner);
    }

    // --in-place is the one way to replace the input, and it does so atomically.
    void inPlaceReplacesTheInput() {
        QTemporaryDir dir;
        const QString t = dir.filePath("t.json"), k = dir.filePath("k.json");
        QVERIFY(writeFile(t, baseTrace()) && writeFile(k, kInfo));
        Run r = cli({"annotate", t, "--kernel-info", k, "-o", t, "--in-place"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        Trace o = loadTrace(t.toStdString());
        QCOMPARE(o.slice(o.events.stackValue.at(3)), std::string_view(kStack.constData()));
        QCOMPARE(entries(dir.path()), QStringList({"k.json", "t.json"}));
    }

    // ---- Bad command lines: exit 2 with the usage, never a crash. ----
    void badArguments_data() {
        QTest::addColumn<QStringList>(
            "args");  // "T" and "K" stand for a good trace and kernel info
        QTest::newRow("no command") << QStringList();
        QTest::newRow("unknown command") << QStringList{"frobnicate", "T"};
        QTest::newRow("two traces") << QStringList{"summary", "T", "T"};
        QTest::newRow("unknown option") << QStringList{"summary", "T", "--frobnicate"};
        QTest::newRow("option without its value") << QStringList{"annotate", "T", "-o"};
        QTest::newRow("annotate without -o") << QStringList{"annotate", "T", "--kernel-info", "K"};
        QTest::newRow("--threads not a number")
            << QStringList{"annotate", "T", "--kernel-info", "K", "-o", "O", "--threads", "abc"};
        QTest::newRow("--threads out of range") << QStringList{
            "annotate", "T", "--kernel-info", "K", "-o", "O", "--threads", "99999999999999999999"};
        QTest::newRow("--threads negative")
            << QStringList{"annotate", "T", "--kernel-info", "K", "-o", "O", "--threads", "-1"};
        QTest::newRow("--top with a unit") << QStringList{"hotspots", "T", "--top", "10x"};
    }
    void badArguments() {
        QFETCH(QStringList, args);
        QTemporaryDir dir;
        QVERIFY(writeFile(dir.filePath("t.json"), baseTrace()) &&
                writeFile(dir.filePath("k.json"), kInfo));
        for (QString& a : args) {
            if (a == "T") a = dir.filePath("t.json");
            if (a == "K") a = dir.filePath("k.json");
            if (a == "O") a = dir.filePath("out.json");
        }
        Run r = cli(args);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("usage") || r.err.contains("stackline-cli"), qPrintable(r.err));
        QCOMPARE(entries(dir.path()), QStringList({"k.json", "t.json"}));
    }

    // ---- Every input the fuzzers crashed on, through the code path of its target. ----
    void fuzzRegressions_data() {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("file");
        const QString root = QStringLiteral(STACKLINE_TEST_DATA "/malformed/fuzz-regressions");
        int n = 0;
        for (QDirIterator it(root, QDir::Files, QDirIterator::Subdirectories); it.hasNext(); ++n) {
            QString file = it.next();
            QString target = QFileInfo(file).dir().dirName();
            QTest::newRow(qPrintable(target + "/" + QFileInfo(file).fileName())) << target << file;
        }
        if (n == 0) QTest::newRow("none") << QString() << QString();
    }
    void fuzzRegressions() {
        QFETCH(QString, target);
        QFETCH(QString, file);
        if (file.isEmpty()) QSKIP("no fuzz regressions kept");
        exercise(target, readFile(file));
    }
};

QTEST_GUILESS_MAIN(TstMalformed)
#include "tst_malformed.moc"
