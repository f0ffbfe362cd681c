// What steps and merge print of a job's ranks alike: the steps result (--json), else a line per
// step naming its straggler, so that a merge of results prints what one steps run would.
#pragma once

#include <vector>

#include "analysis/rank_steps.h"

namespace cli {

struct Args;

// Throws InputError naming the trace that does not belong with the ones before it (another
// job's world size, a rank given twice), before anything is printed.
void refuseOtherJobs(const std::vector<stackline::RankStepSummary>& ranks);

// The job merged from ranks, in their order: writeStepsResult with --json, else the text.
void printSteps(const Args& a, const std::vector<stackline::RankStepSummary>& ranks);

}  // namespace cli
