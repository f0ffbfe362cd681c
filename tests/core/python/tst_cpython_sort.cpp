// cpythonSort orders items as Python's sorted(items, key=...) does, NaN keys included (below 64
// items). The expected orders were computed once with CPython 3.11.7 as
// sorted(range(len(keys)), key=lambda i: keys[i]) and are written here as data.
#include <QTest>
#include <cmath>

#include "python/cpython_sort.h"
#include "test_support.h"

using namespace stackline;

namespace {

struct Item {
    PyNum key;
    int index;
};

// "3 1.0 nan 9007199254740993": ints, floats (with a '.'), and NaN.
std::vector<Item> itemsOf(const QString& keys) {
    std::vector<Item> items;
    for (const QString& k : keys.split(' ', Qt::SkipEmptyParts)) {
        int index = int(items.size());
        if (k == "nan")
            items.push_back({PyNum::real(std::nan("")), index});
        else if (k.contains('.'))
            items.push_back({PyNum::real(k.toDouble()), index});
        else
            items.push_back({PyNum::integer(k.toLongLong()), index});
    }
    return items;
}

// The items' original indexes after sorting, as "1 3 2 0 4".
QString sortedIndexes(const QString& keys) {
    std::vector<Item> items = itemsOf(keys);
    cpythonSort(items, [](const Item& i) -> const PyNum& { return i.key; });
    QStringList out;
    for (const Item& i : items) out << QString::number(i.index);
    return out.join(' ');
}

// keys[i] = (i * 37) % 11, or NaN where i % 13 == 5 when withNan.
QString generatedKeys(int n, bool withNan) {
    QStringList keys;
    for (int i = 0; i < n; ++i)
        keys << (withNan && i % 13 == 5 ? QString("nan") : QString::number((i * 37) % 11));
    return keys.join(' ');
}

}  // namespace

class TstCpythonSort : public QObject {
    Q_OBJECT
private slots:
    void ordersAsCPython_data() {
        stackline::test::stringTable<2>(
            {"keys", "expected"},
            {
                {"equal keys keep their order", "3 1 2 1 3", "1 3 2 0 4"},
                {"int and float keys compare as numbers", "2 1.0 1 2.0 0.5", "4 1 2 0 3"},
                {"ints beyond a double's precision", "9007199254740993 9007199254740992.0", "1 0"},
                {"empty", "", ""},
                {"one", "nan", "0"},
                {"NaN first", "nan 3 1 2", "0 2 3 1"},
                {"NaN in the middle", "3 1 nan 0 2", "3 1 4 0 2"},
                {"a descending run is reversed", "5 4 3 nan 1 2", "4 5 2 1 0 3"},
                {"a descending run stops at equal keys", "3 2 2 1 nan 0", "5 3 1 2 0 4"},
                {"all NaN", "nan nan nan", "0 1 2"},
            });
        QTest::newRow("63 items with NaN, the longest list sorted by binary insertion")
            << generatedKeys(63, true)
            << "0 11 22 33 55 3 14 25 36 47 58 6 17 28 39 50 61 9 20 42 53 1 12 23 34 45 56 4 37 "
               "48 59 7 32 2 5 15 26 29 40 51 62 10 21 43 54 13 24 46 16 27 8 18 35 38 60 19 30 "
               "31 41 44 49 52 57";
        QTest::newRow("70 items without NaN: a stable sort")
            << generatedKeys(70, false)
            << "0 11 22 33 44 55 66 3 14 25 36 47 58 69 6 17 28 39 50 61 9 20 31 42 53 64 1 12 "
               "23 34 45 56 67 4 15 26 37 48 59 7 18 29 40 51 62 10 21 32 43 54 65 2 13 24 35 46 "
               "57 68 5 16 27 38 49 60 8 19 30 41 52 63";
    }
    void ordersAsCPython() {
        QFETCH(QString, keys);
        QFETCH(QString, expected);
        QCOMPARE(sortedIndexes(keys), expected);
    }
};

QTEST_GUILESS_MAIN(TstCpythonSort)
#include "tst_cpython_sort.moc"
