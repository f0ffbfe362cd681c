#include "import/perfetto/kineto_mapping.h"

#include <algorithm>
#include <string>

#include "model/display_key.h"
#include "model/kineto.h"

namespace stackline::pftrace {

TrackIds::TrackIds(const std::vector<Track>& tracks) : tracks_(tracks) {
    for (uint32_t i = 0; i < tracks.size(); ++i) indexOf_.emplace(tracks[i].uuid, i);
}

const Track* TrackIds::find(uint64_t uuid) const {
    const auto it = indexOf_.find(uuid);
    return it == indexOf_.end() ? nullptr : &tracks_[it->second];
}

std::pair<int64_t, int64_t> TrackIds::of(uint64_t uuid) const {
    const Track* t = find(uuid);
    if (!t) return {0, int64_t(uuid & 0x7FFFFFFF)};
    if (t->kind == Track::Kind::Thread) return {t->pid, t->tid};
    if (t->kind == Track::Kind::Process) return {t->pid, 0};
    for (const Track* p = find(t->parent); p && p != t; p = find(p->parent))
        if (p->kind == Track::Kind::Process || p->kind == Track::Kind::Thread)
            return {p->pid, int64_t(uuid & 0x7FFFFFFF)};
    return {0, int64_t(uuid & 0x7FFFFFFF)};
}

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

std::string_view stageCategory(std::string_view stage, uint64_t iid) {
    if (stage == "Kernel" || (stage.empty() && iid == 1)) return "kernel";
    if (stage == "Memcpy" || (stage.empty() && iid == 2)) return "gpu_memcpy";
    if (stage == "Memset" || (stage.empty() && iid == 3)) return "gpu_memset";
    if (stage == "Annotation" || (stage.empty() && iid == 4)) return "gpu_user_annotation";
    return stage;
}

LaunchFlows::LaunchFlows(const TrackEvents& ev) {
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

std::optional<uint64_t> LaunchFlows::of(uint64_t eventId) const {
    if (!dense_.empty()) {
        if (eventId < dense_.size() && dense_[eventId] != kNone) return dense_[eventId];
        return std::nullopt;
    }
    const auto it = sparse_.find(eventId);
    return it == sparse_.end() ? std::nullopt : std::optional(it->second);
}

void nameTracks(TraceMetadata& meta, const std::vector<Track>& tracks, const StringPool& strings,
                const std::set<std::pair<int64_t, int64_t>>& usedThreads,
                const std::set<std::pair<int64_t, int64_t>>& gpuStreams) {
    auto key = [](int64_t v) { return DisplayKey{true, v, {}}; };
    for (const Track& track : tracks) {
        const std::string_view name = strings.at(track.name);
        if (track.kind == Track::Kind::Process) {
            ProcessNaming& p = meta.processes[key(track.pid)];
            if (!name.empty()) p.name = std::string(name);
            p.sortIndex = track.pid;
        } else if (track.kind == Track::Kind::Thread && usedThreads.count({track.pid, track.tid})) {
            ThreadNaming& th = meta.threads[{key(track.pid), key(track.tid)}];
            if (!name.empty()) th.name = std::string(name);
            th.sortIndex = track.tid;
        }
    }
    for (const auto& [gpu, stream] : gpuStreams) {
        ProcessNaming& p = meta.processes[key(gpu)];
        p.labels = std::string(kineto::kGpuLabelPrefix) + " " + std::to_string(gpu);
        p.sortIndex = kineto::kGpuSortIndexBase + gpu;
        ThreadNaming& th = meta.threads[{key(gpu), key(stream)}];
        th.name = "stream " + std::to_string(stream);
        th.sortIndex = stream;
    }
}

}  // namespace stackline::pftrace
