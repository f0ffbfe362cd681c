// What the Nsight Systems reader makes of an export's events beside the Kineto JSON the generator
// (tests/nsight) wrote it from: Python backtraces become the eager stacks with_stack slices give,
// synchronizations the JSON's cuda_sync slices, every range and call the JSON's category; and the
// edge cases (launches without kernels and kernels without launches, graph launches, missing
// tables, a session-relative clock, corrupt files refused with SQLite's message).
#include <QTemporaryDir>
#include <QTest>
#include <map>
#include <set>
#include <tuple>

#include "analysis/eager_stacks.h"
#include "kineto_to_nsys.h"
#include "model/kineto.h"
#include "nsys_export_writer.h"
#include "test_support.h"

using namespace stackline;

namespace {

const std::string kExample = std::string(STACKLINE_EXAMPLE) + "/example.pt.trace.json";
const std::string kWithStack = std::string(STACKLINE_TEST_DATA) +
                               "/corpus/h100_gaunernst_bert-small-uncased__1016001/trace.json.gz";
const std::string kSyncs =
    std::string(STACKLINE_TEST_DATA) + "/corpus/event_sync_multi_stream_trace/trace.json.gz";

std::string exportOf(const QTemporaryDir& dir, const std::string& json, const char* name,
                     const nsys::ConvertOptions& o = {}) {
    const std::string path = dir.filePath(name).toStdString();
    nsys::writeExport(loadTrace(json), path, o);
    return path;
}

std::string messageOf(const std::string& path) {
    try {
        loadTrace(path);
    } catch (const InputError& e) {
        return e.what();
    }
    return "loaded";
}

int64_t absoluteNs(const Trace& t, uint32_t row) {
    return t.metadata.baseTimeNs.value_or(0) + t.events.tsNs(row);
}

// Each kernel with an eager stack, by (name, absolute start): its frame names, outermost first.
std::map<std::pair<std::string, int64_t>, std::vector<std::string>> eagerStacksOf(const Trace& t) {
    const Provenance p = runProvenance(t, KernelInfo());
    const TrackIndex tracks = TrackIndex::build(t.events, t.metadata);
    const FlowIndex flows = FlowIndex::build(t.events, tracks);
    const EagerStacks eager = EagerStacks::build(t, p, tracks, flows);
    std::map<std::pair<std::string, int64_t>, std::vector<std::string>> out;
    for (uint32_t r = 0; r < t.events.size(); ++r) {
        const uint32_t id = eager.stackOf(r);
        if (!id) continue;
        std::vector<std::string> names;
        for (uint32_t name : eager.frames(id))
            names.emplace(names.begin(), t.events.strings.at(name));
        out[{std::string(t.events.nameOf(r)), absoluteNs(t, r)}] = names;
    }
    return out;
}

// (category, name) of every complete event of the categories an export carries.
std::multiset<std::pair<std::string, std::string>> categorized(const Trace& t) {
    std::multiset<std::pair<std::string, std::string>> out;
    for (uint32_t r = 0; r < t.events.size(); ++r) {
        const std::string_view cat = t.events.catOf(r);
        if (t.events.phase[r] != 'X' || cat == "gpu_user_annotation" || cat == "Trace" ||
            cat == "python_function")
            continue;
        out.emplace(cat, t.events.nameOf(r));
    }
    return out;
}

}  // namespace

class TstNsightReaderEvents : public QObject {
    Q_OBJECT
private slots:
    // --python-backtrace=cuda: each launch's CUDA_CALLCHAINS frames become its Python stack, so
    // eager kernels get the stacks the with_stack JSON's python_function slices give them.
    void pythonBacktracesAreTheEagerStacks() {
        QTemporaryDir dir;
        nsys::ConvertOptions o;
        o.pythonBacktraces = true;
        const Trace json = loadTrace(kWithStack);
        const Trace t = loadTrace(exportOf(dir, kWithStack, "python.sqlite", o));
        QVERIFY(!t.launchStacks.empty());
        const auto expected = eagerStacksOf(json), got = eagerStacksOf(t);
        QCOMPARE(expected.size(), size_t(60));
        QCOMPARE(got, expected);
        // Without backtraces the export has no stacks to give.
        const Trace plain = loadTrace(exportOf(dir, kWithStack, "plain.sqlite"));
        QVERIFY(plain.launchStacks.empty());
        QVERIFY(eagerStacksOf(plain).empty());
    }

    // A backward kernel's call on the autograd thread has no backtrace: it takes the one recorded
    // with the first call inside its forward op (paired through the sequence number, as emit_nvtx
    // names both), as the JSON gives it its forward op's frames.
    void backwardKernelsTakeTheirForwardOpsBacktrace() {
        QTemporaryDir dir;
        const std::string json = dir.filePath("backward.json").toStdString();
        test::writeFile(QString::fromStdString(json), R"({"traceEvents": [
            {"ph": "X", "cat": "python_function", "name": "m.py(3): forward", "pid": 1, "tid": 1,
             "ts": 0, "dur": 50},
            {"ph": "X", "cat": "cpu_op", "name": "aten::mul", "pid": 1, "tid": 1, "ts": 10,
             "dur": 10, "args": {"Sequence number": 42}},
            {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
             "ts": 12, "dur": 2, "args": {"correlation": 5}},
            {"ph": "X", "cat": "kernel", "name": "mul_fwd", "pid": 0, "tid": 7, "ts": 20,
             "dur": 3, "args": {"correlation": 5, "device": 0, "stream": 7}},
            {"ph": "X", "cat": "cpu_op",
             "name": "autograd::engine::evaluate_function: MulBackward0", "pid": 1, "tid": 2,
             "ts": 98, "dur": 14, "args": {"Sequence number": 42}},
            {"ph": "X", "cat": "cpu_op", "name": "MulBackward0", "pid": 1, "tid": 2, "ts": 100,
             "dur": 10, "args": {"Sequence number": 42}},
            {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 2,
             "ts": 102, "dur": 2, "args": {"correlation": 6}},
            {"ph": "X", "cat": "kernel", "name": "mul_bwd", "pid": 0, "tid": 7, "ts": 110,
             "dur": 4, "args": {"correlation": 6, "device": 0, "stream": 7}}]})");
        nsys::ConvertOptions o;
        o.pythonBacktraces = true;
        const Trace t = loadTrace(exportOf(dir, json, "backward.sqlite", o));
        const auto expected = eagerStacksOf(loadTrace(json));
        QCOMPARE(expected.size(), size_t(2));
        QCOMPARE(eagerStacksOf(t), expected);
    }

    // CUPTI_ACTIVITY_KIND_SYNCHRONIZATION rows are Kineto's cuda_sync slices: its names, on the
    // stream (-1 for event and context syncs) of their device, at the same instants, each the end
    // of an ac2g flow from its call.
    void synchronizationsAreCudaSyncSlices() {
        QTemporaryDir dir;
        const Trace json = loadTrace(kSyncs);
        const Trace t = loadTrace(exportOf(dir, kSyncs, "syncs.sqlite"));
        auto syncs = [](const Trace& tr) {
            std::multiset<std::tuple<std::string, int64_t, int64_t, int64_t, int64_t>> out;
            for (uint32_t r = 0; r < tr.events.size(); ++r)
                if (tr.events.phase[r] == 'X' && tr.events.catOf(r) == "cuda_sync")
                    out.emplace(tr.events.nameOf(r), *tr.events.keys.asInt(tr.events.pid[r]),
                                *tr.events.keys.asInt(tr.events.tid[r]), absoluteNs(tr, r),
                                tr.events.durNs(r));
            return out;
        };
        QCOMPARE(syncs(json).size(), size_t(5));
        QCOMPARE(syncs(t), syncs(json));
        std::set<std::tuple<int64_t, int64_t, int64_t>> flowEnds;
        for (uint32_t r = 0; r < t.events.size(); ++r)
            if (t.events.phase[r] == 'f' && t.events.catOf(r) == "ac2g")
                flowEnds.emplace(*t.events.keys.asInt(t.events.pid[r]),
                                 *t.events.keys.asInt(t.events.tid[r]), t.events.tsNs(r));
        for (uint32_t r = 0; r < t.events.size(); ++r)
            if (t.events.phase[r] == 'X' && t.events.catOf(r) == "cuda_sync") {
                QVERIFY(
                    flowEnds.contains({*t.events.keys.asInt(t.events.pid[r]),
                                       *t.events.keys.asInt(t.events.tid[r]), t.events.tsNs(r)}));
                const auto args = t.args(r).object();
                QVERIFY(args.contains("correlation") && args.contains("stream"));
            }
    }

    // Every range, call and GPU activity has the JSON's category: ProfilerStep#N and the other
    // user-scope record_function ranges are user_annotation, not cpu_op.
    void categoriesAreTheJsons_data() {
        QTest::addColumn<QString>("json");
        QTest::newRow("example") << QString::fromStdString(kExample);
        QTest::newRow("with_stack") << QString::fromStdString(kWithStack);
        QTest::newRow("syncs") << QString::fromStdString(kSyncs);
    }
    void categoriesAreTheJsons() {
        QFETCH(QString, json);
        QTemporaryDir dir;
        const Trace j = loadTrace(json.toStdString());
        const Trace t = loadTrace(exportOf(dir, json.toStdString(), "categories.sqlite"));
        QCOMPARE(categorized(t), categorized(j));
        auto steps = [](const Trace& tr) {
            uint32_t n = 0;
            for (uint32_t r = 0; r < tr.events.size(); ++r)
                n += tr.events.nameOf(r).starts_with("ProfilerStep#") &&
                     tr.events.catOf(r) == "user_annotation";
            return n;
        };
        QCOMPARE(steps(t), steps(j));
    }

    // Calls with no GPU activity stay calls without a flow; kernels with no call stay on their
    // stream, unlinked; a graph launch is the source of every kernel of its graph.
    void launchesWithoutKernelsKernelsWithoutLaunchesAndGraphs() {
        QTemporaryDir dir;
        const Trace json = loadTrace(kExample);
        auto count = [](const Trace& tr, std::string_view cat, char phase = 'X') {
            uint32_t n = 0;
            for (uint32_t r = 0; r < tr.events.size(); ++r)
                n += tr.events.phase[r] == phase && tr.events.catOf(r) == cat;
            return n;
        };
        const uint32_t kernels = count(json, "kernel");
        const uint32_t calls = count(json, "cuda_runtime") + count(json, "cuda_driver");

        nsys::ConvertOptions noKernel;
        noKernel.apiWithoutKernelEvery = 5;
        const Trace a = loadTrace(exportOf(dir, kExample, "no_kernel.sqlite", noKernel));
        QVERIFY(count(a, "kernel") < kernels);
        QCOMPARE(count(a, "cuda_runtime") + count(a, "cuda_driver"), calls);
        QCOMPARE(count(a, "ac2g", 's'), count(a, "ac2g", 'f'));

        nsys::ConvertOptions noLaunch;
        noLaunch.kernelWithoutLaunchEvery = 5;
        const Trace b = loadTrace(exportOf(dir, kExample, "no_launch.sqlite", noLaunch));
        QCOMPARE(count(b, "kernel"), kernels);
        QVERIFY(count(b, "cuda_runtime") + count(b, "cuda_driver") < calls);
        QVERIFY(count(b, "ac2g", 's') < count(b, "ac2g", 'f'));

        nsys::ConvertOptions graph;
        graph.graphLaunchRun = 4;
        const Trace g = loadTrace(exportOf(dir, kExample, "graph.sqlite", graph));
        QCOMPARE(count(g, "kernel"), kernels);
        std::map<int64_t, uint32_t> ends;  // flow id -> kernels it reaches
        uint32_t graphLaunches = 0;
        for (uint32_t r = 0; r < g.events.size(); ++r) {
            if (g.events.phase[r] == 'f' && g.events.catOf(r) == "ac2g")
                ++ends[g.events.flowIds.at(r, 0)];
            if (g.events.nameOf(r) == "cudaGraphLaunch" || g.events.nameOf(r) == "cuGraphLaunch")
                ++graphLaunches;
        }
        QVERIFY(graphLaunches > 0);
        uint32_t most = 0;
        for (auto [id, n] : ends) most = std::max(most, n);
        QCOMPARE(most, 4u);
    }

    // A missing table is read as no rows of it; without the session start the clock stays
    // session-relative (no base time, ts from the session start); without StringIds or all of the
    // event tables the file is refused, naming them.
    void missingTables() {
        QTemporaryDir dir;
        const Trace json = loadTrace(kExample);
        nsys::ConvertOptions noStart;
        noStart.omitTables = {"TARGET_INFO_SESSION_START_TIME", "ThreadNames", "PROCESSES",
                              "CUPTI_ACTIVITY_KIND_MEMCPY"};
        const std::string path = exportOf(dir, kExample, "no_start.sqlite", noStart);
        const Trace t = loadTrace(path);
        QVERIFY(!t.metadata.baseTimeNs.has_value());
        int64_t firstJson = INT64_MAX, first = INT64_MAX;
        uint32_t memcpys = 0;
        for (uint32_t r = 0; r < json.events.size(); ++r)
            if (kineto::isGpuKernel(json.events.catOf(r)))
                firstJson = std::min(firstJson, absoluteNs(json, r));
        for (uint32_t r = 0; r < t.events.size(); ++r) {
            if (kineto::isGpuKernel(t.events.catOf(r))) first = std::min(first, t.events.tsNs(r));
            memcpys += t.events.catOf(r) == "gpu_memcpy";
        }
        QCOMPARE(memcpys, 0u);
        // The generator starts the session on the whole microsecond 1 ms before the first event.
        QVERIFY(first > 1000000 && first < 1000000 + 10000000);
        nsys::ConvertOptions withStart;
        const Trace full = loadTrace(exportOf(dir, kExample, "full.sqlite", withStart));
        int64_t firstFull = INT64_MAX;
        for (uint32_t r = 0; r < full.events.size(); ++r)
            if (kineto::isGpuKernel(full.events.catOf(r)))
                firstFull = std::min(firstFull, full.events.tsNs(r));
        QCOMPARE(first, firstFull);
        QCOMPARE(first + *full.metadata.baseTimeNs, firstJson);

        nsys::ConvertOptions noStrings;
        noStrings.omitTables = {"StringIds"};
        const std::string s = exportOf(dir, kExample, "no_strings.sqlite", noStrings);
        QVERIFY2(messageOf(s).starts_with(s + ": ") &&
                     messageOf(s).find("StringIds") != std::string::npos,
                 messageOf(s).c_str());
        nsys::ConvertOptions noEvents;
        noEvents.omitTables = {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME",
                               "NVTX_EVENTS"};
        const std::string e = exportOf(dir, kExample, "no_events.sqlite", noEvents);
        QVERIFY2(messageOf(e).find("CUPTI_ACTIVITY_KIND_KERNEL") != std::string::npos,
                 messageOf(e).c_str());
    }

    // A damaged file is refused with SQLite's own message after the file's name. (A file whose
    // SQLite header is gone is no longer recognised as SQLite: the format door reads it as JSON.)
    void corruptExportsAreRefusedWithSqlitesMessage_data() {
        QTest::addColumn<QString>("how");
        QTest::addColumn<QString>("message");
        QTest::newRow("page") << "page"
                              << "malformed";
        QTest::newRow("truncate") << "truncate"
                                  << "malformed";
    }
    void corruptExportsAreRefusedWithSqlitesMessage() {
        QFETCH(QString, how);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const std::string path = exportOf(dir, kExample, "corrupt.sqlite");
        nsys::corruptExport(path, how.toStdString());
        const std::string m = messageOf(path);
        QVERIFY2(m.starts_with(path + ": ") && m.find(message.toStdString()) != std::string::npos,
                 m.c_str());
    }
};

QTEST_GUILESS_MAIN(TstNsightReaderEvents)
#include "tst_nsight_reader_events.moc"
