#include "state/trace_set.h"

#include <QDir>
#include <QObject>
#include <algorithm>
#include <iterator>
#include <set>

#include "base/file_system.h"
#include "import/trace_formats.h"

using namespace stackline;

namespace {

QString patternList(const std::vector<std::string_view>& patterns) {
    QStringList out;
    for (std::string_view p : patterns) out << QString::fromUtf8(p.data(), qsizetype(p.size()));
    return out.join(QLatin1Char(' '));
}

}  // namespace

QStringList tracesInFolder(const QString& folder) {
    const QDir dir(folder);
    QStringList out;
    for (const QString& name : dir.entryList(
             patternList(traceFilePatterns()).split(QLatin1Char(' ')), QDir::Files, QDir::Name)) {
        const QString path = dir.absoluteFilePath(name);
        if (!looksLikeKernelInfo(path.toStdString())) out << path;
    }
    return out;
}

QString traceFileDialogFilter() {
    QStringList filters{QObject::tr("Traces (%1)").arg(patternList(traceFilePatterns()))};
    if (traceFormats().size() > 1)
        for (const TraceFormat& f : traceFormats())
            filters << QStringLiteral("%1 (%2)").arg(
                QString::fromUtf8(f.name.data(), qsizetype(f.name.size())),
                patternList(f.patterns));
    filters << QObject::tr("All files (*)");
    return filters.join(QStringLiteral(";;"));
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
