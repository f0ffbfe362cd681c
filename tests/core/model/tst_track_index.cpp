// The core's display indexes: tracks, levels, names and order (TrackIndex) and flow binding
// (FlowIndex), on the compiled_step fixture and small fixtures for the corner cases.
#include <QTest>
#include <algorithm>
#include <map>
#include <random>
#include <string>

#include "import/trace_formats.h"
#include "io/trace_bytes.h"
#include "model/flow_index.h"
#include "model/trace.h"
#include "model/track_index.h"

using namespace stackline;

namespace {

uint32_t rowNamed(const EventTable& ev, std::string_view name, std::string_view cat = {}) {
    for (uint32_t r = 0; r < ev.size(); ++r)
        if (ev.nameOf(r) == name && (cat.empty() || ev.catOf(r) == cat)) return r;
    return UINT32_MAX;
}

}  // namespace

class TstTrackIndex : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        trace_ = loadTrace(STACKLINE_VIEWER_DATA "/compiled_step.pt.trace.json");
        tracks_ = TrackIndex::build(trace_.events, trace_.metadata, 2);
    }

    void tracksAreNamedAndOrderedByMetadata() {
        const auto& procs = tracks_.processes();
        QCOMPARE(procs.size(), size_t(3));
        QCOMPARE(procs[0].label(), std::string("CPU · python3.11 (pid 4242)"));
        QCOMPARE(procs[1].label(), std::string("GPU 0"));
        QCOMPARE(procs[2].label(), std::string("Spans"));
        QVERIFY(procs[1].gpu);
        const auto& tr = tracks_.tracks();
        QCOMPARE(tr[procs[0].tracks[0]].name, std::string("thread 4242 (python3.11)"));
        QCOMPARE(tr[procs[0].tracks[1]].name, std::string("thread 4250 (pt_autograd_0)"));
        // Kineto writes "stream 7 " with a trailing space.
        QCOMPARE(tr[procs[1].tracks[0]].name, std::string("stream 7"));
        QCOMPARE(tr[procs[1].tracks[1]].name, std::string("stream 20"));
    }

    void nestedSlicesStackByDepth() {
        const EventTable& ev = trace_.events;
        QCOMPARE(tracks_.levelOf(rowNamed(ev, "ProfilerStep#3")), uint16_t(0));
        QCOMPARE(tracks_.levelOf(rowNamed(ev, "Torch-Compiled Region: 0/0")), uint16_t(1));
        QCOMPARE(tracks_.levelOf(rowNamed(ev, "CompiledFunction")), uint16_t(2));
        const uint32_t launcher = rowNamed(ev, "triton_poi_fused_gelu_0", "cpu_op");
        QCOMPARE(tracks_.levelOf(launcher), uint16_t(3));
        const std::vector<uint32_t> outer = tracks_.enclosing(launcher);
        QCOMPARE(outer.size(), size_t(3));
        QCOMPARE(ev.nameOf(outer[0]), std::string_view("CompiledFunction"));
        QCOMPARE(ev.nameOf(outer[2]), std::string_view("ProfilerStep#3"));
    }

    void overlappingKernelsGetTheirOwnRow() {
        const EventTable& ev = trace_.events;
        const uint32_t a = rowNamed(ev, "ncclDevKernel_AllReduce_Sum_f32");
        const uint32_t b = rowNamed(ev, "ncclDevKernel_Broadcast");
        QCOMPARE(tracks_.trackOf(a), tracks_.trackOf(b));
        QCOMPARE(tracks_.levelOf(a), uint16_t(0));
        QCOMPARE(tracks_.levelOf(b), uint16_t(1));
        QCOMPARE(tracks_.tracks()[tracks_.trackOf(a)].sliceCount, 2u);
    }

    void instantsHaveTheirOwnList() {
        const uint32_t mem = rowNamed(trace_.events, "[memory]");
        QVERIFY(tracks_.isInstant(mem));
        QCOMPARE(tracks_.tracks()[tracks_.trackOf(mem)].instantRow.size(), size_t(1));
    }

    void flowsLinkKernelsToLaunchesAndRegions() {
        const EventTable& ev = trace_.events;
        const FlowIndex flows = FlowIndex::build(ev, tracks_);
        const uint32_t kernel = rowNamed(ev, "triton_poi_fused_gelu_0", "kernel");
        const uint32_t launch = flows.sourceOf(kernel);
        QVERIFY(launch != UINT32_MAX);
        QCOMPARE(ev.nameOf(launch), std::string_view("cuLaunchKernel"));
        QCOMPARE(ev.tsNs(launch),
                 ev.tsNs(rowNamed(ev, "triton_poi_fused_gelu_0", "cpu_op")) + 10000);
        const uint32_t region = compiledRegionOf(ev, tracks_, launch);
        QCOMPARE(ev.nameOf(region), std::string_view("Torch-Compiled Region: 0/0"));
        // fwdbwd ids (1) and ac2g ids live in separate spaces; the fwd-bwd link is there too.
        const uint32_t bwd = rowNamed(ev, "CompiledFunctionBackward");
        QCOMPARE(ev.nameOf(flows.sourceOf(bwd)), std::string_view("CompiledFunction"));
        // The backward kernel's region is CompiledFunctionBackward on the autograd thread.
        const uint32_t bwKernel = rowNamed(ev, "triton_poi_fused_gelu_backward_2", "kernel");
        QCOMPARE(compiledRegionOf(ev, tracks_, flows.sourceOf(bwKernel)), bwd);
        QCOMPARE(flows.unboundCount(), 0u);
    }

    void legacyStringTidsEqualInts() {
        // 2021 traces: the slice has tid "24572", its flow event the int 24572.
        Trace t = loadTrace(STACKLINE_TEST_DATA "/track_index/legacy_tids.json");
        const TrackIndex ix = TrackIndex::build(t.events, t.metadata, 1);
        QCOMPARE(ix.tracks().size(), size_t(2));
        QCOMPARE(ix.trackOf(0), ix.trackOf(4));
        QCOMPARE(ix.levelOf(0), uint16_t(1));  // inside "op"
        QCOMPARE(ix.tracks()[ix.trackOf(2)].name, std::string("stream 7"));
        QVERIFY(ix.processes()[ix.tracks()[ix.trackOf(2)].process].gpu);
        const FlowIndex flows = FlowIndex::build(t.events, ix);
        QCOMPARE(flows.sourceOf(2), 0u);
    }

    void flowsBindByPlaceNotFilePosition() {
        // Post-processed traces put all flows at the end, finish before start.
        Trace t = loadTrace(STACKLINE_TEST_DATA "/track_index/moved_flows.json");
        const TrackIndex ix = TrackIndex::build(t.events, t.metadata, 1);
        const FlowIndex flows = FlowIndex::build(t.events, ix);
        QCOMPARE(flows.sourceOf(2), 0u);  // the deepest slice starting at ts, not aten::mm
        QCOMPARE(flows.links().size(), size_t(1));
        QCOMPARE(flows.unboundCount(), 1u);  // the fwdbwd start has no finish
    }

    void zeroLengthAndEqualStarts() {
        Trace t = loadTrace(STACKLINE_TEST_DATA "/track_index/zero_length.json");
        const TrackIndex ix = TrackIndex::build(t.events, t.metadata, 1);
        QCOMPARE(ix.levelOf(0), uint16_t(0));
        QCOMPARE(ix.levelOf(2), uint16_t(1));
        QCOMPARE(ix.levelOf(3), uint16_t(0));
        // Slices on one level never overlap, so both arrays stay sorted.
        for (const TrackLevel& l : ix.tracks()[0].levels) {
            QVERIFY(std::is_sorted(l.start.begin(), l.start.end()));
            QVERIFY(std::is_sorted(l.end.begin(), l.end.end()));
        }
    }

    // The same slices in file orders of one, two (ops, then their Python frames, as with_stack
    // traces have them), seven and many sorted runs: the same levels.
    void levelsDoNotDependOnFileOrder() {
        struct Slice {
            std::string name;
            int64_t ts, dur;
        };
        std::vector<Slice> frames, ops;
        for (int i = 0; i < 300; ++i) {
            const int64_t t = i * 100;
            frames.push_back({"frame" + std::to_string(i), t, 90});
            frames.push_back({"inner" + std::to_string(i), t + 5, 60});
            ops.push_back({"op" + std::to_string(i), t + 10, 20 + i % 3});
            ops.push_back({"zero" + std::to_string(i), t + 10, 0});
        }
        auto levelsOf = [](const std::vector<Slice>& order) {
            std::string json = "{\"traceEvents\": [";
            for (size_t i = 0; i < order.size(); ++i)
                json += std::string(i ? "," : "") +
                        "{\"ph\": \"X\", \"pid\": 1, \"tid\": 1, \"name\": \"" + order[i].name +
                        "\", \"ts\": " + std::to_string(order[i].ts) +
                        ", \"dur\": " + std::to_string(order[i].dur) + "}";
            const Trace t = parseTrace(TraceBytes::fromString(json + "]}"), "order.json");
            const TrackIndex ix = TrackIndex::build(t.events, t.metadata, 1);
            std::map<std::string, uint16_t> levels;
            for (uint32_t r = 0; r < t.events.size(); ++r)
                levels[std::string(t.events.nameOf(r))] = ix.levelOf(r);
            return levels;
        };
        std::vector<Slice> sorted;
        for (size_t i = 0; i < frames.size() / 2; ++i)
            for (const Slice* s :
                 {&frames[2 * i], &frames[2 * i + 1], &ops[2 * i], &ops[2 * i + 1]})
                sorted.push_back(*s);
        const auto expected = levelsOf(sorted);
        QCOMPARE(expected.at("frame7"), uint16_t(0));
        QCOMPARE(expected.at("inner7"), uint16_t(1));
        QCOMPARE(expected.at("op7"), uint16_t(2));
        std::vector<Slice> twoBlocks = ops;
        twoBlocks.insert(twoBlocks.end(), frames.begin(), frames.end());
        QCOMPARE(levelsOf(twoBlocks), expected);
        std::vector<Slice> sevenBlocks;
        for (int b = 0; b < 7; ++b)
            for (size_t i = size_t(b); i < sorted.size(); i += 7) sevenBlocks.push_back(sorted[i]);
        QCOMPARE(levelsOf(sevenBlocks), expected);
        std::vector<Slice> shuffled = sorted;
        std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937(3));
        QCOMPARE(levelsOf(shuffled), expected);
    }

    // Random slices with many equal bounds, zero lengths and overlaps without nesting: the levels
    // are those of the plain definition (one level below the innermost open slice that ends at or
    // after this one, or the first level below it that is free), which takes quadratic time.
    void levelsMatchTheDefinition() {
        struct Slice {
            int64_t ts, dur;
            uint32_t row;
        };
        std::mt19937 rng(11);
        for (int round = 0; round < 40; ++round) {
            std::vector<Slice> slices;
            const int n = 50 + int(rng() % 400);
            const int span = 4 + int(rng() % 60);
            for (int i = 0; i < n; ++i) {
                const int64_t ts = rng() % uint32_t(span);
                const int64_t dur = rng() % 3 == 0 ? 0 : int64_t(rng() % uint32_t(span / 2 + 1));
                slices.push_back({ts, dur, uint32_t(i)});
            }
            std::string json = "{\"traceEvents\": [";
            for (size_t i = 0; i < slices.size(); ++i)
                json += std::string(i ? "," : "") +
                        "{\"ph\": \"X\", \"pid\": 1, \"tid\": 1, \"name\": \"s\", \"ts\": " +
                        std::to_string(slices[i].ts) +
                        ", \"dur\": " + std::to_string(slices[i].dur) + "}";
            const Trace t = parseTrace(TraceBytes::fromString(json + "]}"), "random.json");
            const TrackIndex ix = TrackIndex::build(t.events, t.metadata, 1);

            std::sort(slices.begin(), slices.end(), [](const Slice& a, const Slice& b) {
                if (a.ts != b.ts) return a.ts < b.ts;
                if (a.dur != b.dur) return a.dur > b.dur;
                return a.row < b.row;
            });
            struct Open {
                int64_t start, end;
                uint32_t level;
            };
            std::vector<Open> open;
            std::vector<int64_t> levelEnd;
            for (const Slice& s : slices) {
                const int64_t end = s.ts + s.dur;
                const bool zero = s.dur == 0;
                std::erase_if(open, [&](const Open& o) {
                    return !(o.end > s.ts || (zero && o.end == s.ts && o.start < s.ts));
                });
                uint32_t level = 0;
                for (auto it = open.rbegin(); it != open.rend(); ++it)
                    if (it->end >= end) {
                        level = it->level + 1;
                        break;
                    }
                while (level < levelEnd.size() && levelEnd[level] > s.ts) ++level;
                if (level >= levelEnd.size()) levelEnd.resize(level + 1);
                levelEnd[level] = end;
                open.push_back({s.ts, end, level});
                QCOMPARE(ix.levelOf(s.row), uint16_t(level));
            }
            QCOMPARE(ix.tracks()[0].levels.size(), levelEnd.size());
        }
    }

    // The one-sweep answer for every row equals the first marked row of enclosing(), which the
    // row-by-row search finds too, on random slices (equal bounds, zero lengths, overlaps) and
    // instants, with random rows marked.
    void innermostEnclosingMatchesEnclosing() {
        std::mt19937 rng(5);
        for (int round = 0; round < 30; ++round) {
            std::string json = "{\"traceEvents\": [";
            const int n = 50 + int(rng() % 300);
            const int span = 4 + int(rng() % 40);
            for (int i = 0; i < n; ++i) {
                const int64_t ts = rng() % uint32_t(span);
                const bool instant = rng() % 8 == 0;
                const uint32_t dur = rng() % 3 == 0 ? 0 : rng() % uint32_t(span);
                json += std::string(i ? "," : "") + "{\"ph\": \"" + (instant ? "i" : "X") +
                        "\", \"pid\": 1, \"tid\": " + std::to_string(1 + rng() % 2) +
                        ", \"name\": \"s\", \"ts\": " + std::to_string(ts) +
                        (instant ? std::string() : ", \"dur\": " + std::to_string(dur)) + "}";
            }
            const Trace t = parseTrace(TraceBytes::fromString(json + "]}"), "random.json");
            const TrackIndex ix = TrackIndex::build(t.events, t.metadata, 1);
            std::vector<uint8_t> marked(t.events.size());
            for (uint8_t& m : marked) m = rng() % 3 == 0;
            const std::vector<uint32_t> all = ix.innermostEnclosingAll(marked);
            for (uint32_t r = 0; r < t.events.size(); ++r) {
                const std::vector<uint32_t> around = ix.enclosing(r);
                const auto it = std::find_if(around.begin(), around.end(),
                                             [&](uint32_t e) { return marked[e] != 0; });
                const uint32_t expected = it == around.end() ? kNoRow : *it;
                QCOMPARE(all[r], expected);
                size_t passed = 0;
                QCOMPARE(ix.innermostEnclosing(
                             r, [&](uint32_t e) { return marked[e] != 0; }, passed),
                         expected);
            }
        }
    }

    void firstEndingMatchesLinearScan() {
        TrackLevel l;
        std::mt19937 rng(7);
        int64_t t = 0;
        for (int i = 0; i < 5000; ++i) {
            t += rng() % 50;
            l.start.push_back(t);
            t += rng() % 50;
            l.end.push_back(t);
            l.row.push_back(uint32_t(i));
        }
        l.finish();
        for (int k = 0; k < 2000; ++k) {
            const int64_t q = int64_t(rng() % uint32_t(t + 100)) - 50;
            const size_t from = rng() % 5000;
            size_t expect = from;
            while (expect < l.size() && l.end[expect] < q) ++expect;
            QCOMPARE(l.firstEndingAtOrAfter(q, from), expect);
        }
    }

private:
    Trace trace_;
    TrackIndex tracks_;
};

QTEST_GUILESS_MAIN(TstTrackIndex)
#include "tst_track_index.moc"
