// The Perfetto protobuf reader behind the format table, on Cuspy-layout traces the test generator
// (tests/bench/cuspy_pftrace_writer.h) writes from Kineto JSON: the events, tracks, launch links,
// args and base time the model gets equal the JSON's where Cuspy writes them; touching slices and
// equal timestamps keep their extents and nest parents first; unknown packets are skipped; a
// truncated or corrupt file is refused naming the file and byte.
#include <QTest>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "analysis/job_steps.h"
#include "annotate/provenance.h"
#include "base/errors.h"
#include "cuspy_pftrace_writer.h"
#include "import/perfetto/proto_fields.h"
#include "import/trace_formats.h"
#include "model/event_args.h"
#include "model/kineto.h"
#include "test_support.h"

using namespace stackline;
using nlohmann::json;

namespace {

const std::string kExample = std::string(STACKLINE_EXAMPLE) + "/example.pt.trace.json";

std::string pftraceOf(const Trace& t) {
    return bench::encodeCuspyPftrace(bench::cuspyLayoutOf(t, rankInfoOf(t).baseTimeNs));
}

Trace readBytes(const std::string& bytes, const std::string& name = "inline.pftrace") {
    return parseTrace(TraceBytes::fromString(bytes), name);
}

// (cat, name, pid, tid, ts bits, dur ns) of the X events of these categories.
using Slice = std::tuple<std::string, std::string, std::string, std::string, uint64_t, int64_t>;
std::multiset<Slice> slices(const Trace& t, std::initializer_list<std::string_view> cats) {
    std::multiset<Slice> out;
    const EventTable& e = t.events;
    for (uint32_t r = 0; r < e.size(); ++r)
        if (e.phase[r] == 'X' && std::find(cats.begin(), cats.end(), e.catOf(r)) != cats.end())
            out.emplace(e.catOf(r), e.nameOf(r), e.keys.describe(e.pid[r]),
                        e.keys.describe(e.tid[r]), e.tsBits[r], e.durNs(r));
    return out;
}

// (launch name, launch ts) -> (GPU op name, its ts) of every ac2g flow: each flow event binds to
// the event before it, as the provenance processor reads them.
std::set<std::pair<std::pair<std::string, uint64_t>, std::pair<std::string, uint64_t>>> launches(
    const Trace& t) {
    const EventTable& e = t.events;
    std::map<int64_t, std::pair<std::string, uint64_t>> src, dst;
    size_t at = 0;
    for (uint32_t r = 1; r < e.size(); ++r) {
        if (!kineto::isLaunchFlow(e.catOf(r)) || e.kinds[r].flowId != FlowIdStatus::Ok) continue;
        const int64_t id = e.flowIds.at(r, 0, at);
        // A memcpy by its stage's name (Cuspy writes none of its own).
        const bool memcpy = e.catOf(r - 1) == "gpu_memcpy";
        (e.phase[r] == 's' ? src : dst)[id] = {memcpy ? "Memcpy" : std::string(e.nameOf(r - 1)),
                                               e.tsBits[r - 1]};
    }
    std::set<std::pair<std::pair<std::string, uint64_t>, std::pair<std::string, uint64_t>>> out;
    for (const auto& [id, s] : src)
        if (auto d = dst.find(id); d != dst.end()) out.emplace(s, d->second);
    return out;
}

std::string threadTrace(const std::vector<std::tuple<const char*, double, double>>& list) {
    std::string text = R"({"baseTimeNanoseconds": 1000000, "traceEvents": [)";
    bool first = true;
    for (const auto& [name, ts, dur] : list) {
        text += std::string(first ? "" : ",") + R"({"ph":"X","cat":"cpu_op","name":")" + name +
                R"(","pid":1,"tid":1,"ts":)" + std::to_string(ts) + R"(,"dur":)" +
                std::to_string(dur) + "}";
        first = false;
    }
    return text + "]}";
}

// Protobuf by hand, for the generic TrackEvent layout (field numbers: proto_fields.h).
std::string varint(uint64_t v) {
    std::string out;
    for (; v >= 0x80; v >>= 7) out += char(0x80 | (v & 0x7F));
    return out + char(v);
}
std::string field(uint32_t number, uint64_t v) {
    return varint(uint64_t(number) << 3) + varint(v);
}
std::string field(uint32_t number, const std::string& bytes) {
    return varint(uint64_t(number) << 3 | 2) + varint(bytes.size()) + bytes;
}
std::string fixed64(uint32_t number, uint64_t v) {
    std::string out = varint(uint64_t(number) << 3 | 1);
    for (int i = 0; i < 8; ++i) out += char((v >> (8 * i)) & 0xFF);
    return out;
}
std::string packetOf(const std::string& body) {
    return field(1, body);
}

// Two generations of one sequence, each cleared with debug annotation name iid 1 = its name,
// then a slice on track 5 annotated name_iid 1, int 7 (ts 100 and 300, 50 ns each).
std::string twoGenerations(const char* first, const char* second) {
    auto bytes = [](std::string b) { return std::string(1, char(b.size())) + b; };
    std::string trace;
    for (const auto& [name, ts] : {std::pair(first, 100), std::pair(second, 300)}) {
        const std::string names = "\x1a" + bytes("\x08\x01\x12" + bytes(name));
        trace += "\x0a" + bytes("\x50\x01\x68\x01\x62" + bytes(names));
        const std::string annotation = "\x22" + bytes("\x08\x01\x20\x07");
        const std::string begin = "\x48\x01\x58\x05\xba\x01" + bytes("op") + annotation;
        for (const auto& [t, event] :
             {std::pair(ts, begin), std::pair(ts + 50, std::string("\x48\x02\x58\x05"))})
            trace += "\x0a" +
                     bytes("\x40" + std::string(1, char((t & 0x7f) | 0x80)) +
                           std::string(1, char(t >> 7)) + "\x50\x01\x68\x02\x5a" + bytes(event));
    }
    return trace;
}

}  // namespace

class TestPftraceReader : public QObject {
    Q_OBJECT

private slots:
    // Every CPU op, annotation, runtime call, kernel, memcpy and GPU annotation of the bundled
    // example, with the JSON's category, name (a memcpy's aside), pid, tid, ts and dur; 90 kernels
    // (the 4 GPU annotations are not kernels); every launch linked to its kernel as in the JSON.
    void exampleReadsAsItsJson() {
        const Trace source = loadTrace(kExample);
        const Trace pf = readBytes(pftraceOf(source));
        QCOMPARE(pf.format, std::string_view("perfetto"));
        QCOMPARE(pf.metadata.baseTimeNs, source.metadata.baseTimeNs);
        QVERIFY(slices(pf, {"cpu_op", "user_annotation"}) ==
                slices(source, {"cpu_op", "user_annotation"}));
        QVERIFY(slices(pf, {"cuda_runtime", "cuda_driver"}) ==
                slices(source, {"cuda_runtime", "cuda_driver"}));
        QVERIFY(slices(pf, {"kernel", "gpu_user_annotation"}) ==
                slices(source, {"kernel", "gpu_user_annotation"}));
        // Cuspy writes no memcpy name (nor its copy kinds): the stage's name stands for it.
        auto unnamed = [](std::multiset<Slice> s) {
            std::multiset<Slice> out;
            for (Slice e : s) out.insert((std::get<1>(e) = "Memcpy", e));
            return out;
        };
        QCOMPARE(slices(pf, {"gpu_memcpy"}).size(), size_t(5));
        QVERIFY(slices(pf, {"gpu_memcpy"}) == unnamed(slices(source, {"gpu_memcpy"})));
        QCOMPARE(slices(pf, {"kernel"}).size(), size_t(90));
        QCOMPARE(slices(pf, {"gpu_user_annotation"}).size(), size_t(4));
        const auto links = launches(pf);
        QCOMPARE(links.size(), size_t(95));
        QVERIFY(links == launches(source));
        // Process and thread names as Kineto gives them.
        const DisplayKey cpu{true, 1234, {}}, gpu{true, 0, {}};
        QCOMPARE(pf.metadata.processes.at(cpu).name, std::optional<std::string>("python3"));
        QCOMPARE(pf.metadata.processes.at(gpu).labels, std::optional<std::string>("GPU 0"));
        QCOMPARE(pf.metadata.threads.at({cpu, DisplayKey{true, 1289, {}}}).name,
                 std::optional<std::string>("thread 1289 (python3)"));
        QCOMPARE(pf.metadata.threads.at({gpu, DisplayKey{true, 7, {}}}).name,
                 std::optional<std::string>("stream 7"));
    }

    // A CPU op's args are its debug annotations, with its External id in the column; a kernel's
    // are its extra_data under Kineto's names, integers as integers, and its launch
    // configuration.
    void argsAreAnnotationsAndExtraData() {
        const Trace pf = readBytes(pftraceOf(loadTrace(kExample)));
        const EventTable& e = pf.events;
        uint32_t op = kNoRow, kernel = kNoRow;
        for (uint32_t r = 0; r < e.size(); ++r) {
            if (op == kNoRow && e.nameOf(r) == "CompiledFunctionBackward") op = r;
            if (kernel == kNoRow && e.catOf(r) == "kernel") kernel = r;
        }
        QVERIFY(op != kNoRow && kernel != kNoRow);
        const json args = pf.args(op).value();
        QCOMPARE(args.at("Sequence number").get<int64_t>(), int64_t(41));
        QCOMPARE(pf.args(op).integer("External id"), std::optional<int64_t>(537));
        QCOMPARE(e.keys.asInt(e.externalId[op]), std::optional<int64_t>(537));
        const json k = pf.args(kernel).value();
        QCOMPARE(k.at("device").get<int64_t>(), int64_t(0));
        QCOMPARE(k.at("stream").get<int64_t>(), int64_t(7));
        QVERIFY(k.at("correlation").is_number_integer());
        // Its launch configuration as the JSON's kernel gives it; the integer reader agrees.
        const Trace source = loadTrace(kExample);
        uint32_t twin = kNoRow;
        for (uint32_t r = 0; r < source.events.size() && twin == kNoRow; ++r)
            if (source.events.catOf(r) == "kernel") twin = r;
        const json want = source.args(twin).value();
        for (const char* key : {"grid", "block", "registers per thread"})
            QVERIFY2(k.at(key) == want.at(key), key);
        QCOMPARE(pf.args(kernel).integer("registers per thread"),
                 std::optional<int64_t>(want.at("registers per thread").get<int64_t>()));
        QCOMPARE(pf.args(kernel).integer("stream"), std::optional<int64_t>(7));
    }

    // Touching slices keep their extents; at an equal timestamp the longer slice comes first.
    void touchingSlicesAndEqualTimestamps() {
        const Trace t = readBytes(pftraceOf(test::traceFrom(
            threadTrace({{"A", 0, 10}, {"B", 10, 10}, {"C", 10, 0}, {"D", 15, 0}, {"E", 20, 5}}))));
        std::vector<std::tuple<std::string, int64_t, int64_t>> got;
        for (uint32_t r = 0; r < t.events.size(); ++r)
            got.emplace_back(t.events.nameOf(r), t.events.tsNs(r), t.events.durNs(r));
        const std::vector<std::tuple<std::string, int64_t, int64_t>> want = {{"A", 0, 10000},
                                                                             {"B", 10000, 10000},
                                                                             {"C", 10000, 0},
                                                                             {"D", 15000, 0},
                                                                             {"E", 20000, 5000}};
        QVERIFY(got == want);
    }

    // Durations beyond 32 bits of nanoseconds (4.3 s) keep their value and their order: at an
    // equal timestamp the longer slice still comes first.
    void longSlices() {
        const Trace t = readBytes(pftraceOf(test::traceFrom(
            threadTrace({{"Q", 0, 5e6}, {"P", 0, 10e6}, {"R", 1, 4294968}, {"S", 1, 4294967}}))));
        std::vector<std::tuple<std::string, int64_t, int64_t>> got;
        for (uint32_t r = 0; r < t.events.size(); ++r)
            got.emplace_back(t.events.nameOf(r), t.events.tsNs(r), t.events.durNs(r));
        const std::vector<std::tuple<std::string, int64_t, int64_t>> want = {
            {"P", 0, 10'000'000'000},
            {"Q", 0, 5'000'000'000},
            {"R", 1000, 4'294'968'000},
            {"S", 1000, 4'294'967'000}};
        QVERIFY(got == want);
    }

    // Packets and fields the reader does not know are skipped: the trace reads as without them.
    void unknownPacketsAreSkipped() {
        const std::string bytes = pftraceOf(test::traceFrom(threadTrace({{"A", 0, 10}})));
        // TracePacket { for_testing (900): "x" } and { 77: "y" }, before and after.
        const std::string unknown = std::string("\x0a\x04\xa2\x38\x01x", 6);
        const std::string other = std::string("\x0a\x04\xea\x04\x01y", 6);
        const Trace t = readBytes(unknown + bytes + other);
        QCOMPARE(t.events.size(), uint32_t(1));
        QCOMPARE(t.events.nameOf(0), std::string_view("A"));
        // ... with a note, which provenance reports as a trace_reader warning.
        QCOMPARE(t.notes.size(), size_t(1));
        QVERIFY2(t.notes[0].find("2 packets of kinds Stackline does not read were skipped") == 0 &&
                     t.notes[0].find("77: 1, 900: 1") != std::string::npos,
                 t.notes[0].c_str());
        const Provenance p = runProvenance(t, KernelInfo{});
        QCOMPARE(p.diagnostics.size(), size_t(1));
        QCOMPARE(p.diagnostics[0].kindName(), std::string_view("trace_reader"));
        QCOMPARE(p.diagnostics.message(p.diagnostics[0], t.events), t.notes[0]);
        QVERIFY(readBytes(bytes).notes.empty());
    }

    // A kernel no launch points at, and a trace without slices, are said, not silently dropped.
    void unreachableKernelsAreNoted() {
        const std::string json =
            R"({"traceEvents": [{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":1,)"
            R"("dur":2,"args":{"device":0,"stream":7,"correlation":5}}]})";
        const Trace t = readBytes(pftraceOf(test::traceFrom(json)));
        QCOMPARE(t.events.size(), uint32_t(1));
        const std::vector<std::string> want = {
            "The trace has no TrackEvent slices: no CPU op, launch or compiled region that a "
            "kernel could be reached from",
            "1 GPU kernel is linked to no launch (no render_stage_submission_event_ids point at "
            "it): provenance cannot reach it"};
        QCOMPARE(t.notes, want);
    }

    // A graph launch links to each of its kernels (field 3000 lists their event ids); its flows
    // are Kineto's: one start and a finish on each kernel with one id, so that provenance binds
    // the launch to its last kernel and gives each kernel the JSON's stack (the earlier ones
    // none, as the reference gives them in the JSON).
    void graphLaunchKernelsTakeTheJsonStacks() {
        // JSON with ' for ".
        auto q = [](std::string text) {
            std::replace(text.begin(), text.end(), '\'', '"');
            return text;
        };
        std::string json =
            q("{'baseTimeNanoseconds': 1000000, 'traceEvents': ["
              "{'ph':'X','cat':'cpu_op','name':'Torch-Compiled Region: 0/0',"
              "'pid':1,'tid':1,'ts':0,'dur':100},"
              "{'ph':'X','cat':'cuda_runtime','name':'cudaGraphLaunch','pid':1,"
              "'tid':1,'ts':10,'dur':5,'args':{'cbid':311,'correlation':9}},"
              "{'ph':'s','id':9,'pid':1,'tid':1,'ts':10,'cat':'ac2g','name':'ac2g'}");
        for (const std::string k : {"a", "b", "c"}) {
            const std::string ts = std::to_string(20 + 2 * (k[0] - 'a'));
            json += q(",{'ph':'X','cat':'kernel','name':'triton_poi_" + k +
                      "','pid':0,'tid':7,'ts':" + ts +
                      ",'dur':1,'args':{'device':0,'stream':7,'correlation':9}},"
                      "{'ph':'f','id':9,'pid':0,'tid':7,'ts':" +
                      ts + ",'cat':'ac2g','name':'ac2g','bp':'e'}");
        }
        json += "]}";
        const KernelInfo info = test::kernelInfoFrom(
            "{\"('Torch-Compiled Region: 0/0', False)\": {\"triton_poi_a\": [\"model.py:7 in f\"], "
            "\"triton_poi_b\": [\"model.py:8 in f\"], \"triton_poi_c\": [\"model.py:9 in f\"]}}");
        auto stacks = [&](const Trace& t) {
            const Provenance p = runProvenance(t, info);
            std::map<std::string, std::string> out;
            for (uint32_t r = 0; r < t.events.size(); ++r)
                if (t.events.catOf(r) == "kernel")
                    out[std::string(t.events.nameOf(r))] = p.stacks.json(p.stackOf(r));
            return out;
        };
        const Trace source = test::traceFrom(json);
        const Trace pf = readBytes(pftraceOf(source));
        uint32_t starts = 0, finishes = 0;
        for (uint32_t r = 0; r < pf.events.size(); ++r) {
            starts += pf.events.phase[r] == 's';
            finishes += pf.events.phase[r] == 'f';
        }
        QCOMPARE(starts, 1u);
        QCOMPARE(finishes, 3u);
        const std::map<std::string, std::string> want = {
            {"triton_poi_a", ""}, {"triton_poi_b", ""}, {"triton_poi_c", R"(["model.py:9 in f"])"}};
        QCOMPARE(stacks(source), want);
        QCOMPARE(stacks(pf), want);
    }

    // A sequence cleared twice (two generations of interned annotation names under the same
    // iids) reads each slice's args in its own generation.
    void argsAreReadInTheirGeneration() {
        const Trace t = readBytes(twoGenerations("Alpha", "Beta"));
        QCOMPARE(t.events.size(), uint32_t(2));
        QCOMPARE(t.args(0).object().dump(), std::string(R"({"Alpha":7})"));
        QCOMPARE(t.args(1).object().dump(), std::string(R"({"Beta":7})"));
    }

    // The rows whose args may hold a Sequence number (the only ones ForwardBySequence reads) are
    // those that have one, named inline (Cuspy) or interned, in its generation.
    void sequenceNumberRowsAreNoted() {
        const Trace pf = readBytes(pftraceOf(loadTrace(kExample)));
        std::vector<uint32_t> want;
        for (uint32_t r = 0; r < pf.events.size(); ++r)
            if (pf.args(r).integer(kineto::kSequenceNumberArg)) want.push_back(r);
        QCOMPARE(want.size(), size_t(8));
        QVERIFY(pf.argsReader->rowsThatMayHold(kineto::kSequenceNumberArg) == want);
        QVERIFY(!pf.argsReader->rowsThatMayHold("External id"));
        for (const auto& [first, second, rows] :
             {std::tuple("Sequence number", "Beta", std::vector<uint32_t>{0}),
              std::tuple("Alpha", "Sequence number", std::vector<uint32_t>{1})}) {
            const Trace t = readBytes(twoGenerations(first, second));
            QVERIFY(t.argsReader->rowsThatMayHold(kineto::kSequenceNumberArg) == rows);
        }
    }

    // A truncated or corrupt file is refused naming the file and the byte.
    void truncatedAndCorruptInputIsRefused() {
        const std::string bytes = pftraceOf(loadTrace(kExample));
        for (const std::string& bad :
             {bytes.substr(0, bytes.size() - 3), bytes.substr(0, 200) + "\x0a\xff\xff\xff\x0f"}) {
            try {
                readBytes(bad, "bad.pftrace");
                QFAIL("accepted");
            } catch (const InputError& e) {
                QVERIFY2(std::string(e.what()).rfind("bad.pftrace: byte ", 0) == 0, e.what());
            }
        }
    }

    // The table recognises protobuf by its bytes; JSON still goes to the Kineto reader.
    // The generic layout's flows (flow_ids, terminating_flow_ids) become 's'/'f' rows of
    // category "flow": an event carrying an id is linked from the last one that carried it, a
    // terminating id ends the chain (a later event with that id starts a new one), an id on a
    // slice's end is its slice's, and each link has an id of its own.
    void genericFlowsBecomeFlowRows() {
        namespace te = pftrace::track_event;
        std::string bytes = packetOf(field(10, 1) + field(13, 1) +
                                     field(60, field(1, 1) + field(4, field(1, 5) + field(2, 6))));
        auto event = [&](uint64_t ts, uint32_t type, const std::string& name,
                         const std::string& more) {
            const std::string body = field(te::kType, type) + field(te::kTrackUuid, 1) +
                                     (name.empty() ? "" : field(te::kName, name)) + more;
            bytes += packetOf(field(8, ts) + field(10, 1) + field(11, body));
        };
        auto slice = [&](uint64_t ts, const std::string& name, const std::string& onBegin,
                         const std::string& onEnd = "") {
            event(ts, te::kTypeSliceBegin, name, onBegin);
            event(ts + 10, te::kTypeSliceEnd, "", onEnd);
        };
        slice(1000, "A", fixed64(te::kFlowIds, 7));
        slice(1020, "B", fixed64(te::kFlowIds, 7));
        slice(1040, "C", fixed64(te::kTerminatingFlowIds, 7));
        slice(1060, "D", fixed64(te::kFlowIds, 7));
        slice(1080, "E", "", fixed64(te::kFlowIds, 9));
        slice(1100, "F", fixed64(te::kTerminatingFlowIds, 9));
        const Trace t = readBytes(bytes);
        const EventTable& e = t.events;
        std::map<int64_t, std::pair<std::string, std::string>> links;  // id -> (from, to)
        std::set<int64_t> ids;
        size_t at = 0, flowRows = 0;
        std::string last;
        for (uint32_t r = 0; r < e.size(); ++r) {
            if (e.catOf(r) != "flow") {
                last = std::string(e.nameOf(r));
                continue;
            }
            ++flowRows;
            QCOMPARE(e.kinds[r].flowId, FlowIdStatus::Ok);
            const int64_t id = e.flowIds.at(r, 0, at);
            (e.phase[r] == 's' ? links[id].first : links[id].second) = last;
        }
        QCOMPARE(flowRows, size_t(6));
        std::set<std::pair<std::string, std::string>> linked;
        for (const auto& [id, link] : links) linked.insert(link);
        QCOMPARE(linked, (std::set<std::pair<std::string, std::string>>{
                             {"A", "B"}, {"B", "C"}, {"E", "F"}}));
    }

    void formatTableSniffs() {
        const std::string bytes = pftraceOf(test::traceFrom(threadTrace({{"A", 0, 10}})));
        QCOMPARE(formatFor(TraceBytes::fromString(bytes)).id, std::string_view("perfetto"));
        QCOMPARE(formatFor(TraceBytes::fromString(threadTrace({}))).id,
                 std::string_view("kineto-json"));
        QVERIFY(isTraceFileName("run.pftrace.gz"));
        QVERIFY(isTraceFileName("run.perfetto-trace"));
        QCOMPARE(formatById("perfetto")->annotatedExport, AnnotatedExport::ChromeJson);
    }
};

QTEST_APPLESS_MAIN(TestPftraceReader)
#include "tst_pftrace_reader.moc"
