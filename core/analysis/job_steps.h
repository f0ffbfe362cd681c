// Several traces of one job (its ranks) side by side: who each trace is, how their clocks line up,
// and, per profiler step, how long each rank took, how much of it its GPU spent computing and how
// much waiting in collectives, and which rank held the others back.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/flow_index.h"
#include "model/trace.h"

namespace stackline {

// Who a trace is within its job, from its metadata.
struct RankInfo {
    int64_t rank = -1;       // distributedInfo.rank; -1 when absent
    int64_t worldSize = 0;   // distributedInfo.world_size; 0 when absent
    int64_t baseTimeNs = 0;  // baseTimeNanoseconds; 0 when absent
    bool hasBaseTime = false;
    std::string label;  // "rank 3", else the file name without its folder
};
RankInfo rankInfoOf(const Trace& trace);

// A collective communication kernel (NCCL, RCCL, ...): the one list of their names.
bool isCollectiveKernel(std::string_view kernelName);

// A ProfilerStep#N span of one trace.
struct StepSpan {
    int64_t step = 0;  // N
    uint32_t row = kNoRow;
    int64_t startNs = 0, endNs = 0;  // in the trace's own time (EventTable::tsNs)
};
// The trace's ProfilerStep#N spans, by start.
std::vector<StepSpan> profilerSteps(const Trace& trace);

// How the traces' clocks are lined up on one time axis.
enum class Alignment : uint8_t {
    Clock,            // baseTimeNanoseconds + ts when present, else ts as recorded
    Step,             // the start of ProfilerStep#step on every trace at the same time
    FirstCollective,  // the start of every trace's first collective kernel at the same time
};
// Per trace, the ns to add to its own times to put it on the shared axis (the first trace's
// offset is what Clock gives it). A trace without the step or a collective keeps its Clock offset.
std::vector<int64_t> alignmentOffsets(const std::vector<const Trace*>& traces, Alignment alignment,
                                      int64_t step = 0);

// One rank's share of one step.
struct RankStep {
    bool present = false;            // the trace has this step
    uint32_t row = kNoRow;           // its ProfilerStep span
    int64_t startNs = 0, endNs = 0;  // own time
    int64_t computeNs = 0;           // GPU busy time in non-collective kernels (union over streams)
    int64_t collectiveNs = 0;        // GPU time in collective kernels (union over streams)
    int64_t firstCollectiveStartNs = 0;  // own time; 0 when the step has none
    uint32_t collectives = 0;
    int64_t durationNs() const { return endNs - startNs; }
};

struct JobStep {
    int64_t step = 0;
    std::vector<RankStep> ranks;  // one per trace, in the order given
    // The trace whose collectives start last (matched across ranks by order, and by their
    // sequence number args where present), on the Clock axis: the others wait for it, it waits
    // least. -1 when no two ranks have collectives in this step.
    int straggler = -1;
};

struct JobSteps {
    std::vector<RankInfo> ranks;  // one per trace
    std::vector<JobStep> steps;   // by step number
};
// One rank's trace and its launch flows (the load pipeline's display indexes hold them).
struct RankTrace {
    const Trace* trace = nullptr;
    const FlowIndex* flows = nullptr;
};
JobSteps computeJobSteps(const std::vector<RankTrace>& ranks);

}  // namespace stackline
