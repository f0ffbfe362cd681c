// How a Perfetto trace's identities become Kineto's: a track's pid and tid, a hw queue's stream, a
// render stage's category, the ac2g flow ids of the launches' field-3000 links, and the names of
// processes and threads.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "import/perfetto/pftrace_table.h"
#include "model/trace_metadata.h"

namespace stackline::pftrace {

// The pid and tid of each track: its thread's, its process's (tid 0), or for other tracks the
// nearest process ancestor's pid and the track's uuid as tid.
class TrackIds {
public:
    explicit TrackIds(const std::vector<Track>& tracks);
    const Track* find(uint64_t uuid) const;
    std::pair<int64_t, int64_t> of(uint64_t uuid) const;

private:
    std::unordered_map<uint64_t, uint32_t> indexOf_;  // uuid -> index in tracks_
    const std::vector<Track>& tracks_;
};

// The stream of a hw queue named "[7] stream 7" (Cuspy's lane names): its last integer.
std::optional<int64_t> streamOfQueue(std::string_view name);

// The Kineto category of a render stage, from its stage specification's name (Cuspy's stage iids
// 1-4 when it has none).
std::string_view stageCategory(std::string_view stage, uint64_t iid);

// The ac2g flows of the field-3000 links, as Kineto writes a launch's: one 's' after the launch
// and an 'f' after each GPU op it links to, all with one id (Kineto's: the correlation id). A
// graph launch links to several; provenance then binds the launch to the last of them, as it
// does in the JSON. The id is the launch's first linked event id; an event linked by several
// launches takes the first one's.
class LaunchFlows {
public:
    explicit LaunchFlows(const TrackEvents& ev);
    // The flow id of the GPU op with this event id; nullopt when no launch links to it.
    std::optional<uint64_t> of(uint64_t eventId) const;

private:
    static constexpr uint64_t kNone = UINT64_MAX;
    std::vector<uint64_t> dense_;  // by event id, when the ids are few and small
    std::unordered_map<uint64_t, uint64_t> sparse_;
};

// Process and thread names from the descriptors, for the threads that have rows (usedThreads:
// (pid, tid)); GPUs named as Kineto names them ("GPU 0", sorted after the CPU processes), and
// their streams ("stream 7"; gpuStreams: (GPU, stream)).
void nameTracks(TraceMetadata& meta, const std::vector<Track>& tracks, const StringPool& strings,
                const std::set<std::pair<int64_t, int64_t>>& usedThreads,
                const std::set<std::pair<int64_t, int64_t>>& gpuStreams);

}  // namespace stackline::pftrace
