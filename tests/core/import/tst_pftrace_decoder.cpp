// The Perfetto protobuf decoder on Cuspy-layout traces written from Kineto JSON by the test
// generator (tests/bench/cuspy_pftrace_writer.h): what it decodes matches the JSON (slices,
// launches and their GPU work, names, args, absolute times), gzip is sniffed whatever the name,
// begin/end pairs are found in Cuspy's grouped layout as in time-ordered ones, unknown packets and
// fields are skipped and counted, and truncated or corrupt input is refused naming the byte.
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>

#include "analysis/job_steps.h"
#include "base/errors.h"
#include "cuspy_pftrace_writer.h"
#include "import/perfetto/pftrace_decoder.h"
#include "import/perfetto/proto_fields.h"
#include "import/perfetto/slice_pairing.h"
#include "io/trace_bytes.h"
#include "model/event_args.h"
#include "test_support.h"

using namespace stackline;
using nlohmann::json;

namespace {

const std::string kData = STACKLINE_TEST_DATA;
const std::string kExample = std::string(STACKLINE_EXAMPLE) + "/example.pt.trace.json";

struct Written {
    Trace trace;
    bench::CuspyLayout layout;
    std::string bytes;
    pftrace::PftraceTable table;
};

Written written(const std::string& path) {
    Written w{loadTrace(path), {}, {}, {}};
    w.layout = bench::cuspyLayoutOf(w.trace, rankInfoOf(w.trace).baseTimeNs);
    w.bytes = bench::encodeCuspyPftrace(w.layout);
    w.table = pftrace::decodePftrace(w.bytes, path + ".pftrace");
    return w;
}

// JSON rows of a category that are complete events.
std::vector<uint32_t> rowsOf(const Trace& t, std::initializer_list<std::string_view> cats) {
    std::vector<uint32_t> rows;
    for (uint32_t r = 0; r < t.events.size(); ++r)
        if (t.events.phase[r] == 'X' &&
            std::find(cats.begin(), cats.end(), t.events.catOf(r)) != cats.end())
            rows.push_back(r);
    return rows;
}

// TrackEvents of a type, the bare slice ends (not rows) counted as ends.
uint32_t countType(const pftrace::TrackEvents& ev, uint8_t type) {
    const uint32_t bare = type == pftrace::track_event::kTypeSliceEnd ? ev.ends.size() : 0;
    return uint32_t(std::count(ev.type.begin(), ev.type.end(), type)) + bare;
}

// The args as Cuspy writes them (cuspy_pftrace.cpp emitJsonValue): a null becomes the string
// "null", and an empty list or dict writes no value at all, which reads back as null.
json asCuspyWrites(json v, bool top = true) {
    if (v.is_null()) return "null";
    if (v.is_structured() && v.empty() && !top) return nullptr;
    if (v.is_structured())
        for (auto& e : v) e = asCuspyWrites(e, false);
    return v;
}

// A Kineto trace of the given X events on one thread, for the pairing cases.
std::string threadTrace(const std::vector<std::tuple<const char*, double, double>>& slices) {
    std::string text = R"({"baseTimeNanoseconds": 1000000, "traceEvents": [)";
    bool first = true;
    for (const auto& [name, ts, dur] : slices) {
        text += std::string(first ? "" : ",") + R"({"ph":"X","cat":"cpu_op","name":")" + name +
                R"(","pid":1,"tid":1,"ts":)" + std::to_string(ts) + R"(,"dur":)" +
                std::to_string(dur) + "}";
        first = false;
    }
    return text + "]}";
}

pftrace::PftraceTable tableOf(const std::string& json, std::string* bytes = nullptr) {
    const Trace t = test::traceFrom(json);
    const std::string b =
        bench::encodeCuspyPftrace(bench::cuspyLayoutOf(t, rankInfoOf(t).baseTimeNs));
    if (bytes) *bytes = b;
    return pftrace::decodePftrace(b, "inline.pftrace");
}

// Every column of a decoded table as text, strings by their value: equal for equal tables
// whatever the order of their string pools.
std::string described(const pftrace::PftraceTable& t) {
    std::string out;
    auto add = [&](auto v) { out += std::to_string(v) + ","; };
    auto str = [&](uint32_t id) { out += std::string(t.strings.at(id)) + ","; };
    const pftrace::TrackEvents& e = t.events;
    for (uint32_t r = 0; r < e.size(); ++r) {
        add(e.offset[r]), add(e.length[r]), add(e.ts[r]), add(e.type[r]), add(e.track[r]);
        str(e.name[r]), str(e.category[r]), add(e.generation[r]), add(e.linkBegin[r + 1]);
        out += "\n";
    }
    for (const uint8_t a : e.annotated) add(a);
    for (const auto& [row, id] : e.externalIds) add(row), add(id);
    for (const uint64_t l : e.links) add(l);
    for (const auto* flows : {&e.flows, &e.terminatingFlows})
        for (const auto& [row, id] : *flows) add(row), add(id);
    for (const auto& [row, v] : e.counterValues) add(row), add(v);
    for (uint32_t i = 0; i < e.ends.size(); ++i)
        add(e.ends.ts[i]), add(e.ends.track[i]), add(e.ends.after[i]);
    const pftrace::RenderStages& s = t.stages;
    for (uint32_t r = 0; r < s.size(); ++r) {
        add(s.offset[r]), add(s.length[r]), add(s.ts[r]), add(s.duration[r]), add(s.eventId[r]);
        add(s.gpu[r]), add(s.queueIid[r]), add(s.stageIid[r]), str(s.queue[r]), str(s.stage[r]);
        str(s.name[r]), str(s.kernel[r]), add(s.generation[r]);
        out += "\n";
    }
    const pftrace::CounterSamples& c = t.counters;
    for (uint32_t r = 0; r < c.size(); ++r)
        add(c.ts[r]), add(c.gpu[r]), add(c.counterId[r]), str(c.name[r]), add(c.value[r]);
    for (const pftrace::Track& k : t.tracks)
        add(k.uuid), add(k.parent), add(int(k.kind)), add(k.pid), add(k.tid), str(k.name);
    for (const pftrace::AnnotationNames& g : t.generations) {
        for (const auto* m : {&g.names, &g.strings, &g.computeArgs}) {
            const std::map<uint64_t, uint32_t> sorted(m->begin(), m->end());
            for (const auto& [iid, id] : sorted) add(iid), str(id);
            out += "|";
        }
    }
    add(t.clock.present), add(t.clock.hasRealtime), add(t.clock.hasBoottime);
    add(t.clock.realtime), add(t.clock.boottime);
    const pftrace::DecodeStats& st = t.stats;
    add(st.packets), add(st.skippedNeedsIncrementalState), add(st.unresolvedIids);
    add(st.otherClockTimestamps), add(st.legacyTimestamps);
    for (const auto& [f, n] : st.unknownPackets) add(f), add(n);
    return out;
}

// name -> (begin ts, end ts) of each paired slice, in ns from the trace's base.
std::multimap<std::string, std::pair<int64_t, int64_t>> pairedSlices(const pftrace::PftraceTable& t,
                                                                     const pftrace::SlicePairs& p) {
    std::multimap<std::string, std::pair<int64_t, int64_t>> out;
    const int64_t base = int64_t(t.clock.realtime);
    for (size_t i = 0; i < p.begin.size(); ++i)
        out.emplace(
            std::string(t.strings.at(t.events.name[p.begin[i]])),
            std::pair{t.events.ts[p.begin[i]] - base, pftrace::endTs(t.events, p.end[i]) - base});
    return out;
}

// A packet (field 1 of the Trace) holding the given TracePacket bytes.
std::string packet(const std::string& body) {
    std::string out(1, '\x0a');
    uint64_t n = body.size();
    while (n >= 0x80) {
        out += char(0x80 | (n & 0x7f));
        n >>= 7;
    }
    out += char(n);
    return out + body;
}

}  // namespace

class TestPftraceDecoder : public QObject {
    Q_OBJECT

private slots:
    // The bundled example: every CPU op and runtime call a begin and an end, every kernel,
    // memcpy and GPU annotation a render stage, names, categories and args as in the JSON.
    void exampleMatchesItsJson() {
        const Written w = written(kExample);
        const pftrace::PftraceTable& t = w.table;
        const auto cpu = rowsOf(w.trace, {"cpu_op", "user_annotation", "python_function"});
        const auto api = rowsOf(w.trace, {"cuda_runtime", "cuda_driver"});
        const auto slices = uint32_t(cpu.size() + api.size());
        QCOMPARE(countType(t.events, pftrace::track_event::kTypeSliceBegin), slices);
        QCOMPARE(countType(t.events, pftrace::track_event::kTypeSliceEnd), slices);
        QCOMPARE(t.stats.packets,
                 uint64_t(1 + w.layout.tracks.size() + 1 + 2 * slices + t.stages.size()));
        std::map<std::string, int> stages;
        for (uint32_t i = 0; i < t.stages.size(); ++i)
            ++stages[std::string(t.strings.at(t.stages.stage[i]))];
        QCOMPARE(stages["Kernel"], 90);  // not 94: the 4 GPU annotations are stage 4
        QCOMPARE(stages["Memcpy"], 5);
        QCOMPARE(stages["Annotation"], 4);
        QVERIFY(t.clock.present && t.clock.hasRealtime && t.clock.hasBoottime);
        QCOMPARE(int64_t(t.clock.realtime), rankInfoOf(w.trace).baseTimeNs);
        QVERIFY(t.stats.unknownPackets.empty());
        QCOMPARE(t.stats.unresolvedIids, uint64_t(0));

        // CPU slices in JSON order: same name, category, absolute start and args.
        const int64_t base = int64_t(t.clock.realtime);
        uint32_t row = 0;
        for (const uint32_t r : cpu) {
            while (t.events.type[row] != pftrace::track_event::kTypeSliceBegin) ++row;
            QVERIFY(t.strings.at(t.events.name[row]) == w.trace.events.nameOf(r));
            QVERIFY(t.strings.at(t.events.category[row]) == w.trace.events.catOf(r));
            QCOMPARE(t.events.ts[row] - base, w.trace.events.tsNs(r));
            const json args = w.trace.args(r).object();
            QVERIFY(json(pftrace::trackEventArgs(t, w.bytes, row)) ==
                    asCuspyWrites(args.is_object() ? args : json::object()));
            ++row;
        }

        // Kernels: names and absolute times as in the JSON.
        std::multiset<std::pair<std::string, int64_t>> jsonKernels, stageKernels;
        for (const uint32_t r : rowsOf(w.trace, {"kernel"}))
            jsonKernels.emplace(w.trace.events.nameOf(r), w.trace.events.tsNs(r));
        for (uint32_t i = 0; i < t.stages.size(); ++i)
            if (t.strings.at(t.stages.stage[i]) == "Kernel") {
                QCOMPARE(t.stages.name[i], t.stages.kernel[i]);
                stageKernels.emplace(t.strings.at(t.stages.kernel[i]), t.stages.ts[i] - base);
            }
        QVERIFY(jsonKernels == stageKernels);
    }

    // Field 3000 links each launch to the render stage of its correlation id: as many links as
    // the JSON has ac2g flows from a launch to a kernel or memcpy, and each to the right one.
    void launchesLinkTheirGpuWork() {
        const Written w = written(kExample);
        const pftrace::PftraceTable& t = w.table;
        std::map<uint64_t, uint32_t> stageOf;
        for (uint32_t i = 0; i < t.stages.size(); ++i) stageOf[t.stages.eventId[i]] = i;
        uint32_t links = 0;
        for (uint32_t r = 0; r < t.events.size(); ++r) {
            const auto cat = t.strings.at(t.events.category[r]);
            if (t.events.linkBegin[r + 1] == t.events.linkBegin[r]) continue;
            QVERIFY(cat == "cuda_runtime" || cat == "cuda_driver");
            const json args = pftrace::trackEventArgs(t, w.bytes, r);
            QCOMPARE(args.size(), size_t(2));  // cbid and correlation only: no External id
            for (uint32_t k = t.events.linkBegin[r]; k < t.events.linkBegin[r + 1]; ++k) {
                QVERIFY(stageOf.count(t.events.links[k]));
                const json extra =
                    pftrace::renderStageExtraData(t, w.bytes, stageOf[t.events.links[k]]);
                QVERIFY(extra.value("correlation", "") ==
                        std::to_string(args["correlation"].get<int64_t>()));
                ++links;
            }
        }
        uint32_t flows = 0;  // ac2g finishes on a kernel or memcpy
        for (uint32_t r = 0; r < w.trace.events.size(); ++r)
            if (w.trace.events.phase[r] == 'f' && w.trace.events.catOf(r) == "ac2g") ++flows;
        QCOMPARE(links, flows);
        QCOMPARE(links, 95u);
        QVERIFY(t.events.flows.empty() && t.events.terminatingFlows.empty());
    }

    // The same checks of counts on every golden case and on corpus traces.
    void generatedTracesMatchTheirJson_data() {
        QTest::addColumn<QString>("path");
        for (const auto& e : std::filesystem::directory_iterator(kData + "/golden"))
            if (std::filesystem::exists(e.path() / "trace.json"))
                QTest::newRow(e.path().filename().c_str())
                    << QString::fromStdString((e.path() / "trace.json").string());
        for (const char* name :
             {"torch_compile_triton_trace", "triton_example",
              "mi300_gaunernst_bert-small-uncased__1016001", "event_sync_multi_stream_trace"}) {
            for (const auto& e : std::filesystem::directory_iterator(kData + "/corpus/" + name))
                if (e.path().filename().string().rfind("trace.json", 0) == 0)
                    QTest::newRow(name) << QString::fromStdString(e.path().string());
        }
    }
    void generatedTracesMatchTheirJson() {
        QFETCH(QString, path);
        std::optional<Written> loaded;
        try {
            loaded = written(path.toStdString());
        } catch (const InputError& e) {
            QSKIP(e.what());  // a golden case that is bad input on purpose
        }
        const Written& w = *loaded;
        const pftrace::PftraceTable& t = w.table;
        const uint64_t slices = w.layout.cpuSlices + w.layout.apiSlices;
        uint64_t overhead = 0;
        for (const auto& g : w.layout.groups) overhead += g.size();
        QCOMPARE(uint64_t(countType(t.events, pftrace::track_event::kTypeSliceBegin)), overhead);
        QVERIFY(overhead >= slices);
        QCOMPARE(uint64_t(t.stages.size()),
                 w.layout.kernels_ + w.layout.memcpys + w.layout.memsets + w.layout.annotations);
        QCOMPARE(uint64_t(rowsOf(w.trace, {"kernel", "Kernel"}).size()), w.layout.kernels_);
        const pftrace::SlicePairs pairs = pftrace::pairSlices(t.events);
        QCOMPARE(uint64_t(pairs.begin.size()), overhead);
        QVERIFY(pairs.unmatchedEnds.empty() && pairs.unclosedBegins.empty());
        QCOMPARE(t.stats.unresolvedIids, uint64_t(0));
    }

    // Begins of a group first, then its ends: touching slices and equal timestamps pair by the
    // group (by time, the touching ones would pair wrongly); a time-ordered layout pairs by time.
    void touchingSlicesAndEqualTimestampsPair() {
        const pftrace::PftraceTable t = tableOf(threadTrace(
            {{"A", 0, 10}, {"B", 10, 10}, {"C", 10, 0}, {"D", 15, 0}, {"E", 20, 5}, {"F", 20, 5}}));
        const pftrace::SlicePairs p = pftrace::pairSlices(t.events);
        QCOMPARE(p.groupedPairs, uint64_t(6));
        const auto got = pairedSlices(t, p);
        const std::multimap<std::string, std::pair<int64_t, int64_t>> want = {
            {"A", {0, 10000}},     {"B", {10000, 20000}}, {"C", {10000, 10000}},
            {"D", {15000, 15000}}, {"E", {20000, 25000}}, {"F", {20000, 25000}}};
        QVERIFY(got == want);

        // The same slices as a time-ordered writer emits them (an end before the next begin).
        pftrace::TrackEvents ordered;
        auto add = [&](uint8_t type, int64_t ts, uint32_t name) {
            ordered.offset.push_back(0);  // a row is counted by its bytes' span
            ordered.ts.push_back(ts);
            ordered.type.push_back(type);
            ordered.track.push_back(1);
            ordered.name.push_back(name);
        };
        add(1, 0, 1), add(2, 10, 0), add(1, 10, 2), add(1, 10, 3), add(2, 10, 0), add(2, 20, 0);
        const pftrace::SlicePairs q = pftrace::pairSlices(ordered);
        QCOMPARE(q.timedPairs, uint64_t(3));
        QCOMPARE(q.begin, (std::vector<uint32_t>{0, 2, 3}));
        QCOMPARE(q.end, (std::vector<uint32_t>{1, 5, 4}));

        // The same, its ends bare (kept apart, each after the rows before it): they pair the
        // same, as codes past the rows (rows + their index).
        pftrace::TrackEvents bare;
        auto row = [&](int64_t ts, uint32_t name) {
            bare.offset.push_back(0), bare.ts.push_back(ts), bare.type.push_back(1);
            bare.track.push_back(1), bare.name.push_back(name);
        };
        auto end = [&](int64_t ts) {
            bare.ends.ts.push_back(ts), bare.ends.track.push_back(1);
            bare.ends.after.push_back(bare.size());
        };
        row(0, 1), end(10), row(10, 2), row(10, 3), end(10), end(20);
        const pftrace::SlicePairs b = pftrace::pairSlices(bare);
        QCOMPARE(b.timedPairs, uint64_t(3));
        QCOMPARE(b.begin, (std::vector<uint32_t>{0, 1, 2}));
        QCOMPARE(b.end, (std::vector<uint32_t>{3, 5, 4}));
        QCOMPARE(pftrace::endTs(bare, b.end[1]), int64_t(20));
    }

    // Unknown packets are skipped and counted by field; unknown fields inside a TrackEvent are
    // skipped; a packet needing incremental state before any clear is skipped and counted.
    void unknownPacketsAndFieldsAreSkipped() {
        std::string bytes;
        tableOf(threadTrace({{"A", 0, 10}}), &bytes);
        // TracePacket { for_testing (900): "x" }, { 77: varint 5 }
        std::string extra =
            packet(std::string("\xa2\x38\x01x", 4)) + packet(std::string("\xea\x04\x01y", 4));
        // TrackEvent with an unknown field 5000 (varint) and 4999 (bytes) before its type.
        const std::string te = std::string("\xc0\xb8\x02\x07", 4) +
                               std::string("\xba\xb8\x02\x02hi", 6) + "\x48\x03" +
                               "\x58\x02";  // type INSTANT, track_uuid 2
        extra += packet("\x40\x05\x50\x01\x5a" + std::string(1, char(te.size())) + te);
        // Needs incremental state on sequence 9, never cleared.
        extra += packet(std::string("\x40\x05\x50\x09\x68\x02\x5a\x02\x48\x03", 10));
        const pftrace::PftraceTable t = pftrace::decodePftrace(bytes + extra, "x.pftrace");
        QCOMPARE(t.stats.unknownPackets.at(900), uint64_t(1));
        QCOMPARE(t.stats.unknownPackets.at(77), uint64_t(1));
        QCOMPARE(t.stats.skippedNeedsIncrementalState, uint64_t(1));
        QCOMPARE(t.events.type.back(), uint8_t(pftrace::track_event::kTypeInstant));
        QCOMPARE(t.events.track.back(), uint64_t(2));
        // A top-level field other than packets (Trace has only field 1) is skipped too.
        const pftrace::PftraceTable u = pftrace::decodePftrace("\x10\x05" + bytes, "y.pftrace");
        QCOMPARE(u.events.size(), t.events.size() - 1);
    }

    // Every prefix of a trace either decodes (at a packet boundary) or is refused naming the
    // byte; flipped bytes never crash, and args of what decodes are read or refused.
    void truncatedAndCorruptInputIsRefused() {
        const Written w = written(kExample);
        std::set<uint64_t> boundaries{0};
        for (uint64_t at = 0; at < w.bytes.size();) {
            size_t i = at + 1;
            uint64_t n = 0;
            for (unsigned shift = 0;; shift += 7) {
                const auto b = uint8_t(w.bytes[i++]);
                n |= uint64_t(b & 0x7f) << shift;
                if (!(b & 0x80)) break;
            }
            at = i + n;
            boundaries.insert(at);
        }
        for (uint64_t cut = 0; cut < w.bytes.size(); cut += (cut < 120 ? 1 : 307)) {
            try {
                pftrace::decodePftrace(std::string_view(w.bytes).substr(0, cut), "cut.pftrace");
                QVERIFY2(boundaries.count(cut), qPrintable(QString::number(cut)));
            } catch (const InputError& e) {
                QVERIFY(!boundaries.count(cut));
                QVERIFY2(std::string(e.what()).rfind("cut.pftrace: byte ", 0) == 0, e.what());
            }
        }
        uint32_t refused = 0;
        for (uint64_t at = 0; at < w.bytes.size(); at += 307) {
            std::string bad = w.bytes;
            bad[at] = char(bad[at] ^ (0x80 | (at & 0x7f)));
            try {
                const pftrace::PftraceTable t = pftrace::decodePftrace(bad, "bad.pftrace");
                for (uint32_t r = 0; r < t.events.size(); ++r) pftrace::trackEventArgs(t, bad, r);
                for (uint32_t r = 0; r < t.stages.size(); ++r)
                    pftrace::renderStageExtraData(t, bad, r);
            } catch (const InputError& e) {
                QVERIFY2(std::string(e.what()).find(": byte ") != std::string::npos, e.what());
                ++refused;
            }
        }
        QVERIFY(refused > 0);
    }

    // Decoded in ranges on threads, a stream gives the table the whole-stream decoder gives:
    // across cuts that fall after a clear, inside a later generation of the same sequence,
    // after packets skipped for want of state, and with the same first error when corrupt; its
    // merged columns grow once.
    void rangesDecodeAsTheWholeStream() {
        const Written w = written(kExample);
        std::string other;
        tableOf(threadTrace({{"A", 0, 10}, {"B", 10, 5}}), &other);
        const std::string needsState =
            packet(std::string("\x40\x05\x50\x09\x68\x02\x5a\x02\x48\x03", 10));
        const std::string bytes = w.bytes + needsState + other + w.bytes + needsState;
        const pftrace::PftraceTable whole = pftrace::decodePftrace(bytes, "r.pftrace");
        QCOMPARE(whole.generations.size(), size_t(3));
        for (const unsigned threads : {2u, 3u, 7u}) {
            const pftrace::PftraceTable t = pftrace::decodePftrace(bytes, "r.pftrace", threads, 1);
            QCOMPARE(described(t), described(whole));
            // The merged columns were reserved once for the rows of every range: none outgrew it.
            QCOMPARE(t.events.ts.capacity(), t.events.ts.size());
            QCOMPARE(t.stages.ts.capacity(), t.stages.ts.size());
        }
        for (uint64_t at = 5; at < bytes.size(); at += 2999) {
            std::string bad = bytes;
            bad[at] = char(bad[at] ^ (0x80 | (at & 0x7f)));
            std::string serial = "decoded", chunked = "decoded";
            try {
                serial = described(pftrace::decodePftrace(bad, "bad.pftrace"));
            } catch (const InputError& e) {
                serial = e.what();
            }
            try {
                chunked = described(pftrace::decodePftrace(bad, "bad.pftrace", 4, 1));
            } catch (const InputError& e) {
                chunked = e.what();
            }
            QCOMPARE(chunked, serial);
        }
    }

    // Gzip framing is found by its bytes whatever the name, and the inflated trace is the raw one.
    void gzipIsSniffedWhateverTheName() {
        QTemporaryDir dir;
        const Written w = written(kExample);
        for (const char* name : {"a.pftrace", "a.pftrace.gz", "a.pb"}) {
            const std::string path = dir.filePath(name).toStdString();
            bench::writeCuspyPftrace(w.layout, path, {});
            const TraceBytes b = TraceBytes::open(path);
            QVERIFY(b.wasCompressed());
            QVERIFY(b.text() == w.bytes);
            QVERIFY(pftrace::looksLikePftrace(b.text().substr(0, 64)));
        }
        QVERIFY(!pftrace::looksLikePftrace(R"({"traceEvents": []})"));
        QVERIFY(!pftrace::looksLikePftrace(" [\n"));
        QVERIFY(!pftrace::looksLikePftrace(
            "\n{\n  \"traceEvents\": [\n    {\"ph\": \"X\", \"name\": \"a\"}]}"));
    }
};

QTEST_APPLESS_MAIN(TestPftraceDecoder)
#include "tst_pftrace_decoder.moc"
