// decodePftrace on several threads: the stream is cut at top-level field boundaries into ranges,
// each range is decoded into its own table by a PacketDecoder that first replays the state packets
// (clears, defaults, interned data) of the ranges before it, and the tables are appended in
// order. What each decoder sees is what the decoder of the whole stream sees at those packets,
// so the result equals its table but for the order of the strings in the pool.
#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>

#include "base/errors.h"
#include "import/perfetto/packet_decoder.h"
#include "import/perfetto/pftrace_decoder.h"
#include "import/perfetto/wire_reader.h"
#include "io/memory_budget.h"

namespace stackline::pftrace {

namespace {

// A range of the stream: [begin, end), and its state packets (offset, size), in order.
struct Range {
    uint64_t begin = 0, end = 0;
    std::vector<std::pair<uint64_t, uint64_t>> statePackets;
};

// Walks the top-level fields of bytes from range.begin, as the decoder frames them, to the first
// that starts at or after limit: the range's end. Notes its state packets on the way. Malformed
// framing ends the walk at the end of the input: that range's decoder meets it and reports it,
// as the decoder of the whole stream would, and no range comes after.
void scanRange(std::string_view bytes, Range& range, uint64_t limit) {
    const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
    const uint64_t n = bytes.size();
    auto varint = [&](uint64_t& at, uint64_t& v) {
        v = 0;
        for (unsigned shift = 0; shift < 64 && at < n; shift += 7) {
            const uint8_t b = p[at++];
            v |= uint64_t(b & 0x7F) << shift;
            if (!(b & 0x80)) return true;
        }
        return false;
    };
    uint64_t at = range.begin;
    while (at < n && at < limit) {
        uint64_t tag = 0, size = 0;
        if (!varint(at, tag) || (tag >> 3) == 0) break;
        const auto type = WireType(tag & 7);
        if (type == WireType::Varint) {
            if (!varint(at, size)) break;
            continue;
        }
        if (type == WireType::Fixed64)
            size = 8;
        else if (type == WireType::Fixed32)
            size = 4;
        else if (type != WireType::Bytes || !varint(at, size))
            break;
        if (size > n - at) break;
        if ((tag >> 3) == trace::kPacket && type == WireType::Bytes &&
            PacketDecoder<WireReader>::isStatePacket(bytes.substr(at, size)))
            range.statePackets.emplace_back(at, size);
        at += size;
    }
    range.end = at < n && at >= limit ? at : n;
}

template <class T>
void remapIds(std::vector<T>& column, size_t from, const std::vector<uint32_t>& remap) {
    for (size_t i = from; i < column.size(); ++i) column[i] = remap[column[i]];
}

size_t append(OffsetColumn& all, OffsetColumn& part) {
    const size_t from = all.size();
    all.append(std::move(part));
    return from;
}

// Appends part's column to all's and frees it. An empty column takes part's buffer, unless it
// has room reserved for more (reserveForAll): the ranges after would then regrow it.
template <class T>
size_t append(std::vector<T>& all, std::vector<T>& part) {
    const size_t from = all.size();
    if (from == 0 && all.capacity() <= part.size()) {
        all.swap(part);
    } else {
        all.insert(all.end(), part.begin(), part.end());
        std::vector<T>().swap(part);
    }
    return from;
}

template <class T>
void reserveColumn(std::vector<T>& column, size_t n) {
    reserveExactly(column, n);
}
void reserveColumn(OffsetColumn& column, size_t n) {
    column.reserve(n);
}

// Room in all's columns (the first range's) for the rows of every range: each grows once, by
// the sizes the ranges found, on huge pages (appending is mostly faulting in the new pages).
void reserveForAll(PftraceTable& all, const std::vector<PftraceTable>& tables) {
    // group(table): the struct that holds the columns.
    auto reserve = [&](auto group, auto... columns) {
        auto one = [&](auto column) {
            size_t total = (group(all).*column).size();  // tables[0]'s rows, moved to all
            for (const PftraceTable& t : tables) total += (group(t).*column).size();
            reserveColumn(group(all).*column, total);
        };
        (one(columns), ...);
    };
    auto table = [](auto& t) -> auto& {
        return t;
    };
    auto events = [](auto& t) -> auto& {
        return t.events;
    };
    auto ends = [](auto& t) -> auto& {
        return t.events.ends;
    };
    auto stages = [](auto& t) -> auto& {
        return t.stages;
    };
    auto counters = [](auto& t) -> auto& {
        return t.counters;
    };
    using E = TrackEvents;
    using S = RenderStages;
    using C = CounterSamples;
    reserve(table, &PftraceTable::tracks);
    reserve(events, &E::offset, &E::length, &E::ts, &E::type, &E::track, &E::name, &E::category,
            &E::generation, &E::annotated, &E::externalIds, &E::sequenced, &E::linkBegin, &E::links,
            &E::flows, &E::terminatingFlows, &E::counterValues);
    reserve(ends, &SliceEnds::ts, &SliceEnds::track, &SliceEnds::after);
    reserve(stages, &S::offset, &S::length, &S::ts, &S::duration, &S::eventId, &S::gpu,
            &S::queueIid, &S::stageIid, &S::queue, &S::stage, &S::name, &S::kernel, &S::generation);
    reserve(counters, &C::ts, &C::gpu, &C::counterId, &C::name, &C::value);
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
    // The widest columns on another thread: appending is mostly faulting in their new pages.
    std::jthread wide([&] {
        append(ev.offset, pe.offset);
        append(ev.ts, pe.ts);
        append(ev.track, pe.track);
    });
    append(ev.length, pe.length);
    append(ev.type, pe.type);
    remapIds(ev.name, append(ev.name, pe.name), remap);
    remapIds(ev.category, append(ev.category, pe.category), remap);
    append(ev.generation, pe.generation);
    append(ev.annotated, pe.annotated);
    for (auto& [row, id] : pe.externalIds) row += rowShift;
    append(ev.externalIds, pe.externalIds);
    for (uint32_t& row : pe.sequenced) row += rowShift;
    append(ev.sequenced, pe.sequenced);
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
    for (uint32_t& after : pe.ends.after) after += rowShift;
    append(ev.ends.ts, pe.ends.ts);
    append(ev.ends.track, pe.ends.track);
    append(ev.ends.after, pe.ends.after);

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
    const uint64_t n = bytes.size();
    // A few ranges per thread, taken in order as threads come free: bytes are not work (a
    // range of slice begins with their args holds a few big packets, one of ends and GPU ops
    // many small ones).
    constexpr uint64_t kRangesPerThread = 4;
    const uint64_t step = std::max<uint64_t>({chunkBytes, 1, n / (threads * kRangesPerThread) + 1});
    if (threads == 1 || n <= step) return decodePftrace(bytes, name);

    // Range i is decoded from the end of range i - 1 to the first top-level field at or after
    // (i + 1) * step. Its decoder first walks the ranges before it (scanRange: each walked once,
    // by the first decoder that needs it) for their ends and state packets, while the ranges
    // before it are decoded: nothing is walked before decoding starts.
    const size_t parts = size_t((n + step - 1) / step);
    std::vector<Range> ranges(parts);
    std::vector<std::once_flag> scanned(parts);
    std::vector<PftraceTable> tables(parts);
    std::vector<std::exception_ptr> errors(parts);
    auto limitOf = [&](size_t i) { return i + 1 == parts ? UINT64_MAX : (i + 1) * step; };
    auto decode = [&](size_t i) {
        try {
            PftraceTable& table = tables[i];
            table.name = name;
            PacketDecoder<WireReader> decoder(table, name);
            for (size_t j = 0; j < i; ++j) {
                std::call_once(scanned[j], [&] {
                    scanRange(bytes, ranges[j], limitOf(j));
                    ranges[j + 1].begin = ranges[j].end;
                });
                for (const auto& [at, size] : ranges[j].statePackets)
                    decoder.replayState(bytes.substr(at, size), at);
            }
            const uint64_t begin = ranges[i].begin, limit = limitOf(i);
            if (begin < n && begin < limit)
                decoder.decodeStream(bytes.substr(begin), begin,
                                     limit == UINT64_MAX ? UINT64_MAX : limit - begin);
        } catch (...) {
            errors[i] = std::current_exception();
        }
    };
    std::atomic<size_t> next = 0;
    auto work = [&] {
        for (size_t i; (i = next++) < parts;) decode(i);
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < std::min<size_t>(threads, parts); ++t) pool.emplace_back(work);
    work();
    for (std::thread& t : pool) t.join();
    // The first error in stream order, as the decoder of the whole stream reports it.
    for (const std::exception_ptr& e : errors)
        if (e) std::rethrow_exception(e);
    PftraceTable all = std::move(tables[0]);
    reserveForAll(all, tables);
    for (size_t i = 1; i < tables.size(); ++i) {
        appendTable(all, tables[i]);
        tables[i] = PftraceTable();
    }
    return all;
}

}  // namespace stackline::pftrace
