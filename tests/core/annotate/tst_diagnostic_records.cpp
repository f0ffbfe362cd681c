// Diagnostics are kept as records, not text: a trace whose long-named kernels draw hundreds of
// warnings each (ops that share an External id reach every kernel launched under it) costs
// 16 bytes per warning, whatever the names' length; each renders as the reference words it, and
// the report groups them by message with the uid of every occurrence.
#include <QTest>

#include "annotate/diagnostic_groups.h"
#include "annotate/summary_report.h"
#include "test_support.h"

using namespace stackline;
using namespace stackline::test;

namespace {

constexpr int kGroups = 20;         // External ids, each with one op
constexpr int kKernels = 10;        // kernels launched under each
constexpr int kRuntimeCalls = 250;  // runtime calls of each op, all with its External id
constexpr std::size_t kNameLength = 2000;

// Kernel g*kKernels+k is named after k only: ten long names, each launched kGroups times.
std::string kernelName(int k) {
    std::string name = "Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT" + std::to_string(k) + "_";
    while (name.size() < kNameLength) name += "ISA942_LDSB1_";
    return name.substr(0, kNameLength);
}

std::string slice(const char* cat, const std::string& name, long ts, long dur, int tid, int ext) {
    return R"({"ph":"X","cat":")" + std::string(cat) + R"(","name":")" + name +
           R"(","pid":1,"tid":)" + std::to_string(tid) + R"(,"ts":)" + std::to_string(ts) +
           R"(,"dur":)" + std::to_string(dur) + R"(,"args":{"External id":)" + std::to_string(ext) +
           "}}";
}

std::string manyWarningsTrace() {
    std::string s =
        R"({"traceEvents":[)" + slice("cpu_op", "Torch-Compiled Region: 0/0", 0, 10000000, 1, 0);
    long ts = 10;
    for (int g = 1; g <= kGroups; ++g) {
        s += "," + slice("cpu_op", "aten::mm", ts, kRuntimeCalls * 2 + 2, 1, g);
        for (int c = 0; c < kRuntimeCalls; ++c)
            s +=
                "," + slice("cuda_runtime", "hipGetDevicePropertiesR0600", ts + 1 + 2 * c, 1, 1, g);
        for (int k = 0; k < kKernels; ++k)
            s += "," + slice("kernel", kernelName(k), ts + 10 + k, 1, 7, g);
        ts += kRuntimeCalls * 2 + 10;
    }
    return s + "]}";
}

// The kernels listed without a stack (so not extern), and two Triton kernels with stacks (so no
// single stack to fall back on): each reach of a kernel is an unrecognized_kernel warning.
std::string kernelInfo() {
    std::string graph = R"("triton_poi_fused_add_0": {"stack_traces": ["a"]},)"
                        R"("triton_poi_fused_mul_1": {"stack_traces": ["b"]})";
    for (int k = 0; k < kKernels; ++k) graph += ",\"" + kernelName(k) + "\": {}";
    return R"J({"('Torch-Compiled Region: 0/0', False)": {)J" + graph + "}}";
}

}  // namespace

class TstDiagnosticRecords : public QObject {
    Q_OBJECT
private slots:
    void manyWarningsAboutLongNames() {
        const Trace trace = traceFrom(manyWarningsTrace());
        const Provenance p = runProvenance(trace, kernelInfoFrom(kernelInfo()), 1);
        // Each kernel is reached from its op and from each of the op's runtime calls.
        const std::size_t expected = std::size_t(kGroups) * kKernels * (1 + kRuntimeCalls);
        QCOMPARE(p.diagnostics.size(), expected);
        QCOMPARE(summarize(trace, p).diagnostics.at("unrecognized_kernel"), uint64_t(expected));

        // The records, not the texts: at most 32 bytes a warning (16, and the vector's slack),
        // though each message holds a 2000-character name.
        QVERIFY2(p.diagnostics.bytes() <= 32 * p.diagnostics.size(),
                 qPrintable(QString::number(p.diagnostics.bytes())));
        const Diagnostic& last = p.diagnostics[expected - 1];
        QCOMPARE(p.diagnostics.message(last, trace.events),
                 "Kernel " + kernelName(kKernels - 1) +
                     " cannot be recognized as a custom kernel or triton kernel. Please try "
                     "profile with stack=True.");
        QCOMPARE(std::string(p.diagnostics.name(last, trace.events)), kernelName(kKernels - 1));

        // Grouped for the panel: one message per name, each about its kGroups kernels.
        const DiagnosticGroups g = groupDiagnostics(p.diagnostics.records());
        QCOMPARE(g.kinds.size(), std::size_t(1));
        QCOMPARE(g.kinds[0].messages.size(), std::size_t(kKernels));
        QCOMPARE(g.kinds[0].messages[0].events.size(), std::size_t(kGroups));
        QCOMPARE(g.kinds[0].messages[0].events[0].occurrences, uint32_t(1 + kRuntimeCalls));

        // The report: one entry per message with the uid of each occurrence, in order; its size
        // is the distinct messages' plus a number per occurrence (it was 2 KB per occurrence).
        const OrderedJson report = reportJson(trace, p);
        QVERIFY(report["errors"].empty());
        const OrderedJson& warnings = report["warnings"];
        QCOMPARE(warnings.size(), std::size_t(kKernels));
        std::size_t occurrences = 0;
        for (std::size_t m = 0; m < warnings.size(); ++m) {
            const OrderedJson& w = warnings[m];
            QCOMPARE(w.size(), std::size_t(4));
            QVERIFY(w["kind"] == "unrecognized_kernel");
            QCOMPARE(w["message"].get<std::string>(),
                     p.diagnostics.message(p.diagnostics[m], trace.events));
            QCOMPARE(w["count"].get<std::size_t>(), w["uids"].size());
            for (const OrderedJson& uid : w["uids"])
                QVERIFY(trace.events.nameOf(uid.get<uint32_t>()) == kernelName(int(m)));
            occurrences += w["uids"].size();
        }
        QCOMPARE(occurrences, expected);
        std::size_t i = 0;  // the first message's uids: its diagnostics' rows, in order
        for (const OrderedJson& uid : warnings[0]["uids"]) {
            while (p.diagnostics[i].name != p.diagnostics[0].name) ++i;
            QCOMPARE(uid.get<uint32_t>(), p.diagnostics[i++].row);
        }
        // (The unresolved kernels, listed with their names, are not diagnostics.)
        const std::size_t bytes = warnings.dump(1).size();
        QVERIFY2(bytes < 16 * expected + 2 * kNameLength * kKernels,
                 qPrintable(QString::number(bytes)));
    }
};

QTEST_GUILESS_MAIN(TstDiagnosticRecords)
#include "tst_diagnostic_records.moc"
