// ScatteredColumn: values set for a few rows in any order, a later set of a row replacing the
// earlier, read back by row once sealed; rows never set give the default.
#include <QTest>
#include <cstdint>
#include <random>
#include <vector>

#include "base/scattered_column.h"

using namespace stackline;

class TstScatteredColumn : public QObject {
    Q_OBJECT
private slots:
    void unsealedAndEmptyGiveTheDefault() {
        ScatteredColumn<uint32_t> c;
        c.set(3, 7);
        QCOMPARE(c.at(3, 0), 0u);  // not sealed yet
        ScatteredColumn<uint32_t> empty;
        empty.seal(10);
        QCOMPARE(empty.size(), std::size_t(0));
        QCOMPARE(empty.at(9, 42), 42u);
        QCOMPARE(empty.at(1000, 42), 42u);  // beyond the rows
    }
    // Random rows in random order, rows set several times: each holds its last value, as a plain
    // column assigned in the same order would.
    void matchesAPlainColumn() {
        const uint32_t rows = 200'000;
        std::vector<uint32_t> plain(rows, 0);
        ScatteredColumn<uint32_t> c;
        std::mt19937 rng(7);
        std::uniform_int_distribution<uint32_t> row(0, rows - 1), value(1, 1000);
        for (int i = 0; i < 50'000; ++i) {
            const uint32_t r = i % 5 == 0 ? row(rng) % 100 : row(rng);  // repeats among the first
            const uint32_t v = value(rng);
            plain[r] = v;
            c.set(r, v);
        }
        c.seal(rows);
        std::size_t set = 0;
        for (uint32_t r = 0; r < rows; ++r) {
            QCOMPARE(c.at(r, 0), plain[r]);
            set += plain[r] != 0;
        }
        QCOMPARE(c.size(), set);
    }
    // Sets after a seal, sealed again: the later sets win, the other earlier values stay.
    void sealedAgainKeepsEarlierValues() {
        ScatteredColumn<uint32_t> c;
        c.set(5, 1);
        c.set(70, 2);
        c.seal(100);
        c.set(70, 3);
        c.set(9, 4);
        c.seal(100);
        QCOMPARE(c.size(), std::size_t(3));
        QCOMPARE(c.at(5, 0), 1u);
        QCOMPARE(c.at(70, 0), 3u);
        QCOMPARE(c.at(9, 0), 4u);
    }
};

QTEST_APPLESS_MAIN(TstScatteredColumn)
#include "tst_scattered_column.moc"
