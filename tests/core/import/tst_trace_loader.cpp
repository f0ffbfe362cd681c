// Loading: both layouts, gzip by magic bytes, raw control characters, numbers as the processor
// and the display need them, key order, and clear errors with positions.
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <fstream>

#include "test_support.h"

using namespace stackline;
using namespace stackline::test;

// Every column of a row, as text that does not depend on where the event is in the document.
static std::string rowText(const Trace& t, uint32_t row) {
    const EventTable& e = t.events;
    auto key = [&](KeyId id) {
        return id == kNoKey        ? std::string("-")
               : id == kUnhashable ? "unhashable"
                                   : e.keys.describe(id);
    };
    auto uidSpan = e.uidValue.find(row);
    auto stackSpan = e.stackValue.find(row);
    std::string text(t.slice(e.eventSpan(row)));
    uint32_t kinds;
    std::memcpy(&kinds, &e.kinds[row], sizeof kinds);
    return text + " | name " + std::string(e.nameOf(row)) + " | cat " + std::string(e.catOf(row)) +
           " | ph " + std::to_string(int(e.phase[row])) + " | pid " + key(e.pid[row]) + " | tid " +
           key(e.tid[row]) + " | external " + key(e.externalId[row]) + " | uid " +
           key(e.uidOf(row)) + " | flow " + std::to_string(e.flowIds.at(row, 0)) + " | ts " +
           std::to_string(e.tsBits[row]) + " | dur " + std::to_string(e.durBitsOf(row)) +
           " | kinds " + std::to_string(kinds) + " | args " +
           std::string(t.slice(e.argsSpan(row))) + " | uid value " +
           (uidSpan == e.uidValue.end() ? "-" : std::string(t.slice(uidSpan->second))) +
           " | stack value " +
           (stackSpan == e.stackValue.end() ? "-" : std::string(t.slice(stackSpan->second)));
}

class TstTraceLoader : public QObject {
    Q_OBJECT
private slots:
    void indexesFields() {
        Trace t = traceFrom(
            "{\"schemaVersion\": 1, \"traceEvents\": [\n            {\"ph\": \"X\", \"cat\": "
            "\"kernel\", \"name\": \"triton_poi_fused_add_0\", \"pid\": 0, \"tid\": 7,\n           "
            "  \"ts\": 2413669097444.592, \"dur\": 1.76, \"args\": {\"External id\": 3, "
            "\"stream\": 7}},\n            {\"ph\": \"f\", \"id\": 35, \"pid\": 0, \"tid\": "
            "\"stream 7\", \"ts\": 1621401187224556, \"cat\": \"ac2g\",\n             \"name\": "
            "\"ac2g\", \"bp\": \"e\"}\n        ], \"traceName\": \"x\"}");
        QCOMPARE(t.events.size(), 2u);
        QCOMPARE(t.events.nameOf(0), std::string_view("triton_poi_fused_add_0"));
        QCOMPARE(t.events.catOf(0), std::string_view("kernel"));
        QCOMPARE(t.events.phase[0], 'X');
        QCOMPARE(t.events.tsNs(0), int64_t(2413669097444592));
        QCOMPARE(t.events.durNs(0), int64_t(1760));
        // Integer and three-decimal microseconds give back their nanoseconds: no correction kept.
        QCOMPARE(t.events.tsNsFix.heldRows(), std::size_t(0));
        QCOMPARE(t.events.durNsFix.heldRows(), std::size_t(0));
        QCOMPARE(t.events.ts(0).kind, PyNum::Kind::Float);
        QCOMPARE(t.events.ts(1).kind, PyNum::Kind::Int);
        QCOMPARE(*t.events.keys.asInt(t.events.externalId[0]), int64_t(3));
        QCOMPARE(*t.events.keys.asString(t.events.tid[1]), std::string_view("stream 7"));
        QCOMPARE(t.events.flowIds.at(1, 0), int64_t(35));
        QCOMPARE(t.slice(t.events.argsSpan(0)),
                 std::string_view("{\"External id\": 3, \"stream\": 7}"));
    }
    // Kineto's relative times (the corpus' traces' first ts) and times written from nanoseconds
    // give back their nanoseconds from the double below 2^43 µs: the table keeps no correction.
    void relativeTimesNeedNoCorrection() {
        std::string events;
        for (const char* ts : {"701805216966.892", "2413669096090.100", "4909914216204.635",
                               "6520618853487.683", "8796093022207.999", "0.001", "-3.25"})
            events += std::string(events.empty() ? "" : ", ") + "{\"ph\": \"X\", \"ts\": " + ts +
                      ", \"dur\": " + ts + "}";
        for (int64_t ns = 0; ns < (int64_t(1) << 43) * 1000; ns = ns * 7 + 123457)
            events += ", {\"ph\": \"X\", \"ts\": " + std::to_string(ns / 1000) + "." +
                      std::to_string(1000 + ns % 1000).substr(1) + "}";
        Trace t = traceFrom("{\"traceEvents\": [" + events + "]}");
        QVERIFY(t.events.size() > 20);
        QCOMPARE(t.events.tsNsFix.heldRows(), std::size_t(0));
        QCOMPARE(t.events.durNsFix.heldRows(), std::size_t(0));
        QCOMPARE(t.events.tsNs(2), int64_t(4909914216204635));
        QCOMPARE(t.events.tsNs(4), int64_t(8796093022207999));
    }
    void exactNanosecondsForEpochTimestamps() {
        // 1712195495519689.047 does not fit a double; the display value comes from the text.
        Trace t = traceFrom(
            "{\"traceEvents\": [{\"ph\": \"X\", \"ts\": 1712195495519689.047, \"dur\": 0.0005}]}");
        QCOMPARE(t.events.tsNs(0), int64_t(1712195495519689047));
        QCOMPARE(t.events.durNs(0), int64_t(1));  // rounded half up
        QCOMPARE(t.events.ts(0).f, 1712195495519689.0);
        QCOMPARE(t.events.tsNsFix.heldRows(), std::size_t(1));  // the double lost the fraction
    }
    // ts as the processor compares it (Python's int or float) and as the display shows it (exact
    // nanoseconds, the fourth decimal rounding half up, clamped to +-(2^62-1)); the common forms
    // are read in one pass, the others by the general path, and both must agree.
    void numbers_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("nanos");
        QTest::addColumn<bool>("isInt");
        QTest::addColumn<double>("value");  // the float, or the int when it fits a double
        struct Number {
            const char* text;
            qint64 nanos;
            bool isInt;
            double value;
        };
        static constexpr Number kNumbers[] = {
            {"0", 0, true, 0},
            {"-0", 0, true, 0},
            {"7", 7000, true, 7},
            {"-12", -12000, true, -12},
            {"1.5", 1500, false, 1.5},
            {"2413669096709.301", 2413669096709301, false, 2413669096709.301},
            {"-3.25", -3250, false, -3.25},
            {"0.001", 1, false, 0.001},
            {"0.0005", 1, false, 0.0005},
            {"0.0004", 0, false, 0.0004},
            {"1.23456", 1235, false, 1.23456},
            {"123456789012345678", 4611686018427387903, true, 123456789012345678.0},
            {"1234567890123456789", 4611686018427387903, true, 1234567890123456789.0},
            {"-123456789012345678", -4611686018427387903, true, -123456789012345678.0},
            {"1712195495519.68904", 1712195495519689, false, 1712195495519.68904},
            {"9007199254740993.5", 4611686018427387903, false, 9007199254740993.5},
            {"1e3", 1000000, false, 1000},
            {"2.5E-3", 3, false, 0.0025},
            {"-0.0", 0, false, -0.0},
            {"4611686018427387.904", 4611686018427387903, false, 4611686018427387.904},
            {"12345678", 12345678000, true, 12345678},
            {"87654321.5", 87654321500, false, 87654321.5},
            {"99999999.999", 99999999999, false, 99999999.999},
            {"123456789012345.678", 123456789012345678, false, 123456789012345.678},
            {"1234567812345678.1234", 1234567812345678123, false, 1234567812345678.1234},
            {"9", 9000, true, 9},
            {"100000000", 100000000000, true, 100000000},
            {"55555555555555555", 4611686018427387903, true, 55555555555555555.0},
            {"0.12345678", 123, false, 0.12345678},
            {"1.000000001", 1000, false, 1.000000001},
            // Up to sixteen digits on either side of the point are converted without a loop.
            {"1234567890123456", 1234567890123456000, true, 1234567890123456.0},
            {"-12345678901234567", -4611686018427387903, true, -12345678901234567.0},
            {"0.1234567890123456", 123, false, 0.1234567890123456},
            {"3.12345678901234567", 3123, false, 3.12345678901234567},
        };
        for (const Number& n : kNumbers)
            QTest::newRow(n.text) << QString(n.text) << n.nanos << n.isInt << n.value;
    }
    void numbers() {
        QFETCH(QString, text);
        QFETCH(qint64, nanos);
        QFETCH(bool, isInt);
        QFETCH(double, value);
        Trace t = traceFrom("{\"traceEvents\": [{\"ts\": " + text.toStdString() +
                            ", \"dur\": " + text.toStdString() + "}]}");
        QCOMPARE(t.events.tsNs(0), nanos);
        QCOMPARE(t.events.durNs(0), nanos);
        PyNum ts = t.events.ts(0);
        QCOMPARE(ts.kind, isInt ? PyNum::Kind::Int : PyNum::Kind::Float);
        QVERIFY(isInt ? double(ts.i) == value : ts.f == value);  // exactly, not QCOMPARE's fuzzily
        QCOMPARE(std::signbit(ts.f), std::signbit(value) && !isInt);
    }
    void acceptsRawControlCharactersAndEscapes() {
        std::string json =
            "{\"traceEvents\": [{\"name\": \"a\tb\x01\", \"cat\": \"c\\u0061t\", "
            "\"n\\u0061me2\": 1}]}";
        Trace t = traceFrom(json);
        QCOMPARE(t.events.nameOf(0), std::string_view("a\tb\x01"));
        QCOMPARE(t.events.catOf(0), std::string_view("cat"));
        Trace escapedKey = traceFrom("{\"traceEvents\": [{\"n\\u0061me\": \"x\"}]}");
        QCOMPARE(escapedKey.events.nameOf(0), std::string_view("x"));
    }
    // Members are found by guessing the bytes before them from earlier events (Kineto writes the
    // events of a kind alike), and some values by guessing they are the last ones of their field;
    // a guess never changes what is read. Events whose keys, order and
    // spacing vary, each met after others that set guesses for it, read as each does alone.
    void guessedMembersReadAsAlone() {
        const std::vector<std::string> events = {
            R"({"ph": "X", "cat": "kernel", "name": "a", "pid": 1, "tid": 2, "ts": 1.5, "dur": 2, "args": {"External id": 7, "stream": 3}})",
            R"({"ph": "X", "cat": "kernel", "name": "b", "tid": 2, "pid": 1, "ts": 2.5, "dur": 2, "args": {"stream": 3, "External id": 8}})",
            R"({"ph": "X", "cat": "kernel", "name": "c", "pid": 1, "tid": 2, "ts": 3.5, "dur": 2, "args": {"External id": 9, "stack": ["x"], "CallFrom": 1}})",
            R"({"ph":"X","cat":"kernel","name":"d","pid":1,"tid":2,"ts":4.5,"dur":2,"args":{"External id":10}})",
            "{\n    \"ph\": \"f\", \"id\": 3, \"pid\": 1, \"tid\": 2, \"ts\": 6,\n    \"cat\": "
            "\"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"\n  }",
            "{\n    \"ph\": \"f\", \"id\": 4, \"pid\": 1, \"tid\": 2, \"ts\": 7,\n    \"cat\": "
            "\"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"   }",
            R"({"ph": "X", "cat": "kernel", "name": "e", "pid": 1, "tid": 2, "ts": 8.5, "dur": 2, "args": {}})",
            R"({"ph": "X", "cat": "kernel", "name": "f", "pid": 1, "tid": 2, "ts": 8.5, "dur": 2, "args": { }})",
            "{}",
            "{ }",
            R"({"ph": "X", "cat": "kernel", "name": "g", "uid": 5, "pid": 1, "tid": 2, "ts": 9.5, "dur": 2, "args": {"External id": 12, "stream": 3} })",
            R"({"ph": "X", "cat": "kernel", "n\u0061me": "h", "pid": 1, "tid": 2, "ts": 10.5, "dur": 2, "args": {"External \u0069d": 13, "stream": 3}})",
            R"({"ph": "X", "cat": "kernel", "name": "i", "pid": 1, "tid": 2, "ts": 11.5, "dur": 2, "args": {"External id": 14, "a key longer than thirty-two bytes": 3}})",
            R"({"ph": "X", "cat": "kernel", "name": "j", "pid": 1, "tid": 2, "ts": 12.5, "dur": 2, "args": {"External id": 15, "stream": 3}, "name": "k"})",
            // Values guessed as the last ones of their field.
            R"({"ph": "XX", "cat": "kernel2", "name": "l", "pid": 12, "tid": 2.5, "ts": 13})",
            R"({"ph": "X", "cat": "kernel", "name": "m", "pid": "1", "tid": -2, "ts": 14})",
            R"({"ph": "X", "cat": 1, "name": "n", "pid": 1 , "tid": null, "ts": 15})",
            R"({"ph": 1, "cat": "k\u0065rnel", "name": "o", "pid": 1e0, "tid": 2})",
            R"({"ph": "X", "cat": "kernel", "name": "p", "pid": [1], "tid": {"a": 2}, "ts": 16})",
            R"({"ph": "X", "cat": "kernel", "name": "q", "pid": [1, 2], "tid": {"a": 2, "b": 3}, "ts": 17})",
        };
        // Every event after every other one, and after itself.
        std::string all = "{\"traceEvents\": [";
        std::vector<std::size_t> order;
        for (std::size_t i = 0; i < events.size(); ++i)
            for (std::size_t j = 0; j < events.size(); ++j) order.insert(order.end(), {i, j, j});
        for (std::size_t k = 0; k < order.size(); ++k) all += (k ? ",\n  " : "") + events[order[k]];
        Trace whole = traceFrom(all + "]}");
        QCOMPARE(whole.events.size(), uint32_t(order.size()));
        for (std::size_t k = 0; k < order.size(); ++k) {
            Trace alone = traceFrom("{\"traceEvents\": [" + events[order[k]] + "]}");
            QCOMPARE(rowText(whole, uint32_t(k)), rowText(alone, 0));
        }
    }
    void lastDuplicateKeyWins() {
        Trace t = traceFrom(
            "{\"traceEvents\": [{\"name\": \"a\", \"name\": \"b\", \"args\": {\"External id\": "
            "1},\n                                \"args\": {\"x\": 2}}]}");
        QCOMPARE(t.events.nameOf(0), std::string_view("b"));
        QCOMPARE(t.events.externalId[0], kNoKey);
    }
    void lastTraceEventsWins() {
        // Found by fuzz_trace_loader: Python keeps the last "traceEvents", list or not.
        auto errorOf = [](const std::string& json) -> std::string {
            try {
                traceFrom(json);
            } catch (const InputError& e) {
                return e.what();
            }
            return {};
        };
        Trace t = traceFrom("{\"traceEvents\": 9, \"traceEvents\": [{\"ph\": \"X\"}]}");
        QCOMPARE(t.events.size(), 1u);
        QCOMPARE(
            errorOf("{\"traceEvents\": [{}], \"traceEvents\": {\"a\": 1}}"),
            std::string("inline.json: line 1, column 38 (byte 37): \"traceEvents\" is not a list"));
        // A syntax error after it is what Python reports first.
        QVERIFY(errorOf("{\"traceEvents\": 9, \"x\": tru}").find("invalid literal") !=
                std::string::npos);
    }
    void traceEventsAnywhere() {
        Trace t = traceFrom(
            "{\"deviceProperties\": [{\"a\": [1, {\"b\": \"]\"}]}], \"traceEvents\": [{\"ph\": "
            "\"M\"}],\n                                \"distributedInfo\": {\"rank\": 0}, "
            "\"uid_assigned\": 1}");
        QCOMPARE(t.events.size(), 1u);
        QVERIFY(t.info.uidAssignedPresent);
        QVERIFY(t.info.uidAssignedTruthy);
    }
    void valueKinds() {
        Trace t = traceFrom(
            "{\"traceEvents\": [42, {\"name\": null, \"cat\": [\"x\"], \"args\": \"CallFrom "
            "here\",\n                               \"ts\": \"1\", \"id\": \" 12 \"}, {\"args\": "
            "null, \"id\": \"1.5\"}, {\"args\": [\"CallFrom\"], \"id\": 3.9}]}");
        QCOMPARE(t.events.kinds[0].event, ValueKind::TruthyScalar);
        QCOMPARE(t.events.kinds[1].name, ValueKind::Null);
        QCOMPARE(t.events.kinds[1].cat, ValueKind::Array);
        QCOMPARE(t.events.kinds[1].callFrom, CallFrom::Yes);
        QCOMPARE(t.events.kinds[1].ts, PyNum::Kind::Invalid);
        QCOMPARE(t.events.kinds[1].flowId, FlowIdStatus::Ok);
        QCOMPARE(t.events.flowIds.at(1, 0), int64_t(12));
        QCOMPARE(t.events.kinds[2].callFrom, CallFrom::Raises);
        QCOMPARE(t.events.kinds[2].flowId, FlowIdStatus::Invalid);
        QCOMPARE(t.events.kinds[3].callFrom, CallFrom::Yes);
        QCOMPARE(t.events.flowIds.at(3, 0), int64_t(3));
    }
    void pythonLiteralsAreValues() {
        Trace t = traceFrom(
            "{\"traceEvents\": [{\"ts\": NaN, \"dur\": Infinity, \"args\": {\"v\": -Infinity}}]}");
        QCOMPARE(t.events.kinds[0].ts, PyNum::Kind::Float);
        QVERIFY(std::isnan(t.events.ts(0).f));
    }
    void deepNestingDoesNotOverflow() {
        std::string deep(100000, '[');
        deep += std::string(100000, ']');
        Trace t = traceFrom("{\"traceEvents\": [{\"args\": {\"x\": " + deep + "}}]}");
        QCOMPARE(t.events.size(), 1u);
    }
    void gzipIsDetectedByMagicBytes() {
        QTemporaryDir dir;
        std::string path = dir.filePath("trace.json").toStdString();  // gzip despite the name
        std::system(
            ("printf '{\"traceEvents\": [{\"name\": \"k\"}]}' | gzip -c > " + path).c_str());
        Trace t = loadTrace(path);
        QVERIFY(t.bytes.wasCompressed());
        QCOMPARE(t.events.nameOf(0), std::string_view("k"));
    }
    void parallelChunksGiveTheSameTable() {
        // Big enough for several chunks; strings that look like event boundaries inside names.
        std::string json = "{\"traceEvents\": [\n";
        for (int i = 0; i < 200000; ++i)
            json += "  {\"ph\": \"X\", \"name\": \"op}, {" + std::to_string(i % 97) +
                    "\", \"tid\": " + std::to_string(i % 5) + ", \"ts\": " + std::to_string(i) +
                    ".5, \"dur\": 1, \"args\": {\"External id\": " + std::to_string(i) + "}},\n";
        json += "  {\"ph\": \"M\"}\n]}";
        LoadOptions one, four;
        one.threads = 1;
        four.threads = 4;
        four.chunkBytes = 1 << 16;
        Trace a = parseTrace(TraceBytes::fromString(json), "a", one);
        Trace b = parseTrace(TraceBytes::fromString(json), "b", four);
        QCOMPARE(a.events.size(), 200001u);
        QCOMPARE(b.events.size(), a.events.size());
        for (uint32_t row = 0; row < a.events.size(); row += 997) {
            QCOMPARE(b.events.begin[row], a.events.begin[row]);
            QCOMPARE(b.events.nameOf(row), a.events.nameOf(row));
            QCOMPARE(b.events.keys.describe(b.events.externalId[row]),
                     a.events.keys.describe(a.events.externalId[row]));
            QCOMPARE(b.events.tsNs(row), a.events.tsNs(row));
        }
        // Chunks already read must stay intact in a copied buffer (the exporter splices them).
        QVERIFY(b.bytes.text() == json);
    }
    void chunkedErrorNamesTheSameLine() {
        // Found by fuzz_trace_loader: the line of an error after released chunks was miscounted.
        std::string json = "{\"traceEvents\": [\n";
        for (int i = 0; i < 5000; ++i) json += "  {\"name\": \"k\", \"ts\": 1},\n";
        json += "  {\"name\": fals}\n]}";
        LoadOptions one, chunked;
        one.threads = 1;
        chunked.threads = 3;
        chunked.chunkBytes = 1 << 13;
        auto errorOf = [&](const LoadOptions& options) -> std::string {
            try {
                parseTrace(TraceBytes::fromString(json), "t.json", options);
            } catch (const InputError& e) {
                return e.what();
            }
            return {};
        };
        const std::string sequential = errorOf(one), parallel = errorOf(chunked);
        QVERIFY2(sequential.find("line 5002, column 12") != std::string::npos, sequential.c_str());
        QCOMPARE(parallel, sequential);
    }
    void refusesWhatIsNotATrace_data() {
        stringTable<2>(
            {"text", "message"},
            {
                {"empty", "", "line 1, column 1 (byte 0): the file is empty"},
                {"array", "[{}]", "top level is an array"},
                {"number", "42", "top level is not an object"},
                {"no traceEvents", "{\"a\": 1}", "no \"traceEvents\""},
                {"traceEvents object", "{\"traceEvents\": {}}", "\"traceEvents\" is not a list"},
                {"truncated", "{\"traceEvents\": [{\"name\": \"x\"},\n {\"na", "line 2"},
                {"missing comma", "{\"traceEvents\": [{\"a\": 1 \"b\": 2}]}", "byte 25"},
                {"trailing data", "{\"traceEvents\": []} x", "unexpected data"},
                {"bad literal", "{\"traceEvents\": [tru]}", "invalid literal"},
            });
    }
    void refusesWhatIsNotATrace() {
        QFETCH(QString, text);
        QFETCH(QString, message);
        try {
            traceFrom(text.toStdString());
            QFAIL("no error");
        } catch (const InputError& e) {
            QString what = QString::fromStdString(e.what());
            QVERIFY2(what.startsWith("inline.json: "), qPrintable(what));
            QVERIFY2(what.contains(message), qPrintable(what));
        }
    }
    void refusesMissingAndCorruptFiles() {
        QTemporaryDir dir;
        QVERIFY_THROWS_EXCEPTION(InputError, loadTrace(dir.filePath("nope.json").toStdString()));
        QVERIFY_THROWS_EXCEPTION(InputError, loadTrace(dir.path().toStdString()));
        std::string gz = dir.filePath("bad.json.gz").toStdString();
        std::ofstream(gz) << "\x1f\x8b\x08\x00garbage";
        QVERIFY_THROWS_EXCEPTION(InputError, loadTrace(gz));
    }
};

QTEST_GUILESS_MAIN(TstTraceLoader)
#include "tst_trace_loader.moc"
