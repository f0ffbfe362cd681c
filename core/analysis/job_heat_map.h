// The job view's figures over a steps result (analysis/step_results.h), knowing no pixels: per
// metric a value per (rank, step) cell; the max and mean over a range of displayed ranks, so that
// 1,024 ranks drawn in fewer rows of pixels stay readable; a rank filter ("0-7, 512"); per rank its
// spread from each step's median; per step its straggler and the collectives with the largest skew.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/step_results.h"

namespace stackline {

enum class JobMetric : uint8_t {
    StepTime,    // the step's duration
    Compute,     // GPU compute time
    Collective,  // GPU time in collectives
    Idle,        // GPU idle time in the step
    // How late the rank starts the step's matched collectives: the mean, over those it ran, of
    // its start minus the first rank's (the lateness the straggler rule adds up); 0 without.
    CollectiveSkew,
};
// By JobMetric.
inline constexpr std::array<std::string_view, 5> kJobMetricNames = {
    "step time", "compute", "collective", "idle", "collective skew"};
inline constexpr size_t kJobMetricCount = kJobMetricNames.size();
inline std::string_view nameOf(JobMetric metric) {
    return kJobMetricNames[size_t(metric)];
}

// Which ranks to show, by rank number (RankInfo::rank; a trace without one by its index):
// "0-7, 512", items separated by commas or spaces. Empty text: every rank.
class RankFilter {
public:
    // nullopt, with *error saying why, when the text is not such a list.
    static std::optional<RankFilter> parse(std::string_view text, std::string* error = nullptr);
    bool matches(int64_t rank) const;
    bool all() const { return ranges_.empty(); }

private:
    std::vector<std::pair<int64_t, int64_t>> ranges_;  // inclusive
};

// Over the displayed ranks of one range, the cells that have the step.
struct CellAggregate {
    int64_t max = 0;
    int64_t mean = 0;
    size_t cells = 0;    // 0: none of the ranks has the step
    size_t maxRank = 0;  // the rank index of the max
};

// One rank against the job: for each step it has, its value minus the step's median over the
// ranks that have it.
struct RankSpread {
    size_t rank = 0;           // index into the result's ranks
    int64_t meanDeltaNs = 0;   // the mean of those differences
    int64_t worstDeltaNs = 0;  // the largest in magnitude
    int64_t worstStep = 0;     // its step number
    double relative = 0;       // meanDeltaNs over the mean of the medians (0.1: 10 % above)
};

class JobHeatMap {
public:
    explicit JobHeatMap(std::shared_ptr<const StepsResult> result);

    const StepsResult& result() const { return *result_; }
    const JobSteps& job() const { return result_->job; }
    size_t rankCount() const { return job().ranks.size(); }
    size_t stepCount() const { return job().steps.size(); }
    // The rank's number, else (no distributedInfo.rank) its index.
    int64_t rankNumber(size_t rank) const;

    // The cell's value in ns; nullopt when the rank has no such step.
    std::optional<int64_t> cell(JobMetric metric, size_t rank, size_t step) const;
    // The smallest and the largest cell of the metric (max > min), the ends of a colour scale.
    int64_t minValue(JobMetric metric) const { return min_[size_t(metric)]; }
    int64_t maxValue(JobMetric metric) const { return max_[size_t(metric)]; }

    // The rank indices the filter lets through, by rank number then index: the rows shown.
    std::vector<size_t> rows(const RankFilter& filter) const;
    // The aggregate of rows[first, end) in the step's column.
    CellAggregate aggregate(JobMetric metric, const std::vector<size_t>& rows, size_t first,
                            size_t end, size_t step) const;

    // The metric's median over the ranks that have the step; 0 when none has it.
    int64_t median(JobMetric metric, size_t step) const;
    // Every rank's spread for the metric, the largest mean difference first.
    std::vector<RankSpread> spreads(JobMetric metric) const;
    // The step's matched collectives with the largest skew, at most n, the largest first.
    std::vector<const MatchedCollective*> slowestCollectives(size_t step, size_t n = 5) const;

private:
    size_t at(size_t rank, size_t step) const { return rank * stepCount() + step; }

    std::shared_ptr<const StepsResult> result_;
    // Per metric, rank-major: ranks x steps values; present_ says which cells have the step.
    std::array<std::vector<int64_t>, kJobMetricCount> values_;
    std::vector<bool> present_;
    std::array<std::vector<int64_t>, kJobMetricCount> medians_;  // per metric, per step
    std::array<int64_t, kJobMetricCount> min_{}, max_{};
};

}  // namespace stackline
