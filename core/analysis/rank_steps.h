// One rank's profiler steps, summarized from its loaded trace alone: per step its span, GPU
// compute, collective and idle time, and its collective kernels with what matches them across
// ranks. The summary is small and needs no trace: a job of 1,000 ranks is summarized one trace
// at a time (each released after), and the summaries merged (analysis/job_steps.h).
#pragma once

#include <cstdint>
#include <optional>
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
    // The ns to add to the trace's own times to put it on the job's Clock axis.
    int64_t clockOffsetNs() const { return hasBaseTime ? baseTimeNs : 0; }
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

// A collective kernel of one step, with the args Kineto copies onto it from record_param_comms.
struct RankCollective {
    std::string name;          // its "Collective name" arg (allreduce, ...), else the kernel's
    std::string processGroup;  // "Process Group Name"; empty when absent
    std::optional<std::string> commsId;   // "Comms Id", the same on every rank (kineto #1300)
    std::optional<int64_t> seq;           // "Seq", else "seq_num": its number within the group
    std::optional<int64_t> inElements;    // "In msg nelems"
    std::optional<int64_t> outElements;   // "Out msg nelems"
    std::string dtype;                    // "dtype"; empty when absent
    int64_t startNs = 0, durationNs = 0;  // own time
};

struct RankStepFigures {
    int64_t step = 0;
    uint32_t row = kNoRow;           // its ProfilerStep span; kNoRow once read back from a result
    int64_t startNs = 0, endNs = 0;  // own time
    // The step's kernels are those its CPU launched (the launch flow), else those starting in
    // its span; compute and collective times are unions over streams of its non-collective and
    // collective kernels, which may run past the span's end.
    int64_t computeNs = 0, collectiveNs = 0;
    // The time within the span when no GPU kernel of the trace (of any step) runs.
    int64_t idleNs = 0;
    std::vector<RankCollective> collectives;  // by start, then by row
    int64_t durationNs() const { return endNs - startNs; }
};

struct RankStepSummary {
    std::string trace;  // its path (as given)
    RankInfo info;
    // The first event's start and the last one's end, own time; both 0 when it has none.
    int64_t firstNs = 0, lastNs = 0;
    std::vector<RankStepFigures> steps;  // by step number; the first span of a repeated one
    // Why the rank adds nothing to the job's straggler: no steps, or no collective kernels in
    // them. Empty otherwise.
    std::string note;
};

// O(n log n) in the trace's events. The kernels' launches come from flows (the load pipeline's
// display indexes).
RankStepSummary summarizeRankSteps(const Trace& trace, const FlowIndex& flows);

}  // namespace stackline
