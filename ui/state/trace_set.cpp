#include "state/trace_set.h"

#include <QDir>
#include <algorithm>
#include <iterator>
#include <set>

#include "base/file_system.h"

using namespace stackline;

QStringList tracesInFolder(const QString& folder) {
    const QDir dir(folder);
    QStringList out;
    for (const QString& name : dir.entryList(
             {QStringLiteral("*.json"), QStringLiteral("*.json.gz")}, QDir::Files, QDir::Name)) {
        const QString path = dir.absoluteFilePath(name);
        if (!looksLikeKernelInfo(path.toStdString())) out << path;
    }
    return out;
}

void orderByRank(std::vector<std::shared_ptr<const ViewedTrace>>& docs) {
    std::stable_sort(docs.begin(), docs.end(), [](const auto& a, const auto& b) {
        const bool ra = a->rank.rank >= 0, rb = b->rank.rank >= 0;
        if (ra != rb) return ra;
        return ra && a->rank.rank < b->rank.rank;
    });
}

std::vector<int64_t> alignedOffsets(const std::vector<std::shared_ptr<const ViewedTrace>>& docs,
                                    Alignment alignment, int64_t step) {
    if (docs.size() < 2) return std::vector<int64_t>(docs.size(), 0);
    std::vector<const Trace*> traces;
    for (const auto& d : docs) traces.push_back(d->trace.get());
    std::vector<int64_t> offsets = alignmentOffsets(traces, alignment, step);
    const int64_t first = offsets.front();
    for (int64_t& o : offsets) o -= first;
    return offsets;
}

std::optional<int64_t> firstCommonStep(
    const std::vector<std::shared_ptr<const ViewedTrace>>& docs) {
    std::optional<std::set<int64_t>> common;
    for (const auto& d : docs) {
        std::set<int64_t> steps;
        for (const StepSpan& s : profilerSteps(*d->trace)) steps.insert(s.step);
        if (common) {
            std::set<int64_t> both;
            std::set_intersection(common->begin(), common->end(), steps.begin(), steps.end(),
                                  std::inserter(both, both.begin()));
            common = std::move(both);
        } else {
            common = std::move(steps);
        }
    }
    if (!common || common->empty()) return std::nullopt;
    return *common->begin();
}
