#include "comparison.h"

#include <QFileInfo>
#include <QObject>
#include <algorithm>

#include "job_steps.h"

using namespace stackline;

namespace {

std::string labelled(const char* role, const Document& doc) {
    return std::string(role) + ": " + QFileInfo(doc.tracePath()).fileName().toStdString();
}

}  // namespace

std::pair<std::vector<int64_t>, int64_t> stepAlignment(const Trace& base, const Trace& next) {
    const std::vector<const Trace*> traces{&base, &next};
    std::vector<int64_t> nextSteps;
    for (const StepSpan& s : profilerSteps(next)) nextSteps.push_back(s.step);
    std::sort(nextSteps.begin(), nextSteps.end());
    // The base run's steps by start: the first one the new run has too.
    for (const StepSpan& s : profilerSteps(base))
        if (std::binary_search(nextSteps.begin(), nextSteps.end(), s.step))
            return {alignmentOffsets(traces, Alignment::Step, s.step), s.step};
    return {alignmentOffsets(traces, Alignment::Clock), -1};
}

Comparison loadComparison(const Document& base, const LoadRequest& next,
                          BackgroundJob::Context& context) {
    Comparison c;
    c.next = loadDocument(next, context);
    c.next->rank.label = labelled("new", *c.next);
    // A copy that differs in its label only: the shown document stays as it was until the
    // comparison replaces it.
    c.base = std::make_shared<Document>(base);
    c.base->rank.label = labelled("base", base);
    context.setStage(QObject::tr("Lining up the runs' steps"));
    std::tie(c.offsets, c.alignedStep) = stepAlignment(*c.base->trace, *c.next->trace);
    return c;
}
