// One test per quirk of the reference processor. Each expectation was checked against the
// reference (tests/golden/README.md) when written; the golden tests cover the same ground
// exhaustively.
#include <QTest>

#include "test_support.h"

using namespace stackline;
using namespace stackline::test;
using nlohmann::json;

namespace {

const char* kRegion =
    R"J({"ph": "X", "cat": "cpu_op", "name": "Torch-Compiled Region: 0/0", "pid": 1, "tid": 1, "ts": 0, "dur": 100})J";
const char* kInfo = R"J({"('Torch-Compiled Region: 0/0', False)": {
    "triton_poi_fused_add_0:1": {"stack_traces": ["model.py:7 in forward"]}}})J";

std::string trace(std::initializer_list<std::string> events) {
    std::string s = R"J({"traceEvents": [)J";
    bool first = true;
    for (const std::string& e : events) {
        s += (first ? "" : ",") + e;
        first = false;
    }
    return s + "]}";
}

// A launch inside the region at ts with a flow to a kernel named kernel.
std::vector<std::string> launch(int ts, const std::string& kernel, int id,
                                const std::string& tid = "1") {
    std::string t = std::to_string(ts);
    return {R"J({"ph": "X", "cat": "cuda_driver", "name": "cuLaunchKernel", "pid": 1, "tid": )J" +
                tid + R"J(, "ts": )J" + t + R"J(, "dur": 5})J",
            R"J({"ph": "s", "id": )J" + std::to_string(id) + R"J(, "pid": 1, "tid": 1, "ts": )J" +
                t + R"J(, "cat": "ac2g", "name": "ac2g"})J",
            R"J({"ph": "X", "cat": "kernel", "name": ")J" + kernel +
                R"J(", "pid": 0, "tid": 7, "ts": 200, "dur": 3})J",
            R"J({"ph": "f", "id": )J" + std::to_string(id) +
                R"J(, "pid": 0, "tid": 7, "ts": 200, "cat": "ac2g", "name": "ac2g", "bp": "e"})J"};
}

std::string join(const std::vector<std::string>& a, std::initializer_list<std::string> more = {}) {
    std::string s = R"J({"traceEvents": [)J";
    bool first = true;
    for (const std::string& e : a) {
        s += (first ? "" : ",") + e;
        first = false;
    }
    for (const std::string& e : more) s += "," + e;
    return s + "]}";
}

std::vector<std::string> cat(std::vector<std::string> a, const std::vector<std::string>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

}  // namespace

class TstProvenance : public QObject {
    Q_OBJECT
private slots:
    void annotatesThroughFlowAndWritesUids() {
        json out = annotate(join(cat({kRegion}, launch(10, "triton_poi_fused_add_0", 5))), kInfo);
        QCOMPARE(dump(out["traceEvents"][3]["args"]["stack"]),
                 QString(R"J(["model.py:7 in forward"])J"));
        for (std::size_t i = 0; i < out["traceEvents"].size(); ++i)
            QCOMPARE(out["traceEvents"][i]["uid"].get<int>(), int(i));
        QVERIFY(out["uid_assigned"] == json(true));
    }
    void emptyRegistryLeavesTheTraceAlone() {
        std::string in = join(cat({kRegion}, launch(10, "triton_poi_fused_add_0", 5)));
        Trace t = traceFrom(in);
        Provenance p = runProvenance(t, kernelInfoFrom("{}"));
        QCOMPARE(exportToString(t, p), in);
        QVERIFY(!p.applied);
        QCOMPARE(p.status(t.events, 3), KernelStatus::Unresolved);  // still found for display
    }
    void eventAtTheRegionStartIsNotCovered() {
        json out = annotate(join(cat({kRegion}, launch(0, "triton_poi_fused_add_0", 5))), kInfo);
        QVERIFY(!out["traceEvents"][3]["args"].contains("stack"));
    }
    void onlyTheNearestRegionIsTested() {
        // An inner region starting later hides the outer one for events after its end.
        std::string inner =
            R"J({"ph": "X", "cat": "cpu_op", "name": "Torch-Compiled Region: 0/1", "pid": 1, "tid": 1, "ts": 5, "dur": 2})J";
        json out =
            annotate(join(cat({kRegion, inner}, launch(10, "triton_poi_fused_add_0", 5))), kInfo);
        QVERIFY(!out["traceEvents"][4]["args"].contains("stack"));
    }
    void regionsAreGroupedByTidOnly() {
        // The launch is on another process with the same tid: still covered.
        std::vector<std::string> l = launch(10, "triton_poi_fused_add_0", 5);
        l[0].replace(l[0].find("\"pid\": 1"), 8, "\"pid\": 9");
        json out = annotate(join(cat({kRegion}, l)), kInfo);
        QVERIFY(out["traceEvents"][3]["args"].contains("stack"));
        // 1 == 1.0 for Python, "1" != 1.
        json asFloat =
            annotate(join(cat({kRegion}, launch(10, "triton_poi_fused_add_0", 5, "1.0"))), kInfo);
        QVERIFY(asFloat["traceEvents"][3]["args"].contains("stack"));
        json asString =
            annotate(join(cat({kRegion}, launch(10, "triton_poi_fused_add_0", 5, "\"1\""))), kInfo);
        QVERIFY(!asString["traceEvents"][3]["args"].contains("stack"));
    }
    void callFromSkipsAnEvent() {
        std::vector<std::string> l = launch(10, "triton_poi_fused_add_0", 5);
        l[0].insert(l[0].size() - 1, R"J(, "args": {"CallFrom": 1})J");
        json out = annotate(join(cat({kRegion}, l)), kInfo);
        QVERIFY(!out["traceEvents"][3]["args"].contains("stack"));
    }
    void flowsBindToThePreviousEventAndIdsCollide() {
        std::vector<std::string> a = launch(10, "triton_poi_fused_add_0", 5);
        std::vector<std::string> b = launch(20, "triton_poi_fused_add_0", 5);
        // Both pairs use id 5: the second overwrites the first, so only the second launch keeps
        // its kernel.
        json out = annotate(join(cat(cat({kRegion}, a), b)), kInfo);
        QVERIFY(!out["traceEvents"][3]["args"].contains("stack"));
        QVERIFY(out["traceEvents"][7]["args"].contains("stack"));
    }
    void externalIdFallbackUsesPythonEquality() {
        std::string info = R"J({"('Torch-Compiled Region: 0/0', False)": {
            "triton_poi_fused_add_0:1": {"stack_traces": ["s"]}}})J";
        std::string op =
            R"J({"ph": "X", "cat": "cpu_op", "name": "triton_poi_fused_add_0", "pid": 1, "tid": 1, "ts": 10, "dur": 5, "args": {"External id": 6}})J";
        std::string k1 =
            R"J({"ph": "X", "cat": "kernel", "name": "triton_poi_fused_add_0", "pid": 0, "tid": 2, "ts": 20, "dur": 1, "args": {"External id": 6.0}})J";
        std::string k2 =
            R"J({"ph": "X", "cat": "kernel", "name": "triton_poi_fused_add_0", "pid": 0, "tid": 2, "ts": 30, "dur": 1, "args": {"External id": "6"}})J";
        json out = annotate(trace({kRegion, op, k1, k2}), info);
        QVERIFY(out["traceEvents"][2]["args"].contains("stack"));
        QVERIFY(!out["traceEvents"][3]["args"].contains("stack"));
    }
    void prefixMatchTakesTheFirstKeyEvenIfNull() {
        std::string info = R"J({"('Torch-Compiled Region: 0/0', False)": {
            "triton_poi_fused_add_0:1": null, "triton_poi_fused_add_0:2": ["second"]}})J";
        json out = annotate(join(cat({kRegion}, launch(10, "triton_poi_fused_add_0", 5))), info);
        QVERIFY(!out["traceEvents"][3]["args"].contains("stack"));
    }
    void bareListsAndEmptyStacks() {
        json bare = annotate(
            join(cat({kRegion}, launch(10, "triton_poi_fused_add_0", 5))),
            R"J({"('Torch-Compiled Region: 0/0', False)": {"triton_poi_fused_add_0": ["a", "b"]}})J");
        QCOMPARE(dump(bare["traceEvents"][3]["args"]["stack"]), QString(R"J(["a","b"])J"));
        json empty = annotate(
            join(cat({kRegion}, launch(10, "triton_poi_fused_add_0", 5))),
            R"J({"('Torch-Compiled Region: 0/0', False)": {"triton_poi_fused_add_0": {"stack_traces": []}}})J");
        QCOMPARE(dump(empty["traceEvents"][3]["args"]["stack"]), QString("[]"));
    }
    void unrecognizedKernelWarnsLikeTheReference() {
        // A non-triton kernel known by name, in a graph with two stacks: no single stack, a
        // warning.
        std::string info = R"J({"('Torch-Compiled Region: 0/0', False)": {
            "cublas_gemm": ["a"], "triton_x": ["b"]}})J";
        Provenance p;
        const std::string trace = join(cat({kRegion}, launch(10, "cublas_gemm", 5)));
        json out = annotate(trace, info, &p);
        QVERIFY(!out["traceEvents"][3]["args"].contains("stack"));
        QCOMPARE(p.diagnostics.size(), std::size_t(1));
        QCOMPARE(p.diagnostics[0].kind, DiagnosticKind::UnrecognizedKernel);
        QCOMPARE(p.diagnostics.message(p.diagnostics[0], traceFrom(trace).events),
                 std::string("Kernel cublas_gemm cannot be recognized as a custom kernel or triton "
                             "kernel. Please try profile with stack=True."));
    }
    void singleStackRuleForExternKernels() {
        std::string info =
            R"J({"('Torch-Compiled Region: 0/0', False)": {"triton_only_0": ["the one"]}})J";
        json out = annotate(join(cat({kRegion}, launch(10, "sm80_xmma_gemm", 5))), info);
        QCOMPARE(dump(out["traceEvents"][3]["args"]["stack"]), QString(R"J(["the one"])J"));
    }
    void externRegionNameThroughTheRegex() {
        std::string info = R"J({"('Torch-Compiled Region: 0/0', False)": {
            "extern_kernels_mm:1": ["mm line"], "triton_a": ["a"], "triton_b": ["b"]}})J";
        std::string ext =
            R"J({"ph": "X", "cat": "cpu_op", "name": "call extern_kernels_mm , x", "pid": 1, "tid": 1, "ts": 8, "dur": 20})J";
        json out = annotate(join(cat({kRegion, ext}, launch(10, "sm80_xmma_gemm", 5))), info);
        QCOMPARE(dump(out["traceEvents"][4]["args"]["stack"]), QString(R"J(["mm line"])J"));
    }
    void stackOriginsSayHowEachStackWasObtained() {
        const std::string fw = "('Torch-Compiled Region: 0/0', False)";
        std::string info = R"J({"('Torch-Compiled Region: 0/0', False)": {
            "extern_kernels_mm:1": ["mm line"], "triton_a": ["a"]}})J";
        std::string ext =
            R"J({"ph": "X", "cat": "cpu_op", "name": "call extern_kernels_mm , x", "pid": 1, "tid": 1, "ts": 8, "dur": 20})J";
        std::string stacked =
            R"J({"ph": "X", "cat": "cpu_op", "name": "eager", "pid": 1, "tid": 1, "ts": 500, "dur": 1, "args": {"stack": ["s"]}})J";
        Provenance p;
        annotate(join(cat(cat({kRegion, ext}, launch(10, "sm80_xmma_gemm", 5)),
                          launch(40, "triton_a", 6)),
                      {stacked}),
                 info, &p);
        // Rows: region, extern region, launch, flow, kernel (4), ..., triton_a (8), eager (10).
        QCOMPARE(p.origins.of(4), StackOrigin::Matched);
        QCOMPARE(p.origins.sourceOf(4)->graphKey, fw);
        QCOMPARE(p.origins.sourceOf(4)->kernel, std::string("extern_kernels_mm"));
        QCOMPARE(p.origins.of(8), StackOrigin::Matched);
        QCOMPARE(p.origins.sourceOf(8)->kernel, std::string("triton_a"));
        QCOMPARE(p.origins.of(10), StackOrigin::InTrace);
        QVERIFY(!p.origins.sourceOf(10));
        QCOMPARE(p.origins.of(0), StackOrigin::None);
        // A graph with one stack: a kernel it does not name gets that stack, as a guess.
        Provenance guess;
        annotate(join(cat({kRegion}, launch(10, "sm80_xmma_gemm", 5))),
                 R"J({"('Torch-Compiled Region: 0/0', False)": {"triton_only_0": ["the one"]}})J",
                 &guess);
        QCOMPARE(guess.origins.of(3), StackOrigin::SingleStack);
        QCOMPARE(guess.origins.sourceOf(3)->graphKey, fw);
        QVERIFY(guess.origins.sourceOf(3)->kernel.empty());
        // In row order, the last write of a row winning, as sourceOf says row by row.
        const auto byRow = p.origins.sourcesByRow();
        QCOMPARE(byRow.size(), std::size_t(2));
        QCOMPARE(byRow[0].first, 4u);
        QCOMPARE(byRow[1].first, 8u);
        QCOMPARE(byRow[1].second, p.origins.sourceOf(8));
    }
    void sourcesByRowTakeEachRowsLastWrite() {
        StackOrigins o;
        o.reset(200000);
        const uint32_t a = o.addSource({"g1", "a"}), b = o.addSource({"g2", "b"});
        // Written in descending order, each row twice (the worst order for a sort), one InTrace.
        for (uint32_t row = 200000; row-- > 0;) o.setWritten(row, StackOrigin::Matched, a);
        for (uint32_t row = 200000; row-- > 0;) o.setWritten(row, StackOrigin::SingleStack, b);
        o.setInTrace(7);
        const auto byRow = o.sourcesByRow();
        QCOMPARE(byRow.size(), std::size_t(199999));
        QCOMPARE(byRow.front().first, 0u);
        QCOMPARE(byRow[7].first, 8u);
        QCOMPARE(byRow.back().first, 199999u);
        for (const auto& [row, source] : byRow) QCOMPARE(source->graphKey, std::string("g2"));
    }
    void backwardRegionUsesTheForwardRegionsKeys() {
        std::string info = R"J({"('Torch-Compiled Region: 0/0_backward_0', True)": {
            "triton_poi_fused_mul_0": ["bw line"]}, "('Torch-Compiled Region: 0/0', False)": {"x": ["y"]}})J";
        std::vector<std::string> ev = {
            kRegion,
            R"J({"ph": "X", "cat": "cpu_op", "name": "CompiledFunction", "pid": 1, "tid": 1, "ts": 10, "dur": 5})J",
            R"J({"ph": "s", "id": 1, "pid": 1, "tid": 1, "ts": 10, "cat": "fwdbwd", "name": "fwdbwd"})J",
            R"J({"ph": "X", "cat": "cpu_op", "name": "CompiledFunctionBackward", "pid": 1, "tid": 2, "ts": 200, "dur": 50})J",
            R"J({"ph": "f", "id": 1, "pid": 1, "tid": 2, "ts": 200, "cat": "fwdbwd", "name": "fwdbwd", "bp": "e"})J",
        };
        std::vector<std::string> l = launch(210, "triton_poi_fused_mul_0", 9, "2");
        json out = annotate(join(cat(ev, l)), info);
        QCOMPARE(dump(out["traceEvents"][7]["args"]["stack"]), QString(R"J(["bw line"])J"));
    }
    void backwardRegionWithoutFlowIsAnErrorNotACrash() {
        std::string bw =
            R"J({"ph": "X", "cat": "cpu_op", "name": "CompiledFunctionBackward", "pid": 1, "tid": 2, "ts": 200, "dur": 50})J";
        Provenance p;
        json out =
            annotate(join(cat({kRegion, bw}, cat(launch(10, "triton_poi_fused_add_0", 5),
                                                 launch(210, "triton_poi_fused_add_0", 6, "2")))),
                     kInfo, &p);
        QVERIFY(out["traceEvents"][4]["args"].contains("stack"));  // the rest is annotated
        auto error = std::find_if(
            p.diagnostics.begin(), p.diagnostics.end(),
            [](const Diagnostic& d) { return d.kind == DiagnosticKind::BackwardWithoutFlow; });
        QVERIFY(error != p.diagnostics.end());
        QCOMPARE(error->row, 1u);
        QCOMPARE(error->severity(), Severity::Error);
    }
    void existingUidsAreReusedWhenUidAssigned() {
        std::string in =
            R"J({"uid_assigned": true, "traceEvents": [)J" +
            std::string(kRegion).replace(1, 0, "\"uid\": 10, ") +
            R"J(, {"uid": 11, "ph": "X", "cat": "cuda_driver", "name": "l", "pid": 1, "tid": 1, "ts": 10, "dur": 5},
            {"uid": 12, "ph": "s", "id": 5, "pid": 1, "tid": 1, "ts": 10, "cat": "ac2g", "name": "ac2g"},
            {"uid": 13, "ph": "X", "cat": "kernel", "name": "triton_poi_fused_add_0", "pid": 0, "tid": 7, "ts": 200, "dur": 3},
            {"uid": 14, "ph": "f", "id": 5, "pid": 0, "tid": 7, "ts": 200, "cat": "ac2g", "name": "ac2g"}]})J";
        json out = annotate(in, kInfo);
        QCOMPARE(out["traceEvents"][3]["uid"].get<int>(), 13);
        QVERIFY(out["traceEvents"][3]["args"].contains("stack"));
    }
    void missingFieldsAreErrorsNamingTheEvent() {
        std::vector<std::string> l = launch(10, "triton_poi_fused_add_0", 5);
        l[1] = R"J({"ph": "s", "pid": 1, "tid": 1, "ts": 10, "cat": "ac2g", "name": "ac2g"})J";
        Provenance p;
        annotate(join(cat({kRegion}, l)), kInfo, &p);
        QCOMPARE(p.diagnostics.size(), std::size_t(1));
        QCOMPARE(p.diagnostics[0].kind, DiagnosticKind::BadFlow);
        QCOMPARE(p.diagnostics[0].row, 2u);
    }
};

QTEST_GUILESS_MAIN(TstProvenance)
#include "tst_provenance.moc"
