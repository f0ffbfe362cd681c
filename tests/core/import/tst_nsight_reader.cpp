// The Nsight Systems SQLite reader on exports the generator (tests/nsight) writes from the bundled
// example, in both schema versions: the same kernels, names and absolute times as the JSON, the
// NVTX suffix parsed into args, launches linked to their kernels; and the refusals (an SQLite
// file that is no export, a truncated file), with the input left exactly as it was.
#include <sqlite3.h>
#include <QTemporaryDir>
#include <QTest>
#include <filesystem>
#include <fstream>
#include <map>

#include "kineto_to_nsys.h"
#include "model/kineto.h"
#include "test_support.h"

using namespace stackline;
namespace fs = std::filesystem;

namespace {

std::string exampleJson() {
    return std::string(STACKLINE_EXAMPLE) + "/example.pt.trace.json";
}

std::string fileBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::multiset<std::string> namesOf(const Trace& t, bool (*pick)(std::string_view)) {
    std::multiset<std::string> out;
    for (uint32_t r = 0; r < t.events.size(); ++r)
        if (t.events.phase[r] == 'X' && pick(t.events.catOf(r)))
            out.insert(std::string(t.events.nameOf(r)));
    return out;
}

std::string messageOf(const std::string& path) {
    try {
        loadTrace(path);
    } catch (const InputError& e) {
        return e.what();
    }
    return "loaded";
}

}  // namespace

class TstNsightReader : public QObject {
    Q_OBJECT
private slots:
    void readsBothSchemaVersions_data() {
        QTest::addColumn<int>("version");
        QTest::newRow("3.0.0") << int(nsys::SchemaVersion::v3_0_0);
        QTest::newRow("3.7.2") << int(nsys::SchemaVersion::v3_7_2);
    }
    void readsBothSchemaVersions() {
        QFETCH(int, version);
        QTemporaryDir dir;
        const Trace json = loadTrace(exampleJson());
        const std::string path = dir.filePath("example.sqlite").toStdString();
        nsys::ConvertOptions o;
        o.version = nsys::SchemaVersion(version);
        nsys::writeExport(json, path, o);
        const std::string before = fileBytes(path);
        const auto mtime = fs::last_write_time(path);

        const Trace t = loadTrace(path);
        QCOMPARE(std::string(t.format), std::string("nsight-sqlite"));
        auto isKernel = [](std::string_view c) { return kineto::isGpuKernel(c); };
        QCOMPARE(namesOf(t, isKernel), namesOf(json, isKernel));
        auto isRuntime = [](std::string_view c) {
            return c == "cuda_runtime" || c == "cuda_driver";
        };
        QCOMPARE(namesOf(t, isRuntime), namesOf(json, isRuntime));

        // Absolute instants equal the JSON's: base + ts, for the first kernel of each.
        auto firstKernel = [&](const Trace& tr) {
            int64_t best = INT64_MAX;
            for (uint32_t r = 0; r < tr.events.size(); ++r)
                if (isKernel(tr.events.catOf(r))) best = std::min(best, tr.events.tsNs(r));
            return best + tr.metadata.baseTimeNs.value_or(0);
        };
        QVERIFY(t.metadata.baseTimeNs.has_value());
        QCOMPARE(firstKernel(t), firstKernel(json));

        // NVTX ranges: the plain name, the sequence number and op id as args; every kernel with a
        // launch is linked to it by an ac2g flow, and inherits the launch's External id.
        bool sawSequence = false;
        uint32_t flows = 0;
        for (uint32_t r = 0; r < t.events.size(); ++r) {
            const std::string_view name = t.events.nameOf(r);
            QVERIFY2(name.find(", seq = ") == std::string_view::npos, std::string(name).c_str());
            QVERIFY2(name.find("_v7000") == std::string_view::npos, std::string(name).c_str());
            if (t.events.catOf(r) == "cpu_op" && t.args(r).integer("Sequence number"))
                sawSequence = true;
            if (t.events.phase[r] == 'f' && t.events.catOf(r) == "ac2g") ++flows;
        }
        QVERIFY(sawSequence);
        QCOMPARE(flows, uint32_t(namesOf(t, [](std::string_view c) {
                                     return kineto::isGpuKernel(c) || c == "gpu_memcpy" ||
                                            c == "gpu_memset";
                                 }).size()));
        for (uint32_t r = 0; r < t.events.size(); ++r)
            if (isKernel(t.events.catOf(r))) {
                const auto args = t.args(r).object();
                QVERIFY(args.contains("grid") && args.contains("correlation"));
            }
        QCOMPARE(t.metadata.processes.at(DisplayKey{true, 1234, {}}).name.value_or(""),
                 std::string("python3"));

        // Nothing written: the same bytes and time, no journal beside it.
        QCOMPARE(fileBytes(path), before);
        QVERIFY(fs::last_write_time(path) == mtime);
        for (const char* suffix : {"-wal", "-shm", "-journal"}) QVERIFY(!fs::exists(path + suffix));
    }

    // Registered NVTX names (textId), several processes sharing correlation ids, no PyTorch
    // ranges at all: every GPU activity still finds its own process's launch.
    void edgeCases_data() {
        QTest::addColumn<bool>("registered");
        QTest::addColumn<int>("processes");
        QTest::addColumn<bool>("ranges");
        QTest::newRow("registered names") << true << 1 << true;
        QTest::newRow("two processes") << false << 2 << true;
        QTest::newRow("no ranges") << false << 1 << false;
    }
    void edgeCases() {
        QFETCH(bool, registered);
        QFETCH(int, processes);
        QFETCH(bool, ranges);
        QTemporaryDir dir;
        const Trace json = loadTrace(exampleJson());
        const std::string path = dir.filePath("edge.sqlite").toStdString();
        nsys::ConvertOptions o;
        o.registeredNames = registered;
        o.processes = uint32_t(processes);
        o.pytorchRanges = ranges;
        nsys::writeExport(json, path, o);
        const Trace t = loadTrace(path);
        auto isKernel = [](std::string_view c) { return kineto::isGpuKernel(c); };
        QCOMPARE(namesOf(t, isKernel).size(), size_t(processes) * namesOf(json, isKernel).size());
        // Each ac2g flow pairs a launch and its activity in one process: launches of process k
        // are on pid 1234 + 1000 k, their kernels on device k.
        std::map<int64_t, int64_t> launchPid;
        for (uint32_t r = 0; r < t.events.size(); ++r)
            if (t.events.phase[r] == 's' && t.events.catOf(r) == "ac2g")
                launchPid[t.events.flowIds.at(r, 0)] = *t.events.keys.asInt(t.events.pid[r]);
        uint32_t linked = 0;
        for (uint32_t r = 0; r < t.events.size(); ++r)
            if (t.events.phase[r] == 'f' && t.events.catOf(r) == "ac2g") {
                const int64_t device = *t.events.keys.asInt(t.events.pid[r]);
                QCOMPARE(launchPid.at(t.events.flowIds.at(r, 0)), 1234 + 1000 * device);
                ++linked;
            }
        QVERIFY(linked >= namesOf(t, isKernel).size());
        uint32_t compiled = 0, fwdbwd = 0;
        for (uint32_t r = 0; r < t.events.size(); ++r) {
            if (t.events.nameOf(r) == "Torch-Compiled Region: 0/0") ++compiled;
            if (t.events.catOf(r) == "fwdbwd") ++fwdbwd;
        }
        // The example's two iterations: two compiled regions each, four fwdbwd links each.
        QCOMPARE(compiled, ranges ? uint32_t(2 * processes) : 0u);
        QCOMPARE(fwdbwd, ranges ? uint32_t(8 * processes) : 0u);
    }

    void refusesSqliteThatIsNoExport() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("other.sqlite").toStdString();
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
        sqlite3_exec(db, "CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1);", nullptr, nullptr,
                     nullptr);
        sqlite3_close(db);
        const std::string m = messageOf(path);
        QVERIFY2(m.find(path) == 0 && m.find("not an Nsight Systems export") != std::string::npos &&
                     m.find("StringIds") != std::string::npos,
                 m.c_str());
    }

    void refusesTruncatedExport() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("cut.sqlite").toStdString();
        nsys::writeExport(loadTrace(exampleJson()), path, {});
        fs::resize_file(path, fs::file_size(path) / 3);
        const std::string before = fileBytes(path);
        const std::string m = messageOf(path);
        QVERIFY2(m.find(path) == 0 && m != "loaded", m.c_str());
        QCOMPARE(fileBytes(path), before);
    }
};

QTEST_GUILESS_MAIN(TstNsightReader)
#include "tst_nsight_reader.moc"
