// decodePftrace on several threads: the stream is cut at packet boundaries into ranges, each
// range is decoded into its own table by a PacketDecoder that first replays the state packets
// (clears, defaults, interned data) of the ranges before it, and the tables are appended in
// order. What each decoder sees is what the decoder of the whole stream sees at those packets,
// so the result equals its table but for the order of the strings in the pool.
#include <algorithm>
#include <exception>
#include <mutex>
#include <thread>

#include "base/errors.h"
#include "import/perfetto/packet_decoder.h"
#include "import/perfetto/pftrace_decoder.h"
#include "import/perfetto/wire_reader.h"

namespace stackline::pftrace {

namespace {

struct Range {
    uint64_t begin = 0, end = 0;                              // offsets in the input
    std::vector<std::pair<uint64_t, uint64_t>> statePackets;  // (offset, size), in order
};

// The packets' ranges, cut after the first packet that ends past each multiple of step. The
// framing stops at the first malformed top-level field: the decoder of the last range meets it
// and reports it, as the decoder of the whole stream would.
std::vector<Range> cutRanges(std::string_view bytes, uint64_t step, uint64_t& packets) {
    const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
    const uint64_t n = bytes.size();
    std::vector<Range> ranges(1);
    uint64_t at = 0;
    while (at < n && p[at] == ((trace::kPacket << 3) | 2)) {
        uint64_t size = 0, next = at + 1;
        unsigned shift = 0;
        bool ended = false;
        while (next < n && shift < 64) {
            const uint8_t b = p[next++];
            size |= uint64_t(b & 0x7F) << shift;
            shift += 7;
            if (!(b & 0x80)) {
                ended = true;
                break;
            }
        }
        if (!ended || size > n - next) break;
        at = next + size;
        ++packets;
        if (at >= (ranges.size()) * step && at < n) {
            ranges.back().end = at;
            ranges.push_back({at, at, {}});
        }
    }
    ranges.back().end = n;
    return ranges;
}

// The state packets of a range (its well-framed prefix).
void findStatePackets(std::string_view bytes, Range& range) {
    const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
    uint64_t at = range.begin;
    while (at < range.end && p[at] == ((trace::kPacket << 3) | 2)) {
        uint64_t size = 0, next = at + 1;
        unsigned shift = 0;
        bool ended = false;
        while (next < range.end && shift < 64) {
            const uint8_t b = p[next++];
            size |= uint64_t(b & 0x7F) << shift;
            shift += 7;
            if (!(b & 0x80)) {
                ended = true;
                break;
            }
        }
        if (!ended || size > range.end - next) return;
        if (PacketDecoder<WireReader>::isStatePacket(bytes.substr(next, size)))
            range.statePackets.emplace_back(next, size);
        at = next + size;
    }
}

template <class T>
void remapIds(std::vector<T>& column, size_t from, const std::vector<uint32_t>& remap) {
    for (size_t i = from; i < column.size(); ++i) column[i] = remap[column[i]];
}

// Appends part's column to all's and frees it.
template <class T>
size_t append(std::vector<T>& all, std::vector<T>& part) {
    const size_t from = all.size();
    if (from == 0) {
        all.swap(part);
    } else {
        all.insert(all.end(), part.begin(), part.end());
        std::vector<T>().swap(part);
    }
    return from;
}

// Appends the rows, tracks, counters and names of part (the table of the range after all's) to
// all, with its string ids re-interned in all's pool and its rows renumbered.
void appendTable(PftraceTable& all, PftraceTable& part) {
    const std::vector<uint32_t> remap = all.strings.merge(part.strings);
    part.strings = StringPool();

    TrackEvents& ev = all.events;
    TrackEvents& pe = part.events;
    const uint32_t rowShift = ev.size();
    const uint32_t linkShift = uint32_t(ev.links.size());
    append(ev.offset, pe.offset);
    append(ev.length, pe.length);
    append(ev.ts, pe.ts);
    append(ev.type, pe.type);
    append(ev.track, pe.track);
    remapIds(ev.name, append(ev.name, pe.name), remap);
    remapIds(ev.category, append(ev.category, pe.category), remap);
    append(ev.generation, pe.generation);
    append(ev.annotated, pe.annotated);
    for (auto& [row, id] : pe.externalIds) row += rowShift;
    append(ev.externalIds, pe.externalIds);
    for (size_t i = 1; i < pe.linkBegin.size(); ++i)
        ev.linkBegin.push_back(pe.linkBegin[i] + linkShift);
    std::vector<uint32_t>().swap(pe.linkBegin);
    append(ev.links, pe.links);
    for (auto* rows : {&pe.flows, &pe.terminatingFlows})
        for (auto& [row, id] : *rows) row += rowShift;
    append(ev.flows, pe.flows);
    append(ev.terminatingFlows, pe.terminatingFlows);
    for (auto& [row, value] : pe.counterValues) row += rowShift;
    append(ev.counterValues, pe.counterValues);

    RenderStages& st = all.stages;
    RenderStages& ps = part.stages;
    append(st.offset, ps.offset);
    append(st.length, ps.length);
    append(st.ts, ps.ts);
    append(st.duration, ps.duration);
    append(st.eventId, ps.eventId);
    append(st.gpu, ps.gpu);
    append(st.queueIid, ps.queueIid);
    append(st.stageIid, ps.stageIid);
    remapIds(st.queue, append(st.queue, ps.queue), remap);
    remapIds(st.stage, append(st.stage, ps.stage), remap);
    remapIds(st.name, append(st.name, ps.name), remap);
    remapIds(st.kernel, append(st.kernel, ps.kernel), remap);
    append(st.generation, ps.generation);

    CounterSamples& c = all.counters;
    CounterSamples& pc = part.counters;
    append(c.ts, pc.ts);
    append(c.gpu, pc.gpu);
    append(c.counterId, pc.counterId);
    remapIds(c.name, append(c.name, pc.name), remap);
    append(c.value, pc.value);

    for (Track& t : part.tracks) {
        t.name = remap[t.name];
        all.tracks.push_back(t);
    }
    // Generations: a part replayed the clears before it, so the same index is the same
    // generation; each part holds the names interned in its own range.
    if (all.generations.size() < part.generations.size())
        all.generations.resize(part.generations.size());
    for (size_t g = 0; g < part.generations.size(); ++g) {
        AnnotationNames& to = all.generations[g];
        const AnnotationNames& from = part.generations[g];
        for (const auto& [iid, id] : from.names) to.names[iid] = remap[id];
        for (const auto& [iid, id] : from.strings) to.strings[iid] = remap[id];
        for (const auto& [iid, id] : from.computeArgs) to.computeArgs[iid] = remap[id];
    }

    const ClockSnapshot& clock = part.clock;
    all.clock.present |= clock.present;
    if (clock.hasRealtime) all.clock.hasRealtime = true, all.clock.realtime = clock.realtime;
    if (clock.hasBoottime) all.clock.hasBoottime = true, all.clock.boottime = clock.boottime;

    DecodeStats& s = all.stats;
    const DecodeStats& ps2 = part.stats;
    s.packets += ps2.packets;
    s.skippedNeedsIncrementalState += ps2.skippedNeedsIncrementalState;
    s.unresolvedIids += ps2.unresolvedIids;
    s.otherClockTimestamps += ps2.otherClockTimestamps;
    s.legacyTimestamps += ps2.legacyTimestamps;
    for (const auto& [field, count] : ps2.unknownPackets) s.unknownPackets[field] += count;
}

}  // namespace

PftraceTable decodePftrace(std::string_view bytes, const std::string& name, unsigned threads,
                           uint64_t chunkBytes) {
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    const uint64_t step = std::max<uint64_t>({chunkBytes, 1, bytes.size() / threads + 1});
    if (threads == 1 || bytes.size() <= step) return decodePftrace(bytes, name);

    uint64_t packets = 0;
    std::vector<Range> ranges = cutRanges(bytes, step, packets);
    std::vector<PftraceTable> tables(ranges.size());
    std::vector<std::exception_ptr> errors(ranges.size());
    auto inParallel = [&](auto&& work) {
        std::vector<std::thread> pool;
        for (size_t i = 1; i < ranges.size(); ++i) pool.emplace_back(work, i);
        work(0);
        for (std::thread& t : pool) t.join();
    };
    // A range's state packets are found by the first decoder that needs them (the last
    // range's by none), while the first range is decoded.
    std::vector<std::once_flag> scanned(ranges.size());
    inParallel([&](size_t i) {
        try {
            PftraceTable& table = tables[i];
            table.name = name;
            PacketDecoder<WireReader> decoder(table, name);
            if (i == 0) decoder.reserve(packets);
            for (size_t j = 0; j < i; ++j) {
                std::call_once(scanned[j], [&] { findStatePackets(bytes, ranges[j]); });
                for (const auto& [at, size] : ranges[j].statePackets)
                    decoder.replayState(bytes.substr(at, size), at);
            }
            const Range& r = ranges[i];
            decoder.decodeStream(bytes.substr(r.begin, r.end - r.begin), r.begin);
        } catch (...) {
            errors[i] = std::current_exception();
        }
    });
    // The first error in stream order, as the decoder of the whole stream reports it.
    for (const std::exception_ptr& e : errors)
        if (e) std::rethrow_exception(e);
    PftraceTable all = std::move(tables[0]);
    for (size_t i = 1; i < tables.size(); ++i) {
        appendTable(all, tables[i]);
        tables[i] = PftraceTable();
    }
    return all;
}

}  // namespace stackline::pftrace
