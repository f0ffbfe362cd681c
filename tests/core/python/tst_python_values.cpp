// Python number, key and repr semantics the processor depends on.
#include <QTest>
#include <charconv>
#include <cmath>
#include <limits>
#include <random>

#include "python/graph_key.h"
#include "python/python_values.h"

using namespace stackline;

class TstPythonValues : public QObject {
    Q_OBJECT
private slots:
    void intFloatComparisonsAreExact() {
        // 2^53 + 1 is not representable as a double: Python still orders it exactly.
        __int128 big = (__int128(1) << 53) + 1;
        QVERIFY(pyLess(PyNum::real(9007199254740992.0), PyNum::integer(big)));
        QVERIFY(!pyLessEqual(PyNum::integer(big), PyNum::real(9007199254740992.0)));
        QVERIFY(pyEqual(PyNum::integer(7), PyNum::real(7.0)));
        QVERIFY(pyLess(PyNum::integer(7), PyNum::real(7.5)));
        QVERIFY(pyLess(PyNum::real(6.5), PyNum::integer(7)));
        QVERIFY(!pyLess(PyNum::real(std::nan("")), PyNum::integer(1)));
        QVERIFY(!pyLessEqual(PyNum::integer(1), PyNum::real(std::nan(""))));
    }
    void additionFollowsPython() {
        // int + int stays exact; int + float is a double sum.
        PyNum sum = pyAdd(PyNum::integer(1712195495519689), PyNum::integer(1));
        QCOMPARE(int64_t(sum.i), int64_t(1712195495519690));
        QCOMPARE(sum.kind, PyNum::Kind::Int);
        PyNum mixed = pyAdd(PyNum::real(1712195495519689.047), PyNum::integer(0));
        QCOMPARE(mixed.kind, PyNum::Kind::Float);
        QCOMPARE(mixed.f, 1712195495519689.0);  // the double nearest to the text
        QCOMPARE(pyAdd(PyNum::integer(1), {PyNum::Kind::Invalid}).kind, PyNum::Kind::Invalid);
    }
    void keysUsePythonEquality() {
        KeyPool k;
        QCOMPARE(k.intKey(7), k.floatKey(7.0));
        QVERIFY(k.intKey(7) != k.stringKey("7"));
        QCOMPARE(k.intKey(1), k.intKey(1));
        QVERIFY(k.floatKey(7.5) != k.intKey(7));
        QCOMPARE(k.floatKey(std::nan("")), k.floatKey(std::nan("")));
        QCOMPARE(k.floatKey(-0.0), k.intKey(0));
        QCOMPARE(k.describe(k.stringKey("stream 7")), std::string("\"stream 7\""));
        QCOMPARE(*k.asInt(k.floatKey(42.0)), int64_t(42));
    }
    void intKeysKeepTheirIdsAsTheIndexGrows() {
        // Dense non-negative ints are found by index, the others by hash; a key interned before
        // the index reached it must keep its id once it does.
        KeyPool k;
        KeyId big = k.intKey(3822465), negative = k.intKey(-5), huge = k.intKey(int64_t(1) << 40);
        std::vector<KeyId> ids;
        for (int64_t v = 0; v < 4200000; v += 2) ids.push_back(k.intKey(v));
        QCOMPARE(k.intKey(3822465), big);
        QCOMPARE(k.intKey(-5), negative);
        QCOMPARE(k.intKey(int64_t(1) << 40), huge);
        QCOMPARE(*k.asInt(big), int64_t(3822465));
        for (int64_t v = 0; v < 4200000; v += 2) QCOMPARE(k.intKey(v), ids[std::size_t(v / 2)]);
        QCOMPARE(k.floatKey(4199998.0), ids.back());
        QCOMPARE(k.size(), std::size_t(1 + 3 + 2100000));
    }
    void keyPoolsMerge() {
        KeyPool a, b;
        KeyId a7 = a.intKey(7);
        KeyId bs = b.stringKey("x"), b7 = b.intKey(7);
        auto remap = a.merge(b);
        QCOMPARE(remap[b7], a7);
        QCOMPARE(remap[bs], a.stringKey("x"));
    }
    void intOfStrings_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<qlonglong>("value");
        QTest::newRow("plain") << "42" << true << 42LL;
        QTest::newRow("spaces") << "  -7 \n" << true << -7LL;
        QTest::newRow("plus") << "+3" << true << 3LL;
        QTest::newRow("underscore") << "1_000" << true << 1000LL;
        QTest::newRow("double underscore") << "1__0" << false << 0LL;
        QTest::newRow("trailing underscore") << "10_" << false << 0LL;
        QTest::newRow("fraction") << "1.5" << false << 0LL;
        QTest::newRow("empty") << "" << false << 0LL;
        QTest::newRow("letters") << "abc" << false << 0LL;
        QTest::newRow("arabic-indic digits") << QString::fromUtf8("\u0661\u0662") << true << 12LL;
        QTest::newRow("leading zeros") << "007" << true << 7LL;
    }
    void intOfStrings() {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(qlonglong, value);
        auto v = pyIntFromString(text.toStdString());
        QCOMPARE(v.has_value(), ok);
        if (ok) QCOMPARE(qlonglong(*v), value);
    }
    void reprMatchesPython_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("backward");
        QTest::addColumn<QString>("key");
        // Expected values are Python 3.11's str((name, flag)).
        QTest::newRow("plain") << "Torch-Compiled Region: 0/0" << false
                               << "('Torch-Compiled Region: 0/0', False)";
        QTest::newRow("single quote")
            << "odd', True) name_backward_0" << true << "(\"odd', True) name_backward_0\", True)";
        QTest::newRow("both quotes") << "a\"b'c" << true << "('a\"b\\'c', True)";
        QTest::newRow("escapes") << QString::fromUtf8("tab\there\\ \u00e9 \x7f") << false
                                 << QString::fromUtf8("('tab\\there\\\\ \u00e9 \\x7f', False)");
        QTest::newRow("non printable")
            << QString::fromUtf8("a\u200bb\u00a0") << false << "('a\\u200bb\\xa0', False)";
    }
    void reprMatchesPython() {
        QFETCH(QString, name);
        QFETCH(bool, backward);
        QFETCH(QString, key);
        QCOMPARE(QString::fromStdString(pyGraphKey(name.toStdString(), backward)), key);
    }
    // Python 3.11's json.dumps of each number.
    void numbersAsJsonDumpsWritesThem() {
        const std::vector<std::pair<double, const char*>> floats = {
            {5.0, "5.0"},
            {1e16, "1e+16"},
            {1e15, "1000000000000000.0"},
            {1.5e-5, "1.5e-05"},
            {0.0001, "0.0001"},
            {123.456, "123.456"},
            {-0.5, "-0.5"},
            {0.0, "0.0"},
            {-0.0, "-0.0"},
            {1234567.891, "1234567.891"},
            {2.5e-320, "2.5e-320"},
            {1.7976931348623157e308, "1.7976931348623157e+308"},
            {1e22, "1e+22"},
            {0.1 + 0.2, "0.30000000000000004"},
            {123456789012.345, "123456789012.345"},
            {std::numeric_limits<double>::quiet_NaN(), "NaN"},
            {-std::numeric_limits<double>::infinity(), "-Infinity"},
        };
        for (const auto& [v, text] : floats) QCOMPARE(pyFloatRepr(v), std::string(text));
        QCOMPARE(pyNumberJson(PyNum::integer(-42)), std::string("-42"));
        QCOMPARE(pyNumberJson(PyNum::integer(__int128(1) << 100)),
                 std::string("1267650600228229401496703205376"));
        QCOMPARE(pyNumberJson(PyNum{}), std::string("null"));
    }
    // Times from integer ns (n / 1000 µs) take a shortcut: the same text as the shortest digits
    // that read back (to_chars), at the top of its range and across it.
    void thousandthsAreTheShortestDigits() {
        std::mt19937_64 random(7);
        const int64_t top = (int64_t(1) << 43) * 1000;
        std::vector<int64_t> ns = {1, 999, 1000, 1001, 10, 100, top - 1, top, top + 1, -top + 1};
        for (int i = 0; i < 200000; ++i) ns.push_back(int64_t(random() % uint64_t(2 * top)) - top);
        for (int64_t n : ns) {
            const double v = double(n) / 1000;
            char text[64];
            std::string shortest(
                text, std::to_chars(text, text + sizeof text, v, std::chars_format::fixed).ptr);
            if (shortest.find('.') == std::string::npos) shortest += ".0";
            QCOMPARE(pyFloatRepr(v), shortest);
        }
        QCOMPARE(pyFloatRepr(-0.0), std::string("-0.0"));
        QCOMPARE(pyFloatRepr(2413669096712.151), std::string("2413669096712.151"));
    }
    void graphKeysParseLikeLiteralEval_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("backward");
        QTest::newRow("repr") << "('Torch-Compiled Region: 0/0', True)" << true
                              << "Torch-Compiled Region: 0/0" << true;
        QTest::newRow("double quotes") << "(\"a'b\", False)" << true << "a'b" << false;
        QTest::newRow("escaped quote") << "('a\\'b', True)" << true << "a'b" << true;
        QTest::newRow("concatenation") << "('Torch-Compiled Region: 0/0' '_backward_1', True)"
                                       << true << "Torch-Compiled Region: 0/0_backward_1" << true;
        QTest::newRow("no parentheses") << "'x', True" << true << "x" << true;
        QTest::newRow("trailing comma") << "('x', True,)" << true << "x" << true;
        QTest::newRow("nested parentheses") << "(('x'), (True))" << true << "x" << true;
        QTest::newRow("whitespace") << "  (\n 'x' ,\n True )\n" << true << "x" << true;
        QTest::newRow("raw") << "(r'a\\n', True)" << true << "a\\n" << true;
        QTest::newRow("hex escape")
            << "('\\x41\\u00e9', True)" << true << QString::fromUtf8("A\u00e9") << true;
        QTest::newRow("int not bool") << "('x', 1)" << false << "" << false;
        QTest::newRow("three items") << "('x', True, 1)" << false << "" << false;
        QTest::newRow("bytes") << "(b'x', True)" << false << "" << false;
        QTest::newRow("syntax error") << "('x', True" << false << "" << false;
        QTest::newRow("name") << "(x, True)" << false << "" << false;
        QTest::newRow("wrong order") << "(True, 'x')" << false << "" << false;
        QTest::newRow("one item") << "('x',)" << false << "" << false;
    }
    void graphKeysParseLikeLiteralEval() {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(QString, name);
        QFETCH(bool, backward);
        auto key = parseGraphKey(text.toStdString());
        QCOMPARE(key.has_value(), ok);
        if (!ok) return;
        QCOMPARE(QString::fromStdString(key->name), name);
        QCOMPARE(key->backward, backward);
    }
};

QTEST_GUILESS_MAIN(TstPythonValues)
#include "tst_python_values.moc"
