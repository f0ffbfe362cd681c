// GroupedIndex: values grouped by key, in the order they were given (the processor's kernels by
// External id and extern regions by op).
#include <QTest>
#include <utility>
#include <vector>

#include "base/grouped_index.h"

using namespace stackline;

namespace {

GroupedIndex indexOf(std::size_t groups,
                     const std::vector<std::pair<std::size_t, uint32_t>>& pairs) {
    return GroupedIndex::build(groups, [&](auto add) {
        for (auto [group, value] : pairs) add(group, value);
    });
}

std::vector<uint32_t> valuesOf(const GroupedIndex& ix, std::size_t group) {
    std::span<const uint32_t> values = ix[group];
    return {values.begin(), values.end()};
}

using Values = std::vector<uint32_t>;

}  // namespace

class TstGroupedIndex : public QObject {
    Q_OBJECT
private slots:
    void groupsKeepTheOrderValuesCameIn() {
        GroupedIndex ix = indexOf(4, {{2, 10}, {0, 11}, {2, 12}, {3, 13}, {2, 9}, {0, 14}});
        QCOMPARE(valuesOf(ix, 0), (Values{11, 14}));
        QCOMPARE(valuesOf(ix, 1), Values{});
        QCOMPARE(valuesOf(ix, 2), (Values{10, 12, 9}));
        QCOMPARE(valuesOf(ix, 3), Values{13});
    }
    void aValueMayRepeat() {
        GroupedIndex ix = indexOf(2, {{1, 5}, {1, 5}, {0, 5}});
        QCOMPARE(valuesOf(ix, 0), Values{5});
        QCOMPARE(valuesOf(ix, 1), (Values{5, 5}));
    }
    void groupsBeyondTheCountHaveNoValues() {
        GroupedIndex ix = indexOf(2, {{0, 1}, {1, 2}});
        QCOMPARE(valuesOf(ix, 2), Values{});
        QCOMPARE(valuesOf(ix, std::size_t(UINT32_MAX)), Values{});
    }
    // Groups as many as events, few of them with values, on both sides of 64-key words: only
    // those keep an offset, and every other group still answers none.
    void sparseGroupsAcrossWords() {
        const std::vector<std::pair<std::size_t, uint32_t>> pairs = {
            {63, 1}, {64, 2}, {0, 3}, {999'999, 4}, {64, 5}, {128, 6}, {127, 7}};
        GroupedIndex ix = indexOf(1'000'000, pairs);
        QCOMPARE(valuesOf(ix, 0), Values{3});
        QCOMPARE(valuesOf(ix, 63), Values{1});
        QCOMPARE(valuesOf(ix, 64), (Values{2, 5}));
        QCOMPARE(valuesOf(ix, 127), Values{7});
        QCOMPARE(valuesOf(ix, 128), Values{6});
        QCOMPARE(valuesOf(ix, 999'999), Values{4});
        std::size_t withValues = 0;
        for (std::size_t g = 0; g < 1'000'000; ++g) withValues += !ix[g].empty();
        QCOMPARE(withValues, std::size_t(6));
    }
    void anIndexNeverBuiltHasNoValues() {
        GroupedIndex ix;
        QCOMPARE(valuesOf(ix, 0), Values{});
        GroupedIndex empty = indexOf(0, {});
        QCOMPARE(valuesOf(empty, 0), Values{});
    }
};

QTEST_GUILESS_MAIN(TstGroupedIndex)
#include "tst_grouped_index.moc"
