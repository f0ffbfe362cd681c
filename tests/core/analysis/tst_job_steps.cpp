// The ranks of one job side by side (core/analysis/job_steps.h): who each trace is, how their
// clocks line up, and per step each rank's duration, compute and collective time and the straggler,
// against figures computed independently of Stackline.
#include <QTest>
#include <array>
#include <string>
#include <vector>

#include "analysis/job_steps.h"
#include "pipeline/display_indexes.h"
#include "test_support.h"

using namespace stackline;
using namespace stackline::test;

namespace {

const QString kParam = QStringLiteral(STACKLINE_TEST_DATA "/param/");
const QString kJob = QStringLiteral(STACKLINE_TEST_DATA "/job/");

// What tools/make_job.py's model says the generated job must show.
nlohmann::json jobExpected() {
    return nlohmann::json::parse(readFile((kJob + "expected.json").toStdString()));
}

std::vector<Trace> loadFolder(const QString& dir) {
    std::vector<Trace> traces;
    for (const QString& name :
         QDir(dir).entryList({"*.json.gz", "rank*.json"}, QDir::Files, QDir::Name))
        traces.push_back(loadTrace((dir + name).toStdString()));
    return traces;
}

std::vector<const Trace*> pointers(const std::vector<Trace>& traces) {
    std::vector<const Trace*> out;
    for (const Trace& t : traces) out.push_back(&t);
    return out;
}

// Each trace with its launch flows, as the viewer's documents hold them.
struct Ranks {
    explicit Ranks(const std::vector<Trace>& traces) {
        for (const Trace& t : traces) indexes.push_back(buildTraceIndexes(t, 1, IndexSet::Flows));
        for (size_t i = 0; i < traces.size(); ++i) ranks.push_back({&traces[i], &indexes[i].flows});
    }
    std::vector<DisplayIndexes> indexes;
    std::vector<RankTrace> ranks;
};

// A rank's step as tools/job_steps_expected.py computes it from the JSON: durations and unions in
// ns, kernels assigned to the step of the runtime call with the same args.correlation.
struct Expected {
    int64_t durationNs, computeNs, collectiveNs, firstCollectiveStartNs;
};

}  // namespace

// Inline traces are written as one-line raw strings: moc does not read raw strings over lines.
class TstJobSteps : public QObject {
    Q_OBJECT

private slots:
    void rankInfoReadsTopLevelMembersInAnyOrder_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<qlonglong>("rank");
        QTest::addColumn<qlonglong>("worldSize");
        QTest::addColumn<bool>("hasBaseTime");
        QTest::addColumn<qlonglong>("baseTimeNs");
        QTest::addColumn<QString>("label");
        const QString events = R"("traceEvents": [{"ph": "X", "name": "a", "ts": 1, "dur": 2}])";
        QTest::newRow("before traceEvents")
            << R"({"schemaVersion": 1, "distributedInfo": {"backend": "nccl", "rank": 3,)"
               R"( "world_size": 8, "pg_config": [{"ranks": [0, 1]}]},)"
               R"( "baseTimeNanoseconds": 1727743122000000000,)" +
                   events + "}"
            << 3ll << 8ll << true << 1727743122000000000ll << "rank 3";
        QTest::newRow("after traceEvents")
            << "{" + events +
                   R"(, "distributedInfo": {"world_size": 2, "rank": 1},)"
                   R"( "baseTimeNanoseconds": 5, "traceName": "x"})"
            << 1ll << 2ll << true << 5ll << "rank 1";
        QTest::newRow("neither") << "{" + events + R"(, "traceName": "x"})" << -1ll << 0ll << false
                                 << 0ll << "inline.json";
        QTest::newRow("empty traceEvents")
            << R"({"traceEvents": [], "distributedInfo": {"rank": 0}})" << 0ll << 0ll << false
            << 0ll << "rank 0";
        QTest::newRow("events holding the keys")
            << R"({"traceEvents": [{"ph": "i", "name": "n", "ts": 0, "args":)"
               R"( {"distributedInfo": {"rank": 9}, "baseTimeNanoseconds": 7}}]})"
            << -1ll << 0ll << false << 0ll << "inline.json";
    }
    void rankInfoReadsTopLevelMembersInAnyOrder() {
        QFETCH(QString, json);
        const Trace t = traceFrom(json.toStdString());
        const RankInfo info = rankInfoOf(t);
        QFETCH(qlonglong, rank);
        QFETCH(qlonglong, worldSize);
        QFETCH(bool, hasBaseTime);
        QFETCH(qlonglong, baseTimeNs);
        QFETCH(QString, label);
        QCOMPARE(qlonglong(info.rank), rank);
        QCOMPARE(qlonglong(info.worldSize), worldSize);
        QCOMPARE(info.hasBaseTime, hasBaseTime);
        QCOMPARE(qlonglong(info.baseTimeNs), baseTimeNs);
        QCOMPARE(QString::fromStdString(info.label), label);
    }

    void rankInfoOfAFileIsItsName() {
        const std::vector<Trace> traces = loadFolder(kParam);
        QCOMPARE(traces.size(), std::size_t(8));
        for (size_t i = 0; i < traces.size(); ++i) {
            const RankInfo info = rankInfoOf(traces[i]);
            QCOMPARE(info.rank, int64_t(i));
            QCOMPARE(info.worldSize, int64_t(8));
            QVERIFY(!info.hasBaseTime);
            QCOMPARE(info.label, "rank " + std::to_string(i));
        }
        const Trace noRank = loadTrace(STACKLINE_TEST_DATA "/corpus/triton_example/trace.json.gz");
        QCOMPARE(rankInfoOf(noRank).label, std::string("trace.json.gz"));
        QVERIFY(rankInfoOf(noRank).hasBaseTime);
        QCOMPARE(rankInfoOf(noRank).baseTimeNs, int64_t(1727743122000000000));
    }

    void collectiveKernels() {
        QVERIFY(isCollectiveKernel(
            "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)"));
        QVERIFY(isCollectiveKernel("ncclDevKernel_Generic(ncclDevKernelArgsStorage<4096ul>)"));
        QVERIFY(isCollectiveKernel("ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclWorkElem)"));
        QVERIFY(!isCollectiveKernel("volta_sgemm_128x64_nn"));
        QVERIFY(!isCollectiveKernel("void at::native::vectorized_elementwise_kernel<4>()"));
    }

    // Rank 7 holds the others back in step 10: its collectives start last, so it waits least
    // and its step is the shortest.
    void paramRank7IsTheStraggler() {
        const std::vector<Trace> traces = loadFolder(kParam);
        const JobSteps job = computeJobSteps(Ranks(traces).ranks);
        QCOMPARE(job.ranks.size(), std::size_t(8));
        QCOMPARE(job.steps.size(), std::size_t(1));
        const JobStep& step = job.steps[0];
        QCOMPARE(step.step, int64_t(10));
        QCOMPARE(step.straggler, 7);
        // python3 tools/job_steps_expected.py tests/data/param
        const std::array<Expected, 8> expected{{
            {14455000, 1034000, 5798000, 1694128201429795000},
            {19901000, 1246000, 11336000, 1694128201424306000},
            {13017000, 1068000, 3492000, 1694128201431422000},
            {19313000, 1240000, 9774000, 1694128201425808000},
            {17979000, 1126000, 6587000, 1694128201427058000},
            {17797000, 1041000, 6251000, 1694128201427261000},
            {13091000, 1051000, 3558000, 1694128201431425000},
            {12509000, 1059000, 1746000, 1694128201431930000},
        }};
        for (size_t r = 0; r < 8; ++r) {
            const RankStep& s = step.ranks[r];
            QVERIFY(s.present);
            QCOMPARE(s.durationNs(), expected[r].durationNs);
            QCOMPARE(s.computeNs, expected[r].computeNs);
            QCOMPARE(s.collectiveNs, expected[r].collectiveNs);
            QCOMPARE(s.firstCollectiveStartNs, expected[r].firstCollectiveStartNs);
            QCOMPARE(s.collectives, 8u);
            QCOMPARE(traces[r].events.nameOf(s.row), std::string_view("ProfilerStep#10"));
        }
    }

    // Four ranks, three steps, a different straggler in each, every host with its own clock; the
    // kernels run after the CPU has left the step that launched them.
    void generatedJobEveryStep() {
        const std::vector<Trace> traces = loadFolder(kJob);
        QCOMPARE(traces.size(), std::size_t(4));
        const JobSteps job = computeJobSteps(Ranks(traces).ranks);
        const nlohmann::json expected = jobExpected();
        QCOMPARE(job.steps.size(), expected["steps"].size());
        for (size_t i = 0; i < job.steps.size(); ++i) {
            const JobStep& step = job.steps[i];
            const nlohmann::json& e = expected["steps"][i];
            QCOMPARE(step.step, e["step"].get<int64_t>());
            QCOMPARE(step.straggler, e["straggler"].get<int>());
            QCOMPARE(step.ranks.size(), std::size_t(4));
            for (size_t r = 0; r < step.ranks.size(); ++r) {
                const RankStep& got = step.ranks[r];
                const nlohmann::json& want = e["ranks"][r];
                QVERIFY(got.present);
                QCOMPARE(got.durationNs(), want["duration_ns"].get<int64_t>());
                QCOMPARE(got.computeNs, want["compute_ns"].get<int64_t>());
                QCOMPARE(got.collectiveNs, want["collective_ns"].get<int64_t>());
                QCOMPARE(got.firstCollectiveStartNs,
                         want["first_collective_start_ns"].get<int64_t>());
                QCOMPARE(got.collectives, want["collectives"].get<uint32_t>());
            }
        }
    }

    void alignmentOffsetsOfTheGeneratedJob() {
        const std::vector<Trace> traces = loadFolder(kJob);
        const nlohmann::json e = jobExpected()["offsets"];
        const auto offsets = [](const nlohmann::json& j) { return j.get<std::vector<int64_t>>(); };
        QCOMPARE(alignmentOffsets(pointers(traces), Alignment::Clock), offsets(e["clock"]));
        QCOMPARE(alignmentOffsets(pointers(traces), Alignment::Step, e["step"].get<int64_t>()),
                 offsets(e["step_offsets"]));
        QCOMPARE(alignmentOffsets(pointers(traces), Alignment::FirstCollective),
                 offsets(e["first_collective"]));
        // A step no trace has leaves every trace on its clock.
        QCOMPARE(alignmentOffsets(pointers(traces), Alignment::Step, 99), offsets(e["clock"]));
    }

    // Without baseTimeNanoseconds a trace's clock is its ts; a trace without the anchor keeps it.
    void alignmentOffsetsWithoutBaseTime() {
        const Trace a = traceFrom(
            R"({"traceEvents": [)"
            R"( {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#3", "ts": 10, "dur": 5},)"
            R"( {"ph": "X", "cat": "kernel", "name": "ncclKernel_AllReduce", "ts": 12, "dur": 1}]})");
        const Trace b = traceFrom(
            R"({"traceEvents": [)"
            R"( {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#3", "ts": 40, "dur": 5},)"
            R"( {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_Generic", "ts": 47, "dur": 1}]})");
        const Trace none = traceFrom(R"({"traceEvents": [{"ph": "X", "name": "x", "ts": 1,)"
                                     R"( "dur": 1}], "baseTimeNanoseconds": 1000000})");
        const std::vector<const Trace*> all{&a, &b, &none};
        QCOMPARE(alignmentOffsets(all, Alignment::Clock), (std::vector<int64_t>{0, 0, 1000000}));
        QCOMPARE(alignmentOffsets(all, Alignment::Step, 3),
                 (std::vector<int64_t>{0, -30000, 1000000}));
        QCOMPARE(alignmentOffsets(all, Alignment::FirstCollective),
                 (std::vector<int64_t>{0, -35000, 1000000}));
        const std::vector<const Trace*> noneFirst{&none, &b};
        QCOMPARE(alignmentOffsets(noneFirst, Alignment::Step, 3),
                 (std::vector<int64_t>{1000000, 0}));
    }
};

QTEST_GUILESS_MAIN(TstJobSteps)
#include "tst_job_steps.moc"
