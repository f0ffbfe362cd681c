// Kernel information given to a trace without compiled regions cannot apply by the reference's
// rules: Stackline says why (no_compiled_region) for the Triton kernels its own rule by name
// (tst_matched_by_name) leaves without a stack, at the graph replay that launched them when there
// is one, and says nothing on a trace with regions. The exported trace is the same with or
// without it.
#include <QTest>

#include "annotate/diagnostic_groups.h"
#include "annotate/summary_report.h"
#include "test_support.h"

using namespace stackline;
using namespace stackline::test;

namespace {

const char* kInfo = R"J({"('Torch-Compiled Region: 0/0', False)": {
    "triton_poi_fused_add_0": {"stack_traces": ["model.py:7 in forward"]}}})J";

std::string trace(const std::vector<std::string>& events) {
    std::string s = R"J({"traceEvents": [)J";
    for (std::size_t i = 0; i < events.size(); ++i) s += (i ? "," : "") + events[i];
    return s + "]}";
}

std::string slice(const std::string& cat, const std::string& name, int ts,
                  const std::string& args = "{}", int pid = 1) {
    return R"J({"ph": "X", "cat": ")J" + cat + R"J(", "name": ")J" + name + R"J(", "pid": )J" +
           std::to_string(pid) + R"J(, "tid": 1, "ts": )J" + std::to_string(ts) +
           R"J(, "dur": 1, "args": )J" + args + "}";
}

// vLLM's full-graph decode, in small: one hipGraphLaunch whose correlation id the replayed
// kernels carry (no External id, no op around them).
std::vector<std::string> graphReplay() {
    return {slice("cuda_runtime", "hipGraphLaunch", 10, R"({"correlation": 77})"),
            slice("kernel", "triton_poi_fused_add_0", 20, R"({"correlation": 77})", 0),
            slice("kernel", "triton_red_fused_sum_1", 30, R"({"correlation": 77})", 0),
            slice("kernel", "void at::native::copy", 40, R"({"correlation": 77})", 0)};
}

// A no_compiled_region warning as it reads.
struct Warning {
    uint32_t row;
    std::string name, message;
    Severity kindSeverity;
    Severity severity() const { return kindSeverity; }
};

// The no_compiled_region warnings of p, a run over t.
std::vector<Warning> warningsOf(const Trace& t, const Provenance& p) {
    std::vector<Warning> out;
    for (const Diagnostic& d : p.diagnostics)
        if (d.kind == DiagnosticKind::NoCompiledRegion)
            out.push_back({d.row, std::string(p.diagnostics.name(d, t.events)),
                           p.diagnostics.message(d, t.events), d.severity()});
    return out;
}
std::vector<Warning> warningsOf(const std::string& text, const Provenance& p) {
    return warningsOf(traceFrom(text), p);
}

}  // namespace

class TstNoCompiledRegion : public QObject {
    Q_OBJECT
private slots:
    void graphReplayIsNamedAtItsLaunch() {
        const std::string text = trace(graphReplay());
        Provenance p;
        const nlohmann::json out = annotate(text, kInfo, &p);
        const auto w = warningsOf(text, p);
        QCOMPARE(w.size(), std::size_t(1));
        QCOMPARE(w[0].row, 0u);  // the hipGraphLaunch
        QCOMPARE(w[0].name, std::string("hipGraphLaunch"));
        // triton_poi_fused_add_0 got its stack by name; triton_red_fused_sum_1 is named nowhere.
        QVERIFY2(w[0].message.starts_with("hipGraphLaunch replays 1 Triton kernel captured in a "
                                          "CUDA/HIP graph without a stack"),
                 w[0].message.c_str());
        QCOMPARE(p.origins.of(1), StackOrigin::MatchedByName);
        QVERIFY(w[0].message.find("no compiled region") != std::string::npos);
        QVERIFY(w[0].message.find("reduce-overhead") != std::string::npos);
        QCOMPARE(w[0].severity(), Severity::Warning);
        // What is exported does not depend on the warning, nor on the rule: nothing gets a stack.
        QCOMPARE(p.annotatedCount, 0u);
        for (const auto& e : out["traceEvents"]) QVERIFY(!e["args"].contains("stack"));

        // The summary carries it as a note, once; the report has it as a warning at the launch.
        const Trace t = traceFrom(text);
        const Summary s = summarize(t, p);
        QCOMPARE(s.diagnostics.at("no_compiled_region"), 1u);
        QCOMPARE(s.kernelInfoNotes.size(), std::size_t(2));
        QVERIFY(s.kernelInfoNotes[0].starts_with("1 Triton kernel got its stack matched by name"));
        QCOMPARE(s.kernelInfoNotes[1], w[0].message);
        const OrderedJson report = reportJson(t, p);
        QCOMPARE(report["warnings"].size(), std::size_t(2));
        QVERIFY(report["warnings"][0]["kind"] == "matched_by_name");
        QVERIFY(report["warnings"][0]["uids"] == OrderedJson::array({1}));
        QVERIFY(report["warnings"][1]["kind"] == "no_compiled_region");
        QVERIFY(report["warnings"][1]["uids"] == OrderedJson::array({0}));
    }

    // Each replay of a decode loop is reported at its launch; the summary says it once.
    void repeatedReplaysGroupIntoOne() {
        std::vector<std::string> events = graphReplay();
        events.push_back(
            slice("cuda_runtime", "cudaGraphLaunch_v10000", 50, R"({"correlation": 78})"));
        events.push_back(
            slice("kernel", "triton_poi_fused_add_0", 60, R"({"correlation": 78})", 0));
        events.push_back(
            slice("kernel", "triton_red_fused_sum_1", 70, R"({"correlation": 78})", 0));
        Provenance p;
        annotate(trace(events), kInfo, &p);
        const auto w = warningsOf(trace(events), p);
        QCOMPARE(w.size(), std::size_t(2));
        QCOMPARE(w[1].row, 4u);
        QVERIFY(w[1].message.find("replays 1 Triton kernel") != std::string::npos);
        const DiagnosticGroups g = groupDiagnostics(p.diagnostics.records());
        QCOMPARE(g.kinds.size(), std::size_t(2));  // matched_by_name, no_compiled_region
        QCOMPARE(g.kinds[1].messages.size(), std::size_t(2));  // the launches' names differ
        // The rule's note, then each launch's.
        QCOMPARE(summarize(traceFrom(trace(events)), p).kernelInfoNotes.size(), std::size_t(3));
    }

    // Triton kernels without any launch (the replay itself not traced) and kernels launched one
    // by one (an op's External id): each said, at its first kernel.
    void kernelsWithoutGraphReplay() {
        Provenance p;
        const std::string text =
            trace({slice("kernel", "triton_poi_fused_mul_2", 20, R"({"correlation": 5})", 0),
                   slice("cpu_op", "aten::add", 25, R"({"External id": 9})"),
                   slice("kernel", "triton_red_fused_sum_1", 30, R"({"External id": 9})", 0),
                   slice("kernel", "triton_red_fused_sum_1", 40, R"({"External id": 9})", 0)});
        annotate(text, kInfo, &p);
        const auto w = warningsOf(text, p);
        QCOMPARE(w.size(), std::size_t(2));
        QCOMPARE(w[0].row, 0u);
        QVERIFY2(w[0].message.starts_with("1 Triton kernel has no launch in the trace (as after "
                                          "an untraced CUDA/HIP graph replay)"),
                 w[0].message.c_str());
        QCOMPARE(w[1].row, 2u);
        QVERIFY2(w[1].message.starts_with("2 Triton kernels are launched one by one"),
                 w[1].message.c_str());
        QVERIFY(w[1].message.find("no compiled region") != std::string::npos);
    }

    // A kernel no op launched whose correlation id names a runtime call (an Nsight Systems export
    // without NVTX ranges) is launched one by one; the advice is the trace format's.
    void launchedByCorrelationWithoutOp() {
        Provenance p;
        const std::string text =
            trace({slice("cuda_runtime", "cudaLaunchKernel", 10, R"({"correlation": 5})"),
                   slice("kernel", "triton_red_fused_sum_1", 20, R"({"correlation": 5})", 0),
                   slice("kernel", "triton_red_fused_sum_1", 30, R"({"correlation": 6})", 0)});
        annotate(text, kInfo, &p);
        const auto w = warningsOf(text, p);
        QCOMPARE(w.size(), std::size_t(2));
        QVERIFY2(w[0].message.starts_with("1 Triton kernel has no launch"), w[0].message.c_str());
        QCOMPARE(w[0].row, 2u);
        QCOMPARE(w[1].row, 1u);
        QVERIFY2(w[1].message.starts_with("1 Triton kernel is launched one by one without a "
                                          "stack"),
                 w[1].message.c_str());
        QVERIFY2(w[1].message.ends_with(std::string(kRecordRegionsWithTorchProfiler)),
                 w[1].message.c_str());
    }

    void traceWithoutTritonKernels() {
        Provenance p;
        const std::string text = trace({slice("kernel", "volta_sgemm", 20, "{}", 0)});
        annotate(text, kInfo, &p);
        const auto w = warningsOf(text, p);
        QCOMPARE(w.size(), std::size_t(1));
        QCOMPARE(w[0].row, kNoRow);
        QVERIFY2(w[0].message.starts_with("The trace has neither a compiled region (no "
                                          "\"Torch-Compiled Region\" event) nor a Triton kernel"),
                 w[0].message.c_str());
    }

    // A compiled region anywhere, or no kernel information: no such warning.
    void silentWhenItCanApply() {
        std::vector<std::string> events = graphReplay();
        events.push_back(slice("cpu_op", "Torch-Compiled Region: 0/0", 100));
        Provenance p;
        annotate(trace(events), kInfo, &p);
        QVERIFY(warningsOf(trace(events), p).empty());
        Provenance none;
        annotate(trace(graphReplay()), "{}", &none);
        QVERIFY(none.diagnostics.empty());
        // CompiledFunctionBackward is a region too (the reference's rule).
        events.back() = slice("cpu_op", "CompiledFunctionBackward", 100);
        annotate(trace(events), kInfo, &p);
        QVERIFY(warningsOf(trace(events), p).empty());
    }

    // The real case: vLLM decode on MI300X, 48 Triton kernels replayed by one hipGraphLaunch. The
    // kernel information names 47 of them in both its graphs: only one is placed by name.
    void vllmDecodeTrace() {
        const std::string dir =
            std::string(STACKLINE_TEST_DATA) + "/corpus/vllm_decode_full_graph_execution/";
        const Trace t = loadTrace(dir + "trace.json.gz");
        const Provenance p = runProvenance(t, KernelInfo::load(dir + "kernel_info.json"));
        const auto w = warningsOf(t, p);
        QCOMPARE(w.size(), std::size_t(1));
        QCOMPARE(w[0].name, std::string("hipGraphLaunch"));
        QVERIFY2(w[0].message.starts_with("hipGraphLaunch replays 47 Triton kernels"),
                 w[0].message.c_str());
        QCOMPARE(summarize(t, p).matchedByName, 1u);
    }

    // The command line says it on stderr (annotate) and in the summary's notes.
    void commandLine() {
        const QString dir =
            QStringLiteral(STACKLINE_TEST_DATA "/corpus/vllm_decode_full_graph_execution/");
        QTemporaryDir out;
        Run r = cli({"annotate", dir + "trace.json.gz", "--kernel-info", dir + "kernel_info.json",
                     "-o", out.filePath("a.json")});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.contains("note: hipGraphLaunch replays 47 Triton kernels"),
                 qPrintable(r.err));
        QCOMPARE(r.err.count("note: hipGraphLaunch"), 1);
        r = cli({"summary", dir + "trace.json.gz", "--kernel-info", dir + "kernel_info.json"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("no_compiled_region: 1"), qPrintable(r.out));
        QVERIFY2(r.out.contains("  hipGraphLaunch replays 47"), qPrintable(r.out));
        QVERIFY2(r.out.contains("kernel information notes:\n  1 Triton kernel got its stack"),
                 qPrintable(r.out));
    }
};

QTEST_GUILESS_MAIN(TstNoCompiledRegion)
#include "tst_no_compiled_region.moc"
