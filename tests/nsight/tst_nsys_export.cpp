// Exports written from Kineto traces are valid SQLite files shaped as Nsight Systems writes them:
// the tables and columns of the schema, rows matching the JSON's events one for one, NVTX names as
// PyTorch's emit_nvtx pushes them, runtime names with their version suffix, launches linked by
// (process, correlation id), a session-relative clock whose absolute start gives back the JSON's
// absolute times; and each edge-case option changes exactly what it says.
#include <sqlite3.h>

#include <QDir>
#include <QTemporaryDir>
#include <QTest>
#include <filesystem>
#include <map>
#include <string>

#include "import/trace_formats.h"
#include "kineto_to_nsys.h"
#include "model/kineto.h"
#include "nsys_export_writer.h"
#include "nsys_names.h"
#include "nsys_schema.h"
#include "trace_generator.h"

using namespace stackline;
using namespace stackline::nsys;

namespace {

const std::string kExample = std::string(STACKLINE_EXAMPLE) + "/example.pt.trace.json";

// A read-only connection; failures name the file and SQLite's message.
class Db {
public:
    explicit Db(const std::string& path) : path_(path) {
        if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK)
            error_ = sqlite3_errmsg(db_);
    }
    ~Db() { sqlite3_close(db_); }
    // The first column of the first row as an integer; -1 with error() set when the query fails.
    int64_t scalar(const std::string& sql) {
        sqlite3_stmt* s = nullptr;
        int64_t v = -1;
        if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &s, nullptr) != SQLITE_OK) {
            error_ = sqlite3_errmsg(db_);
            return -1;
        }
        const int rc = sqlite3_step(s);
        if (rc == SQLITE_ROW)
            v = sqlite3_column_int64(s, 0);
        else if (rc != SQLITE_DONE)
            error_ = sqlite3_errmsg(db_);
        sqlite3_finalize(s);
        return v;
    }
    std::string text(const std::string& sql) {
        sqlite3_stmt* s = nullptr;
        std::string v;
        if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &s, nullptr) != SQLITE_OK) {
            error_ = sqlite3_errmsg(db_);
            return v;
        }
        const int rc = sqlite3_step(s);
        if (rc == SQLITE_ROW && sqlite3_column_text(s, 0))
            v = reinterpret_cast<const char*>(sqlite3_column_text(s, 0));
        else if (rc != SQLITE_ROW && rc != SQLITE_DONE)
            error_ = sqlite3_errmsg(db_);
        sqlite3_finalize(s);
        return v;
    }
    bool hasTable(const std::string& t) {
        return scalar("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '" + t +
                      "'") == 1;
    }
    int64_t rows(const std::string& t) { return scalar("SELECT count(*) FROM " + t); }
    const std::string& error() const { return error_; }

private:
    std::string path_;
    sqlite3* db_ = nullptr;
    std::string error_;
};

// Events of the JSON by what they become.
struct JsonCounts {
    int64_t ranges = 0, runtime = 0, driver = 0, kernels = 0, memcpys = 0, memsets = 0, syncs = 0;
    int64_t firstKernelNs = INT64_MAX;  // the earliest kernel's ts, in ns of the trace's clock
};
JsonCounts countJson(const Trace& t) {
    JsonCounts c;
    const EventTable& e = t.events;
    for (uint32_t row = 0; row < e.size(); ++row) {
        if (e.phase[row] != 'X' || !e.keys.asInt(e.pid[row]) || !e.keys.asInt(e.tid[row])) continue;
        const std::string_view cat = e.catOf(row);
        const kineto::Category k = kineto::categoryOf(cat);
        if (k == kineto::Category::CpuOp || k == kineto::Category::UserAnnotation) ++c.ranges;
        if (cat == "cuda_runtime") ++c.runtime;
        if (cat == "cuda_driver") ++c.driver;
        if (k == kineto::Category::Kernel) {
            ++c.kernels;
            c.firstKernelNs = std::min(c.firstKernelNs, e.tsNs(row));
        }
        if (cat == "gpu_memcpy") ++c.memcpys;
        if (cat == "gpu_memset") ++c.memsets;
        if (cat == "cuda_sync") ++c.syncs;
    }
    return c;
}

const char* kLaunchJoin =
    "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r "
    "ON k.correlationId = r.correlationId AND k.globalPid = (r.globalTid & ~0xFFFFFF)";

}  // namespace

class TstNsysExport : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string out(const char* name) { return (dir_.path() + "/" + name).toStdString(); }
    ConvertCounts write(const std::string& json, const std::string& path,
                        const ConvertOptions& o = {}) {
        return writeExport(loadTrace(json), path, o);
    }

private slots:
    void theExampleGivesOneRowPerEvent() {
        const Trace trace = loadTrace(kExample);
        const JsonCounts j = countJson(trace);
        const std::string path = out("example.sqlite");
        writeExport(trace, path, {});
        Db db(path);
        QCOMPARE(db.text("PRAGMA integrity_check"), std::string("ok"));
        QCOMPARE(db.rows("NVTX_EVENTS"), j.ranges);
        QCOMPARE(db.rows("CUPTI_ACTIVITY_KIND_RUNTIME"), j.runtime + j.driver);
        QCOMPARE(db.scalar("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE eventClass = 1"),
                 j.driver);
        QCOMPARE(db.rows("CUPTI_ACTIVITY_KIND_KERNEL"), j.kernels);
        QCOMPARE(db.rows("CUPTI_ACTIVITY_KIND_MEMCPY"), j.memcpys);
        QVERIFY(!db.hasTable("CUPTI_ACTIVITY_KIND_MEMSET"));  // created lazily, as nsys does
        QCOMPARE(db.rows("PROCESSES"), int64_t(1));
        QCOMPARE(db.rows("TARGET_INFO_SESSION_START_TIME"), int64_t(1));
        QVERIFY(db.error().empty());
    }

    void theTablesHaveTheSchemasColumnsAndNoIndexes() {
        const std::string path = out("schema.sqlite");
        write(kExample, path);
        Db db(path);
        for (const Table& t : tables(SchemaVersion::v3_7_2)) {
            if (!db.hasTable(std::string(t.name))) continue;
            QCOMPARE(
                db.scalar("SELECT count(*) FROM pragma_table_info('" + std::string(t.name) + "')"),
                int64_t(t.columns.size()));
            for (size_t i = 0; i < t.columns.size(); ++i) {
                const std::string where = " FROM pragma_table_info('" + std::string(t.name) +
                                          "') WHERE cid = " + std::to_string(i);
                QCOMPARE(db.text("SELECT name" + where), std::string(t.columns[i].name));
                QCOMPARE(db.text("SELECT type" + where), std::string(t.columns[i].type));
                QCOMPARE(db.scalar("SELECT \"notnull\"" + where), int64_t(t.columns[i].notNull));
            }
        }
        QCOMPARE(db.scalar("SELECT count(*) FROM sqlite_master WHERE type = 'index'"), int64_t(0));
        QCOMPARE(db.text("SELECT value FROM META_DATA_EXPORT WHERE name = 'EXPORT_SCHEMA_VERSION'"),
                 std::string("3.7.2"));
        QCOMPARE(db.text("SELECT label FROM ENUM_CUDA_MEMCPY_OPER WHERE id = 1"),
                 std::string("Host-to-Device"));
    }

    void launchesJoinByProcessAndCorrelationId() {
        const std::string path = out("join.sqlite");
        write(kExample, path);
        Db db(path);
        QCOMPARE(db.scalar(kLaunchJoin), db.rows("CUPTI_ACTIVITY_KIND_KERNEL"));
        // Pid in bits 24-47, tid in bits 0-23 (the example's process is 1234).
        QCOMPARE(db.scalar("SELECT DISTINCT (globalTid >> 24) & 0xFFFFFF FROM NVTX_EVENTS"),
                 int64_t(1234));
        QCOMPARE(db.scalar("SELECT pid FROM PROCESSES"), int64_t(1234));
    }

    void absoluteTimesAreTheJsonsAbsoluteTimes() {
        const Trace trace = loadTrace(kExample);
        const std::string path = out("clock.sqlite");
        const ConvertCounts c = writeExport(trace, path, {});
        Db db(path);
        const int64_t session = db.scalar("SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME");
        QCOMPARE(session, c.sessionStartUtcNs);
        QVERIFY(c.baseTimeNs > 0);
        QCOMPARE(session + db.scalar("SELECT min(start) FROM CUPTI_ACTIVITY_KIND_KERNEL"),
                 c.baseTimeNs + countJson(trace).firstKernelNs);
        QVERIFY(db.scalar("SELECT min(start) FROM NVTX_EVENTS") >= 0);
    }

    void namesAreAsNsysAndEmitNvtxWriteThem() {
        const std::string path = out("names.sqlite");
        write(kExample, path);
        Db db(path);
        // Runtime calls carry CUPTI's version suffix, driver calls their own name.
        QCOMPARE(db.scalar("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s "
                           "ON s.id = r.nameId WHERE r.eventClass = 0 AND s.value NOT GLOB "
                           "'cuda*_v[0-9]*'"),
                 int64_t(0));
        QCOMPARE(db.scalar("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s "
                           "ON s.id = r.nameId WHERE s.value = 'cuLaunchKernel'"),
                 int64_t(42));
        // Forward ops get the sequence number of their backward node, every op its op id.
        QCOMPARE(db.scalar("SELECT count(*) FROM NVTX_EVENTS WHERE text = "
                           "'CompiledFunction, seq = 41, op_id = 492'"),
                 int64_t(1));
        QCOMPARE(db.scalar("SELECT count(*) FROM NVTX_EVENTS WHERE text = "
                           "'Torch-Compiled Region: 0/0, op_id = 491'"),
                 int64_t(1));
        QCOMPARE(db.scalar("SELECT count(*) FROM NVTX_EVENTS WHERE eventType != 59"), int64_t(0));
        QCOMPARE(nvtxRangeName("aten::mm", 12, 34), std::string("aten::mm, seq = 12, op_id = 34"));
        QCOMPARE(nvtxRangeName("aten::mm", -1, 0), std::string("aten::mm"));
        QCOMPARE(versionedRuntimeName("cudaLaunchKernel"), std::string("cudaLaunchKernel_v7000"));
        QCOMPARE(versionedRuntimeName("cudaMemcpyAsync_v3020"),
                 std::string("cudaMemcpyAsync_v3020"));
        QCOMPARE(kernelShortName("void at::native::vectorized_elementwise_kernel<4, "
                                 "at::native::AbsFunctor<float>>(int, float*)"),
                 std::string("vectorized_elementwise_kernel"));
        QCOMPARE(kernelShortName("triton_poi_fused_add_0"), std::string("triton_poi_fused_add_0"));
        QCOMPARE(globalTid(1234, 1289), (int64_t(1) << 48) | (int64_t(1234) << 24) | 1289);
    }

    void withoutPytorchRangesThereIsNoNvtxTable() {
        ConvertOptions o;
        o.pytorchRanges = false;
        const std::string path = out("no_ranges.sqlite");
        write(kExample, path, o);
        Db db(path);
        QVERIFY(!db.hasTable("NVTX_EVENTS"));
        QVERIFY(db.rows("CUPTI_ACTIVITY_KIND_KERNEL") > 0);
    }

    void namesAreStringIdsSharedByRowsAndColumns() {
        ConvertOptions o;
        o.registeredNames = true;
        const std::string path = out("registered.sqlite");
        write(kExample, path, o);
        Db db(path);
        QCOMPARE(db.scalar("SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 59 AND "
                           "(text IS NOT NULL OR textId IS NULL)"),
                 int64_t(0));
        QCOMPARE(db.scalar("SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 75"), int64_t(1));
        QCOMPARE(db.scalar("SELECT count(*) FROM NVTX_EVENTS n LEFT JOIN StringIds s ON "
                           "s.id = n.textId WHERE n.eventType = 59 AND s.value IS NULL"),
                 int64_t(0));
        // One string for a kernel name however many kernels and columns use it: a Triton
        // kernel's demangled, short and mangled names are one id.
        QVERIFY(db.scalar("SELECT count(DISTINCT demangledName) FROM CUPTI_ACTIVITY_KIND_KERNEL") <
                db.rows("CUPTI_ACTIVITY_KIND_KERNEL"));
        QVERIFY(db.scalar("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON "
                          "s.id = k.demangledName WHERE s.value LIKE 'triton%' AND "
                          "k.shortName = k.demangledName AND k.mangledName = k.demangledName") > 0);
        QCOMPARE(db.scalar("SELECT count(*) FROM (SELECT value FROM StringIds GROUP BY value "
                           "HAVING count(*) > 1)"),
                 int64_t(0));
    }

    void callsWithoutKernelsAndKernelsWithoutCalls() {
        const JsonCounts j = countJson(loadTrace(kExample));
        ConvertOptions noKernel;
        noKernel.apiWithoutKernelEvery = 5;
        write(kExample, out("no_kernel.sqlite"), noKernel);
        Db a(out("no_kernel.sqlite"));
        QVERIFY(a.rows("CUPTI_ACTIVITY_KIND_KERNEL") < j.kernels);
        QCOMPARE(a.rows("CUPTI_ACTIVITY_KIND_RUNTIME"), j.runtime + j.driver);
        ConvertOptions noLaunch;
        noLaunch.kernelWithoutLaunchEvery = 5;
        write(kExample, out("no_launch.sqlite"), noLaunch);
        Db b(out("no_launch.sqlite"));
        QCOMPARE(b.rows("CUPTI_ACTIVITY_KIND_KERNEL"), j.kernels);
        QVERIFY(b.rows("CUPTI_ACTIVITY_KIND_RUNTIME") < j.runtime + j.driver);
        QVERIFY(b.scalar(kLaunchJoin) < j.kernels);
    }

    void graphLaunchesShareOneCorrelationId() {
        ConvertOptions o;
        o.graphLaunchRun = 4;
        const std::string path = out("graph.sqlite");
        const ConvertCounts c = write(kExample, path, o);
        Db db(path);
        QCOMPARE(db.rows("CUDA_GRAPH_EVENTS"), int64_t(4));
        QVERIFY(c.kernels > 0);
        const int64_t graphKernels =
            db.scalar("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE graphNodeId > 0");
        QVERIFY(graphKernels >= 4);
        QCOMPARE(db.scalar("SELECT max(n) FROM (SELECT count(*) AS n FROM "
                           "CUPTI_ACTIVITY_KIND_KERNEL GROUP BY correlationId)"),
                 int64_t(4));
        QVERIFY(db.scalar("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s "
                          "ON s.id = r.nameId WHERE s.value IN ('cuGraphLaunch', "
                          "'cudaGraphLaunch_v10000')") > 0);
        QCOMPARE(db.scalar(kLaunchJoin), db.rows("CUPTI_ACTIVITY_KIND_KERNEL"));
    }

    void correlationIdsRepeatAcrossProcesses() {
        ConvertOptions o;
        o.processes = 2;
        const std::string path = out("two.sqlite");
        write(kExample, path, o);
        Db db(path);
        const int64_t kernels = db.rows("CUPTI_ACTIVITY_KIND_KERNEL");
        QCOMPARE(db.rows("PROCESSES"), int64_t(2));
        QCOMPARE(db.scalar("SELECT count(DISTINCT correlationId) FROM CUPTI_ACTIVITY_KIND_KERNEL"),
                 kernels / 2);
        QCOMPARE(db.scalar(kLaunchJoin), kernels);  // by process and id: each kernel once
        QCOMPARE(db.scalar("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN "
                           "CUPTI_ACTIVITY_KIND_RUNTIME r ON k.correlationId = r.correlationId"),
                 2 * kernels);  // by id alone: each kernel twice
    }

    void pythonBacktracesHangOffTheCalls() {
        const std::string json = std::string(STACKLINE_TEST_DATA) +
                                 "/corpus/h100_gaunernst_bert-small-uncased__1016001/trace.json.gz";
        ConvertOptions o;
        o.pythonBacktraces = true;
        const std::string path = out("python.sqlite");
        write(json, path, o);
        Db db(path);
        QVERIFY(db.rows("CUDA_CALLCHAINS") > 0);
        QCOMPARE(db.scalar("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r LEFT JOIN "
                           "CUDA_CALLCHAINS c ON c.id = r.callchainId AND c.stackDepth = 0 "
                           "WHERE r.callchainId IS NOT NULL AND c.id IS NULL"),
                 int64_t(0));
        QCOMPARE(db.scalar("SELECT count(*) FROM sqlite_master WHERE type = 'index'"), int64_t(1));
        write(json, out("python_off.sqlite"));
        QVERIFY(!Db(out("python_off.sqlite")).hasTable("CUDA_CALLCHAINS"));
    }

    void theOlderSchemaHasTheOlderNames() {
        ConvertOptions o;
        o.version = SchemaVersion::v3_0_0;
        const std::string path = out("old.sqlite");
        write(kExample, path, o);
        Db db(path);
        QVERIFY(db.hasTable("EXPORT_META_DATA") && !db.hasTable("META_DATA_EXPORT"));
        QCOMPARE(db.scalar("SELECT count(*) FROM pragma_table_info('CUPTI_ACTIVITY_KIND_KERNEL') "
                           "WHERE name = 'greenContextId'"),
                 int64_t(0));
    }

    void shuffledRowsAreTheSameRows() {
        ConvertOptions o;
        o.shuffleRows = true;
        write(kExample, out("shuffled.sqlite"), o);
        write(kExample, out("ordered.sqlite"));
        Db s(out("shuffled.sqlite")), ordered(out("ordered.sqlite"));
        const std::string sum = "SELECT sum(start) FROM CUPTI_ACTIVITY_KIND_KERNEL";
        QCOMPARE(s.scalar(sum), ordered.scalar(sum));
        const std::string inversions =
            "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL a JOIN CUPTI_ACTIVITY_KIND_KERNEL b "
            "ON b.rowid = a.rowid + 1 WHERE b.start < a.start";
        QVERIFY(s.scalar(inversions) > 0);
        QCOMPARE(ordered.scalar(inversions), int64_t(0));
    }

    void anOmittedTableIsAbsent() {
        ConvertOptions o;
        o.omitTables = {"StringIds", "TARGET_INFO_SESSION_START_TIME"};
        const std::string path = out("omitted.sqlite");
        write(kExample, path, o);
        Db db(path);
        QVERIFY(!db.hasTable("StringIds") && !db.hasTable("TARGET_INFO_SESSION_START_TIME"));
        QVERIFY(db.rows("CUPTI_ACTIVITY_KIND_KERNEL") > 0);
    }

    void corruptCopiesAreRefusedBySqlite_data() {
        QTest::addColumn<QString>("how");
        QTest::addColumn<QString>("message");
        QTest::newRow("header") << "header"
                                << "file is not a database";
        QTest::newRow("page") << "page"
                              << "malformed";
        QTest::newRow("truncate") << "truncate"
                                  << "malformed";
    }
    void corruptCopiesAreRefusedBySqlite() {
        QFETCH(QString, how);
        QFETCH(QString, message);
        const std::string path = out(("corrupt_" + how.toStdString() + ".sqlite").c_str());
        write(kExample, path);
        corruptExport(path, how.toStdString());
        Db db(path);
        db.scalar("SELECT count(*) FROM NVTX_EVENTS");
        if (db.error().empty()) db.text("PRAGMA integrity_check");
        if (db.error().empty()) db.scalar("SELECT sum(length(text)) FROM NVTX_EVENTS");
        QVERIFY2(db.error().find(message.toStdString()) != std::string::npos, db.error().c_str());
    }

    void generatedBenchmarkTracesConvert_data() {
        QTest::addColumn<bool>("deep");
        QTest::newRow("kineto") << false;
        QTest::newRow("deep") << true;
    }
    // The benchmark's generated traces (here 4 MB; bench_nsys_read uses the 1 GB one), with the
    // with_stack shape's Python frames as backtraces.
    void generatedBenchmarkTracesConvert() {
        QFETCH(bool, deep);
        const bench::GeneratedTrace g = bench::generateTrace(
            dir_.path().toStdString(), 4 << 20, 1, !deep,
            deep ? bench::TraceShape::kDeepStacks : bench::TraceShape::kKineto);
        const Trace trace = loadTrace(g.tracePath);
        const JsonCounts j = countJson(trace);
        ConvertOptions o;
        o.pythonBacktraces = deep;
        const std::string path = out(deep ? "deep.sqlite" : "kineto.sqlite");
        writeExport(trace, path, o);
        Db db(path);
        QCOMPARE(db.rows("NVTX_EVENTS"), j.ranges);
        QCOMPARE(db.rows("CUPTI_ACTIVITY_KIND_KERNEL"), j.kernels);
        QCOMPARE(db.rows("CUPTI_ACTIVITY_KIND_RUNTIME"), j.runtime + j.driver);
        QCOMPARE(db.scalar(kLaunchJoin), j.kernels);
        QVERIFY(db.scalar("SELECT count(*) FROM NVTX_EVENTS WHERE text GLOB '*, seq = *'") > 0);
        if (deep)
            QVERIFY(db.scalar("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE "
                              "callchainId IS NOT NULL") > 0);
    }

    void everyCorpusTraceConverts() {
        int converted = 0;
        for (const auto& entry :
             std::filesystem::directory_iterator(std::string(STACKLINE_TEST_DATA) + "/corpus")) {
            for (const char* name : {"trace.json", "trace.json.gz"}) {
                const auto json = entry.path() / name;
                if (!std::filesystem::exists(json)) continue;
                const Trace trace = loadTrace(json.string());
                const JsonCounts j = countJson(trace);
                const std::string path = out("corpus.sqlite");
                const ConvertCounts c = writeExport(trace, path, {});
                QCOMPARE(int64_t(c.nvtxRanges), j.ranges);
                QCOMPARE(int64_t(c.kernels), j.kernels);
                QCOMPARE(int64_t(c.runtimeCalls + c.driverCalls), j.runtime + j.driver);
                Db db(path);
                QCOMPARE(db.text("PRAGMA integrity_check"), std::string("ok"));
                if (j.kernels) QCOMPARE(db.rows("CUPTI_ACTIVITY_KIND_KERNEL"), j.kernels);
                ++converted;
            }
        }
        QVERIFY(converted >= 20);
    }
};

QTEST_GUILESS_MAIN(TstNsysExport)
#include "tst_nsys_export.moc"
