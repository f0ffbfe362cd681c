// Stackline's rule by name: in a trace without compiled regions, a Triton kernel without a stack
// is shown the stack of the only graph of the kernel information that names it. Names in several
// graphs get none and are counted; stacks of the trace are kept; a trace with a region, or empty
// kernel information, is left to the reference's rules. Nothing the rule finds is exported.
#include <QTest>

#include "analysis/hotspot_totals.h"
#include "analysis/hotspots.h"
#include "annotate/summary_report.h"
#include "test_support.h"

using namespace stackline;
using namespace stackline::test;

namespace {

// triton_a in the forward graph only; triton_b in both graphs (kernel names restart in every
// graph); triton_d under a "name:handle" key; rms_scale a user kernel named by one graph.
const char* kInfo = R"J({
  "('Torch-Compiled Region: 0/0', False)": {
    "triton_a": {"stack_traces": ["model.py:7 in forward"]},
    "triton_b": {"stack_traces": ["model.py:8 in forward"]},
    "rms_scale": {"stack_traces": ["model.py:9 in forward"]}},
  "('Torch-Compiled Region: 0/0', True)": {
    "triton_b": {"stack_traces": ["model.py:20 in backward"]},
    "triton_d:12": {"stack_traces": ["model.py:21 in backward"]}}})J";

std::string kernel(const std::string& name, int ts, const std::string& args = "{}") {
    return R"J({"ph": "X", "cat": "kernel", "name": ")J" + name +
           R"J(", "pid": 0, "tid": 7, "ts": )J" + std::to_string(ts) +
           R"J(, "dur": 10, "args": )J" + args + "}";
}

std::string trace(const std::vector<std::string>& events) {
    std::string s = R"J({"traceEvents": [)J";
    for (std::size_t i = 0; i < events.size(); ++i) s += (i ? "," : "") + events[i];
    return s + "]}";
}

// Rows: 0 triton_a, 1 triton_b, 2 triton_c (no graph), 3 triton_d, 4 rms_scale, 5 triton_a with
// a stack of the trace's own, 6 triton_a again.
std::vector<std::string> kernels() {
    return {kernel("triton_a", 0),   kernel("triton_b", 20),
            kernel("triton_c", 40),  kernel("triton_d", 60),
            kernel("rms_scale", 80), kernel("triton_a", 100, R"({"stack": ["mine.py:1 in f"]})"),
            kernel("triton_a", 120)};
}

std::vector<const Diagnostic*> ofKind(const Provenance& p, DiagnosticKind kind) {
    std::vector<const Diagnostic*> out;
    for (const Diagnostic& d : p.diagnostics)
        if (d.kind == kind) out.push_back(&d);
    return out;
}

}  // namespace

class TstMatchedByName : public QObject {
    Q_OBJECT
private slots:
    void tritonKernelsGetTheStackOfTheOnlyGraphNamingThem() {
        const Trace t = traceFrom(trace(kernels()));
        const Provenance p = runProvenance(t, kernelInfoFrom(kInfo));
        const StackOrigins& o = p.origins;
        for (uint32_t row : {0u, 3u, 6u}) QCOMPARE(o.of(row), StackOrigin::MatchedByName);
        QCOMPARE(o.sourceOf(0)->graphKey, std::string("('Torch-Compiled Region: 0/0', False)"));
        QCOMPARE(o.sourceOf(0)->kernel, std::string("triton_a"));
        QCOMPARE(o.sourceOf(3)->graphKey, std::string("('Torch-Compiled Region: 0/0', True)"));
        QCOMPARE(p.stacks.json(p.stackOf(3)), std::string(R"(["model.py:21 in backward"])"));
        QCOMPARE(p.stackOf(0), p.stackOf(6));
        // Ambiguous, unnamed and non-Triton kernels get none; the trace's own stack stays.
        for (uint32_t row : {1u, 2u, 4u}) {
            QCOMPARE(o.of(row), StackOrigin::None);
            QCOMPARE(p.stackOf(row), StackPool::kNone);
        }
        QCOMPARE(o.of(5), StackOrigin::InTrace);
        QCOMPARE(p.stacks.json(p.stackOf(5)), std::string(R"(["mine.py:1 in f"])"));
        QCOMPARE(p.status(t.events, 0), KernelStatus::Annotated);
        // Nothing of it is written, nor counted as written.
        for (uint32_t row = 0; row < t.events.size(); ++row) QVERIFY(!p.written[row]);
        QCOMPARE(p.annotatedCount, 1u);  // the trace's own

        // Said once each, at the first kernel concerned; the rest's no_compiled_region warning
        // counts the unplaced Triton kernels only (triton_b, triton_c), launched by no op.
        const auto matched = ofKind(p, DiagnosticKind::MatchedByName);
        QCOMPARE(matched.size(), std::size_t(2));
        QCOMPARE(matched[0]->row, 0u);
        const std::string said = p.diagnostics.message(*matched[0], t.events);
        QVERIFY2(said.starts_with("3 Triton kernels got their stacks matched by name"),
                 said.c_str());
        QVERIFY(said.find("not the reference's") != std::string::npos);
        QCOMPARE(matched[1]->row, 1u);
        QVERIFY2(p.diagnostics.message(*matched[1], t.events)
                     .starts_with("1 Triton kernel is named by several graphs"),
                 p.diagnostics.message(*matched[1], t.events).c_str());
        const auto rest = ofKind(p, DiagnosticKind::NoCompiledRegion);
        QCOMPARE(rest.size(), std::size_t(1));
        QCOMPARE(rest[0]->row, 1u);
        const std::string why = p.diagnostics.message(*rest[0], t.events);
        QVERIFY2(why.starts_with("2 Triton kernels have no launch in the trace"), why.c_str());
        QVERIFY(why.find("no graph of it alone names them") != std::string::npos);
        // Stackline's notes come first, the kernel information's view before the reference's.
        QCOMPARE(p.diagnostics[0].kind, DiagnosticKind::MatchedByName);
    }

    // The annotated output is the reference's: the rule's stacks are nowhere in it.
    void theOutputIsTheReferences() {
        const std::string text = trace(kernels());
        const Trace t = traceFrom(text);
        const Provenance p = runProvenance(t, kernelInfoFrom(kInfo));
        const nlohmann::json out = nlohmann::json::parse(exportToString(t, p));
        for (std::size_t i = 0; i < out["traceEvents"].size(); ++i) {
            const auto& e = out["traceEvents"][i];
            QCOMPARE(e["args"].contains("stack"), i == 5);
        }
        const OrderedJson report = reportJson(t, p);
        QCOMPARE(report["annotated_kernels"].get<int>(), 1);
    }

    // The summary and hotspots count the rule's kernels, and say which they are.
    void summaryAndHotspotsCountThem() {
        const Trace t = traceFrom(trace(kernels()));
        const Provenance p = runProvenance(t, kernelInfoFrom(kInfo));
        const Summary s = summarize(t, p);
        QCOMPARE(s.annotatedKernels, 4u);  // three by name, one of the trace
        QCOMPARE(s.matchedByName, 3u);
        QCOMPARE(s.diagnostics.at("matched_by_name"), 2u);
        QVERIFY(summaryJson(s)["matched_by_name_kernels"] == 3);
        QVERIFY(s.kernelInfoNotes.front().starts_with("3 Triton kernels got their stacks"));

        const Hotspots h = computeHotspots(t, p);
        QCOMPARE(h.annotatedGpuNs, int64_t(40000));
        QCOMPARE(h.byNameGpuNs, int64_t(30000));
        const auto model7 = std::find_if(h.lines.begin(), h.lines.end(),
                                         [](const SourceLine& l) { return l.line == 7; });
        QVERIFY(model7 != h.lines.end());
        QCOMPARE(model7->launches, 2u);
        QCOMPARE(model7->byNameLaunches, 2u);
        const HotspotTotals totals = hotspotTotalsOf(h);
        const OrderedJson j = hotspotTotalsJson(totals);
        QVERIFY(j["matched_by_name_gpu_ns"] == 30000);
        const HotspotTotals back = hotspotTotalsFromJson(j);
        QCOMPARE(back.byNameGpuNs, int64_t(30000));
        QVERIFY(hotspotTotalsJson(back) == j);
    }

    // A compiled region anywhere leaves every kernel to the reference's rules; so does empty
    // kernel information.
    void tracesWithRegionsAreLeftToTheReference() {
        std::vector<std::string> events = kernels();
        events.push_back(
            R"J({"ph": "X", "cat": "cpu_op", "name": "Torch-Compiled Region: 0/0", "pid": 1, "tid": 1, "ts": 500, "dur": 10})J");
        const Trace t = traceFrom(trace(events));
        const Provenance p = runProvenance(t, kernelInfoFrom(kInfo));
        for (uint32_t row = 0; row < t.events.size(); ++row) {
            QVERIFY(p.origins.of(row) != StackOrigin::MatchedByName);
            QCOMPARE(p.stackOf(row) != StackPool::kNone, row == 5);
        }
        QVERIFY(ofKind(p, DiagnosticKind::MatchedByName).empty());
        QVERIFY(ofKind(p, DiagnosticKind::NoCompiledRegion).empty());
        QCOMPARE(summarize(t, p).matchedByName, 0u);
        QVERIFY(!summaryJson(summarize(t, p)).contains("matched_by_name_kernels"));

        const Trace plain = traceFrom(trace(kernels()));
        const Provenance none = runProvenance(plain, kernelInfoFrom("{}"));
        QCOMPARE(none.origins.of(0), StackOrigin::None);
        QVERIFY(none.diagnostics.empty());
    }

    // Every kernel placed by name: no no_compiled_region warning says the kernel information
    // cannot apply.
    void allPlacedSaysNothingContrary() {
        const Trace t = traceFrom(trace({kernel("triton_a", 0), kernel("triton_d", 20)}));
        const Provenance p = runProvenance(t, kernelInfoFrom(kInfo));
        QCOMPARE(ofKind(p, DiagnosticKind::MatchedByName).size(), std::size_t(1));
        QVERIFY(ofKind(p, DiagnosticKind::NoCompiledRegion).empty());
    }

    // Five origins in four bits a row: each row keeps its own, neighbours included.
    void originsPackTwoRowsAByte() {
        StackOrigins o;
        o.reset(9);
        const uint32_t s = o.addSource({"g", "k"});
        o.setInTrace(0);
        o.setWritten(1, StackOrigin::Matched, s);
        o.setWritten(2, StackOrigin::SingleStack, s);
        o.setMatchedByName(3, s);
        o.setMatchedByName(8, s);
        const StackOrigin want[] = {StackOrigin::InTrace,       StackOrigin::Matched,
                                    StackOrigin::SingleStack,   StackOrigin::MatchedByName,
                                    StackOrigin::None,          StackOrigin::None,
                                    StackOrigin::None,          StackOrigin::None,
                                    StackOrigin::MatchedByName, StackOrigin::None};
        for (uint32_t row = 0; row < 10; ++row) QCOMPARE(o.of(row), want[row]);
        QCOMPARE(o.sourcesByRow().size(), std::size_t(4));
        QVERIFY(o.sourceOf(3) && !o.sourceOf(0));
    }
};

QTEST_GUILESS_MAIN(TstMatchedByName)
#include "tst_matched_by_name.moc"
