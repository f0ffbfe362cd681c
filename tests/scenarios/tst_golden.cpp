// Golden tests: cases whose expected output and warnings come from the reference processor
// (tests/golden/README.md), committed under tests/data/. For each case the annotated trace
// must equal the reference's (Python ==) and the unrecognized-kernel warnings must be the same, in
// the same order. Where the reference raised, Stackline must report an error and still export.
#include <QDir>
#include <QTest>

#include "annotate/summary_report.h"
#include "test_support.h"

using namespace stackline;
using namespace stackline::test;
using nlohmann::json;

namespace {

std::string firstExisting(const QDir& dir, std::initializer_list<const char*> names) {
    for (const char* n : names)
        if (dir.exists(n)) return dir.filePath(n).toStdString();
    return {};
}

// nlohmann::json has no NaN or Infinity, which Python writes bare. Outside strings they become
// strings on both sides, which then compare equal where Python's json (one NaN object for every
// NaN it reads) does.
json parseLenient(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (inString) {
            out += c;
            if (c == '\\' && i + 1 < text.size())
                out += text[++i];
            else if (c == '"')
                inString = false;
            continue;
        }
        bool matched = false;
        for (std::string_view word : {"NaN", "Infinity", "-Infinity"}) {
            if (text.substr(i, word.size()) == word) {
                out += '"';
                out += word;
                out += '"';
                i += word.size() - 1;
                matched = true;
                break;
            }
        }
        if (matched) continue;
        inString = c == '"';
        out += c;
    }
    return json::parse(out);
}

json readJson(const std::string& path) {
    TraceBytes bytes = TraceBytes::open(path);  // inflates .gz
    return parseLenient(bytes.text());
}

}  // namespace

class TstGolden : public QObject {
    Q_OBJECT
private slots:
    void matchesTheReference_data() {
        QTest::addColumn<QString>("dir");
        int cases = 0;
        for (const char* set : {"golden", "corpus"}) {
            QDir root(QStringLiteral(STACKLINE_TEST_DATA "/") + set);
            for (const QString& name :
                 root.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
                QTest::newRow(qPrintable(QString(set) + "/" + name)) << root.filePath(name);
                ++cases;
            }
        }
        QVERIFY2(cases >= 200, "the golden data set is missing or incomplete");
    }
    void matchesTheReference() {
        QFETCH(QString, dir);
        QDir d(dir);
        std::string tracePath = firstExisting(d, {"trace.json", "trace.json.gz"});
        QVERIFY(!tracePath.empty());
        json result = readJson(d.filePath("result.json").toStdString());
        json expected = readJson(firstExisting(d, {"expected.json", "expected.json.gz"}));

        Trace trace = loadTrace(tracePath);
        KernelInfo info = KernelInfo::load(d.filePath("kernel_info.json").toStdString());
        Provenance p = runProvenance(trace, info, 1);
        std::string exported = exportToString(trace, p);
        json out = parseLenient(exported);

        // The same decisions and diagnostics, in the same order, when the work is split.
        Provenance split = runProvenance(trace, info, 2);
        QCOMPARE(exportToString(trace, split), exported);
        QCOMPARE(split.diagnostics.size(), p.diagnostics.size());
        for (std::size_t i = 0; i < p.diagnostics.size(); ++i) {
            QCOMPARE(split.diagnostics[i].kind, p.diagnostics[i].kind);
            QCOMPARE(split.diagnostics[i].row, p.diagnostics[i].row);
            QCOMPARE(split.diagnostics.message(split.diagnostics[i], trace.events),
                     p.diagnostics.message(p.diagnostics[i], trace.events));
        }

        std::vector<std::string> warnings;
        bool errors = false;
        for (const Diagnostic& diag : p.diagnostics) {
            if (diag.kind == DiagnosticKind::UnrecognizedKernel)
                warnings.push_back(p.diagnostics.message(diag, trace.events));
            errors = errors || diag.severity() == Severity::Error;
        }
        if (result["status"] == "ok") {
            QVERIFY2(out == expected,
                     qPrintable("annotated output differs from the reference in " + dir));
            QCOMPARE(warnings, result["warnings"].get<std::vector<std::string>>());
            QVERIFY(json(p.annotatedCount) == result["annotated"]);
        } else {
            QVERIFY2(errors, qPrintable("the reference raised (" +
                                        QString::fromStdString(result["error"].get<std::string>()) +
                                        ") but Stackline reported no error"));
        }
    }
};

QTEST_GUILESS_MAIN(TstGolden)
#include "tst_golden.moc"
