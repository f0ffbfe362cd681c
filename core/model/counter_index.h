// Counter series for the timeline's graph tracks: one per pid, name and args key of "ph": "C"
// events (Perfetto's convention, named "name key"), and Kineto's memory series, allocated and
// reserved per device, from its "[memory]" instant events' running totals (old traces carry only
// each event's Bytes: allocated is then their sum from zero). Values hold until the next point
// (stepped).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/trace.h"
#include "model/track_index.h"

namespace stackline {

struct CounterSeries {
    std::string name;               // "Queue Length queue_length", "CUDA 0 memory allocated"
    uint32_t process = kNoProcess;  // index into TrackIndex::processes(); kNoProcess: none
    bool memory = false;            // from [memory] events (bytes)
    std::vector<int64_t> ts;        // ns, sorted
    std::vector<double> value;      // by point
    double min = 0, max = 0;

    // The value in force at t (the last point at or before it); none before the first point.
    std::optional<double> valueAt(int64_t t) const;
    // The first point at or after t.
    size_t firstAtOrAfter(int64_t t) const;
};

class CounterIndex {
public:
    // Series in order of first appearance, grouped by process as the tracks are.
    static CounterIndex build(const Trace& trace, const TrackIndex& tracks);

    const std::vector<CounterSeries>& series() const { return series_; }
    // Indexes of a process's series, in order.
    std::vector<uint32_t> ofProcess(uint32_t process) const;

private:
    std::vector<CounterSeries> series_;
};

}  // namespace stackline
