#include "panels/selection_panel.h"

#include <QBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>

#include "panels/hotspots_panel.h"
#include "widgets/time_text.h"

using namespace stackline;

SelectionModel::SelectionModel()
    : TableModel({tr("Name"), tr("Process"), tr("Count"), tr("Wall"), tr("Average"), tr("Self"),
                  tr("Share")}) {}

void SelectionModel::show(std::shared_ptr<const ViewedTrace> doc,
                          std::optional<RangeSelection> range) {
    range_ = std::move(range);
    setDocument(std::move(doc));
}

int SelectionModel::rebuild() {
    summary_.reset();
    if (!doc_ || !range_ || range_->range.isAll()) return 0;
    summary_ = std::make_shared<const RangeSummary>(summarizeRange(
        *doc_->trace, doc_->provenance, doc_->tracks, range_->range, range_->tracks));
    return int(summary_->slices.size());
}

QVariant SelectionModel::text(int row, int column) const {
    const SliceTotals& t = summary_->slices[size_t(row)];
    switch (column) {
        case Name:
            return QString::fromStdString(t.name);
        case Process:
            return QString::fromStdString(doc_->tracks.processes()[t.process].label());
        case Count:
            return qint64(t.count);
        case Wall:
            return formatDuration(t.wallNs);
        case Average:
            return formatDuration(t.averageNs());
        case Self:
            return formatDuration(t.selfNs);
        case Share:
            return QStringLiteral("%1%").arg(
                100.0 * double(t.wallNs) / double(summary_->range.length()), 0, 'f', 1);
    }
    return {};
}

QVariant SelectionModel::extra(int row, int column, int role) const {
    if (role != kSortRole) return {};
    const SliceTotals& t = summary_->slices[size_t(row)];
    switch (column) {
        case Wall:
        case Share:
            return qint64(t.wallNs);
        case Average:
            return qint64(t.averageNs());
        case Self:
            return qint64(t.selfNs);
        default:
            return {};
    }
}

SelectionPanel::SelectionPanel(ViewerState* state, QWidget* parent)
    : TablePanel(new SelectionModel, tr("Filter slices in the range"), parent), state_(state) {
    model_ = static_cast<SelectionModel*>(proxy()->sourceModel());
    streams_ = new QLabel;
    streams_->setWordWrap(true);
    streams_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    static_cast<QBoxLayout*>(layout())->insertWidget(0, streams_);
    view()->sortByColumn(SelectionModel::Wall, Qt::DescendingOrder);
    view()->horizontalHeader()->resizeSection(SelectionModel::Name, 220);
    view()->horizontalHeader()->resizeSection(SelectionModel::Process, 140);

    linesModel_ = new HotspotsModel;
    lines_ = new TablePanel(linesModel_, tr("Filter the range's Python lines…"));
    lines_->view()->sortByColumn(HotspotsModel::Self, Qt::DescendingOrder);
    lines_->view()->horizontalHeader()->resizeSection(HotspotsModel::Code, 300);
    connect(lines_, &TablePanel::rowActivated, this, [this](int row) {
        const SourceLine& l = linesModel_->line(row);
        state_->setHighlighted(l.rows);
        if (l.line > 0)
            state_->showSource(QString::fromStdString(l.file), l.line,
                               QString::fromStdString(l.code));
    });
    // Side by side: the panel is wide and short, and each table needs its rows.
    auto* split = new QSplitter(Qt::Horizontal);
    layout()->removeWidget(view());
    split->addWidget(view());
    split->addWidget(lines_);
    layout()->addWidget(split);
    // Another document shown: reloaded, or another one of the window made current.
    for (auto shown : {&ViewerState::documentsChanged, &ViewerState::currentChanged})
        connect(state_, shown, this, &SelectionPanel::refresh);
    connect(state_, &ViewerState::rangeChanged, this, &SelectionPanel::refresh);
    refresh();
}

void SelectionPanel::refresh() {
    model_->show(state_->current(), state_->selectedRange());
    const auto& summary = model_->summary();
    linesModel_->show(
        summary ? state_->current() : nullptr,
        summary ? std::shared_ptr<const Hotspots>(summary, &summary->hotspots) : nullptr);
    streams_->setText(streamsText());
}

QString SelectionPanel::streamsText() const {
    const auto& s = model_->summary();
    if (!s)
        return tr(
            "No range selected: drag on the ruler, Shift+drag over tracks, or double-click "
            "a ProfilerStep.");
    const ViewedTrace& doc = *state_->current();
    QStringList parts{tr("Range: %1, from %2 to %3 on the ruler")
                          .arg(formatDuration(s->range.length()),
                               formatDuration(s->range.start - doc.originNs),
                               formatDuration(s->range.end - doc.originNs))};
    const TrackIndex& tracks = doc.tracks;
    for (const StreamTotals& st : s->streams) {
        const Track& track = tracks.tracks()[st.track];
        parts << tr("%1 %2: busy %3, idle %4, compute overlapping NCCL/RCCL %5")
                     .arg(QString::fromStdString(tracks.processes()[track.process].label()),
                          QString::fromStdString(track.name), formatDuration(st.busyNs),
                          formatDuration(st.idleNs), formatDuration(st.commOverlapNs));
    }
    const Hotspots& h = s->hotspots;
    // The lines themselves are in the table on the right.
    parts << tr("GPU time by Python line (right): %1 charged to %2 lines, %3 unresolved")
                 .arg(formatDuration(int64_t(h.annotatedGpuUs * 1000)))
                 .arg(h.lines.size())
                 .arg(formatDuration(int64_t(h.unresolvedGpuUs * 1000)));
    return parts.join(QLatin1Char('\n'));
}
