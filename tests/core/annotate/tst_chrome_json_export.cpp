// The annotated Chrome JSON that a Perfetto protobuf or Nsight Systems trace exports as: read back
// as Kineto JSON, it holds every row of the model in order (the same phases, categories, names,
// pids, tids, ts and dur, args, each row's uid its place), args.stack where provenance wrote one,
// the process and thread names, and the trace's base time; --in-place is refused.
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>

#include "analysis/rank_steps.h"
#include "annotate/exporter.h"
#include "base/errors.h"
#include "cuspy_pftrace_writer.h"
#include "import/trace_formats.h"
#include "kineto_to_nsys.h"
#include "test_support.h"

using namespace stackline;
using nlohmann::json;

namespace {

const std::string kExample = std::string(STACKLINE_EXAMPLE) + "/example.pt.trace.json";
const std::string kExampleInfo =
    std::string(STACKLINE_EXAMPLE) + "/example.pt.trace.kernel_info.json";

KernelInfo exampleInfo() {
    return KernelInfo::parse(test::readFile(kExampleInfo), kExampleInfo);
}

// The exported trace of t holds t's rows first, as Kineto JSON rows of the same values.
void compareRows(const Trace& t, const Provenance& p, const Trace& back) {
    const EventTable &a = t.events, &b = back.events;
    QVERIFY(b.size() >= a.size());
    size_t stacks = 0;
    for (uint32_t r = 0; r < a.size(); ++r) {
        QCOMPARE(b.phase[r], a.phase[r]);
        QCOMPARE(b.catOf(r), a.catOf(r));
        QCOMPARE(b.nameOf(r), a.nameOf(r));
        QCOMPARE(b.keys.describe(b.pid[r]), a.keys.describe(a.pid[r]));
        QCOMPARE(b.keys.describe(b.tid[r]), a.keys.describe(a.tid[r]));
        QCOMPARE(b.kinds[r].ts, a.kinds[r].ts);
        QCOMPARE(b.tsBits[r], a.tsBits[r]);
        QCOMPARE(b.kinds[r].dur, a.kinds[r].dur);
        QCOMPARE(b.durBitsOf(r), a.durBitsOf(r));
        QCOMPARE(b.kinds[r].flowId, a.kinds[r].flowId);
        if (a.kinds[r].flowId == FlowIdStatus::Ok) QCOMPARE(b.flowIds.at(r, 0), a.flowIds.at(r, 0));
        json args = t.args(r).present() ? json(t.args(r).value()) : json();
        if (p.written[r]) {
            args["stack"] = json::parse(p.stacks.json(p.stackOf(r)));
            ++stacks;
        }
        const json got = back.args(r).present() ? json(back.args(r).value()) : json();
        QVERIFY2(got == args,
                 (std::to_string(r) + ": " + got.dump() + " != " + args.dump()).c_str());
        QCOMPARE(b.uidOf(r) != kNoKey, true);
        QCOMPARE(b.keys.asInt(b.uidOf(r)), std::optional<int64_t>(r));
    }
    QVERIFY(stacks > 0);
    QCOMPARE(back.metadata.baseTimeNs, t.metadata.baseTimeNs);
    QVERIFY(back.info.uidAssignedTruthy);
    // The names and order of processes and threads, as metadata events.
    QCOMPARE(back.metadata.processes.size(), t.metadata.processes.size());
    for (const auto& [pid, naming] : t.metadata.processes) {
        const ProcessNaming& got = back.metadata.processes.at(pid);
        QCOMPARE(got.name, naming.name);
        QCOMPARE(got.labels, naming.labels);
        QCOMPARE(got.sortIndex, naming.sortIndex);
    }
    QCOMPARE(back.metadata.threads.size(), t.metadata.threads.size());
    for (const auto& [ids, naming] : t.metadata.threads) {
        const ThreadNaming& got = back.metadata.threads.at(ids);
        QCOMPARE(got.name, naming.name);
        QCOMPARE(got.sortIndex, naming.sortIndex);
    }
}

// The args a reader writes as text (from the protobuf's bytes, from the export's records) are its
// dumped DOM's, byte for byte.
void sameArgsText(const Trace& t) {
    uint32_t rows = 0;
    for (uint32_t r = 0; r < t.events.size(); ++r) {
        if (!t.args(r).present()) continue;
        std::string fast;
        t.argsReader->appendJson(t, r, fast);
        QCOMPARE(fast, t.args(r).value().dump());
        ++rows;
    }
    QVERIFY(rows > 100);
}

}  // namespace

class TstChromeJsonExport : public QObject {
    Q_OBJECT
private slots:
    void pftraceExportsItsRowsAndStacks() {
        const Trace source = loadTrace(kExample);
        const Trace pf =
            parseTrace(TraceBytes::fromString(bench::encodeCuspyPftrace(
                           bench::cuspyLayoutOf(source, rankInfoOf(source).baseTimeNs))),
                       "example.pftrace");
        const Provenance p = runProvenance(pf, exampleInfo());
        QVERIFY(p.annotatedCount > 0);
        sameArgsText(pf);
        const std::string out = exportToString(pf, p);
        const json j = json::parse(out);
        QCOMPARE(j["traceEvents"][0]["uid"].get<int>(), 0);
        const Trace back = test::traceFrom(out);
        QCOMPARE(back.format, std::string_view("kineto-json"));
        compareRows(pf, p, back);
        // Read back, its kernels carry the stacks: provenance without kernel information takes
        // them up and annotates as many.
        const Provenance again = runProvenance(back, KernelInfo{});
        uint32_t kernels = 0, annotated = 0;
        for (uint32_t r = 0; r < pf.events.size(); ++r) {
            if (!p.isGpuKernel(pf.events, r)) continue;
            ++kernels;
            annotated += p.status(pf.events, r) == KernelStatus::Annotated;
            QCOMPARE(again.status(back.events, r) == KernelStatus::Annotated,
                     p.status(pf.events, r) == KernelStatus::Annotated);
        }
        QCOMPARE(kernels, 90u);
        QVERIFY(annotated > 0);
    }

    void nsightExportWritesGzipChromeJson() {
        QTemporaryDir dir;
        const std::string sqlite = dir.filePath("report.sqlite").toStdString();
        nsys::writeExport(loadTrace(kExample), sqlite, {});
        const Trace t = loadTrace(sqlite);
        QCOMPARE(t.format, std::string_view("nsight-sqlite"));
        sameArgsText(t);
        const Provenance p = runProvenance(t, exampleInfo());
        const std::string out = dir.filePath("out.json.gz").toStdString();
        exportTrace(t, p, out);
        compareRows(t, p, loadTrace(out));
    }

    // The input is never the output: --in-place is refused naming the trace, and so is -o INPUT.
    void inPlaceIsRefused() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("run.pftrace").toStdString();
        const Trace source = loadTrace(kExample);
        test::writeFile(QString::fromStdString(path),
                        QByteArray::fromStdString(bench::encodeCuspyPftrace(
                            bench::cuspyLayoutOf(source, rankInfoOf(source).baseTimeNs))));
        const Trace pf = loadTrace(path);
        const Provenance p = runProvenance(pf, exampleInfo());
        ExportOptions inPlace;
        inPlace.allowOverwriteInput = true;
        for (const std::string& out : {path, dir.filePath("out.json").toStdString()}) {
            try {
                exportTrace(pf, p, out, inPlace);
                QFAIL("exported in place");
            } catch (const OutputError& e) {
                QVERIFY2(
                    std::string(e.what()).find(path + ": ") == 0 &&
                        std::string(e.what()).find("not rewritten in place") != std::string::npos,
                    e.what());
            }
        }
        QVERIFY_THROWS_EXCEPTION(OutputError, exportTrace(pf, p, path));
        QCOMPARE(test::folderEntries(dir.path()), QStringList{"run.pftrace"});
    }
};

QTEST_GUILESS_MAIN(TstChromeJsonExport)
#include "tst_chrome_json_export.moc"
