// Eager kernels' Python stacks against figures computed from the JSON alone by
// tools/eager_stacks_expected.py (tests/data/eager_stacks), and the backward rule on a small trace.
#include <QTest>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

#include "analysis/eager_stacks.h"
#include "model/event_args.h"
#include "model/kineto.h"
#include "test_support.h"

using namespace stackline;
using namespace stackline::test;

namespace {

struct Loaded {
    Trace trace;
    Provenance provenance;
    TrackIndex tracks;
    FlowIndex flows;
    EagerStacks eager;
};

Loaded load(Trace trace) {
    Loaded l{std::move(trace), {}, {}, {}, {}};
    l.provenance = runProvenance(l.trace, KernelInfo());
    l.tracks = TrackIndex::build(l.trace.events, l.trace.metadata);
    l.flows = FlowIndex::build(l.trace.events, l.tracks);
    l.eager = EagerStacks::build(l.trace, l.provenance, l.tracks, l.flows);
    return l;
}

std::vector<std::string> frameNames(const Loaded& l, uint32_t row) {
    std::vector<std::string> names;
    for (uint32_t f : l.eager.frames(l.eager.stackOf(row)))
        names.emplace_back(l.trace.events.strings.at(f));
    return names;
}

// A forward op inside Python and its backward op on the autograd thread, linked by Sequence
// number only; the backward kernel's launch has no python_function around it.
const char* kBackward =
    "{\"traceEvents\": ["
    "{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"m.py(3): forward\", \"tid\": 1, "
    "\"ts\": 0, \"dur\": 50, \"args\": {\"Python id\": 1, \"Python parent id\": null}},"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mul\", \"tid\": 1, \"ts\": 10, "
    "\"dur\": 10, \"args\": {\"Sequence number\": 42}},"
    "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"tid\": 1, "
    "\"ts\": 12, \"dur\": 2, \"args\": {\"correlation\": 5}},"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"mul_fwd\", \"tid\": 7, \"ts\": 20, "
    "\"dur\": 3, \"args\": {\"correlation\": 5}},"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"MulBackward0\", \"tid\": 2, \"ts\": 100, "
    "\"dur\": 10, \"args\": {\"Sequence number\": 42}},"
    "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"tid\": 2, "
    "\"ts\": 102, \"dur\": 2, \"args\": {\"correlation\": 6}},"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"mul_bwd\", \"tid\": 7, \"ts\": 110, "
    "\"dur\": 4, \"args\": {\"correlation\": 6}}]}";

}  // namespace

class TstEagerStacks : public QObject {
    Q_OBJECT
private slots:
    void matchesIndependentComputationOnCorpusTrace() {
        const std::string dir = STACKLINE_TEST_DATA;
        const auto expected = nlohmann::json::parse(
            readFile(dir + "/eager_stacks/h100_gaunernst_bert-small-uncased.json"));
        const Loaded l = load(
            loadTrace(dir + "/corpus/h100_gaunernst_bert-small-uncased__1016001/trace.json.gz"));
        QCOMPARE(l.eager.count(), expected["count"].get<uint64_t>());
        int64_t totalNs = 0;
        std::map<std::string, int> kernelsByName;
        for (uint32_t row = 0; row < l.trace.events.size(); ++row) {
            if (l.eager.stackOf(row) == 0) continue;
            QCOMPARE(l.eager.origin(row), EagerOrigin::Launch);
            totalNs += l.trace.events.durNs(row);
            const std::string name(l.trace.events.nameOf(row));
            const std::string frame = expected["frame_by_kernel_name"].at(name);
            const std::vector<std::string> frames = frameNames(l, row);
            QVERIFY2(std::find(frames.begin(), frames.end(), frame) != frames.end(),
                     (name + " lacks " + frame).c_str());
            ++kernelsByName[name];
        }
        QCOMPARE(double(totalNs) / 1000, expected["total_gpu_us"].get<double>());
        QCOMPARE(kernelsByName.size(), expected["frame_by_kernel_name"].size());
    }

    void cliCountsEagerKernelsWhenAsked() {
        const std::string dir = STACKLINE_TEST_DATA;
        const auto expected = nlohmann::json::parse(
            readFile(dir + "/eager_stacks/h100_gaunernst_bert-small-uncased.json"));
        const QString trace = QString::fromStdString(
            dir + "/corpus/h100_gaunernst_bert-small-uncased__1016001/trace.json.gz");
        const Run eager = cli({"hotspots", trace, "--eager", "--json"});
        QCOMPARE(eager.code, 0);
        const auto h = nlohmann::json::parse(eager.out.toStdString());
        QCOMPARE(h["annotated_gpu_us"].get<double>(), expected["total_gpu_us"].get<double>());
        // Self time goes to the line that called a built-in op, never to the built-in itself
        // (line 0); self times still add up to the GPU time.
        double selfUs = 0;
        for (const auto& line : h["lines"]) {
            if (line["line"].get<int>() == 0) QCOMPARE(line["self_us"].get<double>(), 0.0);
            selfUs += line["self_us"].get<double>();
        }
        QCOMPARE(std::round(selfUs * 1000), expected["total_gpu_us"].get<double>() * 1000);
        QCOMPARE(h["lines"][0]["file"].get<std::string>(), "torch/nn/modules/linear.py");
        const Run compiledOnly = cli({"hotspots", trace, "--json"});
        QCOMPARE(
            nlohmann::json::parse(compiledOnly.out.toStdString())["annotated_gpu_us"].get<double>(),
            0.0);
        const Run summary = cli({"summary", trace, "--json"});
        QCOMPARE(nlohmann::json::parse(summary.out.toStdString())["eager_stacks"].get<uint64_t>(),
                 expected["count"].get<uint64_t>());
    }

    void backwardKernelTakesItsForwardOpsStack() {
        const Loaded l = load(traceFrom(kBackward));
        QCOMPARE(l.eager.count(), uint64_t(2));
        QCOMPARE(l.eager.origin(3), EagerOrigin::Launch);
        QCOMPARE(l.eager.origin(6), EagerOrigin::Forward);
        QCOMPARE(l.eager.stackOf(6), l.eager.stackOf(3));  // interned: the same innermost frame
        QCOMPARE(frameNames(l, 6), std::vector<std::string>{"m.py(3): forward"});
        const SourceFrame frame = pythonFunctionFrame("m.py(3): forward");
        QCOMPARE(frame.file, std::string("m.py"));
        QCOMPARE(frame.line, 3);
    }
    // The correlation ids and Sequence numbers the searches read, as a JSON DOM would give them.
    void integerArgsReadIntegerMembersOnly() {
        const Trace t = traceFrom(R"({"traceEvents": [
            {"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 1,
             "args": {"x": {"Sequence number": 1}, "Sequence number": 7, "correlation": 2.0}},
            {"ph": "X", "name": "b", "pid": 1, "tid": 1, "ts": 2, "dur": 1,
             "args": {"Sequence number": 3, "Sequence number": -4, "correlation": "5"}},
            {"ph": "X", "name": "c", "pid": 1, "tid": 1, "ts": 3, "dur": 1,
             "args": {"Sequence\u0020number": 9, "correlation": 18446744073709551615}},
            {"ph": "X", "name": "d", "pid": 1, "tid": 1, "ts": 4, "dur": 1,
             "args": {"correlation": 1e3, "Sequence number": null}}]})");
        const std::string_view seq = kineto::kSequenceNumberArg, corr = kineto::kCorrelationArg;
        QCOMPARE(t.args(0).integer(seq), std::optional<int64_t>(7));    // not the nested one
        QCOMPARE(t.args(0).integer(corr), std::nullopt);                // a float
        QCOMPARE(t.args(1).integer(seq), std::optional<int64_t>(-4));   // the last of a name
        QCOMPARE(t.args(1).integer(corr), std::nullopt);                // a string
        QCOMPARE(t.args(2).integer(seq), std::optional<int64_t>(9));    // an escaped key
        QCOMPARE(t.args(2).integer(corr), std::optional<int64_t>(-1));  // unsigned, cast
        QCOMPARE(t.args(3).integer(corr), std::nullopt);
        QCOMPARE(t.args(3).integer(seq), std::nullopt);
        QCOMPARE(t.args(3).integer("absent"), std::nullopt);
    }
};

QTEST_GUILESS_MAIN(TstEagerStacks)
#include "tst_eager_stacks.moc"
