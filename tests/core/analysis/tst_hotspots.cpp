// GPU time per source line, checked against sums computed by hand; stack-string parsing.
#include <QTest>

#include "analysis/hotspot_totals.h"
#include "analysis/hotspots.h"
#include "io/trace_bytes.h"
#include "python/source_frames.h"
#include "test_support.h"

using namespace stackline;
using namespace stackline::test;

namespace {

// Three kernels already annotated by PyTorch (args.stack), one reached but without a stack.
// k1 (10 us): a.py:1 -> a.py:5. k2 (6 us): two strings, innermost a.py:5 and b.py:2 (fused).
// k3 (2 us): the same stack as k1. k4 (4 us): unresolved.
const char* kTrace =
    "{\"traceEvents\": ["
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"Torch-Compiled Region: 0/0\", \"tid\": 1, "
    "\"ts\": 0, \"dur\": 100},"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"triton_k1\", \"tid\": 7, \"ts\": 10, "
    "\"dur\": 10,"
    " \"args\": {\"stack\": [\"  File \\\"a.py\\\", line 1, in f\\n    g()\\n  File \\\"a.py\\\", "
    "line 5, in g\\n    y = x * 2\\n\"]}},"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"triton_k2\", \"tid\": 7, \"ts\": 30, "
    "\"dur\": 6,"
    " \"args\": {\"stack\": [\"  File \\\"a.py\\\", line 5, in g\\n    y = x * 2\\n\", \"  File "
    "\\\"b.py\\\", line 2, in h\\n    z = y + 1\\n\"]}},"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"triton_k3\", \"tid\": 7, \"ts\": 40, "
    "\"dur\": 2,"
    " \"args\": {\"stack\": [\"  File \\\"a.py\\\", line 1, in f\\n    g()\\n  File \\\"a.py\\\", "
    "line 5, in g\\n    y = x * 2\\n\"]}},"
    "{\"ph\": \"X\", \"cat\": \"cuda_driver\", \"name\": \"cuLaunchKernel\", \"tid\": 1, \"ts\": "
    "50, \"dur\": 1},"
    "{\"ph\": \"s\", \"id\": 1, \"tid\": 1, \"ts\": 50, \"cat\": \"ac2g\", \"name\": \"ac2g\"},"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"triton_k4\", \"tid\": 7, \"ts\": 60, "
    "\"dur\": 4},"
    "{\"ph\": \"f\", \"id\": 1, \"tid\": 7, \"ts\": 60, \"cat\": \"ac2g\", \"name\": \"ac2g\"}]}";

const SourceLine* find(const Hotspots& h, const std::string& file, int line) {
    for (const SourceLine& l : h.lines)
        if (l.file == file && l.line == line) return &l;
    return nullptr;
}

}  // namespace

class TstHotspots : public QObject {
    Q_OBJECT
private slots:
    void sumsMatchHandComputedValues() {
        Trace t = traceFrom(kTrace);
        Provenance p = runProvenance(t, KernelInfo());  // stacks come from the trace itself
        Hotspots h = computeHotspots(t, p);
        QCOMPARE(h.annotatedGpuUs, 18.0);
        QCOMPARE(h.unresolvedGpuUs, 4.0);
        const SourceLine* a5 = find(h, "a.py", 5);
        const SourceLine* a1 = find(h, "a.py", 1);
        const SourceLine* b2 = find(h, "b.py", 2);
        QVERIFY(a5 && a1 && b2);
        QCOMPARE(a5->selfUs, 10.0 + 3.0 + 2.0);  // k2 is split evenly with b.py:2
        QCOMPARE(b2->selfUs, 3.0);
        QCOMPARE(a1->selfUs, 0.0);
        QCOMPARE(a5->totalUs, 18.0);
        QCOMPARE(a1->totalUs, 12.0);
        QCOMPARE(a5->launches, uint64_t(3));
        QCOMPARE(a5->kernels.size(), std::size_t(3));
        QCOMPARE(a5->code, std::string("y = x * 2"));
        QCOMPARE(a5->function, std::string("g"));
        double self = 0;
        for (const SourceLine& l : h.lines) {
            self += l.selfUs;
            QVERIFY(l.totalUs >= l.selfUs);
        }
        QCOMPARE(self, h.annotatedGpuUs);
        QCOMPARE(h.lines.front().file, std::string("a.py"));  // sorted by self time
        QCOMPARE(h.lines.front().line, 5);
        QCOMPARE(hotspotTotalsJson(hotspotTotalsOf(h))["lines"].size(), h.lines.size());
    }
    // 7 ns among three innermost lines: 3, 2, 2 ns, the extra nanosecond to the first stack's
    // line, so the lines' self times add up to the kernel's time exactly; the JSON reads back as
    // written, and two copies sum to twice the nanoseconds.
    void selfSplitIsExactInNanoseconds() {
        Trace t = traceFrom(
            "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", "
            "\"tid\": 7, \"ts\": 10, \"dur\": 0.007, \"args\": {\"stack\": ["
            "\"  File \\\"c.py\\\", line 3, in f\\n\", \"  File \\\"a.py\\\", line 5, in g\\n\", "
            "\"  File \\\"b.py\\\", line 2, in h\\n\"]}}]}");
        Hotspots h = computeHotspots(t, runProvenance(t, KernelInfo()));
        QCOMPARE(h.annotatedGpuNs, int64_t(7));
        QCOMPARE(find(h, "c.py", 3)->selfNs, int64_t(3));
        QCOMPARE(find(h, "a.py", 5)->selfNs, int64_t(2));
        QCOMPARE(find(h, "b.py", 2)->selfNs, int64_t(2));
        QCOMPARE(find(h, "b.py", 2)->totalNs, int64_t(7));
        QCOMPARE(h.lines.front().file, std::string("c.py"));
        const HotspotTotals totals = hotspotTotalsOf(h);
        const OrderedJson json = hotspotTotalsJson(totals);
        QVERIFY(hotspotTotalsJson(hotspotTotalsFromJson(json)) == json);
        HotspotSum sum;
        sum.add(totals);
        sum.add(hotspotTotalsFromJson(json));
        const HotspotTotals twice = sum.result();
        QCOMPARE(twice.annotatedGpuNs, int64_t(14));
        QCOMPARE(twice.lines.front().selfNs, int64_t(6));
        QCOMPARE(twice.lines.front().launches, uint64_t(2));
        QCOMPARE(twice.lines.front().kernels, std::set<std::string>{"k"});
        // Lines left out (a truncated result) cannot be added up.
        OrderedJson truncated = json;
        truncated["lines"].erase(0);
        QVERIFY_THROWS_EXCEPTION(InputError, hotspotTotalsFromJson(truncated));
    }
    void parsesStackStrings() {
        std::vector<SourceFrame> f = parseStackString(
            "  File \"/p/rope.py\", line 74, in apply\n    q = (q * cos)\n        ^^^^^\n"
            "  File \"/p/rope.py\", line 50, in rotate_half\n    return torch.cat((-x2, x1), "
            "dim=-1)\n");
        QCOMPARE(f.size(), std::size_t(2));
        QCOMPARE(f[0].file, std::string("/p/rope.py"));
        QCOMPARE(f[0].line, 74);
        QCOMPARE(f[0].code, std::string("q = (q * cos)"));
        QCOMPARE(f[1].function, std::string("rotate_half"));
        // Line breaks escaped twice, as in some TORCH_TRACE artifacts.
        std::vector<SourceFrame> twice =
            parseStackString("  File \"m.py\", line 3, in f\\n    x = 1\\n");
        QCOMPARE(twice.size(), std::size_t(1));
        QCOMPARE(twice[0].code, std::string("x = 1"));
        std::vector<SourceFrame> shortForm = parseStackString("model.py:7 in forward");
        QCOMPARE(shortForm.size(), std::size_t(1));
        QCOMPARE(shortForm[0].line, 7);
        QVERIFY(parseStackString("d = a * 3.14").empty());
    }
};

QTEST_GUILESS_MAIN(TstHotspots)
#include "tst_hotspots.moc"
