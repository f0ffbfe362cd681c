// What a Perfetto protobuf trace holds, decoded into flat columns: tracks, TrackEvents, GPU render
// stages, GPU counter samples and the clock snapshot. Interned names are resolved while decoding
// (one StringPool); the args of an event (its debug annotations, a render stage's extra_data) stay
// in the trace's bytes and are read on demand from the span kept for each row.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/offset_column.h"
#include "base/string_pool.h"

namespace stackline::pftrace {

struct Track {
    enum class Kind : uint8_t { Other, Process, Thread, Counter };
    uint64_t uuid = 0;
    uint64_t parent = 0;  // 0: none
    Kind kind = Kind::Other;
    int64_t pid = 0;
    int64_t tid = 0;
    uint32_t name = 0;  // StringPool id; 0 is ""
};

// SLICE_END TrackEvents that carry nothing but their track and time (nearly every writer's,
// Cuspy's all): kept apart from the rows, 20 bytes each. after: how many rows came before each in
// the stream, its place among them.
struct SliceEnds {
    std::vector<int64_t> ts;
    std::vector<uint64_t> track;
    std::vector<uint32_t> after;
    uint32_t size() const { return uint32_t(ts.size()); }
};

// TrackEvents, in file order. offset/length: the TrackEvent message's bytes in the stream.
struct TrackEvents {
    OffsetColumn offset;
    std::vector<uint32_t> length;
    std::vector<int64_t> ts;    // the packet's timestamp, ns (freed once the importer has them)
    std::vector<uint8_t> type;  // track_event::kType* (0: unspecified)
    std::vector<uint64_t> track;
    std::vector<uint32_t> name, category;  // StringPool ids (first category only); 0: none
    std::vector<uint32_t> generation;      // interning generation, for the args; empty: all 0
    std::vector<uint8_t> annotated;        // 1 when it has debug annotations
    // The integer value of its last "External id" annotation that has one: (row, value), by row.
    std::vector<std::pair<uint32_t, int64_t>> externalIds;
    // The rows with a "Sequence number" annotation, ascending: the only ones ForwardBySequence
    // reads (ArgsReader::rowsThatMayHold).
    std::vector<uint32_t> sequenced;
    // render_stage_submission_event_ids of row r: links[linkBegin[r], linkBegin[r + 1]).
    std::vector<uint32_t> linkBegin{0};
    std::vector<uint64_t> links;
    std::vector<std::pair<uint32_t, uint64_t>> flows, terminatingFlows;  // (row, flow id)
    std::vector<std::pair<uint32_t, double>> counterValues;              // (row, value)
    SliceEnds ends;  // the bare slice ends, not rows
    uint32_t size() const { return uint32_t(offset.size()); }
};

// GpuRenderStageEvents, in file order. offset/length: the event's bytes (extra_data on demand).
struct RenderStages {
    OffsetColumn offset;
    std::vector<uint32_t> length;
    std::vector<int64_t> ts;
    std::vector<uint64_t> duration;
    std::vector<uint64_t> eventId;
    std::vector<int32_t> gpu;
    std::vector<uint64_t> queueIid, stageIid;
    std::vector<uint32_t> queue, stage;  // names of the hw queue and stage specifications
    // The slice's name as Perfetto gives it: name_iid, else name, else the stage's name.
    std::vector<uint32_t> name;
    std::vector<uint32_t> kernel;      // InternedComputeKernel demangled_name (else name); 0: none
    std::vector<uint32_t> generation;  // interning generation, for the launch; empty: all 0
    uint32_t size() const { return uint32_t(ts.size()); }
};

struct CounterSamples {
    std::vector<int64_t> ts;
    std::vector<int32_t> gpu;
    std::vector<uint32_t> counterId;
    std::vector<uint32_t> name;  // the descriptor's spec name; 0 when unresolved
    std::vector<double> value;
    uint32_t size() const { return uint32_t(ts.size()); }
};

struct ClockSnapshot {
    bool present = false;
    bool hasRealtime = false, hasBoottime = false;
    uint64_t realtime = 0, boottime = 0;  // ns
};

// Interned debug annotation names and string values, and compute arg names, of one generation (a
// sequence's state between two SEQ_INCREMENTAL_STATE_CLEARED), kept only for reading args on
// demand.
struct AnnotationNames {
    std::unordered_map<uint64_t, uint32_t> names, strings;
    std::unordered_map<uint64_t, uint32_t> computeArgs;  // a kernel launch's arg names
};

struct DecodeStats {
    uint64_t packets = 0;
    uint64_t skippedNeedsIncrementalState = 0;    // SEQ_NEEDS_INCREMENTAL_STATE before any clear
    uint64_t unresolvedIids = 0;                  // an iid with no interned entry on its sequence
    uint64_t otherClockTimestamps = 0;            // timestamp_clock_id other than BOOTTIME
    uint64_t legacyTimestamps = 0;                // TrackEvent timestamp_delta_us / _absolute_us
    std::map<uint32_t, uint64_t> unknownPackets;  // TracePacket data field -> count
};

struct PftraceTable {
    std::string name;  // the input, for messages
    StringPool strings;
    std::vector<Track> tracks;
    TrackEvents events;
    RenderStages stages;
    CounterSamples counters;
    ClockSnapshot clock;
    std::vector<AnnotationNames> generations;
    DecodeStats stats;
};

}  // namespace stackline::pftrace
