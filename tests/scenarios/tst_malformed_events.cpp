// Malformed events inside a valid trace, and kernel information that loads but is malformed inside
//: each is reported by its index in traceEvents (the report's "uid") and the rest is
// processed: exit 0, the other events annotated as usual, every event's bytes kept (only "uid" and
// args.stack are added), the input unchanged. Run through stackline-cli as a user runs it.
#include <QTemporaryDir>
#include <QTest>

#include "base_trace.h"
#include "test_support.h"

using namespace stackline;
using namespace stackline::test;
using nlohmann::json;

namespace {

// An op on the region's thread inside it (row 9 when appended): the processor reads its ts, dur,
// tid and args.
QByteArray op(const QByteArray& fields) {
    return R"({"ph": "X", "cat": "cpu_op", "name": "aten::bad", "pid": 1)" + fields + "}";
}
// A kernel launched from the region (rows 9-12; the kernel is row 11).
QByteArray launched(const QByteArray& kernel) {
    return R"({"ph": "X", "cat": "cuda_driver", "name": "cuLaunchKernel", "pid": 1, "tid": 1, )"
           R"("ts": 50, "dur": 5},)"
           "\n"
           R"({"ph": "s", "id": 3, "pid": 1, "tid": 1, "ts": 50, "cat": "ac2g", "name": "ac2g"},)"
           "\n" +
           kernel + ",\n" +
           R"({"ph": "f", "id": 3, "pid": 0, "tid": 7, "ts": 60, "cat": "ac2g", "name": "ac2g"})";
}
QByteArray kernel(const QByteArray& fields) {
    return R"({"ph": "X", "cat": "kernel", "pid": 0, "tid": 7, "ts": 60, "dur": 1)" + fields + "}";
}
// A flow start after launch 1 (row 9).
QByteArray flow(const QByteArray& id) {
    return R"({"ph": "s")" + id +
           R"(, "pid": 1, "tid": 1, "ts": 10, "cat": "ac2g", "name": "ac2g"})";
}
// A second compiled region (row 9).
QByteArray region(const QByteArray& fields) {
    return R"({"ph": "X", "cat": "cpu_op", "name": "Torch-Compiled Region: 1/0")" + fields + "}";
}

// "kind@uid" for each occurrence of each report entry (a message and its uids), in order.
QStringList kinds(const json& list) {
    QStringList out;
    for (const json& d : list)
        for (const json& uid : d["uids"])
            out << QString::fromStdString(d["kind"].get<std::string>()) + "@" +
                       (uid.is_null() ? QStringLiteral("-") : QString::number(uid.get<int>()));
    return out;
}

}  // namespace

class TstMalformedEvents : public QObject {
    Q_OBJECT
private slots:
    void malformedEvents_data();
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
        writeFile(t, input);
        writeFile(k, kinfo);
        Run r = cli({"annotate", t, "--kernel-info", k, "-o", out, "--report", rep});
        QVERIFY2(r.code == 0, qPrintable(QString::number(r.code) + " " + r.err.left(400)));
        QCOMPARE(readFile(t), input);
        QCOMPARE(folderEntries(dir.path()),
                 QStringList({"k.json", "out.json", "r.json", "t.json"}));

        json report = json::parse(readFile(rep.toStdString()));
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
            baseTrace(R"({"ph": "X", "uid": [9]},)"
                      "\n"
                      R"({"ph": "X"},)"
                      "\n7")
                .replace(R"("traceName")", R"("uid_assigned": true, "traceName")");
        writeFile(dir.filePath("t.json"), input);
        writeFile(dir.filePath("k.json"), kInfo);
        Run r = cli({"annotate", dir.filePath("t.json"), "--kernel-info", dir.filePath("k.json"),
                     "-o", dir.filePath("out.json"), "--report", dir.filePath("r.json")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        json report = json::parse(readFile(dir.filePath("r.json").toStdString()));
        QStringList errors = kinds(report["errors"]);
        QVERIFY2(errors.contains("missing_uid@9") && errors.contains("missing_uid@10") &&
                     errors.contains("missing_uid@11"),
                 qPrintable(errors.join(' ')));
        QCOMPARE(readFile(dir.filePath("t.json")), input);
    }
};

// moc 6.4 misreads raw string literals that hold an odd number of quotes: it skips the tables.
#ifndef Q_MOC_RUN

void TstMalformedEvents::malformedEvents_data() {
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
    row("event is a string", R"("event")", {"malformed_event@9"});
    row("event is null", "null", {"malformed_event@9"});
    row("event is a list", R"([{"ph": "X"}])", {"malformed_event@9"});
    row("event is true", "true", {"malformed_event@9"});
    row("event nested 10^5 deep", nested(100000), {"malformed_event@9"});
    row("event is an empty object", "{}", none);
    // ts, on an op the processor reads (inside the region, on its thread).
    row("ts a string", op(R"(, "tid": 1, "ts": "50", "dur": 1)"), {"bad_ts@9"});
    row("ts null", op(R"(, "tid": 1, "ts": null, "dur": 1)"), {"bad_ts@9"});
    row("ts a list", op(R"(, "tid": 1, "ts": [50], "dur": 1)"), {"bad_ts@9"});
    row("ts an object", op(R"(, "tid": 1, "ts": {"us": 50}, "dur": 1)"), {"bad_ts@9"});
    row("ts missing", op(R"(, "tid": 1, "dur": 1)"), {"missing_ts@9"});
    row("ts true (Python's 1)", op(R"(, "tid": 1, "ts": true, "dur": 1)"), none);
    row("region ts a string", region(R"(, "tid": 2, "ts": "0", "dur": 9)"), {"bad_ts@9"});
    // dur
    row("dur a string", op(R"(, "tid": 1, "ts": 50, "dur": "1")"), {"bad_dur@9"});
    row("dur a list", op(R"(, "tid": 1, "ts": 50, "dur": [1])"), {"bad_dur@9"});
    row("dur null", op(R"(, "tid": 1, "ts": 50, "dur": null)"), {"bad_dur@9"});
    row("dur missing (0)", op(R"(, "tid": 1, "ts": 50)"), none);
    // pid: never read by the processor (nor by the reference).
    row("pid a list", op(R"(, "pid": [1], "tid": 1, "ts": 50, "dur": 1)"), none);
    row("pid an object", op(R"(, "pid": {"a": 1}, "tid": 1, "ts": 50, "dur": 1)"), none);
    row("pid a string", op(R"(, "pid": "one", "tid": 1, "ts": 50, "dur": 1)"), none);
    row("pid null", op(R"(, "pid": null, "tid": 1, "ts": 50, "dur": 1)"), none);
    // tid
    row("tid a list", op(R"(, "tid": [1], "ts": 50, "dur": 1)"), {"bad_tid@9"});
    row("tid an object", op(R"(, "tid": {"a": 1}, "ts": 50, "dur": 1)"), {"bad_tid@9"});
    row("tid a string (another thread)", op(R"(, "tid": "1", "ts": 50, "dur": 1)"), none);
    row("tid missing (None: no region there)", op(R"(, "ts": 50, "dur": 1)"), none);
    row("region tid missing", region(R"(, "ts": 0, "dur": 9)"), {"missing_tid@9"});
    row("region tid a list", region(R"(, "tid": [2], "ts": 0, "dur": 9)"), {"bad_tid@9"});
    // name
    row("name a number", R"({"ph": "X", "cat": "python_function", "name": 5, "tid": 1, "ts": 50})",
        {"malformed_event@9"});
    row("name a list", R"({"ph": "X", "cat": "cpu_op", "name": ["x"], "tid": 1, "ts": 50})",
        {"malformed_event@9"});
    row("name an object", R"({"ph": "X", "cat": "cpu_op", "name": {"x": 1}, "tid": 1, "ts": 50})",
        {"malformed_event@9"});
    row("cpu_op name null", R"({"ph": "X", "cat": "cpu_op", "name": null, "tid": 1, "ts": 50})",
        {"malformed_event@9"});
    row("kernel name null", launched(kernel(R"(, "name": null)")), {"bad_name@11"});
    row("kernel name false", launched(kernel(R"(, "name": false)")), {"bad_name@11"});
    row("kernel name missing", launched(kernel("")), {"missing_name@11"});
    // cat
    row("cat a list", R"({"ph": "X", "cat": ["cpu_op"], "name": "x", "tid": 1, "ts": 50})",
        {"malformed_event@9"});
    row("cat an object", R"({"ph": "X", "cat": {"a": 1}, "name": "x", "tid": 1, "ts": 50})",
        {"malformed_event@9"});
    row("cat a number", R"({"ph": "X", "cat": 5, "name": "x", "tid": 1, "ts": 50})", none);
    row("cat null", R"({"ph": "X", "cat": null, "name": "x", "tid": 1, "ts": 50})", none);
    // args
    row("args a number", op(R"(, "tid": 1, "ts": 50, "dur": 1, "args": 5)"), {"bad_args@9"});
    row("args true", op(R"(, "tid": 1, "ts": 50, "dur": 1, "args": true)"), {"bad_args@9"});
    row("args null", op(R"(, "tid": 1, "ts": 50, "dur": 1, "args": null)"), {"bad_args@9"});
    row("args a string", op(R"(, "tid": 1, "ts": 50, "dur": 1, "args": "x")"), {"bad_args@9"});
    row("args a string with CallFrom (skipped)",
        op(R"(, "tid": 1, "ts": 50, "dur": 1, "args": "CallFrom x")"), none);
    row("kernel args a string",
        launched(kernel(R"(, "name": "triton_poi_fused_add_0", "args": "x")")), {"bad_args@11"});
    row("kernel args a list",
        launched(kernel(R"(, "name": "triton_poi_fused_add_0", "args": [1])")), {"bad_args@11"});
    row("External id a list", op(R"(, "tid": 1, "ts": 50, "dur": 1, "args": {"External id": [7]})"),
        {"bad_external_id@9"});
    row("args 10^5 deep",
        op(R"(, "tid": 1, "ts": 50, "dur": 1, "args": {"x": )" + nested(100000) + "}"), none);
    // id of flow events
    row("flow id a string", flow(R"(, "id": "abc")"), {"bad_flow@9"});
    row("flow id missing", flow(""), {"bad_flow@9"});
    row("flow id a list", flow(R"(, "id": [1])"), {"bad_flow@9"});
    row("flow id null", flow(R"(, "id": null)"), {"bad_flow@9"});
    row("flow id 1e400", flow(R"(, "id": 1e400)"), {"bad_flow@9"});
    row("flow id NaN", flow(R"(, "id": NaN)"), {"bad_flow@9"});
    row("flow id beyond 128 bits", flow(R"(, "id": 340282366920938463463374607431768211456)"),
        {"bad_flow@9"});
    row("flow id a numeric string", flow(R"(, "id": " 9 ")"), none);
    // NaN, Infinity, numbers out of range
    row("ts NaN", op(R"(, "tid": 1, "ts": NaN, "dur": 1)"), none);
    row("ts Infinity", op(R"(, "tid": 1, "ts": Infinity, "dur": 1)"), none);
    row("dur -Infinity", op(R"(, "tid": 1, "ts": 50, "dur": -Infinity)"), none);
    row("region ts NaN", region(R"(, "tid": 1, "ts": NaN, "dur": 9)"), none);
    row("ts 1e400", op(R"(, "tid": 1, "ts": 1e400, "dur": 1)"), none);
    row("ts -1e400", op(R"(, "tid": 1, "ts": -1e400, "dur": 1)"), none);
    row("ts with 42 digits",
        op(R"(, "tid": 1, "ts": 123456789012345678901234567890123456789012, "dur": 1)"), none);
    row("ts beyond int64",
        op(R"(, "tid": 1, "ts": 9223372036854775807, "dur": 9223372036854775807)"), none);
    row("dur 1e-400", op(R"(, "tid": 1, "ts": 50, "dur": 1e-400)"), none);
    row("pid 1e999", op(R"(, "pid": 1e999, "tid": 1, "ts": 50, "dur": 1)"), none);
    row("External id beyond int64",
        op(R"(, "tid": 1, "ts": 50, "dur": 1, "args": {"External id": 99999999999999999999999})"),
        none);
    // Invalid UTF-8 and raw control characters are kept byte for byte.
    row("name with invalid UTF-8",
        R"({"ph": "X", "cat": "cpu_op", "name": "bad)"
        "\xff\xfe"
        R"(", "tid": 1, "ts": 50})",
        none);
    row("name with raw control characters",
        R"({"ph": "X", "cat": "cpu_op", "name": "a)"
        "\x01\tb\nc"
        R"(", "tid": 1, "ts": 50})",
        none);
    row("kernel name with invalid UTF-8",
        launched(kernel(R"(, "name": "triton_)"
                        "\xc3\x28"
                        R"(")")),
        none);
    row("kernel name neither triton nor extern (the reference's warning)",
        launched(kernel(R"(, "name": "other")")), none, {"unrecognized_kernel@11"});
    // Duplicate keys: the last one counts, as in Python.
    row("duplicate ts, the last bad", op(R"(, "tid": 1, "ts": 50, "ts": "x", "dur": 1)"),
        {"bad_ts@9"});
    row("duplicate ts, the last good", op(R"(, "tid": 1, "ts": "x", "ts": 50, "dur": 1)"), none);
    row("duplicate name, the last a number",
        R"({"ph": "X", "name": "x", "name": 5, "tid": 1, "ts": 50})", {"malformed_event@9"});
    row("duplicate args, the last bad",
        op(R"(, "tid": 1, "ts": 50, "dur": 1, "args": {}, "args": 1)"), {"bad_args@9"});

    // Kernel information that loads but is malformed inside.
    auto info = [](const char* name, const QByteArray& k, const QStringList& errors,
                   const QStringList& warnings, const QByteArray& stack3) {
        QTest::newRow(name) << QByteArray() << k << errors << warnings << stack3;
    };
    const QByteArray key = kRegionKey;
    const QStringList bothKernels{"bad_kernel_info@3", "bad_kernel_info@7"};
    const QStringList noRegion{"region_without_kernel_info@0"};
    info("graph value a list", "{" + key + R"(: ["m.py:1"]})", bothKernels, none, "");
    info("graph value a string", "{" + key + R"(: "m.py:1"})", bothKernels, none, "");
    info("graph value a number", "{" + key + ": 5}", bothKernels, none, "");
    info("graph value null", "{" + key + ": null}", bothKernels, none, "");
    info("graph key not a tuple",
         R"({"Torch-Compiled Region: 0/0": {"triton_poi_fused_add_0": ["m.py:1"]}})", none,
         noRegion, "");
    info("graph key unclosed",
         R"j({"('Torch-Compiled Region: 0/0', False": {"triton_poi_fused_add_0": ["m.py:1"]}})j",
         none, noRegion, "");
    info("graph key raising in literal_eval", R"({"{[]: 1}": {"x": ["m.py:1"]}})",
         {"bad_graph_key@0"}, noRegion, "");
    info("graph key with wrong flag type",
         R"j({"('Torch-Compiled Region: 0/0', 0)": {"triton_poi_fused_add_0": ["m.py:1"]}})j", none,
         noRegion, "");
    info("stack_traces a number",
         "{" + key + R"(: {"triton_poi_fused_add_0": {"stack_traces": 5}}})", none, none, "5");
    info("stack_traces a string",
         "{" + key + R"(: {"triton_poi_fused_add_0": {"stack_traces": "m.py:1"}}})", none, none,
         R"("m.py:1")");
    info("stack_traces an object",
         "{" + key + R"(: {"triton_poi_fused_add_0": {"stack_traces": {"a": 1}}}})", none, none,
         R"({"a":1})");
    info("stack_traces null",
         "{" + key + R"(: {"triton_poi_fused_add_0": {"stack_traces": null}}})", none, none, "");
    info("kernel entry a string", "{" + key + R"(: {"triton_poi_fused_add_0": "m.py:1"}})", none,
         none, R"("m.py:1")");
    info("kernel entry null", "{" + key + R"(: {"triton_poi_fused_add_0": null}})", none, none, "");
    info("duplicate graph key: the last wins",
         "{" + key + R"(: {"triton_poi_fused_add_0": ["first"]}, )" + key +
             R"(: {"triton_poi_fused_add_0": ["last"]}})",
         none, none, R"(["last"])");
    info("empty registry: nothing written", "{}", none, none, "");
}
#endif  // Q_MOC_RUN

QTEST_GUILESS_MAIN(TstMalformedEvents)
#include "tst_malformed_events.moc"
