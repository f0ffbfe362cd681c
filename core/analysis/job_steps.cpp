#include "analysis/job_steps.h"

#include <algorithm>
#include <climits>
#include <tuple>

#include "model/kineto.h"

namespace stackline {

namespace {

// The first collective kernel's start in the trace's own time.
std::optional<int64_t> firstCollectiveStart(const Trace& trace) {
    const EventTable& e = trace.events;
    std::optional<int64_t> first;
    for (uint32_t row = 0; row < e.size(); ++row)
        if (e.phase[row] == 'X' && kineto::isGpuKernel(e.catOf(row)) &&
            isCollectiveKernel(e.nameOf(row)) && (!first || e.tsNs(row) < *first))
            first = e.tsNs(row);
    return first;
}

// One rank's collective of one step, keyed by what matches it across ranks.
struct Entry {
    std::string_view text;  // Comms Id, or process group; empty when matched by order
    int64_t number = 0;     // Seq, or the order in the step
    size_t rank = 0;
    const RankCollective* collective = nullptr;
    int64_t startNs = 0, endNs = 0;  // Clock axis
    auto key() const { return std::tie(text, number); }
};

CollectiveMatch matchOf(const std::vector<const RankStepFigures*>& perRank) {
    bool commsId = true, sequence = true;
    for (const RankStepFigures* f : perRank)
        if (f)
            for (const RankCollective& c : f->collectives) {
                commsId = commsId && c.commsId.has_value();
                sequence = sequence && c.seq.has_value();
            }
    return commsId    ? CollectiveMatch::CommsId
           : sequence ? CollectiveMatch::Sequence
                      : CollectiveMatch::Order;
}

// The step's collectives matched across ranks, each rank's kernels of one collective as one span.
std::vector<MatchedCollective> matchCollectives(const std::vector<const RankStepFigures*>& perRank,
                                                const std::vector<int64_t>& clock,
                                                CollectiveMatch match) {
    std::vector<Entry> entries;
    for (size_t r = 0; r < perRank.size(); ++r) {
        if (!perRank[r]) continue;
        const auto& list = perRank[r]->collectives;
        for (size_t i = 0; i < list.size(); ++i) {
            const RankCollective& c = list[i];
            Entry e{{}, int64_t(i),           r,
                    &c, c.startNs + clock[r], c.startNs + c.durationNs + clock[r]};
            if (match == CollectiveMatch::CommsId) {
                e.text = *c.commsId;
                e.number = 0;
            } else if (match == CollectiveMatch::Sequence) {
                e.text = c.processGroup;
                e.number = *c.seq;
            }
            entries.push_back(e);
        }
    }
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
        return std::tuple(a.key(), a.rank, a.startNs) < std::tuple(b.key(), b.rank, b.startNs);
    });
    struct Keyed {
        MatchedCollective collective;
        std::tuple<std::string_view, int64_t> key;
    };
    std::vector<Keyed> out;
    for (size_t i = 0; i < entries.size();) {
        const Entry& head = entries[i];
        MatchedCollective m;
        const RankCollective& c = *head.collective;
        m.name = c.name;
        m.processGroup = c.processGroup;
        m.dtype = c.dtype;
        m.inElements = c.inElements;
        m.outElements = c.outElements;
        for (; i < entries.size() && entries[i].key() == head.key(); ++i) {
            const Entry& e = entries[i];
            if (!m.ranks.empty() && m.ranks.back().rank == e.rank) {
                MatchedCollective::Start& s = m.ranks.back();
                s.durationNs = std::max(s.startNs + s.durationNs, e.endNs) - s.startNs;
            } else {
                m.ranks.push_back({e.rank, e.startNs, e.endNs - e.startNs});
            }
        }
        int64_t first = INT64_MAX, last = INT64_MIN;
        for (const auto& s : m.ranks) {
            first = std::min(first, s.startNs);
            last = std::max(last, s.startNs);
        }
        m.skewNs = last - first;
        out.push_back({std::move(m), head.key()});
    }
    auto firstStart = [](const MatchedCollective& m) {
        int64_t first = INT64_MAX;
        for (const auto& s : m.ranks) first = std::min(first, s.startNs);
        return first;
    };
    std::sort(out.begin(), out.end(), [&](const Keyed& a, const Keyed& b) {
        return std::tuple(firstStart(a.collective), a.key) <
               std::tuple(firstStart(b.collective), b.key);
    });
    std::vector<MatchedCollective> result;
    for (Keyed& k : out) result.push_back(std::move(k.collective));
    return result;
}

int stragglerOf(const std::vector<MatchedCollective>& collectives,
                const std::vector<const RankStepFigures*>& perRank) {
    struct Score {
        int64_t last = 0;      // the collectives it alone starts last
        int64_t lateness = 0;  // the sum of its starts minus each collective's first
        auto operator<=>(const Score&) const = default;
    };
    std::vector<Score> score(perRank.size());
    bool any = false;
    for (const MatchedCollective& m : collectives) {
        if (m.ranks.size() < 2) continue;
        any = true;
        int64_t earliest = INT64_MAX, latest = INT64_MIN;
        int last = -1;  // the one rank that starts latest; -1 when several do
        for (const auto& s : m.ranks) {
            earliest = std::min(earliest, s.startNs);
            if (s.startNs > latest)
                last = int(s.rank);
            else if (s.startNs == latest)
                last = -1;
            latest = std::max(latest, s.startNs);
        }
        if (last >= 0) ++score[size_t(last)].last;
        for (const auto& s : m.ranks) score[s.rank].lateness += s.startNs - earliest;
    }
    if (!any) return -1;
    int best = -1;
    for (size_t r = 0; r < perRank.size(); ++r) {
        if (!perRank[r] || perRank[r]->collectives.empty()) continue;
        if (best < 0 || score[r] > score[size_t(best)]) best = int(r);
    }
    return best;
}

// The ranks not running at the earliest time when the most ranks run (a sweep over their spans).
std::vector<size_t> apartOf(const std::vector<RankStepSummary>& ranks) {
    std::vector<std::pair<int64_t, int>> edges;  // (time, +1 start / -1 end); ends sort first
    for (const RankStepSummary& r : ranks) {
        if (r.lastNs <= r.firstNs) continue;
        edges.push_back({r.firstNs + r.info.clockOffsetNs(), 1});
        edges.push_back({r.lastNs + r.info.clockOffsetNs(), -1});
    }
    std::sort(edges.begin(), edges.end());
    int running = 0, most = 0;
    int64_t when = 0;
    for (const auto& [t, d] : edges) {
        running += d;
        if (running > most) {
            most = running;
            when = t;
        }
    }
    std::vector<size_t> apart;
    if (edges.size() < 4) return apart;  // fewer than two ranks ran anything
    for (size_t i = 0; i < ranks.size(); ++i) {
        const RankStepSummary& r = ranks[i];
        const int64_t offset = r.info.clockOffsetNs();
        if (r.lastNs > r.firstNs && !(r.firstNs + offset <= when && when < r.lastNs + offset))
            apart.push_back(i);
    }
    return apart;
}

}  // namespace

std::string_view nameOf(CollectiveMatch match) {
    switch (match) {
        case CollectiveMatch::CommsId:
            return "comms_id";
        case CollectiveMatch::Sequence:
            return "process_group_seq";
        default:
            return "order";
    }
}

std::vector<int64_t> alignmentOffsets(const std::vector<const Trace*>& traces, Alignment alignment,
                                      int64_t step) {
    std::vector<int64_t> clock, anchor(traces.size(), 0), out;
    std::vector<bool> hasAnchor(traces.size(), false);
    for (size_t i = 0; i < traces.size(); ++i) {
        clock.push_back(rankInfoOf(*traces[i]).clockOffsetNs());
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

JobSteps mergeRankSteps(const std::vector<RankStepSummary>& ranks) {
    JobSteps job;
    std::vector<int64_t> clock, numbers;
    for (const RankStepSummary& r : ranks) {
        job.ranks.push_back(r.info);
        job.notes.push_back(r.note);
        clock.push_back(r.info.clockOffsetNs());
        for (const RankStepFigures& f : r.steps) numbers.push_back(f.step);
    }
    std::sort(numbers.begin(), numbers.end());
    numbers.erase(std::unique(numbers.begin(), numbers.end()), numbers.end());
    job.worldSize = ranks.empty() ? 0 : ranks.front().info.worldSize;
    for (const RankStepSummary& r : ranks)
        if (r.info.worldSize != job.worldSize) job.worldSize = 0;
    job.apart = apartOf(ranks);
    std::vector<size_t> next(ranks.size(), 0);  // each rank's first step not yet taken
    for (const int64_t n : numbers) {
        JobStep step;
        step.step = n;
        std::vector<const RankStepFigures*> perRank;
        for (size_t i = 0; i < ranks.size(); ++i) {
            const auto& steps = ranks[i].steps;
            const RankStepFigures* f = nullptr;
            if (next[i] < steps.size() && steps[next[i]].step == n) f = &steps[next[i]++];
            RankStep s;
            if (f) {
                s.present = true;
                s.row = f->row;
                s.startNs = f->startNs;
                s.endNs = f->endNs;
                s.computeNs = f->computeNs;
                s.collectiveNs = f->collectiveNs;
                s.idleNs = f->idleNs;
                s.collectives = uint32_t(f->collectives.size());
                if (!f->collectives.empty()) s.firstCollectiveStartNs = f->collectives[0].startNs;
            }
            perRank.push_back(f);
            step.ranks.push_back(s);
        }
        step.match = matchOf(perRank);
        step.collectives = matchCollectives(perRank, clock, step.match);
        step.straggler = stragglerOf(step.collectives, perRank);
        job.steps.push_back(std::move(step));
    }
    return job;
}

std::optional<JobMismatch> jobMismatch(const std::vector<RankStepSummary>& ranks) {
    std::vector<std::pair<int64_t, size_t>> seen;  // (rank, index)
    for (size_t i = 0; i < ranks.size(); ++i) {
        const RankInfo& r = ranks[i].info;
        if (r.worldSize != ranks[0].info.worldSize)
            return JobMismatch{i, "a world size of " + std::to_string(r.worldSize) + ", not " +
                                      std::to_string(ranks[0].info.worldSize) +
                                      ": another job's rank"};
        if (r.worldSize > 0 && (r.rank < 0 || r.rank >= r.worldSize))
            return JobMismatch{i, "rank " + std::to_string(r.rank) + " of a world size of " +
                                      std::to_string(r.worldSize)};
        if (r.rank >= 0) seen.push_back({r.rank, i});
    }
    std::sort(seen.begin(), seen.end());
    std::optional<JobMismatch> first;
    for (size_t k = 1; k < seen.size(); ++k)
        if (seen[k].first == seen[k - 1].first && (!first || seen[k].second < first->rank))
            first = JobMismatch{seen[k].second, "rank " + std::to_string(seen[k].first) +
                                                    " again (it is also " +
                                                    ranks[seen[k - 1].second].trace + ")"};
    return first;
}

JobSteps computeJobSteps(const std::vector<RankTrace>& ranks) {
    std::vector<RankStepSummary> summaries;
    for (const RankTrace& r : ranks) summaries.push_back(summarizeRankSteps(*r.trace, *r.flows));
    return mergeRankSteps(summaries);
}

}  // namespace stackline
