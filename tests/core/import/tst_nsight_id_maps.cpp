// How an Nsight export's ids are mapped while its rows are read: StringIds ids to pool ids, dense
// and far apart alike, and launches to flow ids numbered in order of first use, in the vectors by
// correlation id and beyond them.
#include <QtTest>

#include "import/nsight/nsight_id_maps.h"

using namespace stackline::nsight;

class TstNsightIdMaps : public QObject {
    Q_OBJECT
private slots:
    void stringIdsDenseAndSparse() {
        StringIdMap dense;
        dense.assign({{0, 5}, {2, 7}, {1, 6}});
        QCOMPARE(dense[0], 5u);
        QCOMPARE(dense[1], 6u);
        QCOMPARE(dense[2], 7u);
        QCOMPARE(dense[3], 0u);  // an id the table lacks: the empty string
        QCOMPARE(dense[-1], 0u);
        StringIdMap sparse;
        sparse.assign({{int64_t(1) << 40, 9}, {3, 4}, {3, 8}});
        QCOMPARE(sparse[int64_t(1) << 40], 9u);
        QCOMPARE(sparse[3], 8u);  // the last of a repeated id
        QCOMPARE(sparse[4], 0u);
    }

    void flowIdsInOrderOfFirstUse() {
        FlowIds flows(16);  // sixteen vector cells, then the map
        QCOMPARE(flows.find(1, 3), 0u);
        QCOMPARE(flows.add(1, 3), 1u);
        QCOMPARE(flows.add(2, 3), 2u);                 // another process, the same correlation
        QCOMPARE(flows.add(1, int64_t(1) << 40), 3u);  // beyond the budget: the map
        QCOMPARE(flows.add(1, -5), 4u);
        QCOMPARE(flows.add(1, 3), 1u);
        QCOMPARE(flows.find(2, 3), 2u);
        QCOMPARE(flows.find(1, int64_t(1) << 40), 3u);
        QCOMPARE(flows.find(1, -5), 4u);
        QCOMPARE(flows.find(3, 3), 0u);
        QCOMPARE(flows.size(), 4u);
    }
};

QTEST_GUILESS_MAIN(TstNsightIdMaps)
#include "tst_nsight_id_maps.moc"
