#include "import/perfetto/pftrace_importer.h"

#include <algorithm>
#include <bit>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <thread>
#include <tuple>
#include <type_traits>
#include <unordered_map>

#include "base/errors.h"
#include "import/perfetto/kineto_mapping.h"
#include "import/perfetto/pftrace_args_reader.h"
#include "import/perfetto/pftrace_decoder.h"
#include "import/perfetto/pftrace_notes.h"
#include "import/perfetto/proto_fields.h"
#include "import/perfetto/slice_pairing.h"
#include "io/memory_budget.h"
#include "model/kineto.h"

namespace stackline {

namespace {

using namespace pftrace;

// One row of the event table before it is written: where it comes from, when it starts and how
// long it lasts, in 16 bytes (the items of a trace live beside its decoded table, and are sorted).
// A dur beyond 32 bits (4.3 s) is kLongDur here and kept by source (Importer::durOf).
struct Item {
    int64_t ts;
    uint32_t dur;
    uint32_t source;  // RowSources::code
};
inline constexpr uint32_t kLongDur = UINT32_MAX;

// The pid and tid keys of a lane (a track's rows, or a GPU stream's of one stage kind) and, for a
// render stage's lane, its category.
struct Lane {
    KeyId pid, tid;
    uint32_t cat = 0;
    bool kernels = false;  // its stages are GPU kernels
};

// What comes after an item in the event table: a flow row ('s' or 'f') with this id, of a launch
// link (ac2g, right after the item, where provenance binds it) or of the trace's own flow_ids.
struct FlowAfter {
    uint64_t id;
    uint32_t item;
    char phase;
    bool launch;
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

        for (const uint64_t rows : {uint64_t(t_.events.size()) + t_.events.ends.size(),
                                    uint64_t(t_.stages.size()), uint64_t(t_.counters.size())})
            if (rows > RowSources::kMaxIndex)
                throw InputError(t_.name + ": more than " + std::to_string(RowSources::kMaxIndex) +
                                 " TrackEvents, render stages or counter samples: more than "
                                 "Stackline reads from one trace");
        SlicePairs pairs = pairSlices(t_.events);
        // The bare ends' times make the slices' durations; their tracks and places are done with.
        t_.events.ends.track = {}, t_.events.ends.after = {};
        const bool noSlices = pairs.begin.empty();
        std::vector<Item> items;
        const auto instants = size_t(std::count(t_.events.type.begin(), t_.events.type.end(),
                                                uint8_t(track_event::kTypeInstant)));
        reserveExactly(items, pairs.begin.size() + instants + t_.events.counterValues.size() +
                                  t_.stages.size() + t_.counters.size());
        flowsToBegins(t_.events, pairs);
        // The pairs are read once, in order, while the items grow: their pages are given back
        // behind the reading (this is the load's peak), and so are those of the times they point
        // at, once the last block of pairs that reads them is done (the instants' and counters'
        // times are read after the pairs, as a last block).
        constexpr size_t kRelease = size_t(1) << 18;
        TrackEvents& te = t_.events;
        const auto afterPairs = uint32_t(pairs.begin.size() / kRelease + 1);
        PagesAfterLastUse times(te.size()), endTimes(te.ends.size());
        for (size_t i = 0; i < pairs.begin.size(); ++i) {
            const auto block = uint32_t(i / kRelease);
            times.reads(pairs.begin[i], block);
            if (pairs.end[i] < te.size())
                times.reads(pairs.end[i], block);
            else
                endTimes.reads(pairs.end[i] - te.size(), block);
        }
        for (uint32_t r = 0; r < te.size(); ++r)
            if (te.type[r] == track_event::kTypeInstant) times.reads(r, afterPairs);
        for (const auto& [row, value] : te.counterValues) times.reads(row, afterPairs);
        for (size_t i = 0; i < pairs.begin.size(); ++i) {
            if (i % kRelease == 0 && i > 0) {
                releasePagesOf(pairs.begin.data() + i - kRelease, kRelease * sizeof(uint32_t));
                releasePagesOf(pairs.end.data() + i - kRelease, kRelease * sizeof(uint32_t));
                times.done(uint32_t(i / kRelease - 1), te.ts);
                endTimes.done(uint32_t(i / kRelease - 1), te.ends.ts);
            }
            const uint32_t b = pairs.begin[i];
            items.push_back(makeItem(t_.events.ts[b],
                                     endTs(t_.events, pairs.end[i]) - t_.events.ts[b],
                                     RowSources::code(RowSource::TrackEvent, b)));
        }
        pairs = SlicePairs();
        for (uint32_t r = 0; r < t_.events.size(); ++r)
            if (t_.events.type[r] == track_event::kTypeInstant)
                items.push_back({t_.events.ts[r], 0, RowSources::code(RowSource::TrackEvent, r)});
        for (uint32_t i = 0; i < t_.events.counterValues.size(); ++i)
            items.push_back({t_.events.ts[t_.events.counterValues[i].first], 0,
                             RowSources::code(RowSource::TrackCounter, i)});
        for (uint32_t s = 0; s < t_.stages.size(); ++s)
            items.push_back(makeItem(t_.stages.ts[s], int64_t(t_.stages.duration[s]),
                                     RowSources::code(RowSource::RenderStage, s)));
        for (uint32_t c = 0; c < t_.counters.size(); ++c)
            items.push_back({t_.counters.ts[c], 0, RowSources::code(RowSource::GpuCounter, c)});
        // The items hold the times from here on: the TrackEvents' own go before the sort's
        // buffer and the event table grow, and so do the rows that make no event (slice ends).
        std::vector<int64_t>().swap(t_.events.ts);
        t_.events.ends = {};
        std::vector<int64_t>().swap(t_.stages.ts);
        std::vector<uint64_t>().swap(t_.stages.duration);
        keepEventRows(items);
        sortItems(items);
        internSources();
        const std::vector<FlowAfter> flows = flowRows(items);
        fillRows(items, flows);
        nameTracks(trace_.metadata, t_.tracks, t_.strings, usedThreads_, gpuLanes_);
        for (std::string& note : importNotes(t_.stats, noSlices, unlinkedKernels_))
            trace_.notes.push_back(std::move(note));
        return std::move(sources_);
    }

private:
    // Splits the work of f(0) and f(1) between this thread and another (one part when loading
    // on one thread).
    template <class F>
    void inTwo(F&& f) {
        if (options_.threads == 1) {
            f(0), f(1);
            return;
        }
        std::thread other([&] { f(1); });
        f(0);
        other.join();
    }

    // Drops the TrackEvents no item comes from (slice ends that are rows), renumbering the items,
    // counter values and External ids that point at the others: about half the decoded rows, freed
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
        if (kept == te.size()) return;  // the ends were bare (SliceEnds): no row to drop
        auto keep = [&](auto& column) {
            using Column = std::remove_reference_t<decltype(column)>;
            Column out;
            out.reserve(kept);
            for (uint32_t r = 0; r < index.size(); ++r)
                if (index[r] != UINT32_MAX) out.push_back(column[r]);
            column = std::move(out);
        };
        inTwo([&](int part) {
            if (part == 0) {
                keep(te.offset), keep(te.type), keep(te.name), keep(te.category);
                keep(te.generation);
                return;
            }
            keep(te.length), keep(te.track), keep(te.annotated);
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
        });
        for (auto* flows : {&te.flows, &te.terminatingFlows}) {
            std::erase_if(*flows, [&](const auto& f) { return index[f.first] == UINT32_MAX; });
            for (auto& [row, id] : *flows) row = index[row];
        }
        std::erase_if(te.externalIds, [&](const auto& e) { return index[e.first] == UINT32_MAX; });
        for (auto& [row, value] : te.externalIds) row = index[row];
        std::erase_if(te.sequenced, [&](uint32_t row) { return index[row] == UINT32_MAX; });
        for (uint32_t& row : te.sequenced) row = index[row];
        for (auto& [row, value] : te.counterValues) row = index[row];
        auto renumbered = [&](uint32_t source) {
            return RowSource(source & 7) == RowSource::TrackEvent
                       ? RowSources::code(RowSource::TrackEvent, index[source >> 3])
                       : source;
        };
        for (Item& item : items) item.source = renumbered(item.source);
        std::unordered_map<uint32_t, int64_t> longDurs;
        for (const auto& [source, dur] : longDurs_) longDurs.emplace(renumbered(source), dur);
        longDurs_.swap(longDurs);
    }

    Item makeItem(int64_t ts, int64_t dur, uint32_t source) {
        if (dur >= 0 && dur < kLongDur) return {ts, uint32_t(dur), source};
        longDurs_.emplace(source, dur);
        return {ts, kLongDur, source};
    }
    int64_t durOf(const Item& item) const {
        return item.dur != kLongDur ? item.dur : longDurs_.at(item.source);
    }

    // Time order; ties: the longer first, so that a parent precedes its children. Each half on
    // its own thread, then merged (stable: the first half's first among equals).
    void sortItems(std::vector<Item>& items) {
        auto before = [this](const Item& a, const Item& b) {
            return a.ts != b.ts ? a.ts < b.ts : durOf(a) > durOf(b);
        };
        const auto mid = items.begin() + std::ptrdiff_t(items.size() / 2);
        inTwo([&](int part) {
            if (part == 0)
                std::stable_sort(items.begin(), mid, before);
            else
                std::stable_sort(mid, items.end(), before);
        });
        std::inplace_merge(items.begin(), mid, items.end(), before);
    }

    // The event table's id of a string of the decoded table, interned once rather than hashed
    // again on every row (kernel names run to thousands of characters).
    uint32_t fromTable(uint32_t id) {
        if (poolIds_.empty()) poolIds_.assign(t_.strings.size(), UINT32_MAX);
        uint32_t& e = poolIds_[id];
        if (e == UINT32_MAX) e = ev_.strings.intern(t_.strings.at(id));
        return e;
    }

    // Everything a row takes from the pools, made before the rows are filled (on two threads,
    // which then only read): the names and categories of the TrackEvents and render stages as
    // event table ids (in place), their lanes and External ids, and the counters' names and keys.
    // The decoded columns that held them are freed.
    void internSources() {
        TrackEvents& te = t_.events;
        laneOf_.resize(te.size());
        for (uint32_t r = 0; r < te.size(); ++r) {
            te.name[r] = fromTable(te.name[r]);
            if (te.category[r]) te.category[r] = fromTable(te.category[r]);
            laneOf_[r] = trackLane(te.track[r]);
        }
        RenderStages& st = t_.stages;
        for (uint32_t s = 0; s < st.name.size(); ++s) {  // (size() counts the freed times)
            st.name[s] = fromTable(st.kernel[s] ? st.kernel[s] : st.name[s]);
            st.queue[s] = stageLane(s);  // the queue's name id gives way to its lane
        }
        for (auto* column : {&st.kernel, &st.stage}) std::vector<uint32_t>().swap(*column);
        for (auto* column : {&st.queueIid, &st.stageIid}) std::vector<uint64_t>().swap(*column);
        std::vector<int32_t>().swap(st.gpu);
        for (uint32_t i = 0; i < te.counterValues.size(); ++i) {
            const uint32_t row = te.counterValues[i].first;
            const Track* track = ids_.find(te.track[row]);
            counterName_.push_back(track && track->name ? fromTable(track->name) : te.name[row]);
        }
        std::vector<uint64_t>().swap(te.track);
        if (t_.generations.size() <= 1)  // one generation: the args need no column of it
            te.generation = {}, st.generation = {};
        const CounterSamples& c = t_.counters;
        for (uint32_t i = 0; i < c.size(); ++i) {
            const std::string pid = "GPU " + std::to_string(c.gpu[i]) + " Counters";
            const std::string name = c.name[i] ? std::string(t_.strings.at(c.name[i]))
                                               : "counter " + std::to_string(c.counterId[i]);
            gpuCounters_.push_back(
                {{ev_.keys.stringKey(pid), ev_.keys.intKey(0)}, ev_.strings.intern(name)});
        }
        ac2g_ = ev_.strings.intern("ac2g");
        if (!te.flows.empty() || !te.terminatingFlows.empty())
            flowName_ = ev_.strings.intern("flow");
        if (!te.externalIds.empty()) externalIdOf_.assign(te.size(), kNoKey);
        for (const auto& [row, value] : te.externalIds) externalIdOf_[row] = ev_.keys.intKey(value);
        te.externalIds = {};
    }

    // The lane of a track's rows, its thread noted for nameTracks on first use.
    uint32_t trackLane(uint64_t uuid) {
        if (lastTrackLane_ != UINT32_MAX && lastTrackUuid_ == uuid) return lastTrackLane_;
        auto [it, added] = trackLanes_.try_emplace(uuid, uint32_t(lanes_.size()));
        if (added) {
            const auto [pid, tid] = ids_.of(uuid);
            usedThreads_.emplace(pid, tid);
            lanes_.push_back({ev_.keys.intKey(pid), ev_.keys.intKey(tid)});
        }
        lastTrackUuid_ = uuid;
        return lastTrackLane_ = it->second;
    }

    // The lane of a render stage, by (GPU, queue, stage): one per GPU stream and stage kind; the
    // streams noted for nameTracks on first use.
    uint32_t stageLane(uint32_t i) {
        const RenderStages& st = t_.stages;
        const auto key =
            std::make_tuple(st.gpu[i], st.queue[i], st.queueIid[i], st.stage[i], st.stageIid[i]);
        if (lastStageLane_ != UINT32_MAX && lastStageKey_ == key) return lastStageLane_;
        auto [it, added] = stageLanes_.try_emplace(key, uint32_t(lanes_.size()));
        if (added) {
            const std::optional<int64_t> stream = streamOfQueue(t_.strings.at(st.queue[i]));
            const int64_t gpu = st.gpu[i], lane = stream.value_or(int64_t(st.queueIid[i]));
            gpuLanes_.emplace(gpu, lane);
            const uint32_t cat =
                ev_.strings.intern(stageCategory(t_.strings.at(st.stage[i]), st.stageIid[i]));
            lanes_.push_back({ev_.keys.intKey(gpu), ev_.keys.intKey(lane), cat,
                              kineto::isGpuKernel(ev_.strings.at(cat))});
        }
        lastStageKey_ = key;
        return lastStageLane_ = it->second;
    }

    // The flow rows, in item order. The ac2g ones: after a launch (its first linked event id) and
    // after each GPU op a launch links to. Then the trace's own flows (flow_ids,
    // terminating_flow_ids), as Perfetto's trace processor links them: an event carrying an id
    // is linked from the last event (in time) that carried it, and a terminating id ends the
    // chain; each link is an 's' after its first event and an 'f' after its second, with an id
    // of its own above every ac2g id (the provenance processor pairs flow rows by id alone).
    // Counts the kernels linked to nothing; frees the links.
    std::vector<FlowAfter> flowRows(const std::vector<Item>& items) {
        const TrackEvents& te = t_.events;
        const LaunchFlows flows(te);
        uint64_t nextId = 1;
        for (const uint64_t id : te.links) nextId = std::max(nextId, id + 1);
        std::vector<FlowAfter> out;
        std::unordered_map<uint64_t, uint32_t> open;  // a flow id's last item
        auto link = [&](uint32_t from, uint32_t to) {
            out.push_back({nextId, from, 's', false});
            out.push_back({nextId++, to, 'f', false});
        };
        auto ownFlows = [&](uint32_t k, uint32_t row) {
            using Entry = std::pair<uint32_t, uint64_t>;
            auto of = [&](const std::vector<Entry>& entries) {
                auto begin = std::lower_bound(entries.begin(), entries.end(), Entry(row, 0));
                auto end = std::lower_bound(begin, entries.end(), Entry(row + 1, 0));
                return std::span<const Entry>(begin, end);
            };
            for (const auto& [r, id] : of(te.flows)) {
                auto [it, added] = open.try_emplace(id, k);
                if (!added && it->second != k) link(it->second, k);
                it->second = k;
            }
            for (const auto& [r, id] : of(te.terminatingFlows))
                if (auto it = open.find(id); it != open.end()) {
                    if (it->second != k) link(it->second, k);
                    open.erase(it);
                }
        };
        const bool own = !te.flows.empty() || !te.terminatingFlows.empty();
        for (uint32_t k = 0; k < items.size(); ++k) {
            const auto kind = RowSource(items[k].source & 7);
            const uint32_t i = uint32_t(items[k].source >> 3);
            if (kind == RowSource::TrackEvent) {
                if (te.linkBegin[i] < te.linkBegin[i + 1])
                    out.push_back({te.links[te.linkBegin[i]], k, 's', true});
                if (own) ownFlows(k, i);
            } else if (kind == RowSource::RenderStage) {
                if (const std::optional<uint64_t> id = flows.of(t_.stages.eventId[i]))
                    out.push_back({*id, k, 'f', true});
                else if (lanes_[t_.stages.queue[i]].kernels)
                    ++unlinkedKernels_;
            }
        }
        // An 's' comes after its item's ac2g row, which was pushed first.
        if (own)
            std::stable_sort(out.begin(), out.end(), [](const FlowAfter& a, const FlowAfter& b) {
                return a.item < b.item;
            });
        std::vector<uint32_t>().swap(t_.events.linkBegin);
        std::vector<uint64_t>().swap(t_.events.links);
        std::vector<uint64_t>().swap(t_.stages.eventId);
        t_.events.flows = {}, t_.events.terminatingFlows = {};
        return out;
    }

    // The event table's rows: each item, then its flow row if it has one. The columns are filled
    // on two threads, each its own; the decoded columns they read are freed after.
    void fillRows(const std::vector<Item>& items, const std::vector<FlowAfter>& flows) {
        const uint32_t rows = uint32_t(items.size() + flows.size());
        const TrackEvents& te = t_.events;
        const RenderStages& st = t_.stages;
        // Calls f(row, item, flow) for each row of the items [from, to), flow the flow row's
        // entry or null; row and next: the first row and flow entry of item from.
        auto eachRow = [&](uint32_t from, uint32_t to, uint32_t row, size_t next, auto&& f) {
            for (uint32_t k = from; k < to; ++k) {
                f(row++, items[k], nullptr);
                while (next < flows.size() && flows[next].item == k)
                    f(row++, items[k], &flows[next++]);
            }
        };
        auto laneOf = [&](const Item& item) -> const Lane& {
            const uint32_t i = uint32_t(item.source >> 3);
            switch (RowSource(item.source & 7)) {
                case RowSource::TrackEvent:
                    return lanes_[laneOf_[i]];
                case RowSource::RenderStage:
                    return lanes_[st.queue[i]];
                case RowSource::TrackCounter:
                    return lanes_[laneOf_[te.counterValues[i].first]];
                default:
                    return gpuCounters_[i].lane;
            }
        };
        reserveExactly(ev_.name, rows), reserveExactly(ev_.cat, rows);
        reserveExactly(ev_.phase, rows), reserveExactly(ev_.kinds, rows);
        reserveExactly(ev_.externalId, rows), reserveExactly(sources_.of, rows);
        ev_.flowIds.reserve(flows.size());
        reserveExactly(ev_.pid, rows), reserveExactly(ev_.tid, rows);
        reserveExactly(ev_.tsBits, rows);
        ev_.durCodes.reserve(rows);
        // In blocks of items, whose pages (and their flow entries') are given back once both
        // threads are past them: the items are read once, and the table grows meanwhile. So are
        // the pages of the decoded columns read by a TrackEvent's or render stage's place, once the
        // last block that reads them is done.
        constexpr uint32_t kBlock = 1 << 18;
        PagesAfterLastUse events(te.size()), stages(st.name.size());
        for (size_t k = 0; k < items.size(); ++k) {
            const uint32_t i = uint32_t(items[k].source >> 3), block = uint32_t(k / kBlock);
            switch (RowSource(items[k].source & 7)) {
                case RowSource::TrackEvent:
                    events.reads(i, block);
                    break;
                case RowSource::TrackCounter:
                    events.reads(te.counterValues[i].first, block);
                    break;
                case RowSource::RenderStage:
                    stages.reads(i, block);
                    break;
                default:
                    break;
            }
        }
        uint32_t row = 0;
        size_t next = 0;
        for (uint32_t from = 0; from < items.size(); from += kBlock) {
            const uint32_t to = std::min<uint32_t>(uint32_t(items.size()), from + kBlock);
            inTwo([&](int part) {
                if (part == 0)
                    return eachRow(from, to, row, next,
                                   [&](uint32_t r, const Item& item, const FlowAfter* flow) {
                                       nameRow(r, item, flow);
                                   });
                eachRow(from, to, row, next,
                        [&](uint32_t r, const Item& item, const FlowAfter* flow) {
                            const Lane& lane = laneOf(item);
                            ev_.pid.push_back(lane.pid);
                            ev_.tid.push_back(lane.tid);
                            const bool sliced = !flow && hasDur(item);
                            const int64_t rel = item.ts - base_;
                            const int64_t dur = sliced ? durOf(item) : 0;
                            const auto durKind = sliced ? PyNum::Kind::Float : PyNum::Kind::Missing;
                            ev_.tsBits.push_back(std::bit_cast<uint64_t>(double(rel) / 1000.0));
                            ev_.pushDur(durKind, std::bit_cast<uint64_t>(double(dur) / 1000.0));
                            // This thread's columns only: nameRow fills the kinds meanwhile.
                            if (options_.nanoseconds)
                                ev_.setNanos(r, PyNum::Kind::Float, rel, durKind, dur);
                        });
            });
            const size_t flowsFrom = next;
            while (next < flows.size() && flows[next].item < to) ++next;
            row = uint32_t(to + next);
            releasePagesOf(items.data() + from, (to - from) * sizeof(Item));
            releasePagesOf(flows.data() + flowsFrom, (next - flowsFrom) * sizeof(FlowAfter));
            events.done(from / kBlock, te.name, te.category, te.type, te.annotated, laneOf_,
                        externalIdOf_);
            stages.done(from / kBlock, st.name, st.queue);
        }
        laneOf_ = {}, externalIdOf_ = {};
        for (auto* column : {&t_.events.name, &t_.events.category})
            std::vector<uint32_t>().swap(*column);
        for (auto* column : {&t_.events.type, &t_.events.annotated})
            std::vector<uint8_t>().swap(*column);
        for (auto* column : {&t_.stages.name, &t_.stages.queue})
            std::vector<uint32_t>().swap(*column);
    }

    // Whether an item is a slice (with a dur): TrackEvent slices and render stages.
    bool hasDur(const Item& item) const {
        const auto kind = RowSource(item.source & 7);
        return kind == RowSource::RenderStage ||
               (kind == RowSource::TrackEvent &&
                t_.events.type[item.source >> 3] != track_event::kTypeInstant);
    }

    // A row's name, category, phase, kinds, External id and source.
    void nameRow(uint32_t row, const Item& item, const FlowAfter* flow) {
        const TrackEvents& te = t_.events;
        const auto kind = RowSource(item.source & 7);
        const uint32_t i = uint32_t(item.source >> 3);
        EventTable::Kinds k{};
        k.event = ValueKind::Object;
        k.name = ValueKind::String;
        k.callFrom = CallFrom::No;
        k.ts = PyNum::Kind::Float;
        k.dur = !flow && hasDur(item) ? PyNum::Kind::Float : PyNum::Kind::Missing;
        k.flowId = FlowIdStatus::Missing;
        uint32_t name = 0, cat = 0;
        char phase = 'X';
        bool args = true;
        KeyId externalId = kNoKey;
        RowSource source = kind;
        if (flow) {
            name = cat = flow->launch ? ac2g_ : flowName_;
            phase = flow->phase;
            args = false;
            source = RowSource::None;
            k.flowId = FlowIdStatus::Ok;
            ev_.flowIds.push(row, int64_t(flow->id));
        } else if (kind == RowSource::TrackEvent) {
            name = te.name[i];
            cat = te.category[i];
            if (te.type[i] == track_event::kTypeInstant) phase = 'i';
            args = te.annotated[i] != 0;
            if (!args) source = RowSource::None;
            if (!externalIdOf_.empty()) externalId = externalIdOf_[i];
        } else if (kind == RowSource::RenderStage) {
            name = t_.stages.name[i];
            cat = lanes_[t_.stages.queue[i]].cat;
        } else {
            name = kind == RowSource::GpuCounter ? gpuCounters_[i].name : counterName_[i];
            phase = 'C';
        }
        const bool hasCat = cat != 0 || kind == RowSource::RenderStage || flow;
        k.cat = hasCat ? ValueKind::String : ValueKind::Absent;
        k.args = args ? ValueKind::Object : ValueKind::Absent;
        ev_.name.push_back(name);
        ev_.cat.push_back(cat);
        ev_.phase.push_back(phase);
        ev_.kinds.push_back(k);
        ev_.externalId.push_back(externalId);
        sources_.push(source, i);
    }

    Trace& trace_;
    PftraceTable& t_;
    EventTable& ev_;
    TrackIds ids_;
    const LoadOptions& options_;
    int64_t base_ = 0;
    RowSources sources_;
    std::unordered_map<uint32_t, int64_t> longDurs_;  // by source, where Item::dur is kLongDur
    std::set<std::pair<int64_t, int64_t>> usedThreads_, gpuLanes_;
    std::vector<uint32_t> poolIds_;  // by decoded-table string id: fromTable's cache
    std::vector<Lane> lanes_;
    std::vector<uint32_t> laneOf_;                       // by TrackEvent row
    std::vector<KeyId> externalIdOf_;                    // by TrackEvent row; empty: none
    std::unordered_map<uint64_t, uint32_t> trackLanes_;  // lane by track uuid
    uint64_t lastTrackUuid_ = 0;
    uint32_t lastTrackLane_ = UINT32_MAX;
    using StageKey = std::tuple<int32_t, uint32_t, uint64_t, uint32_t, uint64_t>;
    std::map<StageKey, uint32_t> stageLanes_;
    StageKey lastStageKey_;
    uint32_t lastStageLane_ = UINT32_MAX;
    std::vector<uint32_t> counterName_;  // by TrackEvent counter value
    struct GpuCounter {
        Lane lane;
        uint32_t name;
    };
    std::vector<GpuCounter> gpuCounters_;  // by GPU counter sample
    uint32_t ac2g_ = 0, flowName_ = 0;     // the names and categories of flow rows
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
