// Flame graphs: GPU time by Python call path adds up to Hotspots' annotated GPU time, the folded
// stacks hold the same tree, and the CPU icicle nests a thread's slices by containment.
#include <QDir>
#include <QTest>
#include <map>
#include <sstream>

#include "analysis/flame_graph.h"
#include "analysis/hotspots.h"
#include "test_support.h"

using namespace stackline;
using namespace stackline::test;

namespace {

// k1 (10.001 us) and k2 (6.001 us, two stacks: an odd ns to split) run in a compiled region.
const char* kTrace =
    "{\"traceEvents\": ["
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"Torch-Compiled Region: 0/0\", \"tid\": 1, "
    "\"ts\": 0, \"dur\": 100},"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"triton_k1\", \"tid\": 7, \"ts\": 10, "
    "\"dur\": 10.001,"
    " \"args\": {\"stack\": [\"  File \\\"a.py\\\", line 1, in f\\n    g()\\n  File \\\"a.py\\\", "
    "line 5, in g\\n    y = x * 2\\n\"]}},"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"triton_k2\", \"tid\": 7, \"ts\": 30, "
    "\"dur\": 6.001,"
    " \"args\": {\"stack\": [\"  File \\\"a.py\\\", line 1, in f\\n    g()\\n  File \\\"a.py\\\", "
    "line 5, in g\\n    y = x * 2\\n\", \"  File \\\"b;c.py\\\", line 2, in h\\n    z = y + "
    "1\\n\"]}}"
    "]}";

// Folded lines summed into path -> value, the way a flame graph tool reads them.
std::map<std::string, int64_t> parseFolded(const std::string& folded) {
    std::map<std::string, int64_t> paths;
    std::istringstream in(folded);
    for (std::string line; std::getline(in, line);) {
        const size_t space = line.rfind(' ');
        paths[line.substr(0, space)] += std::stoll(line.substr(space + 1));
    }
    return paths;
}

// The same from the tree: every node's self time under its folded path.
std::map<std::string, int64_t> treePaths(const FlameGraph& g) {
    std::map<std::string, int64_t> paths;
    for (uint32_t i = 1; i < g.nodes.size(); ++i) {
        std::string path = foldedFrame(g.nodes[i].label);
        for (uint32_t p = g.nodes[i].parent; p != 0; p = g.nodes[p].parent)
            path = foldedFrame(g.nodes[p].label) + ";" + path;
        if (g.selfNs(i) > 0) paths[path] += g.selfNs(i);
    }
    return paths;
}

const FlameNode* childNamed(const FlameGraph& g, const FlameNode& n, const std::string& label) {
    for (uint32_t c : n.children)
        if (g.nodes[c].label == label) return &g.nodes[c];
    return nullptr;
}

}  // namespace

class TstFlameGraph : public QObject {
    Q_OBJECT
private slots:
    void splitsKernelTimeExactlyAmongStacks() {
        Trace t = traceFrom(kTrace);
        Provenance p = runProvenance(t, KernelInfo());
        FlameGraph g = gpuFlameGraph(t, p);
        QCOMPARE(g.root().valueNs, int64_t(16002));
        const FlameNode* f = childNamed(g, g.root(), "a.py:1 f");
        const FlameNode* h = childNamed(g, g.root(), "b;c.py:2 h");
        QVERIFY(f && h);
        QCOMPARE(f->valueNs, int64_t(10001 + 3001));  // k2's odd nanosecond goes to its first stack
        QCOMPARE(h->valueNs, int64_t(3000));
        const FlameNode* gNode = childNamed(g, *f, "a.py:5 g");
        QVERIFY(gNode);
        QCOMPARE(gNode->file, std::string("a.py"));
        QCOMPARE(gNode->line, 5);
        QCOMPARE(QString::fromStdString(foldedStacks(g)),
                 QStringLiteral("a.py:1 f;a.py:5 g 13002\nb,c.py:2 h 3000\n"));
        // Restricted to a range, the clipped time counts.
        KernelStacksOptions o;
        o.range = {15000, 31000};
        QCOMPARE(gpuFlameGraph(t, p, o).root().valueNs, int64_t(5001 + 1000));
    }
    void addsUpToHotspotsOnTestTraces_data() {
        QTest::addColumn<QString>("dir");
        for (const char* set : {"golden", "corpus"}) {
            QDir root(QStringLiteral(STACKLINE_TEST_DATA "/") + set);
            for (const QString& name :
                 root.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
                if (QFile::exists(root.filePath(name + "/trace.json")))
                    QTest::newRow(qPrintable(QString(set) + "/" + name)) << root.filePath(name);
        }
    }
    void addsUpToHotspotsOnTestTraces() {
        QFETCH(QString, dir);
        Trace t = loadTrace((dir + "/trace.json").toStdString());
        Provenance p =
            runProvenance(t, KernelInfo::load((dir + "/kernel_info.json").toStdString()));
        FlameGraph g = gpuFlameGraph(t, p);
        QCOMPARE(double(g.root().valueNs) / 1000.0, computeHotspots(t, p).annotatedGpuUs);
        QCOMPARE(parseFolded(foldedStacks(g)), treePaths(g));
        int64_t leaves = 0;
        for (const auto& [path, ns] : parseFolded(foldedStacks(g))) leaves += ns;
        QCOMPARE(leaves, g.root().valueNs);
    }
    void cliWritesTheFoldedStacks() {
        const QString dir = QStringLiteral(STACKLINE_TEST_DATA "/golden/rand_082");
        Run r = cli({"hotspots", dir + "/trace.json", "--kernel-info", dir + "/kernel_info.json",
                     "--folded"});
        QCOMPARE(r.code, 0);
        Trace t = loadTrace((dir + "/trace.json").toStdString());
        Provenance p =
            runProvenance(t, KernelInfo::load((dir + "/kernel_info.json").toStdString()));
        const std::string expected = foldedStacks(gpuFlameGraph(t, p));
        QVERIFY(!expected.empty());
        QCOMPARE(r.out.toStdString(), expected);
    }
    void nestsCpuSlicesByContainment() {
        // step [0, 100) holds fwd [10, 50) holding mm [20, 30), and bwd [60, 90); another step.
        Trace t = traceFrom(
            R"({"traceEvents": [
            {"ph": "X", "name": "step", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
            {"ph": "X", "name": "fwd", "pid": 1, "tid": 1, "ts": 10, "dur": 40},
            {"ph": "X", "name": "mm", "pid": 1, "tid": 1, "ts": 20, "dur": 10},
            {"ph": "X", "name": "bwd", "pid": 1, "tid": 1, "ts": 60, "dur": 30},
            {"ph": "X", "name": "step", "pid": 1, "tid": 1, "ts": 100, "dur": 50}]})");
        TrackIndex tracks = TrackIndex::build(t.events, t.metadata, 1);
        QCOMPARE(tracks.tracks().size(), std::size_t(1));
        FlameGraph g = cpuFlameGraph(t.events, tracks.tracks()[0]);
        QCOMPARE(QString::fromStdString(foldedStacks(g)),
                 QStringLiteral("step 80000\nstep;fwd 30000\nstep;fwd;mm 10000\nstep;bwd 30000\n"));
        QCOMPARE(g.root().valueNs, int64_t(150000));
        FlameGraph clipped = cpuFlameGraph(t.events, tracks.tracks()[0], {25000, 70000});
        QCOMPARE(clipped.root().valueNs, int64_t(45000));
        QCOMPARE(QString::fromStdString(foldedStacks(clipped)),
                 QStringLiteral("step 10000\nstep;fwd 20000\nstep;fwd;mm 5000\nstep;bwd 10000\n"));
    }
};

QTEST_APPLESS_MAIN(TstFlameGraph)
#include "tst_flame_graph.moc"
