#include "cuspy_pftrace_writer.h"

#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <numeric>
#include <optional>
#include <protozero/pbf_writer.hpp>
#include <set>
#include <stdexcept>
#include <unordered_map>

#include "model/event_args.h"

namespace stackline::bench {

namespace {

using nlohmann::json;

// Kineto categories Cuspy does not write as CPU slices (trace.py _NON_CPU_CATS).
const std::set<std::string_view> kNonCpuCats = {
    "Trace",          "kernel",      "gpu_memcpy", "gpu_memset", "gpu_user_annotation",
    "cuda_runtime",   "cuda_driver", "cuda_sync",  "overhead",   "graph_event_node",
    "graph_host_node"};
// trace.py _RUNTIME_BLOCKLIST, _DRIVER_REGISTERED, _RUNTIME_LAUNCH_NAMES, _DRIVER_FLOW_NAMES.
const std::set<std::string_view> kRuntimeBlocklist = {"cudaGetDevice",
                                                      "cudaSetDevice",
                                                      "cudaGetLastError",
                                                      "cudaEventCreate",
                                                      "cudaEventCreateWithFlags",
                                                      "cudaEventDestroy"};
const std::set<std::string_view> kDriverRegistered = {"cuLaunchKernel",
                                                      "cuLaunchKernelEx",
                                                      "cuMemCreate",
                                                      "cuMemMap",
                                                      "cuMemUnmap",
                                                      "cuMemRelease",
                                                      "cuMemExportToShareableHandle",
                                                      "cuMemImportFromShareableHandle"};
const std::set<std::string_view> kRuntimeLaunch = {
    "cudaLaunchKernel", "cudaLaunchCooperativeKernel", "cudaLaunchCooperativeKernelMultiDevice",
    "cudaLaunchKernelExC"};
const std::set<std::string_view> kDriverLaunch = {"cuLaunchKernel", "cuLaunchKernelEx"};

bool runtimeIsLaunch(std::string_view name) {
    return kRuntimeLaunch.count(name) || name.rfind("cudaMemcpy", 0) == 0 ||
           name.rfind("cudaMemset", 0) == 0 || name == "cudaGraphLaunch";
}

// (column key, stage iid, stage name, RenderStageCategory): trace.py _RENDER_STAGES.
struct StageKind {
    const char* cat;
    uint64_t iid;
    const char* name;
    int32_t category;
};
constexpr StageKind kStages[] = {{"kernel", 1, "Kernel", 2},
                                 {"gpu_memcpy", 2, "Memcpy", 0},
                                 {"gpu_memset", 3, "Memset", 0},
                                 {"gpu_user_annotation", 4, "Annotation", 0},
                                 {"graph_event_node", 5, "EventRecord", 0},
                                 {"graph_host_node", 6, "HostNode", 0}};
constexpr uint64_t kStreamIidBase = 100;
constexpr uint64_t kAnnotationStage = 4;

int64_t num(const json& args, const char* key) {
    if (!args.is_object()) return 0;
    auto it = args.find(key);
    if (it == args.end() || !it->is_number()) return 0;
    return it->is_number_float() ? int64_t(it->get<double>()) : it->get<int64_t>();
}

int64_t dim(const json& args, const char* key, size_t i) {
    if (!args.is_object()) return 0;
    auto it = args.find(key);
    if (it == args.end() || !it->is_array() || i >= it->size() || !(*it)[i].is_number()) return 0;
    return (*it)[i].get<int64_t>();
}

// A DebugAnnotation's value, as cuspy_pftrace.cpp emitJsonValue writes it.
void encodeValue(protozero::pbf_writer& w, const json& v) {
    if (v.is_object()) {
        for (auto it = v.begin(); it != v.end(); ++it) {
            protozero::pbf_writer d(w, 11);
            d.add_string(10, it.key());
            encodeValue(d, it.value());
        }
    } else if (v.is_array()) {
        for (const json& e : v) {
            protozero::pbf_writer a(w, 12);
            encodeValue(a, e);
        }
    } else if (v.is_boolean()) {
        w.add_bool(2, v.get<bool>());
    } else if (v.is_number_float()) {
        w.add_double(5, v.get<double>());
    } else if (v.is_number()) {
        w.add_int64(4, v.get<int64_t>());
    } else if (v.is_string()) {
        w.add_string(6, v.get_ref<const std::string&>());
    } else {
        w.add_string(6, "null");
    }
}

// One annotation (TrackEvent field 4) named key.
void encodeAnnotation(std::string& out, std::string_view key, const json& value) {
    protozero::pbf_writer te(out);
    protozero::pbf_writer a(te, 4);
    a.add_string(10, std::string(key));
    encodeValue(a, value);
}

void encodeIntAnnotation(std::string& out, std::string_view key, int64_t value) {
    protozero::pbf_writer te(out);
    protozero::pbf_writer a(te, 4);
    a.add_string(10, std::string(key));
    a.add_int64(4, value);
}

void encodeStrAnnotation(std::string& out, std::string_view key, std::string_view value) {
    protozero::pbf_writer te(out);
    protozero::pbf_writer a(te, 4);
    a.add_string(10, std::string(key));
    a.add_string(6, std::string(value));
}

void encodeExtra(std::string& out, std::string_view name, std::string_view value) {
    protozero::pbf_writer st(out);
    protozero::pbf_writer e(st, 6);
    e.add_string(1, std::string(name));
    e.add_string(2, std::string(value));
}

// Python's track registry in _window_to_pftrace: uuids in first-use order, pid_int for ids.
class Tracks {
public:
    explicit Tracks(CuspyLayout& layout) : layout_(layout) {}
    std::map<std::string, std::string> processNames, threadNames;  // by describe() keys

    uint64_t trackFor(const KeyPool& keys, KeyId pid, KeyId tid, const std::string& procLabel = {},
                      const std::string& thrLabel = {}) {
        return trackFor(Id::of(keys, pid), Id::of(keys, tid), procLabel, thrLabel);
    }
    struct Id {
        std::string key;   // describe(): "7", "\"Spans\""
        std::string text;  // str(value)
        std::optional<int64_t> value;
        static Id of(const KeyPool& keys, KeyId id) {
            Id r;
            r.key = keys.describe(id);
            r.value = keys.asInt(id);
            if (auto s = keys.asString(id))
                r.text = std::string(*s);
            else
                r.text = r.key;
            return r;
        }
        static Id of(int64_t v) { return {std::to_string(v), std::to_string(v), v}; }
    };
    uint64_t trackFor(const Id& pid, const Id& tid, const std::string& procLabel,
                      const std::string& thrLabel) {
        const std::string pkey = "p" + pid.key;
        auto it = uuids_.find(pkey);
        if (it == uuids_.end()) {
            const uint64_t uuid = uuids_.size() + 1;
            it = uuids_.emplace(pkey, uuid).first;
            auto named = processNames.find(pid.key);
            std::string name = named != processNames.end() && !named->second.empty()
                                   ? named->second
                                   : (!procLabel.empty() ? procLabel : pid.text);
            layout_.tracks.push_back({uuid, 0, true, pidInt(pid), 0, name});
        }
        const uint64_t parent = it->second;
        const std::string tkey = "t" + pid.key + "," + tid.key;
        auto t = uuids_.find(tkey);
        if (t == uuids_.end()) {
            const uint64_t uuid = uuids_.size() + 1;
            t = uuids_.emplace(tkey, uuid).first;
            auto named = threadNames.find(pid.key + "," + tid.key);
            std::string name = named != threadNames.end() && !named->second.empty()
                                   ? named->second
                                   : (!thrLabel.empty() ? thrLabel : tid.text);
            layout_.tracks.push_back({uuid, parent, false, pidInt(pid), pidInt(tid), name});
        }
        return t->second;
    }
    int32_t firstProcessPid() const {
        for (const CuspyTrack& t : layout_.tracks)
            if (t.isProcess) return t.pid;
        return 0;
    }

private:
    int32_t pidInt(const Id& id) {
        if (id.value) return int32_t(*id.value & 0x7FFFFFFF);
        auto [it, inserted] = pidInts_.emplace(id.key, int32_t(pidInts_.size() + 1));
        return it->second;
    }
    CuspyLayout& layout_;
    std::unordered_map<std::string, uint64_t> uuids_;
    std::unordered_map<std::string, int32_t> pidInts_;
};

struct Interner {
    std::vector<std::string>& table;
    std::unordered_map<std::string, uint64_t> ids;
    uint64_t operator()(std::string_view s) {
        auto [it, inserted] = ids.emplace(std::string(s), table.size() + 1);
        if (inserted) table.emplace_back(s);
        return it->second;
    }
};

// A slice of a group before names and categories are interned.
struct PendingGroup {
    CuspyGroup g;
    std::vector<std::string> names, cats;
};

void addSlice(PendingGroup& p, int64_t ts, int64_t end, uint64_t track, std::string_view name,
              std::string_view cat) {
    p.g.ts.push_back(ts);
    p.g.end.push_back(end);
    p.g.track.push_back(track);
    p.names.emplace_back(name);
    p.cats.emplace_back(cat);
    p.g.annotationEnd.push_back(p.g.annotations.size());
    p.g.linkEnd.push_back(uint32_t(p.g.links.size()));
}

// trace.py _nest_track_slices: on GPU stream tracks, truncate a still-open slice that a later
// overlapping slice extends past, so begin/end pairs nest.
void nestTrackSlices(std::vector<PendingGroup>& groups, const std::set<uint64_t>& tracks) {
    struct Ref {
        uint64_t track;
        int64_t ts, end;
        size_t group, index;
    };
    std::vector<Ref> refs;
    for (size_t g = 0; g < groups.size(); ++g)
        for (size_t i = 0; i < groups[g].g.size(); ++i)
            if (tracks.count(groups[g].g.track[i]))
                refs.push_back({groups[g].g.track[i], groups[g].g.ts[i], groups[g].g.end[i], g, i});
    std::stable_sort(refs.begin(), refs.end(), [](const Ref& a, const Ref& b) {
        if (a.track != b.track) return a.track < b.track;
        if (a.ts != b.ts) return a.ts < b.ts;
        return a.end > b.end;
    });
    std::vector<size_t> stack;
    uint64_t prev = ~uint64_t(0);
    for (size_t k = 0; k < refs.size(); ++k) {
        if (refs[k].track != prev) {
            stack.clear();
            prev = refs[k].track;
        }
        while (!stack.empty()) {
            Ref& p = refs[stack.back()];
            if (p.end <= refs[k].ts) {
                stack.pop_back();
            } else if (p.end < refs[k].end) {
                p.end = refs[k].ts;
                stack.pop_back();
            } else {
                break;
            }
        }
        stack.push_back(k);
    }
    for (const Ref& r : refs) groups[r.group].g.end[r.index] = r.end;
}

}  // namespace

CuspyLayout cuspyLayoutOf(const Trace& trace, int64_t baseTimeNs) {
    const EventTable& t = trace.events;
    if (!t.hasNanos && t.size()) throw std::runtime_error("load the trace with nanoseconds");
    CuspyLayout layout;
    layout.baseNs = baseTimeNs;
    Tracks tracks(layout);

    // Metadata names (the M events are not written themselves).
    for (uint32_t r = 0; r < t.size(); ++r) {
        if (t.phase[r] != 'M') continue;
        const std::string_view name = t.nameOf(r);
        if (name != "process_name" && name != "thread_name") continue;
        const json args = trace.args(r).object();
        std::string value;
        if (args.is_object()) {
            auto it = args.find("name");
            if (it != args.end() && it->is_string()) value = it->get<std::string>();
        }
        const std::string pid = t.keys.describe(t.pid[r]);
        if (name == "process_name")
            tracks.processNames[pid] = value;
        else
            tracks.threadNames[pid + "," + t.keys.describe(t.tid[r])] = value;
    }

    auto absTs = [&](uint32_t r) { return baseTimeNs + t.tsNs(r); };
    auto absEnd = [&](uint32_t r) {
        return baseTimeNs + t.tsNs(r) + std::max<int64_t>(t.durNs(r), 0);
    };

    // --- CPU slices: every X event outside _NON_CPU_CATS, args spread as annotations.
    std::vector<PendingGroup> groups(1);
    for (uint32_t r = 0; r < t.size(); ++r) {
        const char ph = t.phase[r];
        if (ph == 'i' || ph == 'I')
            ++layout.droppedInstants;
        else if (ph == 's' || ph == 'f' || ph == 't')
            ++layout.droppedFlows;
        if (ph != 'X') {
            if (ph != 'M' && ph != 'i' && ph != 'I' && ph != 's' && ph != 'f' && ph != 't')
                ++layout.droppedOther;
            continue;
        }
        const std::string_view cat = t.catOf(r);
        if (kNonCpuCats.count(cat)) continue;
        PendingGroup& cpu = groups[0];
        addSlice(cpu, absTs(r), absEnd(r), tracks.trackFor(t.keys, t.pid[r], t.tid[r]), t.nameOf(r),
                 cat);
        const json args = trace.args(r).object();
        if (args.is_object())
            for (auto it = args.begin(); it != args.end(); ++it)
                encodeAnnotation(cpu.g.annotations, it.key(), it.value());
        cpu.g.annotationEnd.back() = cpu.g.annotations.size();
        ++layout.cpuSlices;
    }

    // --- Render stages (pre-pass: event ids and correlation -> event ids).
    struct StageRow {
        uint32_t row;
        const StageKind* kind;
        int64_t corr;
    };
    std::vector<StageRow> stageRows;
    for (const StageKind& kind : kStages)
        for (uint32_t r = 0; r < t.size(); ++r) {
            if (t.phase[r] != 'X') continue;
            const std::string_view cat = t.catOf(r);
            if (cat != kind.cat && !(kind.iid == 1 && cat == "Kernel")) continue;
            const json args = trace.args(r).object();
            stageRows.push_back(
                {r, &kind, kind.iid == kAnnotationStage ? 0 : num(args, "correlation")});
        }
    std::unordered_map<int64_t, std::vector<uint64_t>> corrToEventIds;
    for (size_t i = 0; i < stageRows.size(); ++i)
        corrToEventIds[stageRows[i].corr].push_back(i + 1);

    // --- CUDA runtime, then driver: registered names only, cbid + correlation, launch links.
    for (const char* ks : {"cuda_runtime", "cuda_driver"}) {
        const bool runtime = std::string_view(ks) == "cuda_runtime";
        std::vector<uint32_t> rows;
        for (uint32_t r = 0; r < t.size(); ++r) {
            if (t.phase[r] != 'X' || t.catOf(r) != ks) continue;
            const std::string_view name = t.nameOf(r);
            if (runtime ? kRuntimeBlocklist.count(name) : !kDriverRegistered.count(name)) continue;
            rows.push_back(r);
        }
        if (rows.empty()) continue;
        // gpu_uuids: tracks registered in the order of the sorted (pid, tid) keys.
        std::map<std::pair<int64_t, int64_t>, std::pair<KeyId, KeyId>> keysSorted;
        for (uint32_t r : rows)
            keysSorted.emplace(std::make_pair(t.keys.asInt(t.pid[r]).value_or(0),
                                              t.keys.asInt(t.tid[r]).value_or(0)),
                               std::make_pair(t.pid[r], t.tid[r]));
        std::map<std::pair<int64_t, int64_t>, uint64_t> uuidOf;
        for (const auto& [k, ids] : keysSorted) {
            const auto pid = Tracks::Id::of(t.keys, ids.first);
            const auto tid = Tracks::Id::of(t.keys, ids.second);
            uuidOf[k] = tracks.trackFor(pid, tid, "process " + pid.text, "thread " + tid.text);
        }
        PendingGroup& g = groups.emplace_back();
        for (uint32_t r : rows) {
            const std::string_view name = t.nameOf(r);
            const json args = trace.args(r).object();
            const int64_t corr = num(args, "correlation");
            addSlice(
                g, absTs(r), absEnd(r),
                uuidOf[{t.keys.asInt(t.pid[r]).value_or(0), t.keys.asInt(t.tid[r]).value_or(0)}],
                name, ks);
            const bool launch = runtime ? runtimeIsLaunch(name) : kDriverLaunch.count(name) > 0;
            if (launch) {
                auto it = corrToEventIds.find(corr);
                if (it != corrToEventIds.end())
                    g.g.links.insert(g.g.links.end(), it->second.begin(), it->second.end());
            }
            g.g.linkEnd.back() = uint32_t(g.g.links.size());
            encodeIntAnnotation(g.g.annotations, "cbid", num(args, "cbid"));
            encodeIntAnnotation(g.g.annotations, "correlation", corr);
            g.g.annotationEnd.back() = g.g.annotations.size();
            ++layout.apiSlices;
        }
    }

    // --- Overhead: its own lane, no category, no args; the trailing buffer request dropped.
    {
        int64_t maxEnd = 0;
        for (uint32_t r = 0; r < t.size(); ++r)
            if (t.phase[r] == 'X' && t.catOf(r) != "overhead" && t.catOf(r) != "Trace")
                maxEnd = std::max(maxEnd, absEnd(r));
        std::vector<uint32_t> rows;
        for (uint32_t r = 0; r < t.size(); ++r)
            if (t.phase[r] == 'X' && t.catOf(r) == "overhead" &&
                !(t.nameOf(r) == "Activity Buffer Request" && maxEnd > 0 && absTs(r) > maxEnd))
                rows.push_back(r);
        if (!rows.empty()) {
            const uint64_t u =
                tracks.trackFor(Tracks::Id::of(-1), Tracks::Id::of(0), "Overhead", "Overhead");
            PendingGroup& g = groups.emplace_back();
            for (uint32_t r : rows) addSlice(g, absTs(r), absEnd(r), u, t.nameOf(r), "");
        }
    }

    // --- cuda_sync: on (device, stream) tracks, waits (Event Sync, Stream Wait Event) apart.
    std::set<uint64_t> gpuTracks;
    for (const bool waits : {false, true}) {
        std::vector<uint32_t> rows;
        for (uint32_t r = 0; r < t.size(); ++r) {
            if (t.phase[r] != 'X' || t.catOf(r) != "cuda_sync") continue;
            const std::string_view name = t.nameOf(r);
            if ((name == "Event Sync" || name == "Stream Wait Event") == waits) rows.push_back(r);
        }
        if (rows.empty()) continue;
        std::map<std::pair<int64_t, int64_t>, uint64_t> uuidOf;
        for (uint32_t r : rows)
            uuidOf[{t.keys.asInt(t.pid[r]).value_or(0), t.keys.asInt(t.tid[r]).value_or(-1)}] = 0;
        for (auto& [k, uuid] : uuidOf) {
            uuid = tracks.trackFor(Tracks::Id::of(k.first), Tracks::Id::of(k.second),
                                   "GPU " + std::to_string(k.first),
                                   "stream " + std::to_string(k.second));
            gpuTracks.insert(uuid);
        }
        PendingGroup& g = groups.emplace_back();
        for (uint32_t r : rows) {
            const json args = trace.args(r).object();
            const int64_t device = t.keys.asInt(t.pid[r]).value_or(0);
            const int64_t stream = t.keys.asInt(t.tid[r]).value_or(-1);
            addSlice(g, absTs(r), absEnd(r), uuidOf[{device, stream}], t.nameOf(r), "");
            encodeIntAnnotation(g.g.annotations, "stream", stream);
            encodeIntAnnotation(g.g.annotations, "correlation", num(args, "correlation"));
            encodeIntAnnotation(g.g.annotations, "device", device);
            encodeIntAnnotation(g.g.annotations, "context", num(args, "context"));
            if (waits) {
                encodeIntAnnotation(g.g.annotations, "wait_on_stream", -1);
                encodeIntAnnotation(g.g.annotations, "wait_on_cuda_event_id",
                                    num(args, "wait_on_cuda_event_id"));
                encodeIntAnnotation(g.g.annotations, "wait_on_cuda_event_record_corr_id",
                                    num(args, "wait_on_cuda_event_record_corr_id"));
            }
            encodeStrAnnotation(g.g.annotations, "cuda_sync_kind", t.nameOf(r));
            g.g.annotationEnd.back() = g.g.annotations.size();
            ++layout.apiSlices;
        }
    }
    nestTrackSlices(groups, gpuTracks);

    // --- Global interning: names and categories in group order.
    Interner names{layout.names, {}}, cats{layout.categories, {}};
    for (PendingGroup& p : groups) {
        for (size_t i = 0; i < p.g.size(); ++i) {
            p.g.nameIid.push_back(names(p.names[i]));
            p.g.catIid.push_back(p.cats[i].empty() ? 0 : cats(p.cats[i]));
        }
        layout.groups.push_back(std::move(p.g));
    }

    // --- Render stages: lanes per (gpu, stream), ends clamped to the next op on the lane.
    CuspyRenderStages& st = layout.stages;
    std::vector<int64_t> stream(stageRows.size());
    for (size_t i = 0; i < stageRows.size(); ++i) {
        const uint32_t r = stageRows[i].row;
        const json args = trace.args(r).object();
        const bool annotation = stageRows[i].kind->iid == kAnnotationStage;
        const int64_t device = annotation
                                   ? t.keys.asInt(t.pid[r]).value_or(0)
                                   : (args.contains("device") ? num(args, "device")
                                                              : t.keys.asInt(t.pid[r]).value_or(0));
        stream[i] = annotation ? t.keys.asInt(t.tid[r]).value_or(0)
                               : (args.contains("stream") ? num(args, "stream")
                                                          : t.keys.asInt(t.tid[r]).value_or(0));
        st.ts.push_back(absTs(r));
        st.dur.push_back(std::max<int64_t>(t.durNs(r), 0));
        st.eventId.push_back(i + 1);
        st.gpu.push_back(int32_t(device));
        st.stageIid.push_back(stageRows[i].kind->iid);
        const uint64_t kind = stageRows[i].kind->iid;
        if (kind == 1)
            ++layout.kernels_;
        else if (kind == 2)
            ++layout.memcpys;
        else if (kind == 3)
            ++layout.memsets;
        else if (kind == 4)
            ++layout.annotations;
        const bool kernel = kind == 1;
        for (size_t d = 0; d < 3; ++d) {
            st.grid.push_back(kernel ? uint32_t(dim(args, "grid", d)) : 0);
            st.block.push_back(kernel ? uint32_t(dim(args, "block", d)) : 0);
        }
        st.registers.push_back(kernel ? uint64_t(num(args, "registers per thread")) : 0);
        st.threads.push_back(
            kernel ? uint64_t(dim(args, "block", 0) * dim(args, "block", 1) * dim(args, "block", 2))
                   : 0);
        // _RENDER_EXTRA: device / context / stream always; the rest where nonzero.
        encodeExtra(st.extra, "device id", std::to_string(device));
        encodeExtra(st.extra, "context id", std::to_string(annotation ? 0 : num(args, "context")));
        encodeExtra(st.extra, "stream id", std::to_string(stream[i]));
        for (const char* key : {"correlation", "priority", "queued", "channel", "channel_type",
                                "graph id", "graph node id", "bytes", "value", "memory kind"}) {
            if (annotation) break;
            const int64_t v = num(args, key);
            if (v) encodeExtra(st.extra, key, std::to_string(v));
        }
        st.extraEnd.push_back(st.extra.size());
    }
    // _gpu_panel_const_extra: process_id and process_name on every stage (arch needs the device).
    const int32_t gfxPid = tracks.firstProcessPid();
    layout.graphicsPid = gfxPid;
    {
        std::string constant;
        encodeExtra(constant, "process_id", std::to_string(gfxPid));
        encodeExtra(constant, "process_name", "python");
        std::string extra;
        uint64_t begin = 0;
        for (size_t i = 0; i < st.extraEnd.size(); ++i) {
            extra.append(st.extra, begin, st.extraEnd[i] - begin);
            extra += constant;
            begin = st.extraEnd[i];
            st.extraEnd[i] = extra.size();
        }
        st.extra = std::move(extra);
    }
    // Clamp overlapping non-annotation stages per lane to the next op's start.
    std::vector<int64_t> lane(stageRows.size());
    for (size_t i = 0; i < lane.size(); ++i)
        lane[i] =
            int64_t((uint64_t(int64_t(st.gpu[i])) << 32) | (uint64_t(stream[i]) & 0xFFFFFFFF));
    {
        std::vector<size_t> order;
        for (size_t i = 0; i < lane.size(); ++i)
            if (st.stageIid[i] != kAnnotationStage) order.push_back(i);
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
            return lane[a] != lane[b] ? lane[a] < lane[b] : st.ts[a] < st.ts[b];
        });
        for (size_t k = 0; k + 1 < order.size(); ++k) {
            const size_t i = order[k], j = order[k + 1];
            if (lane[i] != lane[j]) continue;
            const int64_t end = std::max(st.ts[i], std::min(st.ts[i] + st.dur[i], st.ts[j]));
            st.dur[i] = end - st.ts[i];
        }
    }
    std::vector<int64_t> lanes = lane;
    std::sort(lanes.begin(), lanes.end());
    lanes.erase(std::unique(lanes.begin(), lanes.end()), lanes.end());
    int64_t widest = 0;
    for (int64_t l : lanes) widest = std::max(widest, l & 0xFFFFFFFF);
    const int width = int(std::to_string(widest).size());
    for (const StageKind& k : kStages) layout.specs.push_back({k.iid, k.name, k.category});
    for (size_t j = 0; j < lanes.size(); ++j) {
        char label[64];
        const long long s = lanes[j] & 0xFFFFFFFF;
        std::snprintf(label, sizeof label, "[%0*lld] stream %lld", width, s, s);
        layout.specs.push_back({kStreamIidBase + j, label, 0});
    }
    Interner kernels{layout.kernels, {}};
    for (size_t i = 0; i < lane.size(); ++i) {
        st.queueIid.push_back(
            kStreamIidBase +
            uint64_t(std::lower_bound(lanes.begin(), lanes.end(), lane[i]) - lanes.begin()));
        const uint64_t kind = st.stageIid[i];
        // Only kernels and GPU annotations have a name column (memcpy / memset fall back to the
        // stage name); both are interned as compute kernels, only kernels reference theirs.
        const bool named = kind == 1 || kind == kAnnotationStage;
        const std::string_view name = t.nameOf(stageRows[i].row);
        const bool hasName = named && !name.empty();
        const uint64_t kid = hasName ? kernels(name) : 0;
        st.kernelIid.push_back(kind == 1 ? kid : 0);
        st.nameIid.push_back(hasName ? names(name) : 0);
    }

    // GPU counters: the Cuspy JSON export's "C" events on pid "GPU N Counters".
    std::map<std::string, uint32_t> counterIds;
    for (uint32_t r = 0; r < t.size(); ++r) {
        if (t.phase[r] != 'C') continue;
        const auto pid = t.keys.asString(t.pid[r]);
        int gpu = 0;
        if (!pid || std::sscanf(std::string(*pid).c_str(), "GPU %d Counters", &gpu) != 1) continue;
        const json args = trace.args(r).object();
        if (!args.is_object() || !args.contains("") || !args[""].is_number()) continue;
        const std::string name(t.nameOf(r));
        auto [it, inserted] = counterIds.emplace(name, uint32_t(counterIds.size()));
        if (inserted) layout.counterSpecs.emplace_back(it->second, name);
        layout.counters.push_back({absTs(r), gpu, it->second, args[""].get<double>()});
    }
    return layout;
}

namespace {

// Where encoded packets go: a buffer flushed to a raw file or through raw deflate in a gzip
// frame like cuspy_pftrace.cpp gzipCompress (10-byte header, deflate, CRC32 and size).
class PacketSink {
public:
    PacketSink(std::FILE* file, bool gzip, int level) : file_(file), gzip_(gzip) {
        if (gzip_) {
            if (deflateInit2(&z_, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
                throw std::runtime_error("deflateInit2 failed");
            static const unsigned char header[10] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff};
            write(header, sizeof header);
        }
    }
    ~PacketSink() {
        if (gzip_) deflateEnd(&z_);
    }
    std::string* memory = nullptr;  // instead of a file

    void packet(const std::string& bytes) {
        protozero::pbf_writer top(buffer_);
        top.add_bytes(1, bytes);
        ++packets;
        if (buffer_.size() >= (4u << 20)) flush(false);
    }
    void finish() {
        flush(true);
        if (gzip_) {
            unsigned char trailer[8];
            for (int i = 0; i < 4; ++i) trailer[i] = uint8_t(crc_ >> (8 * i));
            for (int i = 0; i < 4; ++i) trailer[4 + i] = uint8_t(rawBytes >> (8 * i));
            write(trailer, sizeof trailer);
        }
    }
    uint64_t packets = 0, bytes = 0, rawBytes = 0;

private:
    void write(const void* data, size_t n) {
        bytes += n;
        if (memory)
            memory->append(static_cast<const char*>(data), n);
        else if (std::fwrite(data, 1, n, file_) != n)
            throw std::runtime_error("write failed");
    }
    void flush(bool last) {
        rawBytes += buffer_.size();
        if (!gzip_) {
            write(buffer_.data(), buffer_.size());
        } else {
            crc_ =
                crc32(crc_, reinterpret_cast<const Bytef*>(buffer_.data()), uInt(buffer_.size()));
            z_.next_in = reinterpret_cast<Bytef*>(buffer_.data());
            z_.avail_in = uInt(buffer_.size());
            unsigned char out[1 << 16];
            int ret = Z_OK;
            do {
                z_.next_out = out;
                z_.avail_out = sizeof out;
                ret = deflate(&z_, last ? Z_FINISH : Z_NO_FLUSH);
                write(out, sizeof out - z_.avail_out);
            } while (z_.avail_out == 0 || (last && ret != Z_STREAM_END));
        }
        buffer_.clear();
    }
    std::FILE* file_;
    bool gzip_;
    z_stream z_{};
    uLong crc_ = crc32(0, nullptr, 0);
    std::string buffer_;
};

void encodeAll(const CuspyLayout& layout, PacketSink& sink, uint32_t repeat) {
    std::string pkt;
    auto emit = [&] {
        sink.packet(pkt);
        pkt.clear();
    };
    {  // ClockSnapshot: BOOTTIME and REALTIME both at the base.
        protozero::pbf_writer p(pkt);
        p.add_uint64(8, uint64_t(layout.baseNs));
        p.add_uint32(10, 1);
        {
            protozero::pbf_writer cs(p, 6);
            for (uint32_t id : {6u, 1u}) {
                protozero::pbf_writer c(cs, 1);
                c.add_uint32(1, id);
                c.add_uint64(2, uint64_t(layout.baseNs));
            }
        }
        emit();
    }
    for (const CuspyTrack& tr : layout.tracks) {  // no sequence id, no timestamp
        protozero::pbf_writer p(pkt);
        {
            protozero::pbf_writer td(p, 60);
            td.add_uint64(1, tr.uuid);
            if (tr.parent) td.add_uint64(5, tr.parent);
            if (tr.isProcess) {
                protozero::pbf_writer pd(td, 3);
                pd.add_int32(1, tr.pid);
                pd.add_string(6, tr.name);
            } else {
                protozero::pbf_writer th(td, 4);
                th.add_int32(1, tr.pid);
                th.add_int32(2, tr.tid);
                th.add_string(5, tr.name);
            }
        }
        emit();
    }
    const CuspyRenderStages& st = layout.stages;
    {  // One interned-data packet that clears the incremental state.
        protozero::pbf_writer p(pkt);
        p.add_uint32(10, 1);
        p.add_uint32(13, 1);
        {
            protozero::pbf_writer in(p, 12);
            std::set<int32_t> gpus;
            for (const auto& c : layout.counters) gpus.insert(c.gpu);
            uint64_t diid = 1;
            for (int32_t gpu : gpus) {
                protozero::pbf_writer d(in, 47);
                d.add_uint64(1, diid++);
                d.add_int32(3, gpu);
                protozero::pbf_writer cd(d, 2);
                for (const auto& [id, name] : layout.counterSpecs) {
                    protozero::pbf_writer sp(cd, 1);
                    sp.add_uint32(1, id);
                    sp.add_string(2, name);
                }
            }
            for (size_t i = 0; i < layout.names.size(); ++i) {
                protozero::pbf_writer e(in, 2);
                e.add_uint64(1, i + 1);
                e.add_string(2, layout.names[i]);
            }
            for (size_t i = 0; i < layout.categories.size(); ++i) {
                protozero::pbf_writer e(in, 1);
                e.add_uint64(1, i + 1);
                e.add_string(2, layout.categories[i]);
            }
            if (st.size()) {
                for (const CuspyLayout::Spec& s : layout.specs) {
                    protozero::pbf_writer e(in, 24);
                    e.add_uint64(1, s.iid);
                    e.add_string(2, s.name);
                    e.add_enum(4, s.category);
                }
                protozero::pbf_writer gc(in, 23);
                gc.add_uint64(1, 1);
                gc.add_int32(2, layout.graphicsPid);
            }
            for (size_t i = 0; i < layout.kernels.size(); ++i) {
                protozero::pbf_writer k(in, 1000);
                k.add_uint64(1, i + 1);
                k.add_string(3, layout.kernels[i]);
            }
            if (st.size()) {
                const char* argNames[] = {"registers_per_thread", "shared_mem_dynamic",
                                          "thread_count"};
                for (uint64_t i = 0; i < 3; ++i) {
                    protozero::pbf_writer a(in, 1001);
                    a.add_uint64(1, i + 1);
                    a.add_string(2, argNames[i]);
                }
            }
        }
        emit();
    }
    // Each copy is shifted past the previous one, in time and in event ids.
    int64_t first = INT64_MAX, last = INT64_MIN;
    for (const CuspyGroup& g : layout.groups)
        for (size_t i = 0; i < g.size(); ++i) {
            first = std::min(first, g.ts[i]);
            last = std::max(last, g.end[i]);
        }
    for (size_t i = 0; i < st.size(); ++i) {
        first = std::min(first, st.ts[i]);
        last = std::max(last, st.ts[i] + st.dur[i]);
    }
    const int64_t period = first <= last ? last - first + 1000 : 0;
    for (uint32_t copy = 0; copy < repeat; ++copy) {
        const int64_t shift = int64_t(copy) * period;
        const uint64_t idShift = uint64_t(copy) * st.size();
        for (const CuspyGroup& g : layout.groups) {
            for (size_t i = 0; i < g.size(); ++i) {
                protozero::pbf_writer p(pkt);
                p.add_uint64(8, uint64_t(g.ts[i] + shift));
                p.add_uint32(10, 1);
                p.add_uint32(13, 2);
                std::string te;
                {
                    protozero::pbf_writer e(te);
                    e.add_enum(9, 1);
                    e.add_uint64(11, g.track[i]);
                    e.add_uint64(10, g.nameIid[i]);
                    if (g.catIid[i]) e.add_uint64(3, g.catIid[i]);
                    const uint32_t lb = i ? g.linkEnd[i - 1] : 0;
                    if (g.linkEnd[i] > lb) {
                        protozero::pbf_writer gc(e, 3000);
                        for (uint32_t j = lb; j < g.linkEnd[i]; ++j)
                            gc.add_uint64(1, g.links[j] + idShift);
                    }
                }
                const uint64_t ab = i ? g.annotationEnd[i - 1] : 0;
                te.append(g.annotations, ab, g.annotationEnd[i] - ab);
                p.add_message(11, te);
                emit();
            }
            for (size_t i = 0; i < g.size(); ++i) {
                protozero::pbf_writer p(pkt);
                p.add_uint64(8, uint64_t(g.end[i] + shift));
                p.add_uint32(10, 1);
                {
                    protozero::pbf_writer e(p, 11);
                    e.add_enum(9, 2);
                    e.add_uint64(11, g.track[i]);
                }
                emit();
            }
        }
        for (size_t i = 0; i < st.size(); ++i) {
            protozero::pbf_writer p(pkt);
            p.add_uint64(8, uint64_t(st.ts[i] + shift));
            p.add_uint32(10, 1);
            p.add_uint32(13, 2);
            std::string ev;
            {
                protozero::pbf_writer e(ev);
                e.add_uint64(1, st.eventId[i] + idShift);
                e.add_uint64(2, uint64_t(st.dur[i]));
                e.add_int32(11, st.gpu[i]);
                e.add_uint64(13, st.queueIid[i]);
                e.add_uint64(14, st.stageIid[i]);
                e.add_uint64(5, 1);
                if (st.nameIid[i]) e.add_uint64(20, st.nameIid[i]);
                if (st.grid[3 * i] > 0) {
                    if (st.kernelIid[i]) e.add_uint64(19, st.kernelIid[i]);
                    protozero::pbf_writer launch(e, 21);
                    {
                        protozero::pbf_writer grid(launch, 1);
                        for (uint32_t d = 0; d < 3; ++d) grid.add_uint32(d + 1, st.grid[3 * i + d]);
                    }
                    {
                        protozero::pbf_writer wg(launch, 2);
                        for (uint32_t d = 0; d < 3; ++d) wg.add_uint32(d + 1, st.block[3 * i + d]);
                    }
                    const uint64_t values[] = {st.registers[i], 0, st.threads[i]};
                    for (uint64_t a = 0; a < 3; ++a) {
                        if (!values[a]) continue;
                        protozero::pbf_writer arg(launch, 3);
                        arg.add_uint64(1, a + 1);
                        arg.add_uint64(4, values[a]);
                    }
                }
            }
            const uint64_t eb = i ? st.extraEnd[i - 1] : 0;
            ev.append(st.extra, eb, st.extraEnd[i] - eb);
            p.add_message(53, ev);
            emit();
        }
        std::map<int32_t, uint64_t> descriptorOf;
        for (const auto& c : layout.counters) descriptorOf.emplace(c.gpu, 0);
        uint64_t diid = 1;
        for (auto& [gpu, iid] : descriptorOf) iid = diid++;
        for (const auto& c : layout.counters) {
            protozero::pbf_writer p(pkt);
            p.add_uint64(8, uint64_t(c.ts + shift));
            p.add_uint32(10, 1);
            p.add_uint32(13, 2);
            {
                protozero::pbf_writer e(p, 52);
                e.add_uint64(4, descriptorOf[c.gpu]);
                protozero::pbf_writer v(e, 2);
                v.add_uint32(1, c.id);
                v.add_double(3, c.value);
            }
            emit();
        }
    }
    sink.finish();
}

}  // namespace

PftraceWriteResult writeCuspyPftrace(const CuspyLayout& layout, const std::string& path,
                                     const PftraceWriteOptions& options) {
    const std::string tmp = path + ".tmp";
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(tmp.c_str(), "wb"),
                                                         std::fclose);
    if (!file) throw std::runtime_error("cannot write " + tmp);
    PacketSink sink(file.get(), options.gzip, options.level);
    encodeAll(layout, sink, std::max<uint32_t>(options.repeat, 1));
    if (std::fclose(file.release()) != 0) throw std::runtime_error("cannot write " + tmp);
    std::filesystem::rename(tmp, path);
    return {sink.packets, sink.bytes, sink.rawBytes};
}

std::string encodeCuspyPftrace(const CuspyLayout& layout) {
    std::string out;
    PacketSink sink(nullptr, false, 0);
    sink.memory = &out;
    encodeAll(layout, sink, 1);
    return out;
}

}  // namespace stackline::bench
