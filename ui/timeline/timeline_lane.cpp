#include "timeline/timeline_lane.h"

#include <QFileInfo>
#include <QPainter>
#include <algorithm>
#include <cmath>

#include "widgets/kernel_name_text.h"
#include "widgets/palette.h"
#include "widgets/time_text.h"

using G = TimelineGeometry;

namespace {

constexpr int kHitTolerancePx = 3;
constexpr uint32_t kNoEvent = TrackModel::kNoEvent;

}  // namespace

TimelineLane::TimelineLane(std::shared_ptr<const ViewedTrace> document, bool compact)
    : doc(std::move(document)) {
    const QFileInfo file(doc->tracePath());
    layoutFolder = file.exists() ? file.absolutePath() : QString();
    model = std::make_unique<TrackModel>(
        doc, layoutFolder.isEmpty() ? TrackLayout{} : TrackLayout::load(layoutFolder));
    painter = std::make_unique<TimelinePainter>(*model);
    if (compact && model->trackLayout() == TrackLayout{}) {
        const auto& processes = doc->tracks.processes();
        for (uint32_t p = 0; p < processes.size(); ++p)
            if (!processes[p].gpu) model->setCollapsed(p, true);
    }
}

void TimelineLane::layout(int laneTop, int header) {
    top = laneTop;
    geom.layoutRows(*model);
    for (int& y : geom.rowTop) y += top + header;
    bottom = top + header + geom.contentHeight;
}

uint32_t TimelineLane::eventAt(QPoint pos) const {
    if (pos.x() < geom.left) return kNoEvent;
    const int r = geom.rowAt(*model, pos.y());
    if (r < 0) return kNoEvent;
    const TrackModel::Row& row = model->rows()[size_t(r)];
    const int64_t t = geom.timeAt(pos.x() + 0.5);
    const int64_t tol = int64_t(std::ceil(geom.nsPerPixel() * kHitTolerancePx));
    // The nearest of two candidates within the tolerance: what ends (or is) before t and what
    // starts after it.
    auto nearest = [&](int64_t before, uint32_t rowBefore, int64_t after, uint32_t rowAfter) {
        const int64_t db = rowBefore == kNoEvent ? INT64_MAX : t - before;
        const int64_t da = rowAfter == kNoEvent ? INT64_MAX : after - t;
        if (std::min(db, da) > tol) return kNoEvent;
        return db <= da ? rowBefore : rowAfter;
    };
    if (row.kind == TrackModel::RowKind::Instants) {
        const auto& ts = model->instantTimes(row);
        const size_t i = size_t(std::lower_bound(ts.begin(), ts.end(), t) - ts.begin());
        return nearest(i > 0 ? ts[i - 1] : 0, i > 0 ? model->instantEvent(row, i - 1) : kNoEvent,
                       i < ts.size() ? ts[i] : 0,
                       i < ts.size() ? model->instantEvent(row, i) : kNoEvent);
    }
    if (row.kind == TrackModel::RowKind::Folded)
        return model->deepestAt(row.track, row.level, t, tol);
    if (row.kind != TrackModel::RowKind::Slices) return kNoEvent;
    const auto& lv = model->level(row);
    // Unresolved kernels are painted wider than they are; what is painted is what is hit.
    const TrackModel::Highlights& hl = model->highlights(row);
    for (size_t h = hl.firstEndingAtOrAfter(t - 2 * tol);
         h < hl.index.size() && hl.start[h] <= t + 2 * tol; ++h) {
        auto [a, b] = geom.columns(hl.start[h], hl.end[h], G::kUnresolvedMinWidth);
        if (pos.x() >= a && pos.x() < b) return lv.row[hl.index[h]];
    }
    // Slices on one level do not overlap: the one containing t, else the nearest neighbour.
    const size_t i = lv.firstEndingAtOrAfter(t);
    if (i < lv.size() && lv.start[i] <= t) return lv.row[i];
    return nearest(i > 0 ? lv.end[i - 1] : 0, i > 0 ? lv.row[i - 1] : kNoEvent,
                   i < lv.size() ? lv.start[i] : 0, i < lv.size() ? lv.row[i] : kNoEvent);
}

QRect TimelineLane::eventRect(uint32_t row) const {
    if (row == kNoEvent) return {};
    const int r = model->rowOf(row);
    if (r < 0) return {};
    const int y = geom.rowY(r);
    const int64_t ts = model->startOf(row);
    if (model->isInstant(row)) {
        const int x = int(std::floor(geom.xOf(ts)));
        return QRect(x - 1, y + 2, 3, G::kInstantHeight - 4);
    }
    const int minWidth =
        model->styleOf(row) == SliceStyle::KernelUnresolved ? G::kUnresolvedMinWidth : 1;
    auto [a, b] = geom.columns(ts, model->endOf(row), minWidth);
    return QRect(a, y + 1, b - a, G::kSliceHeight - 2);
}

QString TimelineLane::toolTip(QPoint pos, bool named) const {
    const TrackModel& m = *model;
    const int r = geom.rowAt(m, pos.y());
    if (r >= 0 && m.rows()[size_t(r)].kind == TrackModel::RowKind::Counter && pos.x() >= geom.left)
        return m.counterTip(m.rows()[size_t(r)], geom.timeAt(pos.x() + 0.5));
    const uint32_t row = eventAt(pos);
    if (row == kNoEvent) return {};
    // A name can be thousands of characters: its middle gives way.
    QString text =
        elideMiddle(m.name(row), 160).toHtmlEscaped() + QStringLiteral("<br>") + m.category(row);
    if (!m.isInstant(row)) text += QStringLiteral(" · ") + formatDuration(m.durationOf(row));
    const QString status = m.kernelStatus(row);
    if (!status.isEmpty()) text += QStringLiteral(" · ") + status;
    const QString frame = m.launchedAt(row);
    if (!frame.isEmpty()) text += QStringLiteral("<br>") + frame.toHtmlEscaped();
    if (named) text += QStringLiteral("<br>") + doc->label().toHtmlEscaped();
    return text;
}

void TimelineLane::paintHeader(QPainter& p, const QRect& r, bool current) const {
    p.fillRect(r, uiColor(current ? UiColor::TraceHeaderCurrent : UiColor::TraceHeader));
    QFont bold = p.font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(uiColor(UiColor::Text));
    const QString name = QFileInfo(doc->tracePath()).fileName();
    // A label that names the file already ("base: run.json") is not followed by it again.
    const QString text = doc->label().contains(name)
                             ? doc->label()
                             : QStringLiteral("%1   %2").arg(doc->label(), name);
    p.drawText(r.adjusted(8, 0, -8, 0), Qt::AlignVCenter | Qt::AlignLeft,
               p.fontMetrics().elidedText(text, Qt::ElideMiddle, r.width() - 16));
}
