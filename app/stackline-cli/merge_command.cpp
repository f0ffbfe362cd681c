// merge: hotspots --json or steps --json results made elsewhere (a job array's tasks, say),
// printed as one run of that command over all their traces would print it: the hotspots summed,
// the steps' rank summaries merged into one job. Every RESULT is read and checked before
// anything is printed.
#include <iostream>
#include <map>

#include "analysis/step_results.h"
#include "cli_options.h"
#include "command_support.h"
#include "commands.h"
#include "hotspots_text.h"
#include "io/trace_bytes.h"
#include "steps_output.h"

using namespace stackline;

namespace cli {

namespace {

// The traces a RESULT gives, each of them only once across all RESULTs.
class TraceNames {
public:
    void add(const std::string& trace, const std::string& path) {
        auto [at, isNew] = fileOf_.emplace(trace, path);
        if (!isNew)
            throw InputError("trace " + trace + " is already in " + at->second +
                             ": it would count twice");
    }

private:
    std::map<std::string, std::string> fileOf_;  // trace -> the RESULT that gave it
};

int mergeSteps(const Args& a, const OrderedJson& first) {
    std::vector<RankStepSummary> ranks;
    std::vector<std::string> fileOf;  // per rank, the RESULT that gave it
    TraceNames names;
    for (const std::string& path : a.inputs) {
        try {
            const OrderedJson j = &path == &a.inputs.front() ? first : readResultFile(path);
            if (!isStepsResult(j))
                throw InputError("not a steps --json result, unlike " + a.inputs.front());
            for (RankStepSummary& r : stepsResultRanks(j)) {
                names.add(r.trace, path);
                ranks.push_back(std::move(r));
                fileOf.push_back(path);
            }
        } catch (const InputError& e) {
            throw InputError(path + ": " + e.what());
        }
    }
    if (const auto m = jobMismatch(ranks))
        throw InputError(fileOf[m->rank] + ": " + ranks[m->rank].trace + ": " + m->why);
    printSteps(a, ranks);
    return 0;
}

}  // namespace

int merge(const Args& a) {
    OrderedJson first;
    try {
        first = readResultFile(a.inputs.front());
    } catch (const InputError& e) {
        throw InputError(a.inputs.front() + ": " + e.what());
    }
    if (isStepsResult(first)) return mergeSteps(a, first);
    std::vector<TraceHotspots> traces;
    TraceNames names;
    for (const std::string& path : a.inputs) {
        try {
            const OrderedJson j = &path == &a.inputs.front() ? first : readResultFile(path);
            if (isStepsResult(j))
                throw InputError("a steps result, unlike " + a.inputs.front() + " (hotspots)");
            for (TraceHotspots& t : hotspotsResultTraces(j)) {
                names.add(t.trace, path);
                traces.push_back(std::move(t));
            }
        } catch (const InputError& e) {
            throw InputError(path + ": " + e.what());
        }
    }
    if (a.json)
        std::cout << dumpJson(manyHotspotsJson(traces), 1) << "\n";
    else
        printManyHotspots(traces, a.top);
    return 0;
}

}  // namespace cli
