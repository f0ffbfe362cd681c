// _extern_kernel_name as the reference's regular expression reads names (expected values computed
// once with CPython 3.11.7's re, kept as data), and the lookups of a kernel under a region's keys.
#include <QTest>

#include "annotate/stack_lookup.h"
#include "test_support.h"

using namespace stackline;

class TstStackLookup : public QObject {
    Q_OBJECT
private slots:
    void externKernelNameFollowsTheRegularExpression_data() {
        stackline::test::stringTable<2>(
            {"name", "expected"},
            {
                {"a call, no comma after the word", "extern_kernels.mm(buf0, arg1)",
                 "extern_kernels.mm(buf0, arg1)"},
                {"the word before a comma", "extern_kernels_mm , x", "extern_kernels_mm"},
                {"after a dot, tab before the comma", "x.extern_kernels_bmm\t, y",
                 "extern_kernels_bmm"},
                {"no word boundary before it", "my_extern_kernel, x", "my_extern_kernel, x"},
                {"a non-ASCII letter is a word character", "éextern_k, x", "éextern_k, x"},
                {"extern alone is not enough", "extern, x", "extern, x"},
                {"non-ASCII letters continue the word", "externé_mm, y", "externé_mm"},
                {"the first match that reaches a comma", "extern_a extern_b, c", "extern_b"},
                {"no extern", "aten::mm", "aten::mm"},
            });
    }
    void externKernelNameFollowsTheRegularExpression() {
        QFETCH(QString, name);
        QFETCH(QString, expected);
        QCOMPARE(QString::fromStdString(externKernelName(name.toStdString())), expected);
    }
    void aKernelIsLookedUpUnderTheRegionsKeys() {
        KernelInfo info = KernelInfo::parse(R"json({
            "('f', False)": {"triton_poi_0": {"stack_traces": ["fw"]}},
            "('f', True)": {"triton_poi_0": {"stack_traces": ["bw"]},
                            "extern_kernels_mm": {"stack_traces": ["mm"]}}})json",
                                            "inline_kernel_info.json");
        const std::string fw = "('f', False)";
        const std::vector<std::string> bw = {"('f', True)"};
        StackLookup lookup(info);
        const RegionKeys forward{0, fw, bw, false}, backward{1, fw, bw, true};

        const StackLookup::Kernel& t = lookup.kernel(backward, 1, "triton_poi_0");
        QVERIFY(!t.isExtern && t.triton);
        QCOMPARE(t.stack.stack->dump(), std::string(R"(["bw"])"));  // backward keys first
        QCOMPARE(backward.key(t.stack.key), bw[0]);
        // Not in the forward graph, and a forward region does not look at the backward ones.
        QVERIFY(lookup.kernel(forward, 2, "extern_kernels_mm").isExtern);
        QVERIFY(!lookup.kernel(backward, 2, "extern_kernels_mm").isExtern);
        QCOMPARE(lookup.externStack(backward, 3, "x.extern_kernels_mm, y").stack->dump(),
                 std::string(R"(["mm"])"));
        const FoundStack single = lookup.singleStack(forward);  // the forward graph has one
        QVERIFY(single.stack);
        QCOMPARE(single.stack->dump(), std::string(R"(["fw"])"));
        QCOMPARE(forward.key(single.key), fw);
    }
};

QTEST_GUILESS_MAIN(TstStackLookup)
#include "tst_stack_lookup.moc"
