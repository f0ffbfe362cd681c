// What a trace says besides its events, in one format-neutral form that each format's importer
// fills: the names and order of its processes and threads, the instants drawn across tracks, who
// it is within a distributed job, the absolute time its timestamps count from, and whether it
// can link backward ops to forward ones by flows.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "base/sparse_column.h"
#include "model/display_key.h"

namespace stackline {

// A process as the trace names it (Kineto: process_name, process_labels, process_sort_index).
struct ProcessNaming {
    std::optional<std::string> name;    // trimmed
    std::optional<std::string> labels;  // "CPU", "GPU 0"; trimmed
    std::optional<int64_t> sortIndex;
};

// A thread (a GPU stream on a device's process) as the trace names it.
struct ThreadNaming {
    std::optional<std::string> name;  // trimmed
    std::optional<int64_t> sortIndex;
};

struct TraceMetadata {
    std::map<DisplayKey, ProcessNaming> processes;                      // by pid
    std::map<std::pair<DisplayKey, DisplayKey>, ThreadNaming> threads;  // by (pid, tid)

    // The scope of each instant event that is drawn across more than its own track: 'g' (every
    // track) or 'p' (its process's tracks), by row.
    SparseColumn<char> instantScopes;

    // The trace's place in a distributed job (Kineto: distributedInfo.rank and .world_size).
    int64_t rank = -1;      // -1 when absent
    int64_t worldSize = 0;  // 0 when absent
    // The absolute time of ts 0, in ns since the Unix epoch (Kineto: baseTimeNanoseconds).
    std::optional<int64_t> baseTimeNs;
    // Whether the format writes the forward-to-backward ("fwdbwd") flows: Kineto JSON does,
    // Cuspy's protobuf does not. Without them a backward region finds its forward op by the ops'
    // own "Sequence number" annotations.
    bool forwardBackwardFlows = true;
};

}  // namespace stackline
