#include "analysis/rank_steps.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <climits>
#include <filesystem>
#include <map>
#include <tuple>

#include "model/event_args.h"
#include "model/kineto.h"

namespace stackline {

namespace {

std::optional<int64_t> integer(std::string_view number) {
    int64_t v = 0;
    auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), v);
    if (ec != std::errc() || end != number.data() + number.size()) return std::nullopt;
    return v;
}

using Interval = std::pair<int64_t, int64_t>;  // [begin, end) ns

// Sorted, disjoint, non-empty intervals covering the same time as v.
std::vector<Interval> unionOf(std::vector<Interval> v) {
    std::sort(v.begin(), v.end());
    std::vector<Interval> out;
    for (const auto& [b, e] : v) {
        if (e <= b) continue;
        if (!out.empty() && b <= out.back().second)
            out.back().second = std::max(out.back().second, e);
        else
            out.push_back({b, e});
    }
    return out;
}

int64_t lengthOf(const std::vector<Interval>& disjoint) {
    int64_t total = 0;
    for (const auto& [b, e] : disjoint) total += e - b;
    return total;
}

// How much of [from, to) disjoint intervals cover, in O(log n).
class Coverage {
public:
    explicit Coverage(std::vector<Interval> disjoint) : v_(std::move(disjoint)) {
        prefix_.push_back(0);
        for (const auto& [b, e] : v_) prefix_.push_back(prefix_.back() + (e - b));
    }
    int64_t within(int64_t from, int64_t to) const {
        if (to <= from) return 0;
        return upTo(to) - upTo(from);
    }

private:
    // The covered time before t.
    int64_t upTo(int64_t t) const {
        const auto it = std::upper_bound(v_.begin(), v_.end(), t,
                                         [](int64_t x, const Interval& i) { return x < i.first; });
        const size_t k = size_t(it - v_.begin());  // intervals starting at or before t
        if (k == 0) return 0;
        return prefix_[k - 1] + (std::min(t, v_[k - 1].second) - v_[k - 1].first);
    }
    std::vector<Interval> v_;
    std::vector<int64_t> prefix_;
};

// The step whose span holds t: of the spans starting at or before t, the last one still running
// at t. Steps of different threads may overlap, so an earlier span can hold t when a later one
// has ended: a sparse table of the spans' largest end finds it in O(log n), whatever the overlap.
class StepFinder {
public:
    explicit StepFinder(const std::vector<StepSpan>& spans) : spans_(spans) {
        std::vector<int64_t> ends;
        for (const StepSpan& s : spans) ends.push_back(s.endNs);
        maxEnd_.push_back(std::move(ends));
        for (size_t w = 1; 2 * w <= spans.size(); w *= 2) {
            const std::vector<int64_t>& prev = maxEnd_.back();
            std::vector<int64_t> next(spans.size() - 2 * w + 1);
            for (size_t i = 0; i < next.size(); ++i) next[i] = std::max(prev[i], prev[i + w]);
            maxEnd_.push_back(std::move(next));
        }
    }
    const StepSpan* at(int64_t t) const {
        const auto it =
            std::upper_bound(spans_.begin(), spans_.end(), t,
                             [](int64_t v, const StepSpan& s) { return v < s.startNs; });
        if (it == spans_.begin()) return nullptr;
        const size_t last = size_t(it - spans_.begin()) - 1;
        if (maxEndOf(0, last) <= t) return nullptr;
        // The largest first such that some span of [first, last] still runs at t.
        size_t lo = 0, hi = last;
        while (lo < hi) {
            const size_t mid = lo + (hi - lo + 1) / 2;
            if (maxEndOf(mid, last) > t)
                lo = mid;
            else
                hi = mid - 1;
        }
        return &spans_[lo];
    }

private:
    int64_t maxEndOf(size_t first, size_t last) const {
        const size_t level = size_t(std::bit_width(last - first + 1) - 1);
        const std::vector<int64_t>& m = maxEnd_[level];
        return std::max(m[first], m[last + 1 - (size_t(1) << level)]);
    }
    const std::vector<StepSpan>& spans_;
    std::vector<std::vector<int64_t>> maxEnd_;  // [level][i]: the largest end of 2^level spans
};

std::optional<int64_t> integerArg(const nlohmann::ordered_json& args, const char* key) {
    const auto it = args.find(key);
    if (it == args.end()) return std::nullopt;
    if (it->is_number_integer()) return it->get<int64_t>();
    if (it->is_string()) return integer(it->get<std::string>());
    return std::nullopt;
}

std::string stringArg(const nlohmann::ordered_json& args, const char* key) {
    const auto it = args.find(key);
    return it != args.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// Kineto copies record_param_comms' args onto the collective kernel (PyTorch's names).
RankCollective collectiveOf(const Trace& trace, uint32_t row) {
    const EventTable& e = trace.events;
    RankCollective c;
    c.startNs = e.tsNs(row);
    c.durationNs = e.durNs(row);
    const nlohmann::ordered_json args = trace.args(row).object();
    if (args.is_object()) {
        c.name = stringArg(args, "Collective name");
        c.processGroup = stringArg(args, "Process Group Name");
        if (const auto id = args.find("Comms Id"); id != args.end()) {
            if (id->is_number_integer())
                c.commsId = id->dump();
            else if (id->is_string())
                c.commsId = id->get<std::string>();
        }
        c.seq = integerArg(args, "Seq");
        if (!c.seq) c.seq = integerArg(args, "seq_num");
        c.inElements = integerArg(args, "In msg nelems");
        c.outElements = integerArg(args, "Out msg nelems");
        c.dtype = stringArg(args, "dtype");
    }
    if (c.name.empty()) c.name = std::string(e.nameOf(row));
    return c;
}

}  // namespace

RankInfo rankInfoOf(const Trace& trace) {
    RankInfo info;
    info.rank = trace.metadata.rank;
    info.worldSize = trace.metadata.worldSize;
    info.hasBaseTime = trace.metadata.baseTimeNs.has_value();
    info.baseTimeNs = trace.metadata.baseTimeNs.value_or(0);
    info.label = info.rank >= 0 ? "rank " + std::to_string(info.rank)
                                : std::filesystem::path(trace.path).filename().string();
    return info;
}

bool isCollectiveKernel(std::string_view name) {
    // One list for every analysis: the range summary's communication kernels are these too.
    return kineto::isCommunicationKernel(name);
}

std::vector<StepSpan> profilerSteps(const Trace& trace) {
    const EventTable& e = trace.events;
    std::vector<StepSpan> out;
    if (!e.hasNanos) return out;
    constexpr std::string_view kPrefix = "ProfilerStep#";
    for (uint32_t row = 0; row < e.size(); ++row) {
        if (e.phase[row] != 'X') continue;
        const std::string_view name = e.nameOf(row);
        if (!name.starts_with(kPrefix)) continue;
        const std::optional<int64_t> n = integer(name.substr(kPrefix.size()));
        if (!n) continue;
        out.push_back({*n, row, e.tsNs(row), e.tsNs(row) + e.durNs(row)});
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const StepSpan& a, const StepSpan& b) { return a.startNs < b.startNs; });
    return out;
}

RankStepSummary summarizeRankSteps(const Trace& trace, const FlowIndex& flows) {
    RankStepSummary out;
    out.trace = trace.path;
    out.info = rankInfoOf(trace);
    const EventTable& e = trace.events;
    const std::vector<StepSpan> spans = profilerSteps(trace);
    const StepFinder finder(spans);
    struct Kernels {
        std::vector<Interval> compute, collective;
        std::vector<uint32_t> collectives;  // rows
    };
    std::map<int64_t, Kernels> byStep;
    std::vector<Interval> busy;  // every kernel, for the idle time
    bool anyEvent = false;
    for (uint32_t row = 0; row < e.size(); ++row) {
        if (e.phase[row] != 'X') continue;
        const int64_t start = e.tsNs(row), end = start + e.durNs(row);
        out.firstNs = anyEvent ? std::min(out.firstNs, start) : start;
        out.lastNs = anyEvent ? std::max(out.lastNs, end) : end;
        anyEvent = true;
        if (spans.empty() || !kineto::isGpuKernel(e.catOf(row))) continue;
        busy.push_back({start, end});
        // Kernels run after the CPU has left the step that launched them: the launch says which
        // step they belong to.
        const StepSpan* step = nullptr;
        if (const uint32_t launch = flows.sourceOf(row); launch != kNoRow)
            step = finder.at(e.tsNs(launch));
        if (!step) step = finder.at(start);
        if (!step) continue;
        Kernels& k = byStep[step->step];
        if (isCollectiveKernel(e.nameOf(row))) {
            k.collective.push_back({start, end});
            k.collectives.push_back(row);
        } else {
            k.compute.push_back({start, end});
        }
    }
    const Coverage coverage(unionOf(std::move(busy)));
    std::map<int64_t, const StepSpan*> first;  // the first span of each step number
    for (const StepSpan& s : spans) first.try_emplace(s.step, &s);
    bool anyCollective = false;
    for (const auto& [n, span] : first) {
        RankStepFigures f;
        f.step = n;
        f.row = span->row;
        f.startNs = span->startNs;
        f.endNs = span->endNs;
        f.idleNs = f.durationNs() - coverage.within(f.startNs, f.endNs);
        if (auto k = byStep.find(n); k != byStep.end()) {
            f.computeNs = lengthOf(unionOf(std::move(k->second.compute)));
            f.collectiveNs = lengthOf(unionOf(std::move(k->second.collective)));
            auto& rows = k->second.collectives;
            std::sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) {
                return std::tuple(e.tsNs(a), a) < std::tuple(e.tsNs(b), b);
            });
            for (const uint32_t row : rows) f.collectives.push_back(collectiveOf(trace, row));
            anyCollective = anyCollective || !rows.empty();
        }
        out.steps.push_back(std::move(f));
    }
    if (spans.empty())
        out.note = "no ProfilerStep#N spans";
    else if (!anyCollective)
        out.note = "no collective kernels in its steps";
    return out;
}

}  // namespace stackline
