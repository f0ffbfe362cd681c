// The job view's model (core/analysis/job_heat_map.h) over a generated job of 1,024 ranks, the
// worst case the view is made for: cells per metric, max and mean over rank ranges, the rank
// filter, the spread from the median, the straggler and the collectives by skew; and a steps
// result written, recognised by its first bytes and read back.
#include <QTemporaryDir>
#include <QTest>
#include <fstream>
#include <string>
#include <vector>

#include "analysis/job_heat_map.h"
#include "analysis/step_results.h"
#include "base/errors.h"
#include "test_support.h"

using namespace stackline;

namespace {

constexpr size_t kRanks = 1024, kSteps = 10, kCollectives = 6;
constexpr int64_t kMs = 1'000'000;
constexpr size_t kSlow = 700;       // its step 3 takes 2 ms longer
constexpr size_t kStraggler = 513;  // starts every collective last
constexpr int64_t kFirstStep = 4;

// Step s of rank r: 8 ms (10 ms for the slow rank's step 3), compute 5 ms, collectives 2 ms; the
// k-th collective starts at 1 + k ms, r ns later on rank r, and 100 µs * (k + 1) later on the
// straggler.
RankStepSummary rank(size_t r) {
    RankStepSummary summary;
    summary.trace = "/cluster/job/rank" + std::to_string(r) + ".pt.trace.json.gz";
    summary.info = {.rank = int64_t(r),
                    .worldSize = int64_t(kRanks),
                    .baseTimeNs = 1'700'000'000'000'000'000,
                    .hasBaseTime = true,
                    .label = "rank " + std::to_string(r)};
    for (size_t s = 0; s < kSteps; ++s) {
        RankStepFigures f;
        f.step = kFirstStep + int64_t(s);
        f.startNs = int64_t(s) * 10 * kMs;
        f.endNs = f.startNs + (r == kSlow && s == 3 ? 10 : 8) * kMs;
        f.computeNs = 5 * kMs;
        f.collectiveNs = 2 * kMs;
        f.idleNs = f.durationNs() - 7 * kMs;
        for (size_t k = 0; k < kCollectives; ++k) {
            RankCollective c;
            c.name = "allreduce";
            c.processGroup = "0";
            c.commsId = std::to_string(s) + "." + std::to_string(k);
            c.startNs = f.startNs + int64_t(1 + k) * kMs + int64_t(r) +
                        (r == kStraggler ? int64_t(k + 1) * 100'000 : 0);
            c.durationNs = kMs / 4;
            f.collectives.push_back(c);
        }
        summary.steps.push_back(std::move(f));
    }
    summary.firstNs = 0;
    summary.lastNs = summary.steps.back().endNs;
    return summary;
}

std::shared_ptr<const StepsResult> job() {
    static const std::shared_ptr<const StepsResult> made = [] {
        auto result = std::make_shared<StepsResult>();
        for (size_t r = 0; r < kRanks; ++r) result->ranks.push_back(rank(r));
        result->job = mergeRankSteps(result->ranks);
        return result;
    }();
    return made;
}

}  // namespace

class TstJobHeatMap : public QObject {
    Q_OBJECT

private slots:
    void cellsAreEachMetricOfEachRankAndStep() {
        const JobHeatMap map(job());
        QCOMPARE(map.rankCount(), kRanks);
        QCOMPARE(map.stepCount(), kSteps);
        QCOMPARE(*map.cell(JobMetric::StepTime, 0, 0), 8 * kMs);
        QCOMPARE(*map.cell(JobMetric::StepTime, kSlow, 3), 10 * kMs);
        QCOMPARE(*map.cell(JobMetric::Idle, kSlow, 3), 3 * kMs);
        QCOMPARE(*map.cell(JobMetric::Compute, 5, 5), 5 * kMs);
        QCOMPARE(*map.cell(JobMetric::Collective, 5, 5), 2 * kMs);
        QCOMPARE(map.minValue(JobMetric::StepTime), 8 * kMs);
        QCOMPARE(map.maxValue(JobMetric::StepTime), 10 * kMs);
        // Skew: the rank's start minus the first rank's (rank 0), the mean over collectives.
        QCOMPARE(*map.cell(JobMetric::CollectiveSkew, 0, 2), int64_t(0));
        QCOMPARE(*map.cell(JobMetric::CollectiveSkew, 900, 2), int64_t(900));
        QCOMPARE(*map.cell(JobMetric::CollectiveSkew, kStraggler, 2),
                 int64_t(kStraggler) + 350'000);  // 100 µs * (1 + ... + 6) / 6 later
        QCOMPARE(map.maxValue(JobMetric::CollectiveSkew), int64_t(kStraggler) + 350'000);
        QVERIFY(!map.cell(JobMetric::StepTime, kRanks, 0));
        QVERIFY(!map.cell(JobMetric::StepTime, 0, kSteps));
    }

    void aggregatesGiveMaxAndMeanOverARankRange() {
        const JobHeatMap map(job());
        const std::vector<size_t> rows = map.rows(*RankFilter::parse(""));
        QCOMPARE(rows.size(), kRanks);
        // 1,024 ranks in 256 rows of pixels: 4 ranks a row; the slow rank's row.
        const size_t first = kSlow / 4 * 4;
        const CellAggregate a = map.aggregate(JobMetric::StepTime, rows, first, first + 4, 3);
        QCOMPARE(a.cells, size_t(4));
        QCOMPARE(a.max, 10 * kMs);
        QCOMPARE(a.maxRank, kSlow);
        QCOMPARE(a.mean, (3 * 8 + 10) * kMs / 4);
        const CellAggregate all = map.aggregate(JobMetric::StepTime, rows, 0, rows.size(), 0);
        QCOMPARE(all.cells, kRanks);
        QCOMPARE(all.max, 8 * kMs);
        QCOMPARE(all.mean, 8 * kMs);
        QCOMPARE(map.aggregate(JobMetric::StepTime, rows, 10, 10, 0).cells, size_t(0));
        QCOMPARE(map.aggregate(JobMetric::StepTime, rows, 0, 4, kSteps).cells, size_t(0));
    }

    void rankFilterTakesNumbersAndRanges_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("lastRank");
        QTest::newRow("empty") << "" << int(kRanks) << int(kRanks - 1);
        QTest::newRow("range and rank") << "0-7, 512" << 9 << 512;
        QTest::newRow("spaces") << " 3 5  1000-2000 " << 26 << 1023;
        QTest::newRow("beyond the job") << "5000" << 0 << -1;
    }
    void rankFilterTakesNumbersAndRanges() {
        QFETCH(QString, text);
        QFETCH(int, rows);
        QFETCH(int, lastRank);
        const JobHeatMap map(job());
        const auto filter = RankFilter::parse(text.toStdString());
        QVERIFY(filter);
        const std::vector<size_t> shown = map.rows(*filter);
        QCOMPARE(int(shown.size()), rows);
        if (!shown.empty()) QCOMPARE(int(map.rankNumber(shown.back())), lastRank);
    }

    void rankFilterRefusesWhatIsNotAList_data() {
        QTest::addColumn<QString>("text");
        QTest::newRow("word") << "rank 3";
        QTest::newRow("open range") << "3-";
        QTest::newRow("backwards") << "7-3";
        QTest::newRow("negative") << "-3";
    }
    void rankFilterRefusesWhatIsNotAList() {
        QFETCH(QString, text);
        std::string error;
        QVERIFY(!RankFilter::parse(text.toStdString(), &error));
        QVERIFY(!error.empty());
    }

    void spreadPutsTheSlowRankFirst() {
        const JobHeatMap map(job());
        QCOMPARE(map.median(JobMetric::StepTime, 3), 8 * kMs);
        const std::vector<RankSpread> spreads = map.spreads(JobMetric::StepTime);
        QCOMPARE(spreads.size(), kRanks);
        QCOMPARE(spreads.front().rank, kSlow);
        QCOMPARE(spreads.front().worstDeltaNs, 2 * kMs);
        QCOMPARE(spreads.front().worstStep, kFirstStep + 3);
        QCOMPARE(spreads.front().meanDeltaNs, 2 * kMs / int64_t(kSteps));
        QCOMPARE(spreads.front().relative, 2.0 / 80.0);
        QCOMPARE(spreads.back().meanDeltaNs, int64_t(0));
        QCOMPARE(map.spreads(JobMetric::CollectiveSkew).front().rank, kStraggler);
    }

    void eachStepNamesItsStragglerAndSlowestCollectives() {
        const JobHeatMap map(job());
        for (size_t s = 0; s < kSteps; ++s) {
            QCOMPARE(map.job().steps[s].straggler, int(kStraggler));
            const auto slowest = map.slowestCollectives(s);
            QCOMPARE(slowest.size(), size_t(5));
            // The straggler's lateness grows with k: the last collective has the largest skew.
            QCOMPARE(slowest.front()->skewNs,
                     int64_t(kStraggler) + int64_t(kCollectives) * 100'000);
            for (size_t i = 1; i < slowest.size(); ++i)
                QVERIFY(slowest[i - 1]->skewNs >= slowest[i]->skewNs);
        }
        QVERIFY(map.slowestCollectives(kSteps).empty());
    }

    void aStepsResultIsRecognisedAndReadBack() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("merged.json").toStdString();
        {
            std::ofstream out(path, std::ios::binary);
            writeStepsResult(out, job()->ranks, job()->job);
        }
        QVERIFY(isStepsResultFile(path));
        const StepsResult back = readStepsResult(path);
        QCOMPARE(back.ranks.size(), kRanks);
        QCOMPARE(back.ranks[kSlow].trace, job()->ranks[kSlow].trace);
        QCOMPARE(back.job.steps.size(), kSteps);
        QCOMPARE(back.job.steps[0].straggler, int(kStraggler));

        QVERIFY(!isStepsResultFile(STACKLINE_TEST_DATA "/job/rank0.json"));
        QVERIFY(!isStepsResultFile(dir.filePath("absent.json").toStdString()));
        const std::string hotspots = dir.filePath("hotspots.json").toStdString();
        std::ofstream(hotspots) << R"({"stackline": "hotspots"})";
        QVERIFY(!isStepsResultFile(hotspots));
        const std::string truncated = dir.filePath("truncated.json").toStdString();
        std::ofstream(truncated) << "{\n \"stackline\": \"steps\",\n \"format\": 1,\n \"ranks\": [";
        QVERIFY(isStepsResultFile(truncated));
        QVERIFY_THROWS_EXCEPTION(InputError, readStepsResult(truncated));
    }
};

QTEST_APPLESS_MAIN(TstJobHeatMap)
#include "tst_job_heat_map.moc"
