// bench_table_filter [EVENTS]: builds a synthetic torch.compile trace of EVENTS events (default
// 2,400,000: about 40,000 unresolved kernels, see synthetic_trace.h), fills the Unresolved tab with
// it, sorted by duration, and types a kernel name into the filter one character at a time. Prints
// the milliseconds each keystroke's refilter takes through a plain QSortFilterProxyModel (what the
// tables used before) and through TableFilterProxy (what they use now). The panel refilters once
// the typing pauses (TablePanel::kFilterDelayMs) when a refilter is slow, so a burst costs one.
#include <QApplication>
#include <QSortFilterProxyModel>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

#include "panels/table_model.h"
#include "panels/table_panel.h"
#include "panels/unresolved_panel.h"
#include "state/viewer_state.h"
#include "synthetic_trace.h"
#include "widgets/table_filter_proxy.h"

using Clock = std::chrono::steady_clock;

namespace {

// Milliseconds per keystroke: the first one (which may build caches), then the median and the
// worst of the others.
void report(const char* what, const std::vector<double>& ms) {
    std::vector<double> rest(ms.begin() + 1, ms.end());
    std::sort(rest.begin(), rest.end());
    std::printf("%-36s first %8.1f   then median %8.1f   worst %8.1f\n", what, ms.front(),
                rest[rest.size() / 2], rest.back());
}

// Times setFilter(prefix) for each prefix of text, as typing it does, up to the proxy's new row
// count (a proxy may map its rows lazily).
std::vector<double> type(const QString& text, const QAbstractItemModel& proxy,
                         const std::function<void(const QString&)>& setFilter) {
    std::vector<double> ms;
    for (qsizetype n = 1; n <= text.size(); ++n) {
        const auto t0 = Clock::now();
        setFilter(text.left(n));
        std::printf("%s%d", n > 1 ? " " : "  rows:", proxy.rowCount());
        ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    std::printf("\n");
    setFilter({});
    return ms;
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    const uint64_t events = argc > 1 ? std::stoull(argv[1]) : 2'400'000;
    ViewerState state;
    UnresolvedPanel panel(&state);
    state.setDocument(syntheticDocument(events));
    TableModel* model = panel.model();
    std::printf("%d rows in the Unresolved tab\n", model->rowCount());
    const QString typed = QStringLiteral("triton_poi_fused_17");

    QSortFilterProxyModel plain;
    plain.setSourceModel(model);
    plain.setSortRole(TableModel::kSortRole);
    plain.setFilterCaseSensitivity(Qt::CaseInsensitive);
    plain.setFilterKeyColumn(-1);
    plain.sort(UnresolvedModel::Duration, Qt::DescendingOrder);
    report("QSortFilterProxyModel, ms/keystroke",
           type(typed, plain, [&](const QString& s) { plain.setFilterFixedString(s); }));

    TableFilterProxy cached;
    cached.setSourceModel(model);
    cached.setSortRole(TableModel::kSortRole);
    cached.sort(UnresolvedModel::Duration, Qt::DescendingOrder);
    report("TableFilterProxy, ms/keystroke",
           type(typed, cached, [&](const QString& s) { cached.setFilterText(s); }));
    std::printf(
        "the panel refilters at each keystroke while a refilter takes <= %d ms, else %d ms "
        "after the last keystroke\n",
        TablePanel::kInstantFilterMs, TablePanel::kFilterDelayMs);
    return 0;
}
