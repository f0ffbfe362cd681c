// The load pipeline as its callers see it: the stages arrive in order with their results (the
// trace first), kernel information is found beside a trace or taken as given, a cancel stops it,
// progress never goes back, and stackline-cli gives the summary the pipeline gives.
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "base/file_system.h"
#include "pipeline/load_pipeline.h"
#include "test_support.h"

using namespace stackline;

namespace {

const std::string kExampleDir = STACKLINE_EXAMPLE;
const std::string kExample = kExampleDir + "/example.pt.trace.json";
const std::string kExampleKernelInfo = kExampleDir + "/example.pt.trace.kernel_info.json";

// Writes down every call, with the part of its result a test checks.
struct Recorder : LoadObserver {
    std::vector<std::string> calls;
    std::vector<std::pair<uint64_t, uint64_t>> bytes;
    const Trace* trace = nullptr;
    std::string foundPath;
    // Set the cancel flag when this call is made ("trace", "progress").
    std::string cancelAt;

    void stageStarted(LoadStage s) override {
        const char* names[] = {"start trace", "start kernel info", "start provenance",
                               "start indexes", "start summary"};
        static_assert(std::size(names) == size_t(LoadStage::Summary) + 1);
        calls.push_back(names[int(s)]);
    }
    void progress(uint64_t done, uint64_t total) override {
        bytes.emplace_back(done, total);
        if (cancelAt == "progress") cancel = true;
    }
    void traceLoaded(const Trace& t) override {
        calls.push_back("trace");
        trace = &t;
        if (cancelAt == "trace") cancel = true;
    }
    void kernelInfoFound(const std::string& path) override {
        calls.push_back("found");
        foundPath = path;
    }
    void kernelInfoRead(const LoadedKernelInfo&) override { calls.push_back("kernel info"); }
    void provenanceDone(const Provenance&) override { calls.push_back("provenance"); }
    void summaryDone(const Summary&) override { calls.push_back("summary"); }
};

PipelineInput inputFor(const std::string& trace, const std::string& kernelInfo = {}) {
    PipelineInput in;
    in.tracePath = trace;
    in.kernelInfoPath = kernelInfo;
    return in;
}

// A trace of n CPU slices, big enough for several chunks and progress ticks.
std::string writeManyEvents(const QTemporaryDir& dir, int n) {
    const std::string path = dir.filePath(QStringLiteral("many.json")).toStdString();
    std::ofstream f(path);
    f << "{\"traceEvents\":[";
    for (int i = 0; i < n; ++i)
        f << (i ? "," : "") << "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"op" << i % 7
          << "\",\"pid\":1,\"tid\":" << i % 3 << ",\"ts\":" << i << ",\"dur\":1}";
    f << "]}";
    return path;
}

}  // namespace

class TstLoadPipeline : public QObject {
    Q_OBJECT
private slots:
    void stagesArriveInOrderWithTheirResults() {
        Recorder r;
        const LoadedTrace loaded = runLoadPipeline(inputFor(kExample), r);
        const std::vector<std::string> expected = {
            "start trace",      "trace",      "start kernel info", "found",  "kernel info",
            "start provenance", "provenance", "start summary",     "summary"};
        QCOMPARE(r.calls, expected);
        QCOMPARE(r.trace, loaded.trace.get());
        QVERIFY(loaded.trace->events.size() > 0);
        QVERIFY(loaded.provenance.annotatedCount > 0);
        QCOMPARE(loaded.summary.annotatedKernels,
                 summarize(*loaded.trace, loaded.provenance).annotatedKernels);
        QVERIFY(loaded.summary.annotatedKernels > 0);
    }

    void kernelInfoFoundBesideOrGiven() {
        Recorder beside;
        const LoadedTrace found = runLoadPipeline(inputFor(kExample), beside);
        QVERIFY(found.kernelInfo.found);
        QCOMPARE(found.kernelInfo.path, kExampleKernelInfo);
        QCOMPARE(beside.foundPath, kExampleKernelInfo);

        Recorder told;
        const LoadedTrace given = runLoadPipeline(inputFor(kExample, kExampleKernelInfo), told);
        QVERIFY(!given.kernelInfo.found);
        QCOMPARE(given.kernelInfo.path, kExampleKernelInfo);
        QVERIFY(!told.calls.empty() &&
                std::count(told.calls.begin(), told.calls.end(), "found") == 0);
        QCOMPARE(given.summary.annotatedKernels, found.summary.annotatedKernels);
        QCOMPARE(given.provenance.writtenCount, found.provenance.writtenCount);
    }

    void withoutKernelInfoBeside() {
        QTemporaryDir dir;
        const QString trace = dir.filePath(QStringLiteral("alone.json"));
        QVERIFY(QFile::copy(QString::fromStdString(kExample), trace));
        Recorder r;
        const LoadedTrace loaded = runLoadPipeline(inputFor(trace.toStdString()), r);
        QVERIFY(loaded.kernelInfo.path.empty());
        QVERIFY(loaded.kernelInfo.info.empty());
        QCOMPARE(loaded.summary.annotatedKernels, uint64_t(0));
        QVERIFY(loaded.summary.kernels > 0);

        // Annotating needs kernel information: the message names the trace.
        PipelineInput required = inputFor(trace.toStdString());
        required.requireKernelInfo = true;
        Recorder failed;
        try {
            runLoadPipeline(required, failed);
            QFAIL("no error without kernel information");
        } catch (const InputError& e) {
            QVERIFY(std::string(e.what()).find("alone.json: no kernel information") !=
                    std::string::npos);
        }
        QCOMPARE(failed.calls.back(), std::string("start kernel info"));
    }

    void reusesALoadedTrace() {
        Recorder first;
        const LoadedTrace loaded = runLoadPipeline(inputFor(kExample), first);
        PipelineInput again = inputFor({}, kExampleKernelInfo);
        again.trace = loaded.trace;
        Recorder r;
        const LoadedTrace reprocessed = runLoadPipeline(again, r);
        QCOMPARE(reprocessed.trace.get(), loaded.trace.get());
        QCOMPARE(r.calls.front(), std::string("trace"));  // no Trace stage: nothing is read
        QVERIFY(r.bytes.empty());
        QCOMPARE(reprocessed.summary.annotatedKernels, loaded.summary.annotatedKernels);
    }

    void cancelStopsAtTheNextStage() {
        Recorder r;
        r.cancelAt = "trace";
        QVERIFY_THROWS_EXCEPTION(Cancelled, runLoadPipeline(inputFor(kExample), r));
        QCOMPARE(r.calls, (std::vector<std::string>{"start trace", "trace"}));

        Recorder before;
        before.cancel = true;
        QVERIFY_THROWS_EXCEPTION(Cancelled, runLoadPipeline(inputFor(kExample), before));
        QVERIFY(before.calls.empty());
    }

    void cancelStopsReadingTheTrace() {
        QTemporaryDir dir;
        Recorder r;
        r.cancelAt = "progress";
        PipelineInput in = inputFor(writeManyEvents(dir, 40'000));
        QVERIFY_THROWS_EXCEPTION(Cancelled, runLoadPipeline(in, r));
        QCOMPARE(r.bytes.size(), std::size_t(1));
        QCOMPARE(r.calls, std::vector<std::string>{"start trace"});
    }

    void progressNeverGoesBack_data() {
        QTest::addColumn<unsigned>("threads");
        QTest::addColumn<int>("reports");  // at least
        QTest::newRow("one thread") << 1u << 10;
        // The loading thread ticks only while it scans; the workers' chunks count when it does.
        QTest::newRow("four threads, small chunks") << 4u << 1;
    }
    void progressNeverGoesBack() {
        QFETCH(unsigned, threads);
        QFETCH(int, reports);
        QTemporaryDir dir;
        PipelineInput in = inputFor(writeManyEvents(dir, 60'000));
        in.load.threads = threads;
        in.load.chunkBytes = 64 << 10;
        Recorder r;
        const LoadedTrace loaded = runLoadPipeline(in, r);
        QCOMPARE(loaded.trace->events.size(), uint32_t(60'000));
        QVERIFY(r.bytes.size() >= std::size_t(reports));
        QCOMPARE(r.bytes.back().first, loaded.trace->whole().size());
        for (std::size_t i = 0; i < r.bytes.size(); ++i) {
            QCOMPARE(r.bytes[i].second, loaded.trace->whole().size());
            QVERIFY(r.bytes[i].first <= r.bytes[i].second);
            if (i > 0) QVERIFY(r.bytes[i].first >= r.bytes[i - 1].first);
        }
    }

    void cliGivesThePipelinesSummary() {
        Recorder r;
        Summary s = runLoadPipeline(inputFor(kExample), r).summary;
        s.eagerStacks = 0;  // summary counts them (the example has no python_function slices)
        const test::Run run =
            test::cli({QStringLiteral("summary"), QString::fromStdString(kExample),
                       QStringLiteral("--json")});
        QCOMPARE(run.code, 0);
        QCOMPARE(run.out.trimmed().toStdString(), summaryJson(s).dump(1));
        QVERIFY(
            run.err.contains(QString::fromStdString("kernel information: " + kExampleKernelInfo)));
    }

    void droppedPathsTakenAsKernelInfo_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("kernelInfo");
        QTest::newRow("registry") << "run.pt.trace.kernel_info.json" << true;
        QTest::newRow("AOTInductor") << "kernel_information.json" << true;
        QTest::newRow("TORCH_TRACE log") << "dedicated_log_torch_trace_rank_0_abc.log" << true;
        QTest::newRow("tlparse artifact")
            << "inductor_provenance_tracking_kernel_stack_traces_12.json" << true;
        QTest::newRow("any log") << "rank0.log" << true;
        QTest::newRow("trace") << "run.pt.trace.json" << false;
        QTest::newRow("gzip trace") << "run.pt.trace.json.gz" << false;
    }
    void droppedPathsTakenAsKernelInfo() {
        QFETCH(QString, name);
        QFETCH(bool, kernelInfo);
        QCOMPARE(looksLikeKernelInfo("/some/folder/" + name.toStdString()), kernelInfo);
    }

    void folderIsKernelInfo() {
        QTemporaryDir dir;
        QVERIFY(isDirectory(dir.path().toStdString()));
        QVERIFY(looksLikeKernelInfo(dir.path().toStdString()));
        QVERIFY(!isRegularFile(dir.path().toStdString()));
        QVERIFY(isSpecialFile(dir.path().toStdString()));
        QVERIFY(isRegularFile(kExample) && !isSpecialFile(kExample));
        QVERIFY(sameFile(kExample, kExampleDir + "/../example/example.pt.trace.json"));
    }
};

QTEST_GUILESS_MAIN(TstLoadPipeline)
#include "tst_load_pipeline.moc"
