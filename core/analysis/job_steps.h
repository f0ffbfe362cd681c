// Several traces of one job (its ranks) side by side: who each trace is, how their clocks line up,
// and, per profiler step, how long each rank took, how much of it its GPU spent computing and how
// much waiting in collectives, and which rank held the others back.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/rank_steps.h"

namespace stackline {

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
    uint32_t row = kNoRow;           // its ProfilerStep span; kNoRow when read from a result
    int64_t startNs = 0, endNs = 0;  // own time
    int64_t computeNs = 0;           // GPU busy time in non-collective kernels (union over streams)
    int64_t collectiveNs = 0;        // GPU time in collective kernels (union over streams)
    int64_t idleNs = 0;              // time in the span when no kernel of the trace runs
    int64_t firstCollectiveStartNs = 0;  // own time; 0 when the step has none
    uint32_t collectives = 0;
    int64_t durationNs() const { return endNs - startNs; }
};

// How a step's collectives are matched across ranks: by the first of these that every collective
// of the step, on every rank, records.
enum class CollectiveMatch : uint8_t {
    CommsId,   // "Comms Id"
    Sequence,  // (process group, Seq)
    Order,     // the n-th collective of the step on each rank
};
std::string_view nameOf(CollectiveMatch match);  // "comms_id", "process_group_seq", "order"

// One collective of a step as the ranks ran it.
struct MatchedCollective {
    // The first rank's (in the order given) name, process group and message size.
    std::string name, processGroup, dtype;
    std::optional<int64_t> inElements, outElements;
    struct Start {
        size_t rank = 0;                      // index into JobSteps::ranks
        int64_t startNs = 0, durationNs = 0;  // on the Clock axis
    };
    std::vector<Start> ranks;  // by rank index; a rank's kernels of one collective as one span
    int64_t skewNs = 0;        // the last rank's start minus the first's
};

struct JobStep {
    int64_t step = 0;
    std::vector<RankStep> ranks;  // one per trace, in the order given
    // The trace whose matched collectives start last on the Clock axis: for each collective two
    // or more ranks ran, the rank that alone starts it last; the rank last most often, then the
    // one latest in total (the sum of its starts minus each collective's first), then the first
    // given. The others wait for it. -1 when no two ranks have collectives in this step.
    int straggler = -1;
    CollectiveMatch match = CollectiveMatch::Order;
    std::vector<MatchedCollective> collectives;  // by first start, then by what matched them
};

struct JobSteps {
    std::vector<RankInfo> ranks;     // one per trace
    std::vector<std::string> notes;  // one per trace: RankStepSummary::note
    std::vector<JobStep> steps;      // by step number
    // The traces' common world size; 0 when one lacks it or they differ (see jobMismatch).
    int64_t worldSize = 0;
    // The traces that do not overlap the others in time on the Clock axis: those not running at
    // the earliest time when the most traces run. Their clocks, or their steps, are not
    // comparable with the others'.
    std::vector<size_t> apart;
    bool partial() const { return worldSize > 0 && int64_t(ranks.size()) < worldSize; }
};

// The job of the ranks summarized, in the order given: the step numbers of any rank, each
// rank's figures and the collectives matched across them. O(n log n) in their collectives, plus
// the steps times the ranks.
JobSteps mergeRankSteps(const std::vector<RankStepSummary>& ranks);

// Why the ranks are not one job: the first (in the order given) whose world size differs from
// the first's, or whose rank another has; nullopt when they are.
struct JobMismatch {
    size_t rank = 0;  // index of the rank that does not belong
    std::string why;
};
std::optional<JobMismatch> jobMismatch(const std::vector<RankStepSummary>& ranks);

// One rank's trace and its launch flows (the load pipeline's display indexes hold them).
struct RankTrace {
    const Trace* trace = nullptr;
    const FlowIndex* flows = nullptr;
};
// mergeRankSteps of each trace's summarizeRankSteps: the viewer's Steps tab and stackline-cli
// steps alike.
JobSteps computeJobSteps(const std::vector<RankTrace>& ranks);

}  // namespace stackline
