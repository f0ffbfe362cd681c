#include "analysis/job_heat_map.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cstdlib>

namespace stackline {

std::optional<RankFilter> RankFilter::parse(std::string_view text, std::string* error) {
    RankFilter filter;
    auto fail = [&](std::string why) -> std::optional<RankFilter> {
        if (error) *error = std::move(why);
        return std::nullopt;
    };
    size_t at = 0;
    auto skipSeparators = [&] {
        while (at < text.size() && (text[at] == ' ' || text[at] == ',' || text[at] == '\t')) ++at;
    };
    auto number = [&](int64_t* out) {
        while (at < text.size() && text[at] == ' ') ++at;
        const auto [end, ec] = std::from_chars(text.data() + at, text.data() + text.size(), *out);
        if (ec != std::errc() || *out < 0) return false;
        at = size_t(end - text.data());
        return true;
    };
    for (skipSeparators(); at < text.size(); skipSeparators()) {
        int64_t first = 0, last = 0;
        if (!number(&first))
            return fail("a rank number or range (0-7) expected at \"" +
                        std::string(text.substr(at)) + "\"");
        last = first;
        size_t dash = at;
        while (dash < text.size() && text[dash] == ' ') ++dash;
        if (dash < text.size() && text[dash] == '-') {
            at = dash + 1;
            if (!number(&last) || last < first)
                return fail("the range from " + std::to_string(first) + " has no end after it");
        }
        if (at < text.size() && text[at] != ',' && text[at] != ' ')
            return fail("unexpected \"" + std::string(text.substr(at)) + "\"");
        filter.ranges_.emplace_back(first, last);
    }
    return filter;
}

bool RankFilter::matches(int64_t rank) const {
    if (ranges_.empty()) return true;
    return std::any_of(ranges_.begin(), ranges_.end(),
                       [&](const auto& r) { return r.first <= rank && rank <= r.second; });
}

JobHeatMap::JobHeatMap(std::shared_ptr<const StepsResult> result) : result_(std::move(result)) {
    const size_t ranks = rankCount(), steps = stepCount();
    for (auto& v : values_) v.assign(ranks * steps, 0);
    present_.assign(ranks * steps, false);
    for (size_t s = 0; s < steps; ++s) {
        const JobStep& step = job().steps[s];
        for (size_t r = 0; r < ranks; ++r) {
            const RankStep& f = step.ranks[r];
            if (!f.present) continue;
            present_[at(r, s)] = true;
            values_[size_t(JobMetric::StepTime)][at(r, s)] = f.durationNs();
            values_[size_t(JobMetric::Compute)][at(r, s)] = f.computeNs;
            values_[size_t(JobMetric::Collective)][at(r, s)] = f.collectiveNs;
            values_[size_t(JobMetric::Idle)][at(r, s)] = f.idleNs;
        }
        std::vector<int64_t>& skew = values_[size_t(JobMetric::CollectiveSkew)];
        std::vector<int64_t> ran(ranks, 0);
        for (const MatchedCollective& m : step.collectives) {
            int64_t first = INT64_MAX;
            for (const auto& start : m.ranks) first = std::min(first, start.startNs);
            for (const auto& start : m.ranks) {
                skew[at(start.rank, s)] += start.startNs - first;
                ++ran[start.rank];
            }
        }
        for (size_t r = 0; r < ranks; ++r)
            if (ran[r]) skew[at(r, s)] /= ran[r];
    }
    std::vector<int64_t> column;
    for (size_t m = 0; m < kJobMetricCount; ++m) {
        min_[m] = INT64_MAX;
        max_[m] = INT64_MIN;
        for (size_t i = 0; i < values_[m].size(); ++i)
            if (present_[i]) {
                min_[m] = std::min(min_[m], values_[m][i]);
                max_[m] = std::max(max_[m], values_[m][i]);
            }
        if (min_[m] > max_[m]) min_[m] = max_[m] = 0;
        if (max_[m] == min_[m]) ++max_[m];
        medians_[m].assign(steps, 0);
        for (size_t s = 0; s < steps; ++s) {
            column.clear();
            for (size_t r = 0; r < ranks; ++r)
                if (present_[at(r, s)]) column.push_back(values_[m][at(r, s)]);
            if (column.empty()) continue;
            auto mid = column.begin() + ptrdiff_t(column.size() / 2);
            std::nth_element(column.begin(), mid, column.end());
            medians_[m][s] = *mid;
        }
    }
}

int64_t JobHeatMap::rankNumber(size_t rank) const {
    const int64_t number = job().ranks[rank].rank;
    return number >= 0 ? number : int64_t(rank);
}

std::optional<int64_t> JobHeatMap::cell(JobMetric metric, size_t rank, size_t step) const {
    if (rank >= rankCount() || step >= stepCount() || !present_[at(rank, step)])
        return std::nullopt;
    return values_[size_t(metric)][at(rank, step)];
}

std::vector<size_t> JobHeatMap::rows(const RankFilter& filter) const {
    std::vector<size_t> out;
    for (size_t r = 0; r < rankCount(); ++r)
        if (filter.matches(rankNumber(r))) out.push_back(r);
    std::stable_sort(out.begin(), out.end(),
                     [&](size_t a, size_t b) { return rankNumber(a) < rankNumber(b); });
    return out;
}

CellAggregate JobHeatMap::aggregate(JobMetric metric, const std::vector<size_t>& rows, size_t first,
                                    size_t end, size_t step) const {
    CellAggregate a;
    if (step >= stepCount()) return a;
    const std::vector<int64_t>& values = values_[size_t(metric)];
    int64_t sum = 0;
    for (size_t i = first; i < std::min(end, rows.size()); ++i) {
        const size_t r = rows[i];
        if (!present_[at(r, step)]) continue;
        const int64_t v = values[at(r, step)];
        if (a.cells == 0 || v > a.max) {
            a.max = v;
            a.maxRank = r;
        }
        sum += v;
        ++a.cells;
    }
    if (a.cells) a.mean = sum / int64_t(a.cells);
    return a;
}

int64_t JobHeatMap::median(JobMetric metric, size_t step) const {
    return step < stepCount() ? medians_[size_t(metric)][step] : 0;
}

std::vector<RankSpread> JobHeatMap::spreads(JobMetric metric) const {
    std::vector<RankSpread> out;
    const std::vector<int64_t>& values = values_[size_t(metric)];
    const std::vector<int64_t>& medians = medians_[size_t(metric)];
    for (size_t r = 0; r < rankCount(); ++r) {
        RankSpread spread{.rank = r};
        int64_t deltas = 0, medianSum = 0, count = 0;
        for (size_t s = 0; s < stepCount(); ++s) {
            if (!present_[at(r, s)]) continue;
            const int64_t delta = values[at(r, s)] - medians[s];
            if (count == 0 || std::llabs(delta) > std::llabs(spread.worstDeltaNs)) {
                spread.worstDeltaNs = delta;
                spread.worstStep = job().steps[s].step;
            }
            deltas += delta;
            medianSum += medians[s];
            ++count;
        }
        if (count == 0) continue;
        spread.meanDeltaNs = deltas / count;
        if (medianSum > 0) spread.relative = double(deltas) / double(medianSum);
        out.push_back(spread);
    }
    std::stable_sort(out.begin(), out.end(), [](const RankSpread& a, const RankSpread& b) {
        return std::llabs(a.meanDeltaNs) > std::llabs(b.meanDeltaNs);
    });
    return out;
}

std::vector<const MatchedCollective*> JobHeatMap::slowestCollectives(size_t step, size_t n) const {
    std::vector<const MatchedCollective*> out;
    if (step >= stepCount()) return out;
    for (const MatchedCollective& m : job().steps[step].collectives) out.push_back(&m);
    std::stable_sort(out.begin(), out.end(),
                     [](const MatchedCollective* a, const MatchedCollective* b) {
                         return a->skewNs > b->skewNs;
                     });
    if (out.size() > n) out.resize(n);
    return out;
}

}  // namespace stackline
