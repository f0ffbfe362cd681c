// Two runs compared by Python line and kernel, on pairs of generated runs
// (tests/data/run_diff, written by tools/run_diff_cases.py): the diff equals the one the generator
// computes from its own model of the runs, and stackline-cli diff --json prints the core's diff.
#include <QTemporaryDir>
#include <QTest>
#include <limits>

#include "analysis/run_diff.h"
#include "pipeline/load_pipeline.h"
#include "test_support.h"

using namespace stackline;
using namespace stackline::test;
using nlohmann::json;

namespace {

const std::string kData = STACKLINE_TEST_DATA "/run_diff/";
constexpr std::size_t kAll = std::numeric_limits<std::size_t>::max();

// The kernel information files of a case: beside the traces, but the renamed case's have other
// names, given explicitly.
std::pair<std::string, std::string> kernelInfoOf(const std::string& c) {
    if (c == "renamed") return {kData + c + "/kinfo_base.json", kData + c + "/kinfo_new.json"};
    return {"", ""};
}

struct LoadedCase {
    LoadedTrace base, next;
    RunDiff diff;
};

LoadedTrace load(const std::string& trace, const std::string& kernelInfo) {
    PipelineInput in;
    in.tracePath = trace;
    in.kernelInfoPath = kernelInfo;
    LoadObserver quiet;
    return runLoadPipeline(in, quiet);
}

LoadedCase loadCase(const std::string& c) {
    auto [kBase, kNew] = kernelInfoOf(c);
    LoadedCase l{load(kData + c + "/base.json", kBase), load(kData + c + "/new.json", kNew), {}};
    l.diff = diffRuns({l.base.trace.get(), &l.base.provenance, {}, &l.base.kernelInfo.info},
                      {l.next.trace.get(), &l.next.provenance, {}, &l.next.kernelInfo.info});
    return l;
}

const DiffLine* lineWithCode(const RunDiff& d, const std::string& code) {
    for (const DiffLine& l : d.lines)
        if (l.code == code) return &l;
    return nullptr;
}

const DiffKernel* kernelNamed(const RunDiff& d, const std::string& baseName) {
    for (const DiffKernel& k : d.kernels)
        if (k.baseName == baseName) return &k;
    return nullptr;
}

QStringList cliArgs(const std::string& c) {
    QStringList args{"diff", QString::fromStdString(kData + c + "/base.json"),
                     QString::fromStdString(kData + c + "/new.json")};
    auto [kBase, kNew] = kernelInfoOf(c);
    if (!kBase.empty())
        args << "--kernel-info-base" << QString::fromStdString(kBase) << "--kernel-info-new"
             << QString::fromStdString(kNew);
    return args;
}

}  // namespace

class TstRunDiff : public QObject {
    Q_OBJECT
private slots:
    void cases_data() {
        QTest::addColumn<QString>("name");
        for (const char* c : {"slowdown", "shifted_lines", "renamed", "step_counts"})
            QTest::newRow(c) << QString(c);
    }
    // The generator's diff, computed from the durations and stacks it wrote.
    void cases() {
        QFETCH(QString, name);
        const std::string c = name.toStdString();
        LoadedCase l = loadCase(c);
        json expected = json::parse(readFile(kData + c + "/expected.json"));
        json got = json::parse(runDiffJson(l.diff, kAll).dump());
        QVERIFY2(got == expected, qPrintable(QString::fromStdString(got.dump(1))));
        QVERIFY(!l.diff.lines.empty() && !l.diff.kernels.empty());
    }
    void cliJsonIsTheCoreDiff() {
        QFETCH(QString, name);
        const std::string c = name.toStdString();
        Run r = cli(cliArgs(c) << "--json"
                               << "--top"
                               << "1");
        QCOMPARE(r.code, 0);
        json core = json::parse(runDiffJson(loadCase(c).diff, kAll).dump());
        QVERIFY(json::parse(r.out.toStdString()) == core);  // --top limits the text only
    }
    void cliJsonIsTheCoreDiff_data() { cases_data(); }

    // A kernel's self time split among lines keeps every ns: self times add up to the GPU time
    // of the kernels charged to lines, in both runs.
    void selfTimesAddUp() {
        LoadedCase l = loadCase("slowdown");
        int64_t self[2] = {0, 0}, kernels[2] = {0, 0};
        for (const DiffLine& line : l.diff.lines) {
            self[0] += line.base.selfNs;
            self[1] += line.next.selfNs;
        }
        for (const DiffKernel& k : l.diff.kernels) {
            kernels[0] += k.base.totalNs;
            kernels[1] += k.next.totalNs;
        }
        QCOMPARE(self[0], kernels[0]);
        QCOMPARE(self[1], kernels[1]);
        // 7001 ns fused over two lines: 3501 to the first of its stacks, 3500 to the other.
        QCOMPARE(lineWithCode(l.diff, "x = torch.relu(x)")->base.selfNs, int64_t(2 * 3501));
        QCOMPARE(lineWithCode(l.diff, "x = self.norm(x)")->base.selfNs, int64_t(2 * 3500));
        QCOMPARE(l.diff.lines.front().code, std::string("x = self.fc1(x)"));  // largest change
        QCOMPARE(l.diff.delta(l.diff.lines.front()), int64_t(2 * 55500 - 2 * 40000));
    }
    // The new run has 3 lines added above: every line with code is matched, shown with both
    // numbers; a frame without code text can only match by its number.
    void shiftedLinesMatch() {
        LoadedCase l = loadCase("shifted_lines");
        for (const DiffLine& line : l.diff.lines) {
            if (line.code.empty()) {
                QVERIFY(!line.base.count != !line.next.count);  // gone here, new there
                continue;
            }
            QVERIFY(line.base.count && line.next.count);
            QCOMPARE(line.next.line, line.base.line + 3);
        }
        QCOMPARE(l.diff.lines.size(), std::size_t(6 + 2));
        QCOMPARE(lineWithCode(l.diff, "x = self.fc2(x)")->deltaNs(), int64_t(2 * 1000));
    }
    void renamedKernelsMatch() {
        LoadedCase l = loadCase("renamed");
        const DiffKernel* addMul = kernelNamed(l.diff, "triton_poi_fused_add_mul_0");
        QVERIFY(addMul && addMul->renamed);
        QCOMPARE(addMul->nextName, std::string("triton_poi_fused_add_mul_3"));
        QCOMPARE(addMul->deltaNs(), int64_t(1500));
        // Another line (relu) or other fused ops (cat): two kernels, one in each run.
        for (const char* gone : {"triton_poi_fused_relu_1", "triton_poi_fused_cat_2"}) {
            const DiffKernel* k = kernelNamed(l.diff, gone);
            QVERIFY(k && !k->renamed && k->base.count == 1 && k->next.count == 0);
        }
        for (const char* added : {"triton_poi_fused_relu_4", "triton_poi_fused_cat_5"}) {
            const DiffKernel* k = kernelNamed(l.diff, added);
            QVERIFY(k && !k->renamed && k->base.count == 0 && k->next.count == 1);
        }
        QCOMPARE(l.diff.kernels.size(), std::size_t(6));
        // Without the kernel information there are no stacks, so nothing to match a rename by.
        Run r = cli({"diff", QString::fromStdString(kData + "renamed/base.json"),
                     QString::fromStdString(kData + "renamed/new.json"), "--json"});
        QCOMPARE(r.code, 0);
        const json out = json::parse(r.out.toStdString());
        for (const json& k : out["kernels"]) QVERIFY(!k["renamed"].get<bool>());
    }
    // 4 steps against 2: times per step, rounded to the nearest ns, and deltas on those.
    void differentStepCountsCompareTimesPerStep() {
        LoadedCase l = loadCase("step_counts");
        QVERIFY(l.diff.perStep());
        QCOMPARE(l.diff.baseSteps, uint64_t(4));
        QCOMPARE(l.diff.nextSteps, uint64_t(2));
        const DiffLine* fc2 = lineWithCode(l.diff, "x = self.fc2(x)");
        QCOMPARE(fc2->base.selfNs, int64_t(4001));
        QCOMPARE(l.diff.compared(fc2->base.selfNs, false), int64_t(1000));  // 1000.25
        QCOMPARE(l.diff.compared(fc2->next.selfNs, true), int64_t(1501));   // 1500.5
        QCOMPARE(l.diff.delta(*fc2), int64_t(501));
        Run r = cli(cliArgs("step_counts"));
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("Times are per profiler step: base 4 steps, new 2 steps."));
        QVERIFY(r.out.contains("us/step"));
    }
    void textListsLinesKernelsAndRenames() {
        Run r = cli(cliArgs("renamed") << "--top"
                                       << "2");
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("/proj/model.py:13→13 in forward"));
        QVERIFY(r.out.contains("/proj/model.py:11→- in forward"));
        QVERIFY(r.out.contains("Python lines by change in self GPU time (us), 2 of 4:"));
        QVERIFY(!r.out.contains("x = self.norm(x)"));  // the 4th line, past --top 2
        r = cli(cliArgs("renamed"));
        QVERIFY(
            r.out.contains("triton_poi_fused_add_mul_0 → triton_poi_fused_add_mul_3 (renamed)"));
        QVERIFY(r.out.contains("Times are totals over each run"));
    }
    void badInputExitsWithTwoAndNamesTheFile() {
        QTemporaryDir dir;
        writeFile(dir.filePath("bad.json"), "{\"traceEvents\": [\n{\"name\": ");
        const QString good = QString::fromStdString(kData + "slowdown/base.json");
        for (const QStringList& args :
             {QStringList{"diff", good, dir.filePath("bad.json")},
              QStringList{"diff", dir.filePath("bad.json"), good},
              QStringList{"diff", good, dir.filePath("missing.json")},
              QStringList{"diff", good, good, "--kernel-info-new", dir.filePath("missing.json")}}) {
            Run r = cli(args);
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains(dir.path()), qPrintable(r.err));
            QVERIFY(r.out.isEmpty());
        }
        Run r = cli({"diff", good});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("diff takes two traces"));
    }
    // A real run with_stack=True against itself, eager stacks included: every line (those of
    // eager frames have no code and match by number) and every kernel is matched, nothing moved.
    void realRunAgainstItselfWithEagerStacks() {
        const QString trace =
            STACKLINE_TEST_DATA "/corpus/h100_gaunernst_bert-small-uncased__1016001/trace.json.gz";
        Run r = cli({"diff", trace, trace, "--eager", "--json"});
        QCOMPARE(r.code, 0);
        json d = json::parse(r.out.toStdString());
        QVERIFY(d["lines"].size() > 50);
        int withoutCode = 0;
        for (const json& l : d["lines"]) {
            QVERIFY2(!l["base"].is_null() && l["base"] == l["new"], qPrintable(dump(l)));
            QCOMPARE(l["delta_ns"].get<int64_t>(), int64_t(0));
            withoutCode += l["code"] == "";
        }
        QVERIFY(withoutCode > 0);
        for (const json& k : d["kernels"])
            QVERIFY(k["base"] == k["new"] && k["base_name"] == k["new_name"] && !k["renamed"]);
    }
    void topLimitsTheJsonLists() {
        LoadedCase l = loadCase("slowdown");
        OrderedJson j = runDiffJson(l.diff, 1);
        QCOMPARE(j["lines"].size(), std::size_t(1));
        QCOMPARE(j["kernels"].size(), std::size_t(1));
        QVERIFY(!ratioOf(0, 5));
        QCOMPARE(*ratioOf(4, 5), 1.25);
    }
};

QTEST_GUILESS_MAIN(TstRunDiff)
#include "tst_run_diff.moc"
