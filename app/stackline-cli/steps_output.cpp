#include "steps_output.h"

#include <algorithm>
#include <cstdio>
#include <iostream>

#include "analysis/step_results.h"
#include "base/errors.h"
#include "cli_options.h"

using namespace stackline;

namespace cli {

namespace {

std::string ms(int64_t ns) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3f ms", double(ns) / 1e6);
    return text;
}

// "12.509 ms", or "12.509-19.901 ms" over several ranks that differ.
std::string range(int64_t low, int64_t high) {
    if (low == high) return ms(low);
    return ms(low).substr(0, ms(low).size() - 3) + "-" + ms(high);
}

// "ranks 0-3, 8, 10-11" of the traces that have a rank; the others by their label.
std::string rankList(const JobSteps& job) {
    std::vector<int64_t> numbers;
    std::vector<std::string> others;
    for (const RankInfo& r : job.ranks)
        if (r.rank >= 0)
            numbers.push_back(r.rank);
        else
            others.push_back(r.label);
    std::sort(numbers.begin(), numbers.end());
    std::string text;
    for (size_t i = 0; i < numbers.size();) {
        size_t j = i;
        while (j + 1 < numbers.size() && numbers[j + 1] == numbers[j] + 1) ++j;
        if (!text.empty()) text += ", ";
        text += std::to_string(numbers[i]);
        if (j > i) (text += '-') += std::to_string(numbers[j]);
        i = j + 1;
    }
    if (!text.empty()) text.insert(0, numbers.size() == 1 ? "rank " : "ranks ");
    for (const std::string& o : others) text += (text.empty() ? "" : ", ") + o;
    return text;
}

std::string matchName(CollectiveMatch m) {
    switch (m) {
        case CollectiveMatch::CommsId:
            return "Comms Id";
        case CollectiveMatch::Sequence:
            return "process group and Seq";
        default:
            return "order";
    }
}

std::string figures(const RankStep& s) {
    return "step " + ms(s.durationNs()) + ", GPU compute " + ms(s.computeNs) + ", collective " +
           ms(s.collectiveNs) + ", idle " + ms(s.idleNs);
}

// step N: straggler LABEL (its figures; the ranks' spread and the collectives' skew)
std::string stepLine(const JobSteps& job, const JobStep& step) {
    int64_t low = INT64_MAX, high = INT64_MIN;
    RankStep lowest, highest;  // per figure, the smallest and largest over the ranks
    size_t present = 0;
    for (const RankStep& s : step.ranks) {
        if (!s.present) continue;
        if (present++ == 0) lowest = highest = s;
        low = std::min(low, s.durationNs());
        high = std::max(high, s.durationNs());
        lowest.computeNs = std::min(lowest.computeNs, s.computeNs);
        highest.computeNs = std::max(highest.computeNs, s.computeNs);
        lowest.collectiveNs = std::min(lowest.collectiveNs, s.collectiveNs);
        highest.collectiveNs = std::max(highest.collectiveNs, s.collectiveNs);
        lowest.idleNs = std::min(lowest.idleNs, s.idleNs);
        highest.idleNs = std::max(highest.idleNs, s.idleNs);
    }
    int64_t skew = 0;
    for (const MatchedCollective& m : step.collectives) skew = std::max(skew, m.skewNs);
    const std::string ranks = std::to_string(present) + (present == 1 ? " rank" : " ranks");
    const std::string collectives = std::to_string(step.collectives.size()) +
                                    " collectives matched by " + matchName(step.match) +
                                    ", the largest skew " + ms(skew);
    std::string line = "step " + std::to_string(step.step) + ": ";
    if (step.straggler >= 0)
        return line + "straggler " + job.ranks[size_t(step.straggler)].label + " (" +
               figures(step.ranks[size_t(step.straggler)]) + "; over " + ranks + ": step " +
               range(low, high) + ", " + collectives + ")";
    line += "no straggler (";
    if (present == 1) return line + figures(lowest) + "; one rank)";
    return line + "over " + ranks + ": step " + range(low, high) + ", GPU compute " +
           range(lowest.computeNs, highest.computeNs) + ", collective " +
           range(lowest.collectiveNs, highest.collectiveNs) + ", idle " +
           range(lowest.idleNs, highest.idleNs) + "; no two ranks have collectives in it)";
}

void printText(const JobSteps& job) {
    const size_t n = job.ranks.size();
    std::cout << n << (n == 1 ? " trace: " : " traces: ") << rankList(job);
    if (job.worldSize > 0) {
        std::cout << " of a job of " << job.worldSize << " ranks";
        if (job.partial())
            std::cout << " (a partial job: " << job.worldSize - int64_t(n) << " ranks missing)";
    }
    std::cout << "\n";
    for (size_t i = 0; i < n; ++i)
        if (!job.notes[i].empty()) std::cout << job.ranks[i].label << ": " << job.notes[i] << "\n";
    for (size_t i : job.apart)
        std::cout << job.ranks[i].label
                  << ": does not overlap the others in time (its clock, or its steps, are not "
                     "theirs)\n";
    if (job.steps.empty()) std::cout << "no ProfilerStep#N spans in these traces\n";
    for (const JobStep& step : job.steps) std::cout << stepLine(job, step) << "\n";
}

}  // namespace

void refuseOtherJobs(const std::vector<RankStepSummary>& ranks) {
    if (const auto m = jobMismatch(ranks)) throw InputError(ranks[m->rank].trace + ": " + m->why);
}

void printSteps(const Args& a, const std::vector<RankStepSummary>& ranks) {
    const JobSteps job = mergeRankSteps(ranks);
    if (a.json) {
        writeStepsResult(std::cout, ranks, job);
        std::cout << "\n";
    } else {
        printText(job);
    }
}

}  // namespace cli
