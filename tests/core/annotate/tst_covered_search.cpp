// The covered-interval search of _find_events_covered_in: which region of a thread covers an
// event, and the groups of events per region. Expected answers were computed once with the
// reference's own expressions in CPython 3.11.7 (sorted by start, bisect_left(starts, start) - 1,
// start <= event start and event end <= end) and are written here as data.
#include <QTest>
#include <cmath>
#include <future>

#include "annotate/covered_search.h"

using namespace stackline;

namespace {

constexpr uint32_t kNotCovered = UINT32_MAX;

struct TimeSpan {
    double start, end;
};

PyNum number(double v, bool asFloat) {
    return asFloat || std::isnan(v) ? PyNum::real(v) : PyNum::integer(__int128(v));
}

// Regions (start, end), row i for the i-th; as Python ints unless asFloat (NaN is a float).
ThreadRegions regionsOf(const std::vector<TimeSpan>& spans, bool asFloat) {
    ThreadRegions regions;
    for (std::size_t i = 0; i < spans.size(); ++i)
        regions.add({number(spans[i].start, asFloat), number(spans[i].end, asFloat), uint32_t(i)});
    regions.sort();
    return regions;
}

// The row of the region covering the event, or kNotCovered.
uint32_t coveringRow(ThreadRegions& regions, TimeSpan event, bool asFloat) {
    std::ptrdiff_t i =
        asFloat && regions.floatsOnly()
            ? regions.coveringFloat(event.start, event.end)
            : regions.covering({number(event.start, asFloat), number(event.end, asFloat), 0});
    return i == ThreadRegions::kNotCovered ? kNotCovered : regions.region(std::size_t(i)).row;
}

// Region 1 starts inside region 0; regions 2 and 3 start together (3 is found: the later one).
const std::vector<TimeSpan> kRegions = {{0, 100}, {10, 20}, {150, 160}, {150, 170}, {200, 300}};
struct Case {
    TimeSpan event;
    uint32_t row;
};
const std::vector<Case> kCases = {
    {{5, 6}, 0},
    {{10, 15}, 0},  // starts with region 1, so region 1 is not the one before it
    {{12, 18}, 1},
    {{12, 25}, kNotCovered},
    {{30, 40}, kNotCovered},  // inside region 0, but region 1 is the one before it
    {{100, 100}, kNotCovered},
    {{150, 150}, kNotCovered},
    {{155, 165}, 3},
    {{155, 175}, kNotCovered},
    {{250, 300}, 4},  // ends with its region
    {{-5, 1}, kNotCovered},
    {{400, 400}, kNotCovered},
    {{0, 0}, kNotCovered},  // starts with the first region: none is before it
};

QString describe(const Case& c) {
    return QString("event [%1, %2]").arg(c.event.start).arg(c.event.end);
}

// The groups of a search as "region row: op rows; ...".
QString describe(const std::vector<CoveredGroup>& groups) {
    QStringList out;
    for (const CoveredGroup& g : groups) {
        QStringList ops;
        for (uint32_t op : g.ops) ops << QString::number(op);
        out << QString::number(g.regionKey) + ": " + ops.join(' ');
    }
    return out.join("; ");
}

}  // namespace

class TstCoveredSearch : public QObject {
    Q_OBJECT
private slots:
    void theRegionBeforeTheEventMustContainIt_data() {
        QTest::addColumn<bool>("asFloat");
        QTest::newRow("ints (general path)") << false;
        QTest::newRow("floats (double path)") << true;
    }
    void theRegionBeforeTheEventMustContainIt() {
        QFETCH(bool, asFloat);
        for (const Case& c : kCases) {
            ThreadRegions fresh = regionsOf(kRegions, asFloat);
            QCOMPARE(fresh.floatsOnly(), asFloat);
            QVERIFY2(coveringRow(fresh, c.event, asFloat) == c.row, qPrintable(describe(c)));
        }
    }
    void reusingThePreviousSearchGivesTheSameAnswers_data() {
        theRegionBeforeTheEventMustContainIt_data();
    }
    void reusingThePreviousSearchGivesTheSameAnswers() {
        // One ThreadRegions answers every event in turn, in time order and against it.
        QFETCH(bool, asFloat);
        std::vector<Case> cases = kCases;
        std::sort(cases.begin(), cases.end(),
                  [](const Case& a, const Case& b) { return a.event.start < b.event.start; });
        for (int pass = 0; pass < 2; ++pass) {
            ThreadRegions reused = regionsOf(kRegions, asFloat);
            for (const Case& c : cases)
                QVERIFY2(coveringRow(reused, c.event, asFloat) == c.row, qPrintable(describe(c)));
            std::reverse(cases.begin(), cases.end());
        }
    }
    void aRegionStartingAtNanUnordersTheStarts() {
        // Sorted, the starts stay 50, NaN, 0, 200 (NaN compares false both ways), and
        // bisect_left over them still picks a region; the processor must pick the same.
        const std::vector<TimeSpan> regions = {{50, 60}, {NAN, NAN}, {0, 100}, {200, 210}};
        const std::vector<Case> cases = {{{55, 58}, 2},   {{5, 10}, 2},
                                         {{205, 206}, 3}, {{NAN, NAN}, kNotCovered},
                                         {{60, 60}, 2},   {{150, 150}, kNotCovered}};
        ThreadRegions r = regionsOf(regions, false);
        QVERIFY(!r.floatsOnly());
        for (int i = 0; i < 4; ++i) QCOMPARE(r.region(std::size_t(i)).row, uint32_t(i));
        for (const Case& c : cases)
            QVERIFY2(coveringRow(r, c.event, false) == c.row, qPrintable(describe(c)));
    }
    void eventsAreGroupedByRegionInTheOrderFound() {
        // Rows 0 and 1 are regions on threads 7 and 8; rows 2-5 are events.
        CoveredSearch search({});
        search.threadRegions(7).add({PyNum::integer(0), PyNum::integer(100), 0});
        search.threadRegions(8).add({PyNum::integer(0), PyNum::integer(100), 1});
        search.sortRegions();
        QVERIFY(search.find(9) == nullptr);
        for (auto [tid, row] : {std::pair<KeyId, uint32_t>{8, 2}, {7, 3}, {8, 4}, {8, 5}}) {
            ThreadRegions* r = search.find(tid);
            QVERIFY(r);
            std::ptrdiff_t i = r->covering({PyNum::integer(10), PyNum::integer(20), row});
            QCOMPARE(i, std::ptrdiff_t(0));
            search.cover(*r, std::size_t(i), row);
        }
        QCOMPARE(describe(search.takeGroups()), QString("1: 2 4 5; 0: 3"));
    }
    void regionsSharingAUidShareAGroup() {
        // With uid_assigned, rows are keyed by uid: regions 0 and 1 (threads 7 and 8) share uid 0;
        // events 2 and 3 share uid 1, so the group holds it once.
        const std::vector<uint32_t> keyOfRow = {0, 0, 1, 1, 2};
        CoveredSearch search(keyOfRow);
        search.threadRegions(7).add({PyNum::integer(0), PyNum::integer(100), 0});
        search.threadRegions(8).add({PyNum::integer(0), PyNum::integer(100), 1});
        search.sortRegions();
        for (auto [tid, row] : {std::pair<KeyId, uint32_t>{7, 2}, {8, 3}, {8, 4}}) {
            ThreadRegions* r = search.find(tid);
            search.cover(*r, 0, row);
        }
        QCOMPARE(describe(search.takeGroups()), QString("0: 1 2"));
    }
    void aThreadWhoseRegionsAllFailedCoversNothing() {
        // The reference's defaultdict has the thread once a region of it was seen, even when the
        // region then raised: its events are looked at (and may fail), but nothing covers them.
        CoveredSearch search({});
        search.threadRegions(7);
        search.sortRegions();
        ThreadRegions* r = search.find(7);
        QVERIFY(r);
        QCOMPARE(r->covering({PyNum::integer(10), PyNum::integer(20), 1}),
                 ThreadRegions::kNotCovered);
        QCOMPARE(r->floatsOnly(), false);
    }
    void twoSearchesRunAtOnce() {
        // The processor runs its compiled-region and extern-region searches on two cores: each
        // search keeps all of its state, so running them together changes nothing.
        auto run = [](uint32_t shift) {
            CoveredSearch search({});
            for (uint32_t i = 0; i < 1000; ++i)
                search.threadRegions(i % 3).add(
                    {PyNum::integer(i * 100), PyNum::integer(i * 100 + 50 + shift), i});
            search.sortRegions();
            for (uint32_t row = 1000; row < 50000; ++row) {
                ThreadRegions* r = search.find(row % 3);
                int64_t start = (row - 1000) * 2 + 1;
                std::ptrdiff_t i = r->covering({PyNum::integer(start), PyNum::integer(start), row});
                if (i != ThreadRegions::kNotCovered) search.cover(*r, std::size_t(i), row);
            }
            return describe(search.takeGroups());
        };
        QString compiled = run(0), externs = run(20);
        auto a = std::async(std::launch::async, run, 0);
        auto b = std::async(std::launch::async, run, 20);
        QCOMPARE(a.get(), compiled);
        QCOMPARE(b.get(), externs);
        QVERIFY(compiled != externs);
    }
};

QTEST_GUILESS_MAIN(TstCoveredSearch)
#include "tst_covered_search.moc"
