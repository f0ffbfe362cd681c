// libFuzzer target: the trace loader. Input bytes are a trace file: gzip (by its magic bytes) goes
// through a file like the CLI's input, anything else is indexed from memory.
// Properties checked, besides no crash and no sanitizer report:
//  - a refused input raises InputError whose message starts with the file's name;
//  - the event table is the same whether one thread scans the events in order or several
//    speculative chunks do (the seams are verified), and so is an error;
//  - a document nlohmann accepts as a JSON object with a "traceEvents" list is accepted, with as
//    many events (Stackline also accepts more: NaN, raw control characters, invalid UTF-8);
//  - the viewer's indexes (tracks, flows) build on whatever loaded.
#include <sys/mman.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <string>

#include "fuzz_support.h"
#include "import/trace_formats.h"
#include "json/json_depth.h"
#include "model/flow_index.h"
#include "model/trace.h"
#include "model/track_index.h"

using namespace stackline;
using stackline::fuzz::asText;

namespace {

const std::string kName = "fuzz.json";

std::string describeRow(const EventTable& t, uint32_t row) {
    auto k = t.kinds[row];
    std::string s =
        std::to_string(t.begin[row]) + "+" + std::to_string(t.length[row]) + " args " +
        std::to_string(t.argsOffset[row]) + "+" + std::to_string(t.argsLength[row]) +
        " name=" + std::string(t.nameOf(row)) + " cat=" + std::string(t.catOf(row)) +
        " ph=" + std::to_string(int(t.phase[row])) + " pid=" + t.keys.describe(t.pid[row]) +
        " tid=" + t.keys.describe(t.tid[row]) + " ext=" + t.keys.describe(t.externalId[row]) +
        " uid=" + t.keys.describe(t.uidOf(row)) + " ts=" + std::to_string(t.tsNs(row)) + "/" +
        std::to_string(t.tsBits[row]) + " dur=" + std::to_string(t.durNs(row)) + "/" +
        std::to_string(t.durBitsOf(row)) + " kinds=" + std::to_string(int(k.event)) +
        std::to_string(int(k.name)) + std::to_string(int(k.cat)) + std::to_string(int(k.args)) +
        std::to_string(int(k.callFrom)) + std::to_string(int(k.ts)) + std::to_string(int(k.dur)) +
        std::to_string(int(k.flowId)) + std::to_string(int(k.objectEmpty)) +
        std::to_string(int(k.argsEmpty));
    if (k.flowId == FlowIdStatus::Ok) s += " flow=" + std::to_string(t.flowIds.at(row, 0));
    if (k.flowId == FlowIdStatus::Big)
        s += " bigflow=" + std::to_string(int64_t(t.bigFlowId.at(row)));
    if (auto it = t.uidValue.find(row); it != t.uidValue.end())
        s += " uidspan=" + std::to_string(it->second.begin) + "-" + std::to_string(it->second.end);
    if (auto it = t.stackValue.find(row); it != t.stackValue.end())
        s +=
            " stackspan=" + std::to_string(it->second.begin) + "-" + std::to_string(it->second.end);
    return s;
}

// Every span lies inside the text; the viewer's indexes build and answer.
void checkTable(const Trace& t) {
    const EventTable& ev = t.events;
    uint64_t size = t.text().size();
    FUZZ_CHECK(t.info.topClose < size && t.text()[t.info.topClose] == '}');
    for (uint32_t row = 0; row < ev.size(); ++row) {
        Span e = ev.eventSpan(row), a = ev.argsSpan(row);
        FUZZ_CHECK(e.end <= size && e.begin < e.end);
        FUZZ_CHECK(a.begin >= e.begin && a.end <= e.end);
        if (ev.kinds[row].event == ValueKind::Object)
            FUZZ_CHECK(t.text()[e.begin] == '{' && t.text()[e.end - 1] == '}');
        if (ev.kinds[row].args == ValueKind::Object)
            FUZZ_CHECK(t.text()[a.begin] == '{' && t.text()[a.end - 1] == '}');
        for (auto* spans : {&ev.uidValue, &ev.stackValue})
            if (auto it = spans->find(row); it != spans->end())
                FUZZ_CHECK(it->second.begin >= e.begin && it->second.end <= e.end &&
                           !it->second.empty());
    }
    TrackIndex tracks = TrackIndex::build(ev, t.metadata, 1);
    FlowIndex flows = FlowIndex::build(ev, tracks);
    for (const Track& track : tracks.tracks()) {
        uint32_t id = uint32_t(&track - tracks.tracks().data());
        for (const TrackLevel& level : track.levels) {
            FUZZ_CHECK(level.start.size() == level.size() && level.end.size() == level.size());
            for (size_t i = 0; i < level.size(); ++i) {
                FUZZ_CHECK(level.row[i] < ev.size());
                FUZZ_CHECK(tracks.trackOf(level.row[i]) == id);
                if (i)
                    FUZZ_CHECK(level.start[i - 1] <= level.start[i] &&
                               level.end[i - 1] <= level.end[i]);
            }
            if (level.size()) {
                (void)level.firstEndingAtOrAfter(level.start[0]);
                (void)level.firstStartingAfter(level.end[0]);
            }
        }
        (void)tracks.sliceAt(id, tracks.startNs());
        (void)tracks.nextSliceFrom(id, tracks.endNs());
    }
    for (uint32_t row = 0; row < ev.size() && row < 64; ++row) {
        (void)tracks.enclosing(row);
        (void)tracks.levelOf(row);
        (void)flows.linksOf(row);
        (void)flows.sourceOf(row);
        (void)compiledRegionOf(ev, tracks, row);
    }
    for (const FlowLink& l : flows.links()) FUZZ_CHECK(l.from < ev.size() && l.to < ev.size());
}

struct Outcome {
    std::optional<Trace> trace;
    std::string error;
};

Outcome load(std::string_view text, const LoadOptions& options) {
    Outcome o;
    try {
        o.trace = parseTrace(TraceBytes::fromString(text), kName, options);
    } catch (const InputError& e) {
        o.error = e.what();
        FUZZ_CHECK(o.error.rfind(kName + ": ", 0) == 0, o.error);
    }
    return o;
}

void loadGzip(std::string_view bytes) {
    int fd = ::memfd_create("fuzz_trace", MFD_CLOEXEC);
    if (fd < 0) return;
    for (std::size_t done = 0; done < bytes.size();) {
        ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n <= 0) {
            ::close(fd);
            return;
        }
        done += std::size_t(n);
    }
    std::string path = "/proc/self/fd/" + std::to_string(fd);
    LoadOptions one;
    one.threads = 1;
    try {
        Trace t = loadTrace(path, one);
        FUZZ_CHECK(t.bytes.wasCompressed());
        checkTable(t);
    } catch (const InputError& e) {
        FUZZ_CHECK(std::string(e.what()).rfind(path + ": ", 0) == 0, e.what());
    }
    ::close(fd);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view text = asText(data, size);
    if (size >= 2 && data[0] == 0x1f && data[1] == 0x8b) {
        loadGzip(text);
        return 0;
    }

    LoadOptions one;
    one.threads = 1;
    Outcome sequential = load(text, one);
    if (sequential.trace) checkTable(*sequential.trace);

    // The same bytes cut into seven speculative chunks, taken by two threads from both ends.
    LoadOptions chunked;
    chunked.threads = 2;
    chunked.chunkBytes = std::max<uint64_t>(16, size / 7);
    Outcome parallel = load(text, chunked);
    FUZZ_CHECK(parallel.error == sequential.error,
               "sequential: " + sequential.error + "\nchunked: " + parallel.error);
    if (sequential.trace) {
        const EventTable &a = sequential.trace->events, &b = parallel.trace->events;
        FUZZ_CHECK(a.size() == b.size());
        for (uint32_t row = 0; row < a.size(); ++row)
            FUZZ_CHECK(describeRow(a, row) == describeRow(b, row), "row " + std::to_string(row) +
                                                                       "\n" + describeRow(a, row) +
                                                                       "\n" + describeRow(b, row));
        const TraceInfo &ia = sequential.trace->info, &ib = parallel.trace->info;
        FUZZ_CHECK(ia.topClose == ib.topClose && ia.topEmpty == ib.topEmpty &&
                   ia.uidAssignedPresent == ib.uidAssignedPresent &&
                   ia.uidAssignedTruthy == ib.uidAssignedTruthy);
    }

    // What a strict JSON parser reads as a trace must load, with the same number of events.
    // (nlohmann stops at a NUL byte as at the end of input; Python's json, and Stackline, do not.)
    if (text.find('\0') == std::string_view::npos && !stackline::json::tooDeep(text, 1999)) {
        nlohmann::json j = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
        if (!j.is_discarded() && j.is_object() && j.contains("traceEvents") &&
            j["traceEvents"].is_array()) {
            FUZZ_CHECK(sequential.trace.has_value(), "refused a valid trace: " + sequential.error);
            FUZZ_CHECK(sequential.trace->events.size() == j["traceEvents"].size());
        }
    }
    return 0;
}
