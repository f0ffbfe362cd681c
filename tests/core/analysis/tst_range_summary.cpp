// summary --range --json against figures computed independently from the trace's JSON
// (tools/range_summary_expected.py, committed in tests/data/range_summary).
#include <QTest>
#include <fstream>
#include <map>

#include "test_support.h"

using namespace stackline::test;
using nlohmann::json;

class TstRangeSummary : public QObject {
    Q_OBJECT

    static json readJson(const QString& path) {
        std::ifstream in(path.toStdString());
        return json::parse(in);
    }

    // Runs the CLI on the corpus trace with the expected file's range and compares every figure.
    static void check(const QString& corpus, const QString& expectedName) {
        const json expected =
            readJson(QStringLiteral(STACKLINE_TEST_DATA "/range_summary/") + expectedName);
        const QString trace = QStringLiteral(STACKLINE_TEST_DATA "/corpus/") + corpus +
                              QStringLiteral("/trace.json.gz");
        Run r = cli({"summary", trace, "--range",
                     QString::fromStdString(expected["range"].get<std::string>()), "--json"});
        QCOMPARE(r.code, 0);
        const json got = json::parse(r.out.toStdString());
        QCOMPARE(dump(got["origin_ns"]), dump(expected["origin_ns"]));

        std::map<std::pair<std::string, std::string>, json> slices;
        for (const json& s : got["slices"]) slices[{s["pid"], s["name"]}] = s;
        QCOMPARE(slices.size(), std::size_t(expected["slices"].size()));
        for (const json& e : expected["slices"]) {
            auto it = slices.find({e["pid"], e["name"]});
            QVERIFY2(it != slices.end(), e["name"].get<std::string>().c_str());
            for (const char* k : {"count", "wall_ns", "average_ns", "self_ns"})
                QCOMPARE(dump(it->second[k]), dump(e[k]));
        }

        std::map<std::pair<std::string, std::string>, json> streams;
        for (const json& s : got["streams"]) streams[{s["pid"], s["tid"]}] = s;
        QCOMPARE(streams.size(), std::size_t(expected["streams"].size()));
        for (const json& e : expected["streams"]) {
            auto it = streams.find({e["pid"], e["tid"]});
            QVERIFY(it != streams.end());
            for (const char* k : {"busy_ns", "idle_ns", "comm_overlap_ns"})
                QCOMPARE(dump(it->second[k]), dump(e[k]));
        }
    }

private slots:
    void clippedSlicesAndStreamsOfAnInferenceStep() {
        check("h100_gaunernst_bert-small-uncased__1016001", "h100_bert_1000.25_3000.json");
    }
    // A training step with NCCL kernels beside compute kernels.
    void computeOverlapsCommunication() {
        check("worker0_step_12.1694128201545.pt.trace", "worker0_1000_200000.5.json");
        const json e = readJson(
            QStringLiteral(STACKLINE_TEST_DATA "/range_summary/worker0_1000_200000.5.json"));
        int64_t overlap = 0;
        for (const json& s : e["streams"]) overlap += s["comm_overlap_ns"].get<int64_t>();
        QVERIFY(overlap > 0);
    }
    void badRangesAreUsageErrors() {
        const QString trace = QStringLiteral(STACKLINE_TEST_DATA
                                             "/range_summary/../corpus/"
                                             "triton_example/trace.json.gz");
        for (const char* range : {"5", "3:1", "1.2345:9", "a:9", "-1:9"})
            QCOMPARE(cli({"summary", trace, "--range", range}).code, 2);
    }
};

QTEST_GUILESS_MAIN(TstRangeSummary)
#include "tst_range_summary.moc"
