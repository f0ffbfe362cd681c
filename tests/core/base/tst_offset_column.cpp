// OffsetColumn: 64-bit event offsets at 4 bytes a row, exact for any sequence of offsets (file
// order beyond 4 GiB, blocks of huge events, offsets out of order).
#include <QTest>
#include <cstdint>
#include <vector>

#include "base/offset_column.h"

using namespace stackline;

namespace {

OffsetColumn columnOf(const std::vector<uint64_t>& offsets) {
    OffsetColumn c;
    for (uint64_t o : offsets) c.push_back(o);
    return c;
}

void expectHolds(const OffsetColumn& c, const std::vector<uint64_t>& offsets) {
    QCOMPARE(c.size(), offsets.size());
    for (std::size_t row = 0; row < offsets.size(); ++row) QCOMPARE(c[row], offsets[row]);
}

}  // namespace

class TstOffsetColumn : public QObject {
    Q_OBJECT
private slots:
    // File order across the 4 GiB mark and across blocks of rows.
    void fileOrderBeyondFourGiB() {
        std::vector<uint64_t> offsets;
        for (uint64_t row = 0; row < 300'000; ++row) offsets.push_back(row * 40'000);
        QVERIFY(offsets.back() > (uint64_t(1) << 33));
        expectHolds(columnOf(offsets), offsets);
    }
    // A block whose rows lie more than 4 GiB after its first, and offsets that go back.
    void farAndBackwardOffsets() {
        const uint64_t far = uint64_t(1) << 40;
        const std::vector<uint64_t> offsets = {100, far, 50, 0, far + 7, UINT64_MAX, 101};
        expectHolds(columnOf(offsets), offsets);
    }
    void appendKeepsEveryRow() {
        std::vector<uint64_t> first, second;
        for (uint64_t row = 0; row < 70'000; ++row) first.push_back(row * 3);
        for (uint64_t row = 0; row < 5; ++row) second.push_back((uint64_t(1) << 35) + row);
        second.push_back(1);
        OffsetColumn c = columnOf(first), more = columnOf(second);
        c.append(std::move(more));
        QCOMPARE(more.size(), std::size_t(0));
        first.insert(first.end(), second.begin(), second.end());
        expectHolds(c, first);
    }
};

QTEST_GUILESS_MAIN(TstOffsetColumn)
#include "tst_offset_column.moc"
