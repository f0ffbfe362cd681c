// Export splices into the original bytes: only uid, stack and uid_assigned are added, every other
// byte stays; gzip output; atomic writes that never leave partial files or touch the input.
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include "test_support.h"

using namespace stackline;
using namespace stackline::test;
using nlohmann::json;

namespace {

// Kineto's pretty layout, with a kernel that has args and one that has none.
const char* kPretty =
    "{\n  \"schemaVersion\": 1,\n  \"traceEvents\": [\n"
    "  {\n    \"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"Torch-Compiled Region: 0/0\",\n"
    "    \"pid\": 1, \"tid\": 1, \"ts\": 0.000, \"dur\": 100.000\n  },\n"
    "  {\n    \"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"triton_a\", \"pid\": 1, \"tid\": 1,\n"
    "    \"ts\": 10.000, \"dur\": 5.000, \"args\": {\n      \"External id\": 6\n    }\n  },\n"
    "  {\n    \"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"triton_a\", \"pid\": 0, \"tid\": 7,\n"
    "    \"ts\": 20.000, \"dur\": 1.000, \"args\": {\n      \"External id\": 6\n    }\n  },\n"
    "  {\n    \"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"triton_b\", \"pid\": 1, \"tid\": 1,\n"
    "    \"ts\": 30.000, \"dur\": 5.000, \"args\": {\"External id\": 7}\n  },\n"
    "  {\n    \"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"triton_b\", \"pid\": 0, \"tid\": 7,\n"
    "    \"ts\": 40.000, \"dur\": 1.000, \"args\": {\"External id\": 7, \"stack\": [\"old\"]}\n  "
    "},\n"
    "  {}\n  ],\n  \"traceName\": \"t\"\n}\n";

const char* kInfo =
    "{\"('Torch-Compiled Region: 0/0', False)\": {\"triton_a:1\": {\"stack_traces\": [\"a.py:1\"]},"
    " \"triton_b\": [\"b.py:2\"]}}";

// Removes every occurrence of the inserted pieces; what is left must be the input.
std::string stripInsertions(std::string s, const std::vector<std::string>& pieces) {
    for (const std::string& p : pieces)
        for (std::size_t at; (at = s.find(p)) != std::string::npos;) s.erase(at, p.size());
    return s;
}

}  // namespace

class TstExporter : public QObject {
    Q_OBJECT
private slots:
    void onlyInsertsWhatTheReferenceAdds() {
        Trace t = traceFrom(kPretty);
        Provenance p = runProvenance(t, kernelInfoFrom(kInfo));
        std::string out = exportToString(t, p);
        json j = json::parse(out);
        QCOMPARE(dump(j["traceEvents"][2]["args"]["stack"]), QString("[\"a.py:1\"]"));
        QCOMPARE(dump(j["traceEvents"][4]["args"]["stack"]), QString("[\"b.py:2\"]"));
        QCOMPARE(j["traceEvents"][5]["uid"].get<int>(), 5);
        QVERIFY(j["uid_assigned"] == json(true));
        std::vector<std::string> pieces = {",\"uid_assigned\":true", "\"uid\":5",
                                           ",\"stack\":[\"a.py:1\"]", "[\"b.py:2\"]", "[\"old\"]"};
        for (int i = 0; i < 5; ++i) pieces.push_back(",\"uid\":" + std::to_string(i));
        std::string original = kPretty;
        original = stripInsertions(original, {"[\"old\"]"});
        QCOMPARE(stripInsertions(out, pieces), original);
    }
    void createsArgsAndReplacesExistingValues() {
        std::string in =
            "{\"uid_assigned\": false, \"traceEvents\": ["
            "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"Torch-Compiled Region: 0/0\", "
            "\"tid\": 1, \"ts\": 0, \"dur\": 100},"
            "{\"ph\": \"X\", \"cat\": \"cuda_driver\", \"name\": \"l\", \"tid\": 1, \"ts\": 10, "
            "\"dur\": 5, \"uid\": \"old\"},"
            "{\"ph\": \"s\", \"id\": 1, \"tid\": 1, \"ts\": 10, \"cat\": \"ac2g\", \"name\": "
            "\"ac2g\"},"
            "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"triton_a\", \"tid\": 7, \"ts\": 20, "
            "\"dur\": 1},"
            "{\"ph\": \"f\", \"id\": 1, \"tid\": 7, \"ts\": 20, \"cat\": \"ac2g\", \"name\": "
            "\"ac2g\"}]}";
        Trace t = traceFrom(in);
        std::string out = exportToString(t, runProvenance(t, kernelInfoFrom(kInfo)));
        QVERIFY(out.find("\"uid_assigned\": true") != std::string::npos);
        QVERIFY(out.find("\"uid\": 1}") != std::string::npos);
        QVERIFY(out.find(",\"uid\":3,\"args\":{\"stack\":[\"a.py:1\"]}}") != std::string::npos);
        json j = json::parse(out);
        QCOMPARE(j["traceEvents"][1]["uid"].get<int>(), 1);
    }
    void writesFilesAtomically() {
        QTemporaryDir dir;
        std::string input = dir.filePath("in.json").toStdString();
        {
            QFile f(QString::fromStdString(input));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(kPretty);
        }
        Trace t = loadTrace(input);
        Provenance p = runProvenance(t, kernelInfoFrom(kInfo));
        std::string expected = exportToString(t, p);

        std::string json = dir.filePath("out.json").toStdString();
        exportTrace(t, p, json);
        QCOMPARE(readFile(json), expected);
        std::string gz = dir.filePath("out.json.gz").toStdString();
        exportTrace(t, p, gz);
        QCOMPARE(std::string(TraceBytes::open(gz).text()), expected);
        QVERIFY(TraceBytes::open(gz).wasCompressed());

        // The input is never the output unless asked; a failed write leaves nothing behind.
        QVERIFY_THROWS_EXCEPTION(OutputError, exportTrace(t, p, input));
        QCOMPARE(readFile(input), std::string(kPretty));
        QVERIFY_THROWS_EXCEPTION(OutputError,
                                 exportTrace(t, p, dir.filePath("no/such/dir.json").toStdString()));
        QVERIFY_THROWS_EXCEPTION(OutputError, exportTrace(t, p, "/dev/full"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 3);

        ExportOptions inPlace;
        inPlace.allowOverwriteInput = true;
        exportTrace(t, p, input, inPlace);
        QCOMPARE(readFile(input), expected);
    }
    void largeExportsEqualTheInMemoryOutput() {
        // Over 16 MB: the output goes through many buffers, each spliced into the file while the
        // next one is filled.
        std::string in =
            "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"cpu_op\", "
            "\"name\": \"Torch-Compiled Region: 0/0\", \"tid\": 1, \"ts\": 0, "
            "\"dur\": 1e9}";
        for (int i = 0; i < 120000; ++i) {
            std::string ts = std::to_string(10 + 2 * i);
            in +=
                ",\n {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"triton_a\", \"tid\": 1, "
                "\"ts\": " +
                ts + ", \"dur\": 1, \"args\": {\"External id\": " + std::to_string(i) +
                ", \"padding\": \"" + std::string(80, 'x') +
                "\"}}"
                ",\n {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"triton_a\", \"tid\": 7, "
                "\"ts\": " +
                ts + ", \"dur\": 1" +
                (i % 3 ? ", \"args\": {\"External id\": " + std::to_string(i) + "}"
                       : std::string()) +
                "}";
        }
        in += "], \"traceName\": \"big\"}";
        QVERIFY(in.size() > (16u << 20));
        QTemporaryDir dir;
        std::string input = dir.filePath("big.json").toStdString();
        {
            QFile f(QString::fromStdString(input));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(in.data(), qint64(in.size()));
        }
        Trace t = loadTrace(input);
        Provenance p = runProvenance(t, kernelInfoFrom(kInfo));
        QVERIFY(p.writtenCount > 50000);
        std::string out = dir.filePath("out.json").toStdString();
        exportTrace(t, p, out);
        QVERIFY(readFile(out) == exportToString(t, p));
    }
};

QTEST_GUILESS_MAIN(TstExporter)
#include "tst_exporter.moc"
