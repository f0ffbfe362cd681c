// CorrectionColumn: no memory while every row reads zero, every value back (the int16 range's
// edges, wide values, rows skipped before and after), across appends of any mix.
#include <QTest>
#include <cstdint>
#include <limits>
#include <map>

#include "base/correction_column.h"

using namespace stackline;

namespace {

using Values = std::map<uint32_t, int64_t>;  // by row; absent rows are zero

CorrectionColumn columnOf(const Values& values) {
    CorrectionColumn c;
    for (const auto& [row, value] : values) c.set(row, value);
    return c;
}

void expectHolds(const CorrectionColumn& c, const Values& values, uint32_t rows) {
    for (uint32_t row = 0; row < rows; ++row) {
        auto it = values.find(row);
        QCOMPARE(c[row], it == values.end() ? int64_t(0) : it->second);
    }
}

const Values kEdges = {
    {3, 1},
    {4, -1},
    {10, std::numeric_limits<int16_t>::max()},
    {11, std::numeric_limits<int16_t>::min()},  // the escape's own value
    {12, std::numeric_limits<int16_t>::min() + 1},
    {13, int64_t(1) << 40},
    {14, std::numeric_limits<int64_t>::min()},
    {15, std::numeric_limits<int64_t>::max()},
    {90, -250},
};

}  // namespace

class TstCorrectionColumn : public QObject {
    Q_OBJECT
private slots:
    void zerosTakeNoMemory() {
        CorrectionColumn c;
        for (uint32_t row = 0; row < 1000; ++row) c.set(row, 0);
        QCOMPARE(c.heldRows(), std::size_t(0));
        QCOMPARE(c[999], int64_t(0));
    }
    void everyValueComesBack() {
        const CorrectionColumn c = columnOf(kEdges);
        QCOMPARE(c.heldRows(), std::size_t(91));  // none after the last value
        expectHolds(c, kEdges, 200);
    }
    void appendsKeepEveryRow() {
        Values shifted;
        for (const auto& [row, value] : kEdges) shifted[row + 500] = value;
        Values both = kEdges;
        both.insert(shifted.begin(), shifted.end());
        for (const auto& [first, second] : {std::pair{Values{}, kEdges},
                                            {kEdges, Values{}},
                                            {kEdges, kEdges},
                                            {Values{}, Values{}}}) {
            CorrectionColumn c = columnOf(first), more = columnOf(second);
            c.append(std::move(more), 500);
            QCOMPARE(more.heldRows(), std::size_t(0));
            Values expected = first;
            for (const auto& [row, value] : second) expected[row + 500] = value;
            expectHolds(c, expected, 700);
            QCOMPARE(c.heldRows() == 0, expected.empty());
        }
    }
};

QTEST_GUILESS_MAIN(TstCorrectionColumn)
#include "tst_correction_column.moc"
