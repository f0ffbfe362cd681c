// Decodes a stream of TracePackets (the Trace message: field 1 repeated) into a PftraceTable.
// Per sequence (trusted_packet_sequence_id) it keeps the interned tables, dropped and started
// anew at SEQ_INCREMENTAL_STATE_CLEARED; a packet flagged SEQ_NEEDS_INCREMENTAL_STATE on a
// sequence not yet cleared is skipped and counted, as Perfetto's trace processor does. Packets of
// other kinds are skipped and counted by field number. The wire reader is a parameter so that a
// benchmark can set readers side by side; the importer uses WireReader (wire_reader.h).
// Errors (a truncated or corrupt packet) throw InputError naming the input and the byte offset.
#pragma once

#include <algorithm>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/errors.h"
#include "import/perfetto/pftrace_table.h"
#include "import/perfetto/proto_fields.h"
#include "model/kineto.h"

namespace stackline::pftrace {

// iid -> value for one interned table: dense for the small iids writers use, a map beyond.
template <class T>
class IidMap {
public:
    void set(uint64_t iid, T value) {
        if (iid < kDense) {
            if (iid >= dense_.size()) dense_.resize(iid + 1, T{});
            dense_[iid] = value;
            if (iid >= present_.size()) present_.resize(iid + 1, false);
            present_[iid] = true;
        } else {
            sparse_[iid] = value;
        }
    }
    const T* find(uint64_t iid) const {
        if (iid < present_.size()) return present_[iid] ? &dense_[iid] : nullptr;
        if (iid < kDense) return nullptr;
        auto it = sparse_.find(iid);
        return it == sparse_.end() ? nullptr : &it->second;
    }

private:
    static constexpr uint64_t kDense = uint64_t(1) << 20;
    std::vector<T> dense_;
    std::vector<bool> present_;
    std::unordered_map<uint64_t, T> sparse_;
};

// The annotation the importer reads of every slice (Kineto's "External id").
inline constexpr std::string_view kExternalIdName = "External id";

template <class Reader>
class PacketDecoder {
public:
    PacketDecoder(PftraceTable& out, std::string name) : out_(out), name_(std::move(name)) {}

    // Decodes every packet of bytes, a serialized Trace; base is the offset of bytes[0] in the
    // input (for messages and the rows' spans). With a limit, stops before the first top-level
    // field that starts at or after it (an offset in bytes) and returns where: the next range's
    // start (see nextTopLevelField).
    uint64_t decodeStream(std::string_view bytes, uint64_t base = 0, uint64_t limit = UINT64_MAX) {
        const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
        const uint64_t n = bytes.size();
        if (out_.events.offset.capacity() == 0) reserve(estimatePackets(p, std::min(n, limit)));
        uint64_t at = 0;
        while (at < n && at < limit) {
            const uint64_t fieldAt = at;
            const uint64_t tag = streamVarint(p, n, at, base + fieldAt, "field tag");
            const uint32_t field = uint32_t(tag >> 3);
            const auto type = WireType(tag & 7);
            if (field == 0) fail(base + fieldAt, "field number 0 at the top level");
            if (type == WireType::Varint) {
                streamVarint(p, n, at, base + fieldAt, "varint");
                continue;
            }
            uint64_t size = 0;
            if (type == WireType::Fixed64) {
                size = 8;
            } else if (type == WireType::Fixed32) {
                size = 4;
            } else if (type == WireType::Bytes) {
                size = streamVarint(p, n, at, base + fieldAt, "length");
            } else {
                fail(base + fieldAt,
                     "wire type " + std::to_string(int(type)) + " at the top level");
            }
            if (size > n - at)
                fail(base + fieldAt, "a field of " + std::to_string(size) +
                                         " bytes runs past the end (" + std::to_string(n - at) +
                                         " bytes left)");
            if (field == trace::kPacket && type == WireType::Bytes)
                decodePacket(std::string_view(bytes.data() + at, size), base + at);
            at += size;
        }
        return at;
    }

    // Applies to the sequences only what packet (one TracePacket's bytes at offset at of the
    // input) does to their incremental state: a clear (a new generation), its defaults, its
    // interned data. A decoder of a later range of the stream replays the state packets before
    // it (isStatePacket) and then decodes as the decoder of the whole stream would.
    void replayState(std::string_view packet, uint64_t at) {
        try {
            decodePacketFields(packet, at, true);
        } catch (const std::exception&) {
            // The packet's own decoder reports it.
        }
    }

    // Whether a TracePacket changes its sequence's state (see replayState); false when corrupt.
    static bool isStatePacket(std::string_view packet) {
        try {
            Reader r(packet);
            while (r.next()) {
                const uint32_t f = r.field();
                if (r.type() == WireType::Varint) {
                    const uint64_t v = r.varint();
                    if ((f == packet::kSequenceFlags &&
                         (v & packet::kSeqIncrementalStateCleared)) ||
                        (f == packet::kIncrementalStateCleared && v != 0))
                        return true;
                } else if (r.type() == WireType::Bytes &&
                           (f == packet::kInternedData || f == packet::kTracePacketDefaults)) {
                    return true;
                } else {
                    r.skip();
                }
            }
        } catch (const std::exception&) {
        }
        return false;
    }

private:
    struct Spec {
        uint32_t name = 0;
    };
    struct CounterDescriptor {
        int32_t gpu = 0;
        std::unordered_map<uint32_t, uint32_t> names;  // counter_id -> name
    };
    struct SequenceState {
        bool valid = false;
        uint32_t generation = 0;
        uint64_t defaultTrack = 0;
        // The iids of the debug annotation name "External id" (any, in a valid trace: one).
        std::vector<uint64_t> externalIdIids;
        std::vector<uint64_t> sequenceNumberIids;  // of "Sequence number"
        IidMap<uint32_t> eventNames, categories, kernels;
        IidMap<Spec> specs;
        std::unordered_map<uint64_t, CounterDescriptor> counterDescriptors;
    };

public:
    // The packets of a well-formed stream (a first pass over the top-level fields, stopping at
    // anything malformed): an upper bound of the rows, so that the columns grow once.
    static uint64_t countPackets(const uint8_t* p, uint64_t n) {
        uint64_t at = 0, count = 0;
        while (at < n && p[at] == ((trace::kPacket << 3) | 2)) {
            uint64_t size = 0;
            unsigned shift = 0;
            for (++at; at < n && shift < 64; shift += 7) {
                const uint8_t b = p[at++];
                size |= uint64_t(b & 0x7F) << shift;
                if (!(b & 0x80)) break;
            }
            if (size > n - at) break;
            at += size;
            ++count;
        }
        return count;
    }

    // An upper bound of the packets in n bytes, likely: counted in a small stream, else
    // extrapolated from its first 4 MB with a margin (a short guess only makes a column grow).
    static uint64_t estimatePackets(const uint8_t* p, uint64_t n) {
        constexpr uint64_t kSample = 4 << 20;
        if (n <= 2 * kSample) return countPackets(p, n) + 1;
        return countPackets(p, kSample) * (n / kSample + 1) * 5 / 4 + 1024;
    }

    // Room for the rows of this many packets (virtual: untouched pages cost nothing), so that
    // the columns grow once; the ranges after the first are appended to the first's columns.
    void reserve(uint64_t packets) {
        TrackEvents& ev = out_.events;
        ev.offset.reserve(packets), ev.length.reserve(packets), ev.ts.reserve(packets);
        ev.type.reserve(packets), ev.track.reserve(packets), ev.name.reserve(packets);
        ev.category.reserve(packets), ev.generation.reserve(packets);
        ev.annotated.reserve(packets);
        ev.linkBegin.reserve(packets + 1);
        ev.links.reserve(packets);
        ev.ends.ts.reserve(packets), ev.ends.track.reserve(packets), ev.ends.after.reserve(packets);
        RenderStages& st = out_.stages;
        st.offset.reserve(packets), st.length.reserve(packets), st.ts.reserve(packets);
        st.duration.reserve(packets), st.eventId.reserve(packets), st.gpu.reserve(packets);
        st.queueIid.reserve(packets), st.stageIid.reserve(packets), st.queue.reserve(packets);
        st.stage.reserve(packets), st.name.reserve(packets), st.kernel.reserve(packets);
        st.generation.reserve(packets);
    }

private:
    [[noreturn]] void fail(uint64_t at, const std::string& what) const {
        throw InputError(name_ + ": byte " + std::to_string(at) + ": " + what);
    }

    uint64_t streamVarint(const uint8_t* p, uint64_t n, uint64_t& at, uint64_t fieldAt,
                          const char* what) const {
        uint64_t v = 0;
        for (unsigned shift = 0; shift < 64; shift += 7) {
            if (at >= n) fail(fieldAt, std::string("the trace ends inside a ") + what);
            const uint8_t b = p[at++];
            v |= uint64_t(b & 0x7F) << shift;
            if (!(b & 0x80)) return v;
        }
        fail(fieldAt, std::string("a ") + what + " longer than 10 bytes");
    }

    SequenceState& sequence(uint32_t id) {
        if (current_ && id == currentId_) return *current_;
        currentId_ = id;
        current_ = &sequences_[id];
        return *current_;
    }

    uint32_t resolve(const IidMap<uint32_t>& map, uint64_t iid) {
        if (const uint32_t* v = map.find(iid)) return *v;
        ++out_.stats.unresolvedIids;
        return 0;
    }

    void decodePacket(std::string_view bytes, uint64_t at) {
        try {
            decodePacketFields(bytes, at, false);
        } catch (const InputError&) {
            throw;
        } catch (const std::exception& e) {
            fail(at, std::string("corrupt TracePacket of ") + std::to_string(bytes.size()) +
                         " bytes (" + e.what() + ")");
        }
    }

    // replay: only what the packet does to its sequence's state (see replayState).
    void decodePacketFields(std::string_view bytes, uint64_t at, bool replay) {
        if (!replay) ++out_.stats.packets;
        uint64_t ts = 0;
        uint32_t seqId = 0, flags = 0, dataField = 0;
        bool cleared = false;
        std::string_view interned, defaults, data;
        uint64_t dataAt = 0;
        Reader r(bytes);
        while (r.next()) {
            const uint32_t f = r.field();
            const WireType t = r.type();
            if (t == WireType::Varint) {
                const uint64_t v = r.varint();
                if (f == packet::kTimestamp)
                    ts = v;
                else if (f == packet::kTrustedPacketSequenceId)
                    seqId = uint32_t(v);
                else if (f == packet::kSequenceFlags)
                    flags = uint32_t(v);
                else if (f == packet::kIncrementalStateCleared)
                    cleared = cleared || v != 0;
                else if (f == packet::kTimestampClockId && v != clock_snapshot::kBoottime &&
                         !replay)
                    ++out_.stats.otherClockTimestamps;
            } else if (t == WireType::Bytes) {
                const std::string_view v = r.bytes();
                if (f == packet::kInternedData) {
                    interned = v;
                } else if (f == packet::kTracePacketDefaults) {
                    defaults = v;
                } else {
                    dataField = f;
                    data = v;
                    dataAt = at + uint64_t(v.data() - bytes.data());
                }
            } else {
                r.skip();
            }
        }
        if (flags & packet::kSeqIncrementalStateCleared) cleared = true;

        SequenceState& seq = sequence(seqId);
        if (cleared) {
            const uint32_t generation = uint32_t(out_.generations.size());
            seq = SequenceState();
            seq.valid = true;
            seq.generation = generation;
            out_.generations.emplace_back();
        }
        if (!defaults.empty()) readDefaults(seq, defaults);
        if (!interned.empty() && seq.valid) readInterned(seq, interned, replay);
        if (replay) return;
        if ((flags & packet::kSeqNeedsIncrementalState) && !seq.valid) {
            ++out_.stats.skippedNeedsIncrementalState;
            return;
        }
        switch (dataField) {
            case 0:
                break;
            case packet::kTrackEvent:
                readTrackEvent(seq, data, dataAt, int64_t(ts));
                break;
            case packet::kGpuRenderStageEvent:
                readRenderStage(seq, data, dataAt, int64_t(ts));
                break;
            case packet::kTrackDescriptor:
                readTrackDescriptor(data);
                break;
            case packet::kGpuCounterEvent:
                readCounterEvent(seq, data, int64_t(ts));
                break;
            case packet::kClockSnapshot:
                readClockSnapshot(data);
                break;
            default:
                ++out_.stats.unknownPackets[dataField];
                break;
        }
    }

    // The state packets' readers (defaults, interned data), in packet_state_readers.h.
    void readDefaults(SequenceState& seq, std::string_view bytes);
    // An interned entry's iid (field 1) and name (field nameField).
    static std::pair<uint64_t, std::string_view> entry(std::string_view bytes, uint32_t nameField);
    // names: the generation's annotation and arg names, read for the args on demand; replay
    // leaves them to the decoder whose range holds the packet.
    void readInterned(SequenceState& seq, std::string_view bytes, bool replay);
    void readKernel(SequenceState& seq, std::string_view bytes);
    void readCounterDescriptor(SequenceState& seq, std::string_view bytes);

    // The rows' two sources, in packet_event_readers.h.
    void readAnnotation(const SequenceState& seq, std::string_view bytes, uint32_t row);
    void readTrackEvent(SequenceState& seq, std::string_view bytes, uint64_t at, int64_t ts);
    void readRenderStage(SequenceState& seq, std::string_view bytes, uint64_t at, int64_t ts);

    void readTrackDescriptor(std::string_view bytes) {
        Track track;
        Reader r(bytes);
        while (r.next()) {
            const uint32_t f = r.field();
            if (r.type() == WireType::Varint) {
                const uint64_t v = r.varint();
                if (f == track_descriptor::kUuid)
                    track.uuid = v;
                else if (f == track_descriptor::kParentUuid)
                    track.parent = v;
            } else if (r.type() == WireType::Bytes) {
                const std::string_view v = r.bytes();
                if (f == track_descriptor::kName || f == track_descriptor::kStaticName ||
                    f == track_descriptor::kAtraceName) {
                    if (!track.name) track.name = out_.strings.intern(v);
                } else if (f == track_descriptor::kProcess) {
                    track.kind = Track::Kind::Process;
                    readProcess(track, v);
                } else if (f == track_descriptor::kThread) {
                    track.kind = Track::Kind::Thread;
                    readThread(track, v);
                } else if (f == track_descriptor::kCounter) {
                    track.kind = Track::Kind::Counter;
                }
            } else {
                r.skip();
            }
        }
        out_.tracks.push_back(track);
    }

    void readProcess(Track& track, std::string_view bytes) {
        Reader r(bytes);
        while (r.next()) {
            if (r.field() == process_descriptor::kPid && r.type() == WireType::Varint)
                track.pid = int32_t(r.varint());
            else if (r.field() == process_descriptor::kProcessName && r.type() == WireType::Bytes)
                track.name = out_.strings.intern(r.bytes());
            else
                r.skip();
        }
    }

    void readThread(Track& track, std::string_view bytes) {
        Reader r(bytes);
        while (r.next()) {
            if (r.field() == thread_descriptor::kPid && r.type() == WireType::Varint)
                track.pid = int32_t(r.varint());
            else if (r.field() == thread_descriptor::kTid && r.type() == WireType::Varint)
                track.tid = int64_t(r.varint());
            else if (r.field() == thread_descriptor::kThreadName && r.type() == WireType::Bytes)
                track.name = out_.strings.intern(r.bytes());
            else
                r.skip();
        }
    }

    void readCounterEvent(SequenceState& seq, std::string_view bytes, int64_t ts) {
        const CounterDescriptor* desc = nullptr;
        bool hasGpu = false;
        int32_t gpu = 0;
        std::vector<std::string_view> samples;
        Reader r(bytes);
        while (r.next()) {
            const uint32_t f = r.field();
            if (f == gpu_counter_event::kCounterDescriptorIid && r.type() == WireType::Varint) {
                auto it = seq.counterDescriptors.find(r.varint());
                if (it != seq.counterDescriptors.end())
                    desc = &it->second;
                else
                    ++out_.stats.unresolvedIids;
            } else if (f == gpu_counter_event::kGpuId && r.type() == WireType::Varint) {
                gpu = int32_t(r.varint());
                hasGpu = true;
            } else if (f == gpu_counter_event::kCounters && r.type() == WireType::Bytes) {
                samples.push_back(r.bytes());
            } else {
                r.skip();
            }
        }
        if (!hasGpu && desc) gpu = desc->gpu;
        CounterSamples& c = out_.counters;
        for (const std::string_view s : samples) {
            uint32_t id = 0;
            double value = 0;
            Reader g(s);
            while (g.next()) {
                if (g.field() == gpu_counter_event::kCounterId && g.type() == WireType::Varint)
                    id = uint32_t(g.varint());
                else if (g.field() == gpu_counter_event::kIntValue && g.type() == WireType::Varint)
                    value = double(int64_t(g.varint()));
                else if (g.field() == gpu_counter_event::kDoubleValue &&
                         g.type() == WireType::Fixed64)
                    value = g.real();
                else
                    g.skip();
            }
            uint32_t name = 0;
            if (desc) {
                auto it = desc->names.find(id);
                if (it != desc->names.end()) name = it->second;
            }
            c.ts.push_back(ts);
            c.gpu.push_back(gpu);
            c.counterId.push_back(id);
            c.name.push_back(name);
            c.value.push_back(value);
        }
    }

    void readClockSnapshot(std::string_view bytes) {
        ClockSnapshot& clock = out_.clock;
        clock.present = true;
        Reader r(bytes);
        while (r.next()) {
            if (r.field() != clock_snapshot::kClocks || r.type() != WireType::Bytes) {
                r.skip();
                continue;
            }
            uint64_t id = 0, value = 0;
            Reader c(r.bytes());
            while (c.next()) {
                if (c.field() == clock_snapshot::kClockId && c.type() == WireType::Varint)
                    id = c.varint();
                else if (c.field() == clock_snapshot::kClockTimestamp &&
                         c.type() == WireType::Varint)
                    value = c.varint();
                else
                    c.skip();
            }
            if (id == clock_snapshot::kRealtime) {
                clock.hasRealtime = true;
                clock.realtime = value;
            } else if (id == clock_snapshot::kBoottime) {
                clock.hasBoottime = true;
                clock.boottime = value;
            }
        }
    }

    PftraceTable& out_;
    std::string name_;
    std::unordered_map<uint32_t, SequenceState> sequences_;
    SequenceState* current_ = nullptr;
    uint32_t currentId_ = 0;
};

}  // namespace stackline::pftrace

// The member templates that read state packets, TrackEvents and render stages.
#include "import/perfetto/packet_event_readers.h"
#include "import/perfetto/packet_state_readers.h"
