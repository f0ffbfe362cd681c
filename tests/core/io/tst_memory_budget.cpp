// PagesAfterLastUse: a column read by index in blocks of work gives back each chunk's pages once
// the last block that reads the chunk is done (they read as zeros after), and not before; chunks
// no block reads go at the first block's end.
#include <QTest>
#include <cstdint>
#include <vector>

#include "io/memory_budget.h"

using namespace stackline;

class TestMemoryBudget : public QObject {
    Q_OBJECT

    static constexpr uint32_t kChunk = 1 << 14;  // PagesAfterLastUse's chunk of indices

    // The middle row of chunk c: inside a whole page of it, whatever the column's alignment.
    static uint32_t middle(uint32_t c) { return c * kChunk + kChunk / 2; }

private slots:
    void chunksGoAfterTheirLastBlock() {
        std::vector<uint32_t> column(4 * kChunk + 100, 7);
        std::vector<uint8_t> flags(column.size(), 1);
        PagesAfterLastUse pages(column.size());
        // Block 0 reads chunks 0 and 2, block 1 chunk 1, block 2 chunk 2; chunk 4 (the partial
        // last one) and chunk 3 are read by none.
        pages.reads(middle(0), 0);
        pages.reads(middle(2), 0);
        pages.reads(middle(1), 1);
        pages.reads(middle(2), 2);
        pages.done(0, column, flags);
        QCOMPARE(column[middle(0)], 0u);
        QCOMPARE(column[middle(3)], 0u);
        QCOMPARE(column[middle(1)], 7u);
        QCOMPARE(column[middle(2)], 7u);
        QCOMPARE(flags[middle(2)], uint8_t(1));
        pages.done(1, column, flags);
        QCOMPARE(column[middle(1)], 0u);
        QCOMPARE(column[middle(2)], 7u);
        pages.done(2, column, flags);
        QCOMPARE(column[middle(2)], 0u);
        QCOMPARE(flags[middle(2)], uint8_t(0));
    }

    // Read in falling order (the worst case for a fill in time order): each chunk stays until the
    // block that reads it last, so nothing a later block reads is lost.
    void fallingReadsKeepWhatIsStillRead() {
        const uint32_t chunks = 8;
        std::vector<uint64_t> column(chunks * kChunk);
        for (uint32_t i = 0; i < column.size(); ++i) column[i] = i + 1;
        PagesAfterLastUse pages(column.size());
        for (uint32_t block = 0; block < chunks; ++block)
            pages.reads(middle(chunks - 1 - block), block);
        for (uint32_t block = 0; block < chunks; ++block) {
            for (uint32_t c = 0; c + block < chunks; ++c)
                QCOMPARE(column[middle(c)], uint64_t(middle(c)) + 1);
            pages.done(block, column);
            QCOMPARE(column[middle(chunks - 1 - block)], uint64_t(0));
        }
    }
};

QTEST_APPLESS_MAIN(TestMemoryBudget)
#include "tst_memory_budget.moc"
