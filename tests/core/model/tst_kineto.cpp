// The vocabulary of Kineto names: every category spelling Kineto has written is understood, the
// summary and the hotspots count GPU kernels of every spelling alike, and the reference's own
// narrower rule stays what the port follows.
#include <QTest>
#include <set>
#include <vector>

#include "analysis/hotspots.h"
#include "annotate/diagnostic.h"
#include "annotate/summary_report.h"
#include "model/flow_index.h"
#include "model/kineto.h"
#include "model/track_index.h"
#include "test_support.h"

using namespace stackline;
using namespace stackline::test;
using kineto::Category;

Q_DECLARE_METATYPE(kineto::Category)

namespace {

// Written without a raw string: moc misreads \" inside one.
const char* kInfo =
    "{\"('Torch-Compiled Region: 0/0', False)\": {\"triton_poi_fused_add_0\": {\"stack_traces\": "
    "[\"  File \\\"model.py\\\", line 7, in forward\\n    y = x + 1\\n\"]}, "
    "\"triton_poi_fused_sub_2\": [\"another stack\"]}}";

// The trace with every "@CAT@" replaced by cat.
std::string withCategory(std::string trace, const QString& cat) {
    const std::string c = cat.toStdString();
    for (std::size_t at; (at = trace.find("@CAT@")) != std::string::npos;) trace.replace(at, 5, c);
    return trace;
}

// A compiled region launching two kernels through ac2g flows: triton_poi_fused_add_0 (4 us, in the
// kernel information) and triton_poi_fused_mul_1 (6 us, not in it: the graph has two stacks, so
// none is given to it).
const char* kRegionLaunchingTwo = R"J({"traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "Torch-Compiled Region: 0/0", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 10, "dur": 5},
    {"ph": "s", "id": 1, "pid": 1, "tid": 1, "ts": 10, "cat": "ac2g", "name": "ac2g"},
    {"ph": "X", "cat": "@CAT@", "name": "triton_poi_fused_add_0", "pid": 0, "tid": 7, "ts": 200, "dur": 4},
    {"ph": "f", "id": 1, "pid": 0, "tid": 7, "ts": 200, "cat": "ac2g", "name": "ac2g", "bp": "e"},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 20, "dur": 5},
    {"ph": "s", "id": 2, "pid": 1, "tid": 1, "ts": 20, "cat": "ac2g", "name": "ac2g"},
    {"ph": "X", "cat": "@CAT@", "name": "triton_poi_fused_mul_1", "pid": 0, "tid": 7, "ts": 220, "dur": 6},
    {"ph": "f", "id": 2, "pid": 0, "tid": 7, "ts": 220, "cat": "ac2g", "name": "ac2g", "bp": "e"}]})J";

// A launcher cpu_op in a region and its kernel, linked by External id only.
const char* kLinkedByExternalId = R"J({"traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "Torch-Compiled Region: 0/0", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
    {"ph": "X", "cat": "cpu_op", "name": "triton_poi_fused_add_0", "pid": 1, "tid": 1, "ts": 10, "dur": 5, "args": {"External id": 6}},
    {"ph": "X", "cat": "@CAT@", "name": "triton_poi_fused_add_0", "pid": 0, "tid": 7, "ts": 20, "dur": 3, "args": {"External id": 6}}]})J";

// A 2021-style launch (string GPU tid) joined to its kernel by a flow of category @CAT@.
const char* kFlowOfCategory = R"J({"traceEvents": [
    {"ph": "X", "cat": "Runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 10, "dur": 5},
    {"ph": "s", "id": 3, "pid": 1, "tid": 1, "ts": 10, "cat": "@CAT@", "name": "launch"},
    {"ph": "X", "cat": "Kernel", "name": "k", "pid": 0, "tid": "stream 7", "ts": 20, "dur": 3},
    {"ph": "f", "id": 3, "pid": 0, "tid": "stream 7", "ts": 20, "cat": "@CAT@", "name": "launch", "bp": "e"}]})J";

// An event of category @CAT@ on pid 0 and a cpu_op on pid 100, without metadata.
const char* kDeviceAndHost = R"J({"traceEvents": [
    {"ph": "X", "cat": "@CAT@", "name": "a", "pid": 0, "tid": 7, "ts": 20, "dur": 3},
    {"ph": "X", "cat": "cpu_op", "name": "b", "pid": 100, "tid": 100, "ts": 10, "dur": 5}]})J";

// Data rows: each of yes (column "cat") with the column named by flag true, each of no with it
// false.
void spellingRows(const char* flag, const std::vector<std::string_view>& yes,
                  const std::vector<std::string_view>& no) {
    QTest::addColumn<QString>("cat");
    QTest::addColumn<bool>(flag);
    for (bool expected : {true, false})
        for (std::string_view cat : expected ? yes : no)
            QTest::newRow(std::string(cat).c_str())
                << QString::fromUtf8(cat.data(), qsizetype(cat.size())) << expected;
}

}  // namespace

class TstKineto : public QObject {
    Q_OBJECT
private slots:
    void everyCategorySpelling_data() {
        QTest::addColumn<QString>("cat");
        QTest::addColumn<Category>("category");
        auto row = [](const char* cat, Category c) { QTest::newRow(cat) << QString(cat) << c; };
        row("kernel", Category::Kernel);
        row("Kernel", Category::Kernel);  // the 2021 format, and activities named "kernel"
        row("gpu_memcpy", Category::Memory);
        row("gpu_memset", Category::Memory);
        row("Memcpy", Category::Memory);
        row("Memset", Category::Memory);
        row("gpu_user_annotation", Category::GpuAnnotation);
        row("cuda_runtime", Category::Runtime);  // HIP calls on ROCm too
        row("cuda_driver", Category::Runtime);   // cuLaunchKernel of Triton launches
        row("Runtime", Category::Runtime);
        row("xpu_runtime", Category::Runtime);
        row("xpu_driver", Category::Runtime);
        row("privateuse1_runtime", Category::Runtime);
        row("privateuse1_driver", Category::Runtime);
        row("mtia_runtime", Category::Runtime);
        row("cuda_sync", Category::Sync);
        row("cuda_event", Category::Sync);
        row("cpu_op", Category::CpuOp);
        row("Operator", Category::CpuOp);
        row("user_annotation", Category::UserAnnotation);
        row("python_function", Category::PythonFunction);
        row("overhead", Category::Overhead);
        row("Trace", Category::Overhead);
        row("cuda_profiler_range", Category::Overhead);
        row("ac2g", Category::LaunchFlow);
        row("async_cpu_to_gpu", Category::LaunchFlow);
        row("async_gpu", Category::LaunchFlow);
        row("async", Category::LaunchFlow);
        row("fwdbwd", Category::ForwardBackwardFlow);
        row("cpu_instant_event", Category::Other);
        row("KERNEL", Category::Other);  // spellings are exact
    }
    void everyCategorySpelling() {
        QFETCH(QString, cat);
        QFETCH(Category, category);
        const std::string c = cat.toStdString();
        QCOMPARE(kineto::categoryOf(c), category);
        QCOMPARE(kineto::isGpuKernel(c), category == Category::Kernel);
        QCOMPARE(kineto::isLaunchFlow(c), category == Category::LaunchFlow);
    }

    void summaryAndHotspotsAgreeOnKernels_data() {
        QTest::addColumn<QString>("cat");
        for (std::string_view cat : kineto::kKernelCategories)
            QTest::newRow(std::string(cat).c_str()) << QString::fromUtf8(cat.data(), cat.size());
    }
    void summaryAndHotspotsAgreeOnKernels() {
        QFETCH(QString, cat);
        Trace t = traceFrom(withCategory(kRegionLaunchingTwo, cat));
        Provenance p = runProvenance(t, kernelInfoFrom(kInfo));
        const Summary s = summarize(t, p);
        const Hotspots h = computeHotspots(t, p);
        QCOMPARE(s.kernels, uint64_t(2));
        QCOMPARE(s.annotatedKernels, uint64_t(1));
        QCOMPARE(s.unresolvedKernels, uint64_t(1));
        QCOMPARE(h.annotatedGpuUs, 4.0);
        QCOMPARE(h.unresolvedGpuUs, 6.0);
        QCOMPARE(h.lines.size(), std::size_t(1));
        QCOMPARE(h.lines[0].file, std::string("model.py"));
        QCOMPARE(h.lines[0].launches, s.annotatedKernels);
    }

    // The reference indexes kernels by External id only when their category is exactly "kernel":
    // the port keeps that rule, so a "Kernel" linked by External id alone gets no stack.
    void referenceFindsKernelsByExternalIdOnlyAsKernel_data() {
        QTest::addColumn<QString>("cat");
        QTest::addColumn<bool>("annotated");
        QTest::newRow("kernel") << QString("kernel") << true;
        QTest::newRow("Kernel") << QString("Kernel") << false;
    }
    void referenceFindsKernelsByExternalIdOnlyAsKernel() {
        QFETCH(QString, cat);
        QFETCH(bool, annotated);
        QCOMPARE(cat.toStdString() == reference::kKernelCategory, annotated);
        const std::string trace = withCategory(kLinkedByExternalId, cat);
        Provenance p;
        nlohmann::json out = annotate(trace, kInfo, &p);
        QCOMPARE(out["traceEvents"][2]["args"].contains("stack"), annotated);
        Trace t = traceFrom(trace);
        QCOMPARE(summarize(t, p).kernels, uint64_t(1));  // a GPU kernel either way
    }

    void launchFlowsOfEverySpelling_data() {
        spellingRows("launch",
                     {kineto::kLaunchFlowCategories.begin(), kineto::kLaunchFlowCategories.end()},
                     {"fwdbwd"});
    }
    void launchFlowsOfEverySpelling() {
        QFETCH(QString, cat);
        QFETCH(bool, launch);
        Trace t = traceFrom(withCategory(kFlowOfCategory, cat));
        const TrackIndex tracks = TrackIndex::build(t.events, t.metadata, 1);
        const FlowIndex flows = FlowIndex::build(t.events, tracks);
        QCOMPARE(flows.links().size(), std::size_t(1));
        QCOMPARE(flows.links()[0].isLaunch(), launch);
        QCOMPARE(flows.sourceOf(2), uint32_t(0));
        QCOMPARE(flows.sourceOf(0), kNoRow);
    }

    void gpuProcessesOfEverySpelling_data() {
        std::vector<std::string_view> gpu;
        for (std::string_view c : kineto::kKernelCategories) gpu.push_back(c);
        for (std::string_view c : kineto::kMemoryCategories) gpu.push_back(c);
        for (std::string_view c : kineto::kGpuAnnotationCategories) gpu.push_back(c);
        spellingRows("gpu", gpu, {"cpu_op", "Runtime"});
    }
    void gpuProcessesOfEverySpelling() {
        QFETCH(QString, cat);
        QFETCH(bool, gpu);
        // Without metadata the device is known by what runs on it, and sorts after the CPU.
        Trace t = traceFrom(withCategory(kDeviceAndHost, cat));
        const TrackIndex tracks = TrackIndex::build(t.events, t.metadata, 1);
        const auto& procs = tracks.processes();
        QCOMPARE(procs.size(), std::size_t(2));
        const Process& device = procs[gpu ? 1 : 0];
        QCOMPARE(device.pid.value, int64_t(0));
        QCOMPARE(device.gpu, gpu);
        QCOMPARE(device.sortIndex, gpu ? kineto::kGpuSortIndexBase : int64_t(0));
    }

    void metadataNamesTheTracks() {
        Trace t = traceFrom(R"J({"traceEvents": [
            {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 20, "dur": 3},
            {"ph": "X", "cat": "cpu_op", "name": "b", "pid": 100, "tid": 100, "ts": 10, "dur": 5},
            {"name": "process_name", "ph": "M", "pid": 0, "tid": 0, "args": {"name": "python"}},
            {"name": "process_labels", "ph": "M", "pid": 0, "tid": 0, "args": {"labels": "GPU 0"}},
            {"name": "process_sort_index", "ph": "M", "pid": 0, "tid": 0, "args": {"sort_index": 1}},
            {"name": "thread_name", "ph": "M", "pid": 0, "tid": 7, "args": {"name": " main stream "}},
            {"name": "process_sort_index", "ph": "M", "pid": 100, "tid": 0, "args": {"sort_index": 2}}]})J");
        const TrackIndex tracks = TrackIndex::build(t.events, t.metadata, 1);
        const auto& procs = tracks.processes();
        QCOMPARE(procs.size(), std::size_t(2));
        QCOMPARE(procs[0].name, std::string("python"));  // sort index 1 puts it first
        QCOMPARE(procs[0].labels, std::string("GPU 0"));
        QCOMPARE(tracks.tracks()[procs[0].tracks[0]].name, std::string("main stream"));
        QCOMPARE(procs[1].sortIndex, int64_t(2));
    }

    void diagnosticKindsHaveOneRowEach() {
        std::set<std::string_view> names;
        for (const DiagnosticKindInfo& k : kDiagnosticKinds) {
            QVERIFY(names.insert(k.name).second);
            QVERIFY(!k.text.empty() && k.text.back() == '.');
            QCOMPARE(diagnosticKindName(k.kind), k.name);
        }
        QCOMPARE(diagnosticKindName(DiagnosticKind::UnrecognizedKernel),
                 std::string_view("unrecognized_kernel"));
        QCOMPARE(diagnosticKindInfo(DiagnosticKind::UnrecognizedKernel).severity,
                 Severity::Warning);
        QCOMPARE(diagnosticKindInfo(DiagnosticKind::BadFlow).severity, Severity::Error);
    }
    void reportPrintsKindNames() {
        // A flow with a string id: an error the report names "bad_flow".
        Trace t = traceFrom(R"J({"traceEvents": [
            {"ph": "X", "cat": "cpu_op", "name": "Torch-Compiled Region: 0/0", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
            {"ph": "s", "id": "x", "pid": 1, "tid": 1, "ts": 0, "cat": "ac2g", "name": "ac2g"}]})J");
        Provenance p = runProvenance(t, kernelInfoFrom(kInfo));
        OrderedJson report = reportJson(t, p);
        QCOMPARE(report["errors"].size(), std::size_t(1));
        QCOMPARE(report["errors"][0]["kind"].get<std::string>(), std::string("bad_flow"));
        QCOMPARE(summarize(t, p).diagnostics.at("bad_flow"), uint64_t(1));
    }
};

QTEST_GUILESS_MAIN(TstKineto)
#include "tst_kineto.moc"
