// The panels' compute-when-shown and latest-result helpers: a ShowGate updates a hidden widget
// only when it is shown (or read), once however many changes it missed; a LazyResult delivers
// only the result of the latest computation, never one superseded or dropped.
#include <QSemaphore>
#include <QtTest>

#include "panels/lazy_result.h"

class TstLazyResult : public QObject {
    Q_OBJECT
private slots:
    void aHiddenWidgetUpdatesWhenShown() {
        QWidget widget;
        int updates = 0;
        ShowGate gate(&widget, [&] { ++updates; });
        gate.invalidate();
        gate.invalidate();
        QCOMPARE(updates, 0);
        QVERIFY(gate.isStale());
        widget.show();
        QCOMPARE(updates, 1);  // once for both changes
        QVERIFY(!gate.isStale());
        gate.invalidate();  // shown: at once
        QCOMPARE(updates, 2);
        widget.hide();
        widget.show();  // nothing missed: no update
        QCOMPARE(updates, 2);
    }

    void catchUpAndRunUpdateAHiddenWidget() {
        QWidget widget;
        int updates = 0;
        ShowGate gate(&widget, [&] { ++updates; });
        gate.catchUp();  // not stale: nothing to do
        QCOMPARE(updates, 0);
        gate.invalidate();
        gate.catchUp();
        QCOMPARE(updates, 1);
        gate.catchUp();
        QCOMPARE(updates, 1);
        gate.invalidate();
        gate.run();  // at once, and no longer stale
        QCOMPARE(updates, 2);
        widget.show();
        QCOMPARE(updates, 2);
    }

    void aChildShownWithItsParentUpdates() {
        QWidget parent;
        auto* child = new QWidget(&parent);
        int updates = 0;
        ShowGate gate(child, [&] { ++updates; });
        gate.invalidate();
        parent.show();
        QCOMPARE(updates, 1);
    }

    void onlyTheLatestResultIsDelivered() {
        QList<int> delivered;
        LazyResult<int> result([&](int v) { delivered << v; });
        QSemaphore release;
        result.start([&release] {
            release.acquire();  // the slow first request finishes after the second
            return 1;
        });
        QVERIFY(result.isComputing());
        result.start([] { return 2; });
        QTRY_COMPARE(delivered, QList<int>{2});
        QVERIFY(!result.isComputing());
        release.release();
        QTest::qWait(100);
        QCOMPARE(delivered, QList<int>{2});
    }

    void aDroppedResultIsNotDelivered() {
        QList<int> delivered;
        LazyResult<int> result([&](int v) { delivered << v; });
        QSemaphore release;
        result.start([&release] {
            release.acquire();
            return 1;
        });
        result.drop();
        QVERIFY(!result.isComputing());
        release.release();
        QTest::qWait(100);
        QVERIFY(delivered.isEmpty());
        result.start([] { return 3; });  // the next request is delivered again
        QTRY_COMPARE(delivered, QList<int>{3});
    }
};

QTEST_MAIN(TstLazyResult)
#include "tst_lazy_result.moc"
