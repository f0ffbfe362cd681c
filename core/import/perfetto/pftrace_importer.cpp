#include "import/perfetto/pftrace_importer.h"

#include <algorithm>
#include <bit>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <type_traits>
#include <unordered_map>

#include "import/perfetto/pftrace_args_reader.h"
#include "import/perfetto/pftrace_decoder.h"
#include "import/perfetto/proto_fields.h"
#include "import/perfetto/slice_pairing.h"
#include "model/kineto.h"

namespace stackline {

namespace {

using namespace pftrace;

// The pid and tid of each track: its thread's, its process's (tid 0), or for other tracks the
// nearest process ancestor's pid and the track's uuid as tid.
struct TrackIds {
    std::unordered_map<uint64_t, uint32_t> indexOf;  // uuid -> index in PftraceTable::tracks
    const std::vector<Track>* tracks = nullptr;

    explicit TrackIds(const std::vector<Track>& t) : tracks(&t) {
        for (uint32_t i = 0; i < t.size(); ++i) indexOf.emplace(t[i].uuid, i);
    }
    const Track* find(uint64_t uuid) const {
        const auto it = indexOf.find(uuid);
        return it == indexOf.end() ? nullptr : &(*tracks)[it->second];
    }
    std::pair<int64_t, int64_t> of(uint64_t uuid) const {
        const Track* t = find(uuid);
        if (!t) return {0, int64_t(uuid & 0x7FFFFFFF)};
        if (t->kind == Track::Kind::Thread) return {t->pid, t->tid};
        if (t->kind == Track::Kind::Process) return {t->pid, 0};
        for (const Track* p = find(t->parent); p && p != t; p = find(p->parent))
            if (p->kind == Track::Kind::Process || p->kind == Track::Kind::Thread)
                return {p->pid, int64_t(uuid & 0x7FFFFFFF)};
        return {0, int64_t(uuid & 0x7FFFFFFF)};
    }
};

// The stream of a hw queue named "[7] stream 7" (Cuspy's lane names): its last integer.
std::optional<int64_t> streamOfQueue(std::string_view name) {
    size_t end = name.size();
    while (end > 0 && (name[end - 1] < '0' || name[end - 1] > '9')) --end;
    size_t begin = end;
    while (begin > 0 && name[begin - 1] >= '0' && name[begin - 1] <= '9') --begin;
    if (begin == end || end - begin > 15) return std::nullopt;
    int64_t v = 0;
    for (size_t i = begin; i < end; ++i) v = v * 10 + (name[i] - '0');
    return v;
}

// The Kineto category of a render stage, from its stage specification's name (Cuspy's stage iids
// 1-4 when it has none).
std::string_view stageCategory(std::string_view stage, uint64_t iid) {
    if (stage == "Kernel" || (stage.empty() && iid == 1)) return "kernel";
    if (stage == "Memcpy" || (stage.empty() && iid == 2)) return "gpu_memcpy";
    if (stage == "Memset" || (stage.empty() && iid == 3)) return "gpu_memset";
    if (stage == "Annotation" || (stage.empty() && iid == 4)) return "gpu_user_annotation";
    return stage;
}

// The ac2g flows of the field-3000 links, as Kineto writes a launch's: one 's' after the launch
// and an 'f' after each GPU op it links to, all with one id (Kineto's: the correlation id). A
// graph launch links to several; provenance then binds the launch to the last of them, as it
// does in the JSON. The id is the launch's first linked event id; an event linked by several
// launches takes the first one's.
class LaunchFlows {
public:
    explicit LaunchFlows(const TrackEvents& ev) {
        uint64_t maxId = 0;
        for (const uint64_t id : ev.links) maxId = std::max(maxId, id);
        if (!ev.links.empty() && maxId < 4 * uint64_t(ev.links.size()) + (1u << 16))
            dense_.assign(maxId + 1, kNone);
        for (uint32_t r = 0; r < ev.size(); ++r) {
            const uint32_t begin = ev.linkBegin[r], end = ev.linkBegin[r + 1];
            for (uint32_t l = begin; l < end; ++l) {
                const uint64_t id = ev.links[l];
                if (!dense_.empty()) {
                    if (dense_[id] == kNone) dense_[id] = ev.links[begin];
                } else {
                    sparse_.try_emplace(id, ev.links[begin]);
                }
            }
        }
    }
    // The flow id of the GPU op with this event id; nullopt when no launch links to it.
    std::optional<uint64_t> of(uint64_t eventId) const {
        if (!dense_.empty()) {
            if (eventId < dense_.size() && dense_[eventId] != kNone) return dense_[eventId];
            return std::nullopt;
        }
        const auto it = sparse_.find(eventId);
        return it == sparse_.end() ? std::nullopt : std::optional(it->second);
    }

private:
    static constexpr uint64_t kNone = UINT64_MAX;
    std::vector<uint64_t> dense_;  // by event id, when the ids are few and small
    std::unordered_map<uint64_t, uint64_t> sparse_;
};

// One row of the event table before it is written: where it comes from and when it starts.
struct Item {
    int64_t ts;
    int64_t dur;
    uint64_t source;  // RowSources::code
};

class Importer {
public:
    Importer(Trace& trace, PftraceTable& table, const LoadOptions& options)
        : trace_(trace), t_(table), ev_(trace.events), ids_(table.tracks), options_(options) {}

    RowSources run() {
        const ClockSnapshot& clock = t_.clock;
        trace_.metadata.forwardBackwardFlows = false;  // Cuspy drops them (trace.py)
        base_ = clock.hasBoottime ? int64_t(clock.boottime) : 0;
        if (clock.hasRealtime)
            trace_.metadata.baseTimeNs = int64_t(clock.realtime);
        else if (clock.hasBoottime)
            trace_.metadata.baseTimeNs = int64_t(clock.boottime);

        SlicePairs pairs = pairSlices(t_.events);
        const bool noSlices = pairs.begin.empty();
        std::vector<Item> items;
        items.reserve(pairs.begin.size() + t_.stages.size() + t_.counters.size());
        for (size_t i = 0; i < pairs.begin.size(); ++i) {
            const uint32_t b = pairs.begin[i];
            items.push_back({t_.events.ts[b], t_.events.ts[pairs.end[i]] - t_.events.ts[b],
                             RowSources::code(RowSource::TrackEvent, b)});
        }
        pairs = SlicePairs();
        for (uint32_t r = 0; r < t_.events.size(); ++r)
            if (t_.events.type[r] == track_event::kTypeInstant)
                items.push_back({t_.events.ts[r], 0, RowSources::code(RowSource::TrackEvent, r)});
        for (uint32_t i = 0; i < t_.events.counterValues.size(); ++i)
            items.push_back({t_.events.ts[t_.events.counterValues[i].first], 0,
                             RowSources::code(RowSource::TrackCounter, i)});
        for (uint32_t s = 0; s < t_.stages.size(); ++s)
            items.push_back({t_.stages.ts[s], int64_t(t_.stages.duration[s]),
                             RowSources::code(RowSource::RenderStage, s)});
        for (uint32_t c = 0; c < t_.counters.size(); ++c)
            items.push_back({t_.counters.ts[c], 0, RowSources::code(RowSource::GpuCounter, c)});
        // The items hold the times from here on: the TrackEvents' own go before the sort's
        // buffer and the event table grow, and so do the rows that make no event (slice ends).
        std::vector<int64_t>().swap(t_.events.ts);
        std::vector<int64_t>().swap(t_.stages.ts);
        std::vector<uint64_t>().swap(t_.stages.duration);
        keepEventRows(items);
        std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
            return a.ts != b.ts ? a.ts < b.ts : a.dur > b.dur;
        });

        const LaunchFlows flows(t_.events);
        ev_.reserve(items.size() + 2 * t_.events.links.size());
        RowSources sources;
        sources.of.reserve(ev_.length.capacity());
        for (const Item& item : items) {
            const auto kind = RowSource(item.source & 7);
            const uint32_t i = uint32_t(item.source >> 3);
            if (kind == RowSource::TrackEvent) {
                addTrackEvent(i, item, sources);
                if (t_.events.linkBegin[i] < t_.events.linkBegin[i + 1])
                    addFlow('s', t_.events.links[t_.events.linkBegin[i]], item.ts, sources);
            } else if (kind == RowSource::RenderStage) {
                addStage(i, item, sources);
                if (const std::optional<uint64_t> id = flows.of(t_.stages.eventId[i]))
                    addFlow('f', *id, item.ts, sources);
                else if (kineto::isGpuKernel(ev_.catOf(ev_.size() - 1)))
                    ++unlinkedKernels_;
            } else if (kind == RowSource::GpuCounter) {
                addGpuCounter(i, sources);
            } else {
                addTrackCounter(i, item.ts, sources);
            }
        }
        nameTracks();
        noteWhatWasSkipped(noSlices);
        return sources;
    }

private:
    // Drops the TrackEvents no item comes from (slice ends), renumbering the items, counter
    // values and External ids that point at the others: about half the decoded rows, freed
    // before the event table grows, and not kept for the args.
    void keepEventRows(std::vector<Item>& items) {
        TrackEvents& te = t_.events;
        std::vector<uint32_t> index(te.size(), UINT32_MAX);
        for (const Item& item : items)
            if (RowSource(item.source & 7) == RowSource::TrackEvent) index[item.source >> 3] = 0;
        for (const auto& [row, value] : te.counterValues) index[row] = 0;
        uint32_t kept = 0;
        for (uint32_t& i : index)
            if (i == 0) i = kept++;
        auto keep = [&](auto& column) {
            using Column = std::remove_reference_t<decltype(column)>;
            Column out;
            out.reserve(kept);
            for (uint32_t r = 0; r < index.size(); ++r)
                if (index[r] != UINT32_MAX) out.push_back(column[r]);
            column.swap(out);
        };
        keep(te.offset), keep(te.length), keep(te.type), keep(te.track), keep(te.name);
        keep(te.category), keep(te.generation), keep(te.annotated);
        std::vector<uint32_t> linkBegin{0};
        std::vector<uint64_t> links;
        linkBegin.reserve(kept + 1);
        for (uint32_t r = 0; r < index.size(); ++r) {
            if (index[r] == UINT32_MAX) continue;
            links.insert(links.end(), te.links.begin() + te.linkBegin[r],
                         te.links.begin() + te.linkBegin[r + 1]);
            linkBegin.push_back(uint32_t(links.size()));
        }
        te.linkBegin.swap(linkBegin);
        te.links.swap(links);
        std::erase_if(te.externalIds, [&](const auto& e) { return index[e.first] == UINT32_MAX; });
        for (auto& [row, value] : te.externalIds) row = index[row];
        for (auto& [row, value] : te.counterValues) row = index[row];
        for (Item& item : items)
            if (RowSource(item.source & 7) == RowSource::TrackEvent)
                item.source = RowSources::code(RowSource::TrackEvent, index[item.source >> 3]);
    }

    // The event table's id of a string of the decoded table, interned once rather than hashed
    // again on every row (kernel names run to thousands of characters).
    uint32_t fromTable(uint32_t id) {
        if (poolIds_.empty()) poolIds_.assign(t_.strings.size(), UINT32_MAX);
        uint32_t& e = poolIds_[id];
        if (e == UINT32_MAX) e = ev_.strings.intern(t_.strings.at(id));
        return e;
    }

    // name and cat: ids in the event table's pool.
    void push(char phase, uint32_t name, std::optional<uint32_t> cat, KeyId pid, KeyId tid,
              int64_t ts, std::optional<int64_t> dur, bool args) {
        ev_.begin.push_back(0);
        ev_.length.push_back(0);
        ev_.argsOffset.push_back(0);
        ev_.argsLength.push_back(0);
        ev_.name.push_back(name);
        ev_.cat.push_back(cat.value_or(0));
        ev_.phase.push_back(phase);
        ev_.pid.push_back(pid);
        ev_.tid.push_back(tid);
        ev_.externalId.push_back(kNoKey);
        const int64_t rel = ts - base_;
        if (options_.nanoseconds) {
            ev_.tsNs.push_back(rel);
            ev_.durNs.push_back(dur.value_or(0));
        }
        ev_.tsBits.push_back(std::bit_cast<uint64_t>(double(rel) / 1000.0));
        EventTable::Kinds k{};
        k.event = ValueKind::Object;
        k.name = ValueKind::String;
        k.cat = cat ? ValueKind::String : ValueKind::Absent;
        k.args = args ? ValueKind::Object : ValueKind::Absent;
        k.callFrom = CallFrom::No;
        k.ts = PyNum::Kind::Float;
        k.dur = dur ? PyNum::Kind::Float : PyNum::Kind::Missing;
        ev_.pushDur(k.dur, std::bit_cast<uint64_t>(double(dur.value_or(0)) / 1000.0));
        k.flowId = FlowIdStatus::Missing;
        ev_.kinds.push_back(k);
    }

    // The pid and tid keys of a track's rows, its threads noted for nameTracks on first use.
    struct Lane {
        KeyId pid, tid;
    };
    const Lane& trackLane(uint64_t uuid) {
        if (lastTrack_ && lastTrackUuid_ == uuid) return *lastTrack_;
        auto [it, added] = trackLanes_.try_emplace(uuid);
        if (added) {
            const auto [pid, tid] = ids_.of(uuid);
            usedThreads_.emplace(pid, tid);
            it->second = {ev_.keys.intKey(pid), ev_.keys.intKey(tid)};
        }
        lastTrackUuid_ = uuid;
        lastTrack_ = &it->second;
        return it->second;
    }

    void addTrackEvent(uint32_t i, const Item& item, RowSources& sources) {
        const TrackEvents& te = t_.events;
        const Lane& lane = trackLane(te.track[i]);
        const bool annotated = te.annotated[i] != 0;
        const bool slice = te.type[i] != track_event::kTypeInstant;
        const std::optional<uint32_t> cat =
            te.category[i] ? std::optional(fromTable(te.category[i])) : std::nullopt;
        push(slice ? 'X' : 'i', fromTable(te.name[i]), cat, lane.pid, lane.tid, item.ts,
             slice ? std::optional(item.dur) : std::nullopt, annotated);
        const auto id = std::lower_bound(te.externalIds.begin(), te.externalIds.end(),
                                         std::pair<uint32_t, int64_t>(i, INT64_MIN));
        if (id != te.externalIds.end() && id->first == i)
            ev_.externalId.back() = ev_.keys.intKey(id->second);
        sources.push(annotated ? RowSource::TrackEvent : RowSource::None, i);
    }

    // The GPU, stream and category keys of a render stage, by (GPU, queue, stage): one entry per
    // lane and stage kind; the lanes noted for nameTracks on first use.
    struct StageKeys {
        KeyId pid, tid;
        uint32_t cat;
    };
    const StageKeys& stageKeys(uint32_t i) {
        const RenderStages& st = t_.stages;
        const auto key =
            std::make_tuple(st.gpu[i], st.queue[i], st.queueIid[i], st.stage[i], st.stageIid[i]);
        if (lastStage_ && lastStageKey_ == key) return *lastStage_;
        auto [it, added] = stageKeys_.try_emplace(key);
        if (added) {
            const std::optional<int64_t> stream = streamOfQueue(t_.strings.at(st.queue[i]));
            const int64_t gpu = st.gpu[i], lane = stream.value_or(int64_t(st.queueIid[i]));
            gpuLanes_.emplace(gpu, lane);
            it->second = {
                ev_.keys.intKey(gpu), ev_.keys.intKey(lane),
                ev_.strings.intern(stageCategory(t_.strings.at(st.stage[i]), st.stageIid[i]))};
        }
        lastStageKey_ = key;
        lastStage_ = &it->second;
        return it->second;
    }

    void addStage(uint32_t i, const Item& item, RowSources& sources) {
        const RenderStages& st = t_.stages;
        const StageKeys& keys = stageKeys(i);
        const uint32_t name = st.kernel[i] ? st.kernel[i] : st.name[i];
        push('X', fromTable(name), keys.cat, keys.pid, keys.tid, item.ts, item.dur, true);
        sources.push(RowSource::RenderStage, i);
    }

    // An ac2g flow end on the row just pushed (a launch, or a render stage), id its event id.
    void addFlow(char phase, uint64_t eventId, int64_t ts, RowSources& sources) {
        const KeyId pid = ev_.pid.back(), tid = ev_.tid.back();
        const uint32_t ac2g = ev_.strings.intern("ac2g");
        push(phase, ac2g, ac2g, pid, tid, ts, std::nullopt, false);
        const uint32_t row = ev_.size() - 1;
        ev_.kinds[row].flowId = FlowIdStatus::Ok;
        ev_.flowIds.push(row, int64_t(eventId));
        sources.push(RowSource::None, 0);
    }

    void addGpuCounter(uint32_t i, RowSources& sources) {
        const CounterSamples& c = t_.counters;
        const std::string pid = "GPU " + std::to_string(c.gpu[i]) + " Counters";
        const std::string name = c.name[i] ? std::string(t_.strings.at(c.name[i]))
                                           : "counter " + std::to_string(c.counterId[i]);
        push('C', ev_.strings.intern(name), std::nullopt, ev_.keys.stringKey(pid),
             ev_.keys.intKey(0), c.ts[i], std::nullopt, true);
        sources.push(RowSource::GpuCounter, i);
    }

    void addTrackCounter(uint32_t i, int64_t ts, RowSources& sources) {
        const uint32_t row = t_.events.counterValues[i].first;
        const Track* track = ids_.find(t_.events.track[row]);
        const auto [pid, tid] = ids_.of(t_.events.track[row]);
        const std::string_view name =
            track && track->name ? t_.strings.at(track->name) : t_.strings.at(t_.events.name[row]);
        push('C', ev_.strings.intern(name), std::nullopt, ev_.keys.intKey(pid),
             ev_.keys.intKey(tid), ts, std::nullopt, true);
        sources.push(RowSource::TrackCounter, i);
    }

    // Process and thread names from the descriptors; GPUs named as Kineto names them ("GPU 0",
    // sorted after the CPU processes; "stream 7").
    void nameTracks() {
        TraceMetadata& meta = trace_.metadata;
        auto key = [](int64_t v) { return DisplayKey{true, v, {}}; };
        for (const Track& track : t_.tracks) {
            const std::string_view name = t_.strings.at(track.name);
            if (track.kind == Track::Kind::Process) {
                ProcessNaming& p = meta.processes[key(track.pid)];
                if (!name.empty()) p.name = std::string(name);
                p.sortIndex = track.pid;
            } else if (track.kind == Track::Kind::Thread &&
                       usedThreads_.count({track.pid, track.tid})) {
                ThreadNaming& th = meta.threads[{key(track.pid), key(track.tid)}];
                if (!name.empty()) th.name = std::string(name);
                th.sortIndex = track.tid;
            }
        }
        for (const auto& [gpu, stream] : gpuLanes_) {
            ProcessNaming& p = meta.processes[key(gpu)];
            p.labels = std::string(kineto::kGpuLabelPrefix) + " " + std::to_string(gpu);
            p.sortIndex = kineto::kGpuSortIndexBase + gpu;
            ThreadNaming& th = meta.threads[{key(gpu), key(stream)}];
            th.name = "stream " + std::to_string(stream);
            th.sortIndex = stream;
        }
    }

    // Trace::notes: what the decoder counted and skipped, and what provenance cannot reach.
    void noteWhatWasSkipped(bool noSlices) {
        const DecodeStats& st = t_.stats;
        std::vector<std::string>& notes = trace_.notes;
        auto n = [](uint64_t count, const char* one, const char* many) {
            return std::to_string(count) + " " + (count == 1 ? one : many);
        };
        if (!st.unknownPackets.empty()) {
            uint64_t count = 0;
            std::string kinds;
            for (const auto& [field, c] : st.unknownPackets) {
                count += c;
                kinds +=
                    (kinds.empty() ? "" : ", ") + std::to_string(field) + ": " + std::to_string(c);
            }
            notes.push_back(n(count, "packet", "packets") +
                            " of kinds Stackline does not read were skipped (TracePacket field: "
                            "count; " +
                            kinds + ")");
        }
        if (st.skippedNeedsIncrementalState)
            notes.push_back(n(st.skippedNeedsIncrementalState, "packet", "packets") +
                            " that need their sequence's incremental state came before it was "
                            "cleared and were skipped, as Perfetto skips them");
        if (st.unresolvedIids)
            notes.push_back(n(st.unresolvedIids, "interned id", "interned ids") +
                            " had no entry on their sequence: those names, categories or GPU "
                            "stages are empty");
        if (st.otherClockTimestamps)
            notes.push_back(n(st.otherClockTimestamps, "packet timestamp", "packet timestamps") +
                            " on a clock other than BOOTTIME were read as BOOTTIME");
        if (st.legacyTimestamps)
            notes.push_back(n(st.legacyTimestamps, "TrackEvent carries", "TrackEvents carry") +
                            " timestamp_delta_us or timestamp_absolute_us, not read: the packet's "
                            "timestamp was used");
        if (noSlices)
            notes.push_back(
                "The trace has no TrackEvent slices: no CPU op, launch or compiled "
                "region that a kernel could be reached from");
        if (unlinkedKernels_) {
            const char* them = unlinkedKernels_ == 1 ? "it" : "them";
            notes.push_back(n(unlinkedKernels_, "GPU kernel is", "GPU kernels are") +
                            " linked to no launch (no render_stage_submission_event_ids point at " +
                            them + "): provenance cannot reach " + them);
        }
    }

    Trace& trace_;
    PftraceTable& t_;
    EventTable& ev_;
    TrackIds ids_;
    const LoadOptions& options_;
    int64_t base_ = 0;
    std::set<std::pair<int64_t, int64_t>> usedThreads_, gpuLanes_;
    std::vector<uint32_t> poolIds_;  // by decoded-table string id: fromTable's cache
    std::unordered_map<uint64_t, Lane> trackLanes_;  // by track uuid
    const Lane* lastTrack_ = nullptr;
    uint64_t lastTrackUuid_ = 0;
    using StageKey = std::tuple<int32_t, uint32_t, uint64_t, uint32_t, uint64_t>;
    std::map<StageKey, StageKeys> stageKeys_;
    const StageKeys* lastStage_ = nullptr;
    StageKey lastStageKey_;
    uint64_t unlinkedKernels_ = 0;
};

}  // namespace

Trace readPftrace(TraceBytes bytes, const std::string& name, const LoadOptions& options) {
    Trace trace;
    trace.path = name;
    trace.bytes = std::move(bytes);
    PftraceTable table = decodePftrace(trace.text(), name, options.threads, options.chunkBytes);
    RowSources sources = Importer(trace, table, options).run();
    trace.argsReader = pftraceArgsReader(std::move(table), std::move(sources));
    return trace;
}

}  // namespace stackline
