// Counter series (CounterIndex): "ph": "C" series in HTA's augmented-counter shape, and Kineto's
// [memory] totals per device, on a hand-made trace and on a real one.
#include <QTest>

#include "import/trace_formats.h"
#include "model/counter_index.h"
#include "model/trace.h"
#include "model/track_index.h"

using namespace stackline;

namespace {

const CounterSeries* named(const CounterIndex& ix, std::string_view name) {
    for (const CounterSeries& s : ix.series())
        if (s.name == name) return &s;
    return nullptr;
}

}  // namespace

class TstCounterIndex : public QObject {
    Q_OBJECT
private slots:
    void counterEventsBecomeOneSeriesPerNameAndKey() {
        const Trace trace = loadTrace(STACKLINE_TEST_DATA "/counters/hta_counters.json");
        const TrackIndex tracks = TrackIndex::build(trace.events, trace.metadata, 1);
        const CounterIndex ix = CounterIndex::build(trace, tracks);
        QCOMPARE(ix.series().size(), size_t(6));

        const CounterSeries* queue = named(ix, "Queue Length queue_length");
        QVERIFY(queue);
        QCOMPARE(queue->ts, (std::vector<int64_t>{90000, 95000, 140000, 170000}));
        QCOMPARE(queue->value, (std::vector<double>{1, 2, 1, 0}));
        QCOMPARE(queue->min, 0.0);
        QCOMPARE(queue->max, 2.0);
        // CPU processes come first: pid 9 (counters only), then GPU 0's pid 0.
        QCOMPARE(tracks.processes()[queue->process].pid.value, int64_t(0));
        QVERIFY(!queue->memory);

        // Out of file order, sorted by time; the string arg makes no series.
        const CounterSeries* bw = named(ix, "Memory BW memory_bw_gbps");
        QVERIFY(bw);
        QCOMPARE(bw->ts, (std::vector<int64_t>{100000, 110000, 160000, 180000}));
        QCOMPARE(bw->value, (std::vector<double>{0, 12.5, 3.5, 0}));
        QCOMPARE(bw->max, 12.5);
        QVERIFY(!named(ix, "Memory BW label"));

        // Stepped: a value holds until the next point; nothing before the first.
        QVERIFY(!bw->valueAt(99999));
        QCOMPARE(*bw->valueAt(100000), 0.0);
        QCOMPARE(*bw->valueAt(159999), 12.5);
        QCOMPARE(*bw->valueAt(1000000), 0.0);
    }

    // A pid with counters only still gets a process for its graphs, and its points widen the
    // timeline's extent (the last is at 190 us, after every slice and instant).
    void counterOnlyPidsBecomeProcesses() {
        const Trace trace = loadTrace(STACKLINE_TEST_DATA "/counters/hta_counters.json");
        const TrackIndex tracks = TrackIndex::build(trace.events, trace.metadata, 1);
        const CounterIndex ix = CounterIndex::build(trace, tracks);
        const CounterSeries* cpu = named(ix, "CPU util percent");
        QVERIFY(cpu);
        QVERIFY(cpu->process != kNoProcess);
        const Process& process = tracks.processes()[cpu->process];
        QCOMPARE(process.pid.value, int64_t(9));
        QCOMPARE(process.name, std::string("node counters"));
        QVERIFY(process.tracks.empty());
        QCOMPARE(tracks.startNs(), int64_t(90000));
        QCOMPARE(tracks.endNs(), int64_t(190000));
    }

    // "s": "g" and "s": "p" instants, by time; the "s" of args or inside a name counts for none.
    void globalAndProcessInstantsAreScoped() {
        const Trace trace = loadTrace(STACKLINE_TEST_DATA "/counters/hta_counters.json");
        const TrackIndex tracks = TrackIndex::build(trace.events, trace.metadata, 1);
        const auto& scoped = tracks.scopedInstants();
        QCOMPARE(scoped.size(), size_t(2));
        QCOMPARE(trace.events.nameOf(scoped[0].row), std::string_view("phase change"));
        QCOMPARE(scoped[0].ts, int64_t(120000));
        QCOMPARE(tracks.processes()[scoped[0].process].pid.value, int64_t(0));
        QCOMPARE(trace.events.nameOf(scoped[1].row), std::string_view("checkpoint"));
        QCOMPARE(scoped[1].ts, int64_t(145000));
        QCOMPARE(scoped[1].process, kNoProcess);
    }

    void memoryEventsBecomeAllocatedAndReservedPerDevice() {
        const Trace trace = loadTrace(STACKLINE_TEST_DATA "/counters/hta_counters.json");
        const TrackIndex tracks = TrackIndex::build(trace.events, trace.metadata, 1);
        const CounterIndex ix = CounterIndex::build(trace, tracks);
        const CounterSeries* allocated = named(ix, "GPU 0 memory allocated");
        const CounterSeries* reserved = named(ix, "GPU 0 memory reserved");
        QVERIFY(allocated && reserved);
        QVERIFY(allocated->memory);
        QCOMPARE(allocated->value, (std::vector<double>{1024, 5120, 4096}));
        QCOMPARE(allocated->min, 1024.0);
        QCOMPARE(allocated->max, 5120.0);
        QCOMPARE(*allocated->valueAt(150000), 5120.0);
        QCOMPARE(reserved->min, 2097152.0);
        QCOMPARE(reserved->max, 2097152.0);
        QCOMPARE(ix.ofProcess(allocated->process).size(), size_t(5));

        // Old Kineto: only each event's Bytes, summed in time order from zero.
        const CounterSeries* net = named(ix, "CPU memory allocated (net)");
        QVERIFY(net && net->memory);
        QCOMPARE(net->ts, (std::vector<int64_t>{102000, 105000, 150000}));
        QCOMPARE(net->value, (std::vector<double>{16, 20, 4}));
        QCOMPARE(net->min, 4.0);
        QCOMPARE(net->max, 20.0);
    }

    // Figures computed with Python's json module from the trace.
    void memorySeriesOfARealTrace() {
        const Trace trace = loadTrace(
            STACKLINE_TEST_DATA "/corpus/h100_gaunernst_bert-small-uncased__1016001/trace.json.gz");
        const TrackIndex tracks = TrackIndex::build(trace.events, trace.metadata, 1);
        const CounterIndex ix = CounterIndex::build(trace, tracks);
        QCOMPARE(ix.series().size(), size_t(4));
        const CounterSeries* gpu = named(ix, "GPU 0 memory allocated");
        QVERIFY(gpu);
        QCOMPARE(gpu->ts.size(), size_t(218));
        QCOMPARE(gpu->min, 91360768.0);
        QCOMPARE(gpu->max, 101305344.0);
        QCOMPARE(gpu->value.front(), 91505152.0);
        QCOMPARE(gpu->value.back(), 91360768.0);
        QCOMPARE(gpu->ts.front(), int64_t(1419247333400919));
        const CounterSeries* reserved = named(ix, "GPU 0 memory reserved");
        QVERIFY(reserved);
        QCOMPARE(reserved->max, 121634816.0);
        const CounterSeries* cpu = named(ix, "CPU memory allocated");
        QVERIFY(cpu);
        QCOMPARE(cpu->ts.size(), size_t(18));
        QCOMPARE(cpu->max, 16.0);
        QVERIFY(gpu->process != kNoProcess);
        QCOMPARE(tracks.processes()[gpu->process].pid.value, int64_t(19392));
    }
};

QTEST_GUILESS_MAIN(TstCounterIndex)
#include "tst_counter_index.moc"
