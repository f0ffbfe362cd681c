// A job's steps as per-rank summaries merged (analysis/rank_steps.h, job_steps.h, step_results.h):
// which rule matches collectives across ranks (Comms Id, else process group and Seq, else order),
// the straggler each rule names, worst-case inputs that must stay O(n log n), and the steps
// result written, read back and merged in parts giving the same bytes.
#include <QElapsedTimer>
#include <QTest>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/step_results.h"
#include "pipeline/display_indexes.h"
#include "test_support.h"

using namespace stackline;
using namespace stackline::test;

namespace {

// One collective kernel of an inline rank: its start in us and its args' JSON members.
struct Kernel {
    int64_t tsUs;
    std::string args;
};

// A rank with ProfilerStep#1 over [0, 100) us and the given collectives (10 us each).
std::string rankJson(int rank, const std::vector<Kernel>& kernels, int world = 2) {
    std::string events =
        R"({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1,)"
        R"( "ts": 0, "dur": 100})";
    for (const Kernel& k : kernels)
        events += R"(, {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_Generic", "pid": 0,)"
                  R"( "tid": 7, "ts": )" +
                  std::to_string(k.tsUs) + R"(, "dur": 10, "args": {)" + k.args + "}}";
    return R"({"distributedInfo": {"rank": )" + std::to_string(rank) + R"(, "world_size": )" +
           std::to_string(world) + R"(}, "traceEvents": [)" + events + "]}";
}

RankStepSummary summaryOf(const Trace& t) {
    return summarizeRankSteps(t, buildTraceIndexes(t, 1, IndexSet::Flows).flows);
}

std::vector<RankStepSummary> summariesOf(const std::vector<std::string>& ranks) {
    std::vector<RankStepSummary> out;
    for (const std::string& json : ranks) out.push_back(summaryOf(traceFrom(json)));
    return out;
}

std::string resultOf(const std::vector<RankStepSummary>& ranks) {
    std::ostringstream out;
    writeStepsResult(out, ranks, mergeRankSteps(ranks));
    return out.str();
}

std::vector<RankStepSummary> paramSummaries() {
    std::vector<RankStepSummary> out;
    const QString dir = QStringLiteral(STACKLINE_TEST_DATA "/param/");
    for (const QString& name : QDir(dir).entryList({"*.json.gz"}, QDir::Files, QDir::Name))
        out.push_back(summaryOf(loadTrace((dir + name).toStdString())));
    return out;
}

}  // namespace

class TstRankSteps : public QObject {
    Q_OBJECT

private slots:
    // Rank 1 ran x 30 us late, but y and z early: matched by what they are, rank 0 starts two
    // of the three last; matched by order, rank 1 starts all three last.
    void matchingRules_data() {
        QTest::addColumn<QString>("x");
        QTest::addColumn<QString>("y");
        QTest::addColumn<QString>("z");
        QTest::addColumn<QString>("match");
        QTest::addColumn<int>("straggler");
        QTest::newRow("Comms Id") << R"("Comms Id": 100, "Seq": 5)"
                                  << R"("Comms Id": 200, "Seq": 5)"
                                  << R"("Comms Id": "300")"
                                  << "comms_id" << 0;
        // Seq alone would match x with z: the process group tells them apart.
        QTest::newRow("process group and Seq") << R"("Process Group Name": "0", "Seq": 1)"
                                               << R"("Process Group Name": "0", "Seq": 2)"
                                               << R"("Process Group Name": "1", "seq_num": "1")"
                                               << "process_group_seq" << 0;
        QTest::newRow("Comms Id on some only: Seq") << R"("Comms Id": 100, "Seq": 1)"
                                                    << R"("Seq": 2)"
                                                    << R"("Seq": 3)"
                                                    << "process_group_seq" << 0;
        QTest::newRow("neither on all: order") << R"("Comms Id": 100)"
                                               << R"("Seq": 2)"
                                               << R"("dtype": "Float")"
                                               << "order" << 1;
    }
    void matchingRules() {
        QFETCH(QString, x);
        QFETCH(QString, y);
        QFETCH(QString, z);
        const std::string X = x.toStdString(), Y = y.toStdString(), Z = z.toStdString();
        const std::vector<RankStepSummary> ranks = summariesOf(
            {rankJson(0, {{10, X}, {20, Y}, {30, Z}}), rankJson(1, {{11, Y}, {21, Z}, {40, X}})});
        const JobSteps job = mergeRankSteps(ranks);
        QCOMPARE(job.steps.size(), size_t(1));
        const JobStep& step = job.steps[0];
        QFETCH(QString, match);
        QCOMPARE(QString::fromUtf8(nameOf(step.match)), match);
        QFETCH(int, straggler);
        QCOMPARE(step.straggler, straggler);
        QCOMPARE(step.collectives.size(), size_t(3));
        std::vector<int64_t> skews;
        for (const MatchedCollective& m : step.collectives) {
            QCOMPARE(m.ranks.size(), size_t(2));
            skews.push_back(m.skewNs);
        }
        // By first start: matched by what they are, x (10 vs 40), y (20 vs 11), z (30 vs 21).
        const std::vector<int64_t> expected = match == "order"
                                                  ? std::vector<int64_t>{1000, 1000, 10000}
                                                  : std::vector<int64_t>{30000, 9000, 9000};
        QCOMPARE(skews, expected);
    }

    // A rank's collectives of one collective (two kernels with one Comms Id) are one span; a
    // collective only one rank ran is listed but names no straggler.
    void repeatedAndUnmatchedCollectives() {
        const JobSteps job = mergeRankSteps(
            summariesOf({rankJson(0, {{10, R"("Comms Id": 1)"}, {15, R"("Comms Id": 1)"}}),
                         rankJson(1, {{12, R"("Comms Id": 1)"}, {50, R"("Comms Id": 2)"}})}));
        const JobStep& step = job.steps[0];
        QCOMPARE(step.collectives.size(), size_t(2));
        const MatchedCollective& both = step.collectives[0];
        QCOMPARE(both.ranks.size(), size_t(2));
        QCOMPARE(both.ranks[0].durationNs, int64_t(15000));  // 10..25 us
        QCOMPARE(both.skewNs, int64_t(2000));
        QCOMPARE(step.collectives[1].ranks.size(), size_t(1));
        QCOMPARE(step.straggler, 1);
    }

    // Without steps, or without collectives, a rank is a row with a note, not an error.
    void ranksWithoutStepsOrCollectives() {
        const std::string noSteps =
            R"({"distributedInfo": {"rank": 2, "world_size": 4}, "traceEvents": [)"
            R"({"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 5,)"
            R"( "dur": 1}]})";
        const std::vector<RankStepSummary> ranks =
            summariesOf({rankJson(0, {{10, ""}}, 4), rankJson(1, {}, 4), noSteps});
        QCOMPARE(ranks[0].note, std::string());
        QCOMPARE(ranks[1].note, std::string("no collective kernels in its steps"));
        QCOMPARE(ranks[2].note, std::string("no ProfilerStep#N spans"));
        const JobSteps job = mergeRankSteps(ranks);
        QCOMPARE(job.steps.size(), size_t(1));
        QVERIFY(job.steps[0].ranks[1].present && !job.steps[0].ranks[2].present);
        QCOMPARE(job.steps[0].straggler, -1);  // one rank has collectives
        QVERIFY(job.partial());
        QCOMPARE(job.worldSize, int64_t(4));
    }

    // The span of a rank's events that misses the time when most ranks run is reported.
    void ranksApartInTime() {
        auto at = [](int rank, int64_t tsUs) {
            return R"({"distributedInfo": {"rank": )" + std::to_string(rank) +
                   R"(, "world_size": 3}, "traceEvents": [{"ph": "X", "cat": "kernel", "name":)"
                   R"( "k", "pid": 0, "tid": 7, "ts": )" +
                   std::to_string(tsUs) + R"(, "dur": 100}]})";
        };
        const JobSteps job = mergeRankSteps(summariesOf({at(0, 0), at(1, 50), at(2, 1000)}));
        QCOMPARE(job.apart, std::vector<size_t>{2});
        QVERIFY(mergeRankSteps(summariesOf({at(0, 0), at(1, 50)})).apart.empty());
    }

    void jobMismatches() {
        const auto r = [](int rank, int world) { return rankJson(rank, {}, world); };
        QVERIFY(!jobMismatch(summariesOf({r(0, 2), r(1, 2)})));
        const auto world = jobMismatch(summariesOf({r(0, 2), r(1, 4)}));
        QVERIFY(world && world->rank == 1);
        QVERIFY(QString::fromStdString(world->why).contains("world size of 4"));
        const auto again = jobMismatch(summariesOf({r(0, 4), r(1, 4), r(0, 4)}));
        QVERIFY(again && again->rank == 2);
        QVERIFY(QString::fromStdString(again->why).contains("rank 0 again"));
        QVERIFY(jobMismatch(summariesOf({r(5, 4)})));
    }

    // One thread, n steps with a kernel in each gap between them, one step of n collectives
    // matched by Comms Id on two ranks, at n = 1,000 and 8,000: the time grows about 8-fold
    // (n log n), not 64-fold (quadratic). A ratio, so that a slow build (ASan) or a busy machine
    // does not fail it.
    void worstCaseStaysNLogN() {
        auto rank = [](int r, int n) {
            std::string events;
            for (int i = 0; i < n; ++i) {
                const std::string ts = std::to_string(int64_t(i) * 100);
                events += R"({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#)" +
                          std::to_string(i) + R"(", "pid": 1, "tid": 1, "ts": )" + ts +
                          R"(, "dur": 90}, {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0,)"
                          R"( "tid": 7, "ts": )" +
                          std::to_string(int64_t(i) * 100 + 95) + R"(, "dur": 2},)";
            }
            events += R"({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#)" +
                      std::to_string(n) + R"(", "pid": 1, "tid": 1, "ts": )" +
                      std::to_string(int64_t(n) * 100) + R"(, "dur": 1000000})";
            for (int i = 0; i < n; ++i)
                events += R"(, {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_Generic",)"
                          R"( "pid": 0, "tid": 7, "ts": )" +
                          std::to_string(int64_t(n) * 100 + i * 40 + r) +
                          R"(, "dur": 1, "args":)"
                          R"( {"Comms Id": )" +
                          std::to_string(n - i) + "}}";
            return R"({"distributedInfo": {"rank": )" + std::to_string(r) +
                   R"(, "world_size": 2}, "traceEvents": [)" + events + "]}";
        };
        auto timed = [&](int n, JobSteps& job) {
            const Trace a = traceFrom(rank(0, n)), b = traceFrom(rank(1, n));
            QElapsedTimer timer;
            timer.start();
            const std::vector<RankStepSummary> ranks{summaryOf(a), summaryOf(b)};
            job = mergeRankSteps(ranks);
            const std::string result = resultOf(ranks);
            return std::max<qint64>(1, timer.elapsed());
        };
        JobSteps small, job;
        const qint64 smallMs = timed(1000, small), bigMs = timed(8000, job);
        qInfo("1,000 then 8,000 steps and collectives on 2 ranks: %lld ms, %lld ms", smallMs,
              bigMs);
        QVERIFY2(bigMs < 24 * std::max<qint64>(smallMs, 20), "not O(n log n)");
        QCOMPARE(job.steps.size(), size_t(8001));
        QCOMPARE(job.steps[7].ranks[0].computeNs, int64_t(0));  // its gap's kernel is in no step
        QCOMPARE(job.steps[7].ranks[0].idleNs, int64_t(90000));
        const JobStep& last = job.steps.back();
        QCOMPARE(last.match, CollectiveMatch::CommsId);
        QCOMPARE(last.collectives.size(), size_t(8000));
        QCOMPARE(last.straggler, 1);  // 1 ns later in every collective
        QCOMPARE(last.collectives[0].skewNs, int64_t(1000));
    }

    // The result read back and merged in any split prints the same bytes, and it is what one
    // JSON value of it would dump.
    void resultsMergeByteForByte() {
        const std::vector<RankStepSummary> all = paramSummaries();
        QCOMPARE(all.size(), size_t(8));
        const std::string whole = resultOf(all);
        QVERIFY(OrderedJson::parse(whole).dump(1) == whole);
        const std::vector<RankStepSummary> front(all.begin(), all.begin() + 3),
            back(all.begin() + 3, all.end());
        std::vector<RankStepSummary> merged = stepsResultRanks(OrderedJson::parse(resultOf(front)));
        for (RankStepSummary& r : stepsResultRanks(OrderedJson::parse(resultOf(back))))
            merged.push_back(std::move(r));
        QVERIFY(resultOf(merged) == whole);
        const OrderedJson j = OrderedJson::parse(whole);
        QCOMPARE(j["job"]["steps"][0]["straggler"]["label"].get<std::string>(), "rank 7");
        QVERIFY(!j["job"]["partial"].get<bool>());
        const OrderedJson partial = OrderedJson::parse(resultOf(front));
        QVERIFY(partial["job"]["partial"].get<bool>());
    }

    // A result edited at a JSON pointer: refused saying why, or (a figure no part of the job's
    // matching) accepted.
    void resultsRefused_data() {
        QTest::addColumn<QString>("at");
        QTest::addColumn<QString>("value");  // JSON
        QTest::addColumn<QString>("why");    // empty: accepted
        QTest::newRow("a collective moved") << "/ranks/1/steps/0/collectives/0/start_ns"
                                            << "1"
                                            << "is not the merge";
        QTest::newRow("another format") << "/format"
                                        << "2"
                                        << "format 2, not 1";
        QTest::newRow("not steps") << "/stackline"
                                   << "\"hotspots\""
                                   << "not the output";
        QTest::newRow("a name") << "/ranks/0/trace"
                                << "1"
                                << "\"trace\" is not a string";
        QTest::newRow("a duration") << "/ranks/0/steps/0/duration_ns"
                                    << "1"
                                    << "duration_ns";
        QTest::newRow("a time") << "/ranks/0/steps/0/idle_ns"
                                << "0.5"
                                << "not a whole number";
        QTest::newRow("a figure") << "/ranks/0/steps/0/compute_ns"
                                  << "1"
                                  << "";
    }
    void resultsRefused() {
        QFETCH(QString, at);
        QFETCH(QString, value);
        QFETCH(QString, why);
        OrderedJson j = OrderedJson::parse(resultOf(paramSummaries()));
        j[OrderedJson::json_pointer(at.toStdString())] = OrderedJson::parse(value.toStdString());
        try {
            stepsResultRanks(j);
            QVERIFY2(why.isEmpty(), "accepted");
        } catch (const InputError& e) {
            QVERIFY2(!why.isEmpty() && QString(e.what()).contains(why), e.what());
        }
    }

    // Step 10's idle time on the param ranks: python3 tools/job_steps_expected.py tests/data/param
    void paramIdleTime() {
        const JobSteps job = mergeRankSteps(paramSummaries());
        const std::vector<int64_t> expected{7884000,  7599000,  8732000, 8623000,
                                            10303000, 10545000, 8751000, 9870000};
        std::vector<int64_t> idle;
        for (const RankStep& r : job.steps[0].ranks) idle.push_back(r.idleNs);
        QCOMPARE(idle, expected);
        std::vector<int64_t> skews;
        for (const MatchedCollective& m : job.steps[0].collectives) skews.push_back(m.skewNs);
        std::sort(skews.begin(), skews.end());
        QCOMPARE(skews, (std::vector<int64_t>{125000, 168000, 223000, 534000, 584000, 885000,
                                              1101000, 7624000}));
    }
};

QTEST_GUILESS_MAIN(TstRankSteps)
#include "tst_rank_steps.moc"
