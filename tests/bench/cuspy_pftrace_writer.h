// Writes a Kineto JSON trace as PyTorch's Cuspy profiler backend writes its .pftrace, following
// the writer's source (torch/profiler/_cuspy/trace.py _window_to_pftrace, _build_render_stages;
// torch/csrc/profiler/cuspy/cuspy_pftrace.cpp cuspyEncodePftrace): one ClockSnapshot at the
// base time, the TrackDescriptors, one interned-data packet (SEQ_INCREMENTAL_STATE_CLEARED),
// each group's SLICE_BEGINs then its SLICE_ENDs (CPU slices, then CUDA runtime, driver, overhead,
// cuda_sync), one GpuRenderStageEvent per kernel / memcpy / memset / GPU annotation, and GPU
// counter samples; launches link to their render stages through TrackEvent field 3000. What
// Cuspy does not write is dropped: instants, flows, metadata events, the profiler span, the
// External id of API calls, a memcpy's name and copy kinds. For tests and benchmarks only.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "model/trace.h"

namespace stackline::bench {

// The trace in Cuspy's terms, before encoding: tracks, interned tables, slice groups, render
// stages and counters as the writer's columns.
struct CuspyTrack {
    uint64_t uuid = 0, parent = 0;
    bool isProcess = false;
    int32_t pid = 0, tid = 0;
    std::string name;
};

struct CuspyGroup {
    std::vector<int64_t> ts, end;
    std::vector<uint64_t> track, nameIid, catIid;  // catIid 0: none
    // Slice i's encoded debug annotations (TrackEvent field 4 entries) and launch links (the
    // render-stage event_ids of field 3000): CSR over annotations / links.
    std::string annotations;
    std::vector<uint64_t> annotationEnd;
    std::vector<uint64_t> links;
    std::vector<uint32_t> linkEnd;
    size_t size() const { return ts.size(); }
};

struct CuspyRenderStages {
    std::vector<int64_t> ts, dur;
    std::vector<uint64_t> eventId, queueIid, stageIid, nameIid, kernelIid;
    std::vector<int32_t> gpu;
    std::vector<uint32_t> grid, block;  // 3 per row; grid[0] == 0: no launch
    std::vector<uint64_t> registers, threads;
    std::string extra;  // encoded extra_data entries, CSR by extraEnd
    std::vector<uint64_t> extraEnd;
    size_t size() const { return ts.size(); }
};

struct CuspyLayout {
    int64_t baseNs = 0;
    std::vector<CuspyTrack> tracks;
    std::vector<std::string> names, categories;  // iid = index + 1
    struct Spec {
        uint64_t iid;
        std::string name;
        int32_t category;
    };
    std::vector<Spec> specs;  // stages 1-6, then one lane per (gpu, stream) from iid 100
    int32_t graphicsPid = 0;
    std::vector<std::string> kernels;  // InternedComputeKernel, iid = index + 1
    std::vector<CuspyGroup> groups;
    CuspyRenderStages stages;
    struct Counter {
        int64_t ts;
        int32_t gpu;
        uint32_t id;
        double value;
    };
    std::vector<std::pair<uint32_t, std::string>> counterSpecs;
    std::vector<Counter> counters;

    // What was read and dropped, for the counts a test checks.
    uint64_t cpuSlices = 0, apiSlices = 0, kernels_ = 0, memcpys = 0, memsets = 0, annotations = 0;
    uint64_t droppedInstants = 0, droppedFlows = 0, droppedOther = 0;
};

CuspyLayout cuspyLayoutOf(const Trace& trace, int64_t baseTimeNs);

struct PftraceWriteOptions {
    bool gzip = true;  // Cuspy always gzips (level 1); raw for tests and benchmarks
    int level = 1;
    // Writes the slices, stages and counters this many times, each copy shifted past the last
    // (timestamps, event ids): a file of any size from a small trace, streamed.
    uint32_t repeat = 1;
};

struct PftraceWriteResult {
    uint64_t packets = 0, bytes = 0, rawBytes = 0;
};

// Encodes layout into path (written to a temporary name, then renamed).
PftraceWriteResult writeCuspyPftrace(const CuspyLayout& layout, const std::string& path,
                                     const PftraceWriteOptions& options = {});

// The serialized packets of layout, in memory (no gzip), for tests.
std::string encodeCuspyPftrace(const CuspyLayout& layout);

}  // namespace stackline::bench
