// Every input the fuzzers once failed on (tests/data/malformed/fuzz-regressions/<target>/), run
// through the code path of its target outside libFuzzer. No property checks (those are the
// fuzzers' job): each input must neither crash nor trip the sanitizers, nor throw anything but the
// InputError that refuses it.
#include <QDirIterator>
#include <QTemporaryDir>
#include <QTest>

#include "annotate/summary_report.h"
#include "base_trace.h"
#include "model/flow_index.h"
#include "model/track_index.h"
#include "python/graph_key.h"
#include "test_support.h"

using namespace stackline;
using namespace stackline::test;

namespace {

// What the fuzz target named by its folder runs on one input.
void exercise(const QString& target, const QByteArray& input) {
    std::string_view text(input.constData(), size_t(input.size()));
    auto annotateAll = [](const Trace& t, const KernelInfo& k) {
        Provenance p = runProvenance(t, k);
        (void)reportJson(t, p).dump(1, ' ', false, OrderedJson::error_handler_t::replace);
        (void)summarize(t, p);
        (void)exportToString(t, p);
    };
    try {
        if (target == "graph_key") {
            (void)parseGraphKey(text);
        } else if (target == "kernel_info") {
            KernelInfo k = KernelInfo::parse(text, "regression");
            for (const std::string& key : k.graphKeys()) {
                try {
                    (void)k.singleStack(key);
                    (void)k.stackForKernel(key, "triton_poi_fused_add_0");
                } catch (const RegistryError&) {
                }
                (void)k.backwardKeys(key);
            }
        } else if (target == "trace_loader") {
            QTemporaryDir dir;
            QString path = dir.filePath("regression.json");
            writeFile(path, input);  // a file: gzip inputs are inflated on the way
            Trace t = loadTrace(path.toStdString());
            TrackIndex tracks = TrackIndex::build(t.events, t.metadata, 1);
            (void)FlowIndex::build(t.events, tracks);
        } else if (target == "annotate") {
            std::size_t sep = text.find("#KI#");
            Trace t = parseTrace(TraceBytes::fromString(text.substr(0, sep)), "regression");
            annotateAll(t, kernelInfoFrom(kInfo.toStdString()));
            if (sep != std::string_view::npos)
                annotateAll(t, KernelInfo::parse(text.substr(sep + 4), "regression"));
        } else {
            QFAIL(qPrintable("unknown fuzz target folder " + target));
        }
    } catch (const InputError&) {
    }
}

}  // namespace

class TstFuzzRegressions : public QObject {
    Q_OBJECT
private slots:
    void fuzzRegressions_data() {
        stringColumns<2>({"target", "file"});
        const QString root = QStringLiteral(STACKLINE_TEST_DATA "/malformed/fuzz-regressions");
        int n = 0;
        for (QDirIterator it(root, QDir::Files, QDirIterator::Subdirectories); it.hasNext(); ++n) {
            QString file = it.next();
            QString target = QFileInfo(file).dir().dirName();
            QTest::newRow(qPrintable(target + "/" + QFileInfo(file).fileName())) << target << file;
        }
        QVERIFY2(n > 0, qPrintable("no fuzz regressions found in " + root));
    }
    void fuzzRegressions() {
        QFETCH(QString, target);
        QFETCH(QString, file);
        exercise(target, readFile(file));
    }
};

QTEST_GUILESS_MAIN(TstFuzzRegressions)
#include "tst_fuzz_regressions.moc"
