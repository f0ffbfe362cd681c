// The result of `stackline-cli steps --json`, which `merge` reads back: every rank's summary
// (analysis/rank_steps.h), which is all a merge needs, then the job that merging them gives
// (analysis/job_steps.h), every figure in integer nanoseconds. Because the job is a function of
// the ranks' summaries in their order, merging results made elsewhere prints, byte for byte, what
// one run over all their traces prints.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/job_steps.h"
#include "kernel_info/kernel_info.h"

namespace stackline {

// {"stackline": "steps", "format": 1, "ranks": [...], "job": {...}}, indented by one space as
// stackline-cli writes JSON, written a rank and a step at a time: a job of 1,000 ranks is never
// one JSON value in memory.
void writeStepsResult(std::ostream& out, const std::vector<RankStepSummary>& ranks,
                      const JobSteps& job);

// Whether j claims to be a steps result (its "stackline" member says so), whatever else it holds.
bool isStepsResult(const OrderedJson& j);

// The ranks of a steps result. Throws InputError saying what is missing, malformed or
// inconsistent (a "job" that is not the merge of its "ranks", say).
std::vector<RankStepSummary> stepsResultRanks(const OrderedJson& j);

// A result's text (steps or hotspots --json) parsed. Throws InputError when it is not JSON.
OrderedJson parseResultText(std::string_view text);

// A result file (steps or hotspots --json) parsed. Throws InputError when it cannot be read or is
// not JSON; what it holds is the caller's to check.
OrderedJson readResultFile(const std::string& path);

// Whether the file starts as a steps result does ({"stackline": "steps", ...), read from its
// first bytes only: what tells a job from a trace before anything is loaded.
bool isStepsResultFile(const std::string& path);

// A steps result read back whole: its ranks and the job they merge into.
struct StepsResult {
    std::vector<RankStepSummary> ranks;
    JobSteps job;
};
// Throws InputError (without the path) as readResultFile and stepsResultRanks do.
StepsResult readStepsResult(const std::string& path);

}  // namespace stackline
