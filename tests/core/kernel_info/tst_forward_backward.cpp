// Forward or backward (forward_backward.h) from what a log or tlparse folder showed, without
// files: one row per rule, and one per way a rule does not apply and leaves it to the next.
#include <QTest>

#include "kernel_info/forward_backward.h"

using namespace stackline;

Q_DECLARE_METATYPE(std::vector<stackline::ArtifactSeen>)
Q_DECLARE_METATYPE(stackline::CompileSeen)

namespace {

const std::string kFwSpan = "compile_fx.<locals>.fw_compiler_base";
const std::string kBwSpan = "compile_fx.<locals>.bw_compiler";

ArtifactSeen closedBy(bool isBackward) {
    ArtifactSeen a;
    a.inductorCompileEnd = isBackward;
    return a;
}
ArtifactSeen inSpan(const std::string& span) {
    ArtifactSeen a;
    a.openCompilerSpan = span;
    return a;
}
ArtifactSeen withKernels(std::vector<std::string> kernels) {
    ArtifactSeen a;
    a.kernels = std::move(kernels);
    return a;
}

CompileSeen endEvents(std::vector<bool> ends) {
    CompileSeen c;
    c.inductorCompileEnds = std::move(ends);
    return c;
}
CompileSeen autotuned(std::map<std::string, std::set<bool>> kernels) {
    CompileSeen c;
    c.autotuned = std::move(kernels);
    return c;
}
CompileSeen graphs(std::vector<std::string> names) {
    CompileSeen c;
    for (const std::string& n : names) c.noteGraph(n);
    return c;
}

// Each direction as F or B followed by the number of the rule that decided it: "F1 B2".
QString describe(const std::vector<Direction>& directions) {
    QStringList out;
    for (const Direction& d : directions)
        out << QString(d.backward ? "B" : "F") + QString::number(int(d.rule) + 1);
    return out.join(' ');
}

}  // namespace

class TstForwardBackward : public QObject {
    Q_OBJECT
private slots:
    void theFirstRuleThatAppliesDecides_data() {
        QTest::addColumn<std::vector<ArtifactSeen>>("artifacts");
        QTest::addColumn<CompileSeen>("compile");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<QString>("reason");  // a part of the last artifact's reason

        QTest::newRow("1: the end event closing its inductor_compile span")
            << std::vector{closedBy(false), closedBy(true)} << CompileSeen() << "F1 B1"
            << "";
        QTest::newRow("1: the end event wins over a compiler span and the order")
            << std::vector{inSpan(kFwSpan),
                           [] {
                               ArtifactSeen a = inSpan(kFwSpan);
                               a.inductorCompileEnd = true;
                               return a;
                           }()}
            << graphs({"aot_joint_graph"}) << "F2 B1"
            << "";
        QTest::newRow("1 (folder): the k-th end event when the counts agree")
            << std::vector{ArtifactSeen(), ArtifactSeen()} << endEvents({true, false}) << "B1 F1"
            << "";
        QTest::newRow("1 (folder) does not apply when the counts differ")
            << std::vector{ArtifactSeen(), ArtifactSeen()} << endEvents({true}) << "F4 F4"
            << "no AOT graph of compile 0/0 is logged";

        QTest::newRow("2: the backward compiler span open at it")
            << std::vector{inSpan(kBwSpan)} << CompileSeen() << "B2"
            << "it was logged inside the compile_fx.<locals>.bw_compiler span";
        QTest::newRow("2: the forward compiler span open at it")
            << std::vector{inSpan(kFwSpan)} << graphs({"aot_joint_graph"}) << "F2"
            << "fw_compiler_base span";

        QTest::newRow("3: its kernels' autotuning events agree")
            << std::vector{withKernels({"triton_a:12", "triton_b", "triton_c"})}
            << autotuned({{"triton_a", {true}}, {"triton_b", {true}}}) << "B3"
            << "autotuning events of its kernels (triton_a, triton_b) say is_backward=true";
        QTest::newRow("3 does not apply when they disagree")
            << std::vector{withKernels({"triton_a", "triton_b"})}
            << autotuned({{"triton_a", {true}}, {"triton_b", {false}}}) << "F4"
            << "no AOT graph";
        QTest::newRow("3 does not apply when one kernel's events disagree")
            << std::vector{withKernels({"triton_a"})} << autotuned({{"triton_a", {true, false}}})
            << "F4"
            << "no AOT graph";
        QTest::newRow("3 does not apply when no event names its kernels")
            << std::vector{withKernels({"triton_a:x", "triton_b"})}
            << autotuned({{"triton_a", {true}}}) << "F4"
            << "no AOT graph";

        QTest::newRow("4: with a backward graph, forward and backward alternate")
            << std::vector{ArtifactSeen(), ArtifactSeen(), ArtifactSeen()}
            << graphs({"aot_forward_graph", "aot_backward_graph"}) << "F4 B4 F4"
            << "has a backward graph (aot_backward_graph) and this is its 3rd kernel stack-trace "
               "artifact";
        QTest::newRow("4: the order counts the artifacts other rules decided")
            << std::vector{inSpan(kFwSpan), ArtifactSeen()} << graphs({"aot_joint_graph"})
            << "F2 B4"
            << "this is its 2nd kernel stack-trace artifact";
        QTest::newRow("4: an inference graph only")
            << std::vector{ArtifactSeen(), ArtifactSeen()} << graphs({"aot_inference_graph"})
            << "F4 F4"
            << "compile 0/0 has an inference graph only (aot_inference_graph)";
        QTest::newRow("4: no AOT graph logged")
            << std::vector{ArtifactSeen()} << CompileSeen() << "F4"
            << "no AOT graph of compile 0/0 is logged, so it is taken as forward";
    }
    void theFirstRuleThatAppliesDecides() {
        QFETCH(std::vector<ArtifactSeen>, artifacts);
        QFETCH(CompileSeen, compile);
        QFETCH(QString, expected);
        QFETCH(QString, reason);
        std::vector<Direction> decided = decideDirections("0/0", artifacts, compile);
        QCOMPARE(describe(decided), expected);
        const std::string& why = decided.back().reason;
        if (reason.isEmpty())
            QCOMPARE(why, std::string());
        else
            QVERIFY2(why.find(reason.toStdString()) != std::string::npos, why.c_str());
    }
    void theFirstBackwardGraphLoggedIsNamed() {
        CompileSeen c = graphs({"aot_joint_graph", "aot_backward_graph", "aot_forward_graph"});
        QCOMPARE(c.backwardGraph, std::string("aot_joint_graph"));
        QVERIFY(!c.inferenceGraph);
        c.noteGraph("aot_inference_graph");
        QVERIFY(c.inferenceGraph);
    }
    void compilerSpansAreRecognized() {
        QVERIFY(isCompilerSpan(kFwSpan));
        QVERIFY(isCompilerSpan(kBwSpan));
        QVERIFY(isCompilerSpan("compile_fx.<locals>.inference_compiler"));
        QVERIFY(!isCompilerSpan("inductor_compile"));
    }
};

QTEST_GUILESS_MAIN(TstForwardBackward)
#include "tst_forward_backward.moc"
