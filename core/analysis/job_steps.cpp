#include "analysis/job_steps.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <map>
#include <optional>
#include <tuple>

#include "model/event_args.h"
#include "model/flow_index.h"
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

int64_t unionLength(std::vector<Interval> v) {
    std::sort(v.begin(), v.end());
    int64_t total = 0, end = INT64_MIN;
    for (const auto& [b, e] : v) {
        const int64_t from = std::max(b, end);
        if (e > from) total += e - from;
        end = std::max(end, e);
    }
    return total;
}

// A collective kernel of one rank in one step, and what matches it across ranks.
struct Collective {
    int64_t startNs;  // own time
    uint32_t row;
    std::optional<std::pair<std::string, int64_t>> sequence;  // (process group, Seq) from args
};

// Kineto copies record_param_comms' args onto the collective kernel: its process group and its
// sequence number within the group (PyTorch's "Process Group Name" and "Seq").
std::optional<std::pair<std::string, int64_t>> sequenceOf(const Trace& trace, uint32_t row) {
    const nlohmann::json args = trace.args(row).object();
    if (!args.is_object()) return std::nullopt;
    const auto seq = args.find("Seq");
    if (seq == args.end()) return std::nullopt;
    std::optional<int64_t> n;
    if (seq->is_number_integer()) n = seq->get<int64_t>();
    if (seq->is_string()) n = integer(seq->get<std::string>());
    if (!n) return std::nullopt;
    const auto group = args.find("Process Group Name");
    return std::pair{group != args.end() && group->is_string() ? group->get<std::string>() : "",
                     *n};
}

// One trace's kernels by step.
struct RankKernels {
    std::map<int64_t, StepSpan> steps;  // the first span of each step number
    std::map<int64_t, std::vector<Interval>> compute, collective;
    std::map<int64_t, std::vector<Collective>> collectives;
};

// The step whose span holds t: spans are by start; the last one starting at or before t.
const StepSpan* stepAt(const std::vector<StepSpan>& spans, int64_t t) {
    auto it = std::upper_bound(spans.begin(), spans.end(), t,
                               [](int64_t v, const StepSpan& s) { return v < s.startNs; });
    while (it != spans.begin()) {
        --it;
        if (t < it->endNs) return &*it;
        // Steps of different threads may overlap; an earlier one can still hold t.
    }
    return nullptr;
}

RankKernels kernelsByStep(const Trace& trace, const FlowIndex& flows) {
    RankKernels out;
    const std::vector<StepSpan> spans = profilerSteps(trace);
    for (const StepSpan& s : spans) out.steps.try_emplace(s.step, s);
    if (spans.empty()) return out;
    const EventTable& e = trace.events;
    for (uint32_t row = 0; row < e.size(); ++row) {
        if (e.phase[row] != 'X' || !kineto::isGpuKernel(e.catOf(row))) continue;
        const int64_t start = e.tsNs[row], end = start + e.durNs[row];
        // Kernels run after the CPU has left the step that launched them: the launch says which
        // step they belong to.
        const StepSpan* step = nullptr;
        if (const uint32_t launch = flows.sourceOf(row); launch != kNoRow)
            step = stepAt(spans, e.tsNs[launch]);
        if (!step) step = stepAt(spans, start);
        if (!step) continue;
        if (isCollectiveKernel(e.nameOf(row))) {
            out.collective[step->step].push_back({start, end});
            out.collectives[step->step].push_back({start, row, sequenceOf(trace, row)});
        } else {
            out.compute[step->step].push_back({start, end});
        }
    }
    for (auto& [step, list] : out.collectives)
        std::sort(list.begin(), list.end(), [](const Collective& a, const Collective& b) {
            return std::tie(a.startNs, a.row) < std::tie(b.startNs, b.row);
        });
    return out;
}

int64_t clockOffset(const RankInfo& info) {
    return info.hasBaseTime ? info.baseTimeNs : 0;
}

// The first collective kernel's start in the trace's own time.
std::optional<int64_t> firstCollectiveStart(const Trace& trace) {
    const EventTable& e = trace.events;
    std::optional<int64_t> first;
    for (uint32_t row = 0; row < e.size(); ++row)
        if (e.phase[row] == 'X' && kineto::isGpuKernel(e.catOf(row)) &&
            isCollectiveKernel(e.nameOf(row)) && (!first || e.tsNs[row] < *first))
            first = e.tsNs[row];
    return first;
}

// The straggler of one step: per collective matched across ranks, the rank that starts it last
// on the Clock axis (when one rank alone starts it last); the rank last most often, then the one
// latest in total.
int stragglerOf(const std::vector<const std::vector<Collective>*>& perRank,
                const std::vector<int64_t>& clock) {
    // Sequence numbers match collectives when every one of the step has them; else their order.
    bool bySequence = true;
    for (const auto* list : perRank)
        if (list)
            for (const Collective& c : *list) bySequence = bySequence && c.sequence.has_value();
    using Key = std::pair<std::string, int64_t>;
    std::map<Key, std::vector<std::pair<int, int64_t>>> matched;  // key -> (rank, clock start)
    for (size_t r = 0; r < perRank.size(); ++r) {
        if (!perRank[r]) continue;
        const auto& list = *perRank[r];
        for (size_t i = 0; i < list.size(); ++i) {
            const Key key = bySequence ? *list[i].sequence : Key{"", int64_t(i)};
            matched[key].push_back({int(r), list[i].startNs + clock[r]});
        }
    }
    std::vector<int64_t> lastCount(perRank.size(), 0), lateness(perRank.size(), 0);
    bool any = false;
    for (const auto& [key, starts] : matched) {
        if (starts.size() < 2) continue;
        any = true;
        int64_t earliest = INT64_MAX, latest = INT64_MIN;
        int last = -1;  // the one rank that starts latest; -1 when several do
        for (const auto& [rank, start] : starts) {
            earliest = std::min(earliest, start);
            if (start > latest)
                last = rank;
            else if (start == latest)
                last = -1;
            latest = std::max(latest, start);
        }
        if (last >= 0) ++lastCount[size_t(last)];
        for (const auto& [rank, start] : starts) lateness[size_t(rank)] += start - earliest;
    }
    if (!any) return -1;
    int best = -1;
    for (size_t r = 0; r < perRank.size(); ++r) {
        if (!perRank[r] || perRank[r]->empty()) continue;
        if (best < 0 || std::tie(lastCount[r], lateness[r]) >
                            std::tie(lastCount[size_t(best)], lateness[size_t(best)]))
            best = int(r);
    }
    return best;
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
    if (e.tsNs.empty()) return out;
    constexpr std::string_view kPrefix = "ProfilerStep#";
    for (uint32_t row = 0; row < e.size(); ++row) {
        if (e.phase[row] != 'X') continue;
        const std::string_view name = e.nameOf(row);
        if (!name.starts_with(kPrefix)) continue;
        const std::optional<int64_t> n = integer(name.substr(kPrefix.size()));
        if (!n) continue;
        out.push_back({*n, row, e.tsNs[row], e.tsNs[row] + e.durNs[row]});
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const StepSpan& a, const StepSpan& b) { return a.startNs < b.startNs; });
    return out;
}

std::vector<int64_t> alignmentOffsets(const std::vector<const Trace*>& traces, Alignment alignment,
                                      int64_t step) {
    std::vector<int64_t> clock, anchor(traces.size(), 0), out;
    std::vector<bool> hasAnchor(traces.size(), false);
    for (size_t i = 0; i < traces.size(); ++i) {
        clock.push_back(clockOffset(rankInfoOf(*traces[i])));
        if (alignment == Alignment::Step) {
            for (const StepSpan& s : profilerSteps(*traces[i]))
                if (s.step == step) {
                    anchor[i] = s.startNs;
                    hasAnchor[i] = true;
                    break;
                }
        } else if (alignment == Alignment::FirstCollective) {
            if (auto first = firstCollectiveStart(*traces[i])) {
                anchor[i] = *first;
                hasAnchor[i] = true;
            }
        }
    }
    out = clock;
    // The first trace with the anchor keeps its Clock offset; the others' anchors meet it.
    const auto reference = std::find(hasAnchor.begin(), hasAnchor.end(), true);
    if (alignment == Alignment::Clock || reference == hasAnchor.end()) return out;
    const size_t ref = size_t(reference - hasAnchor.begin());
    const int64_t target = anchor[ref] + clock[ref];
    for (size_t i = 0; i < traces.size(); ++i)
        if (hasAnchor[i]) out[i] = target - anchor[i];
    return out;
}

JobSteps computeJobSteps(const std::vector<RankTrace>& ranks) {
    JobSteps job;
    std::vector<RankKernels> kernels;
    std::vector<int64_t> clock;
    std::map<int64_t, bool> stepNumbers;
    for (const RankTrace& r : ranks) {
        job.ranks.push_back(rankInfoOf(*r.trace));
        clock.push_back(clockOffset(job.ranks.back()));
        kernels.push_back(kernelsByStep(*r.trace, *r.flows));
        for (const auto& [n, span] : kernels.back().steps) stepNumbers[n] = true;
    }
    for (const auto& [n, unused] : stepNumbers) {
        JobStep step;
        step.step = n;
        std::vector<const std::vector<Collective>*> perRank;
        for (const RankKernels& k : kernels) {
            RankStep r;
            const std::vector<Collective>* collectives = nullptr;
            if (auto s = k.steps.find(n); s != k.steps.end()) {
                r.present = true;
                r.row = s->second.row;
                r.startNs = s->second.startNs;
                r.endNs = s->second.endNs;
                if (auto c = k.compute.find(n); c != k.compute.end())
                    r.computeNs = unionLength(c->second);
                if (auto c = k.collective.find(n); c != k.collective.end())
                    r.collectiveNs = unionLength(c->second);
                if (auto c = k.collectives.find(n); c != k.collectives.end()) {
                    collectives = &c->second;
                    r.collectives = uint32_t(c->second.size());
                    r.firstCollectiveStartNs = c->second.front().startNs;
                }
            }
            perRank.push_back(collectives);
            step.ranks.push_back(r);
        }
        step.straggler = stragglerOf(perRank, clock);
        job.steps.push_back(std::move(step));
    }
    return job;
}

}  // namespace stackline
