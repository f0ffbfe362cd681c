#include "panels/job_heat_map_view.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>

#include "widgets/palette.h"
#include "widgets/time_text.h"

using namespace stackline;

namespace {

QString metricText(JobMetric metric) {
    const std::string_view name = nameOf(metric);
    return QString::fromUtf8(name.data(), qsizetype(name.size()));
}

constexpr int kGutter = 76;     // rank labels
constexpr int kHeader = 20;     // step numbers
constexpr int kLegend = 26;     // the colour scale
constexpr int kMaxBandPx = 22;  // a rank's row when they all fit

// A blue (low) to yellow to red (high) scale, t in [0, 1].
QColor scaleColor(double t) {
    static const QColor stops[] = {QColor(0x1f, 0x3b, 0x73), QColor(0x2a, 0x9d, 0x8f),
                                   QColor(0xf4, 0xd3, 0x5e), QColor(0xd6, 0x28, 0x28)};
    t = std::clamp(t, 0.0, 1.0) * 3;
    const int i = std::min(2, int(t));
    const double f = t - i;
    const QColor& a = stops[i];
    const QColor& b = stops[i + 1];
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * f),
                            float(a.greenF() + (b.greenF() - a.greenF()) * f),
                            float(a.blueF() + (b.blueF() - a.blueF()) * f));
}

}  // namespace

JobHeatMapView::JobHeatMapView(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void JobHeatMapView::setMap(std::shared_ptr<const JobHeatMap> map) {
    map_ = std::move(map);
    rows_ = map_ ? map_->rows(*RankFilter::parse("")) : std::vector<size_t>{};
    update();
}

void JobHeatMapView::setMetric(JobMetric metric) {
    metric_ = metric;
    update();
}

void JobHeatMapView::setRows(std::vector<size_t> rows) {
    rows_ = std::move(rows);
    update();
}

QSize JobHeatMapView::sizeHint() const {
    return {800, 600};
}

QSize JobHeatMapView::minimumSizeHint() const {
    return {kGutter + 120, kHeader + kLegend + 80};
}

QRect JobHeatMapView::cellArea() const {
    const QRect all = rect().adjusted(kGutter, kHeader, -4, -kLegend);
    if (rows_.empty()) return all;
    const int fitted = int(std::min<size_t>(rows_.size() * kMaxBandPx, size_t(all.height())));
    return QRect(all.left(), all.top(), all.width(), std::max(1, fitted));
}

size_t JobHeatMapView::bandCount() const {
    return std::min(rows_.size(), size_t(std::max(1, cellArea().height())));
}

std::pair<size_t, size_t> JobHeatMapView::bandRows(size_t band) const {
    const size_t bands = bandCount(), n = rows_.size();
    return {band * n / bands, (band + 1) * n / bands};
}

int JobHeatMapView::bandTop(size_t band) const {
    const QRect area = cellArea();
    return area.top() + int(band * size_t(area.height()) / bandCount());
}

std::optional<JobHeatMapView::Cell> JobHeatMapView::cellAt(QPoint pos) const {
    const QRect area = cellArea();
    if (!map_ || rows_.empty() || map_->stepCount() == 0 || !area.contains(pos)) return {};
    const size_t step = size_t(pos.x() - area.left()) * map_->stepCount() / size_t(area.width());
    const size_t band = size_t(pos.y() - area.top()) * bandCount() / size_t(area.height());
    const auto [first, end] = bandRows(std::min(band, bandCount() - 1));
    return Cell{first, end, std::min(step, map_->stepCount() - 1)};
}

QRect JobHeatMapView::cellRect(size_t row, size_t step) const {
    if (!map_ || row >= rows_.size() || step >= map_->stepCount()) return {};
    const QRect area = cellArea();
    size_t band = row * bandCount() / rows_.size();
    while (band + 1 < bandCount() && bandRows(band + 1).first <= row) ++band;
    const int steps = int(map_->stepCount());
    const int left = area.left() + int(step) * area.width() / steps;
    const int right = area.left() + int(step + 1) * area.width() / steps;
    return QRect(QPoint(left, bandTop(band)), QPoint(right - 1, bandTop(band + 1) - 1));
}

QString JobHeatMapView::toolTipAt(QPoint pos) const {
    const auto cell = cellAt(pos);
    if (!cell) return {};
    const JobStep& step = map_->job().steps[cell->step];
    const QString metric = metricText(metric_);
    const CellAggregate a =
        map_->aggregate(metric_, rows_, cell->firstRow, cell->endRow, cell->step);
    const QString median = formatDuration(map_->median(metric_, cell->step));
    const auto label = [&](size_t rank) {
        return QString::fromStdString(map_->job().ranks[rank].label);
    };
    const QString straggler =
        step.straggler >= 0 ? tr("\nStraggler of the step: %1").arg(label(size_t(step.straggler)))
                            : QString();
    if (cell->endRow - cell->firstRow == 1) {
        const size_t rank = rows_[cell->firstRow];
        if (a.cells == 0)
            return tr("%1, step %2: no such step in its trace").arg(label(rank)).arg(step.step);
        return tr("%1, step %2: %3 %4 (median %5)%6\nClick to open its trace at this step")
            .arg(label(rank))
            .arg(step.step)
            .arg(metric, formatDuration(a.max), median, straggler);
    }
    const QString ranks = tr("ranks %1-%2")
                              .arg(map_->rankNumber(rows_[cell->firstRow]))
                              .arg(map_->rankNumber(rows_[cell->endRow - 1]));
    if (a.cells == 0) return tr("%1, step %2: none has the step").arg(ranks).arg(step.step);
    return tr("%1, step %2: %3 max %4 (%5), mean %6 over %7 ranks (median of the job %8)%9\n"
              "Click to open the trace of %5 at this step")
        .arg(ranks)
        .arg(step.step)
        .arg(metric, formatDuration(a.max), label(a.maxRank), formatDuration(a.mean))
        .arg(a.cells)
        .arg(median, straggler);
}

bool JobHeatMapView::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(e);
}

void JobHeatMapView::mousePressEvent(QMouseEvent* e) {
    const auto cell = cellAt(e->pos());
    if (e->button() != Qt::LeftButton || !cell) return QWidget::mousePressEvent(e);
    const CellAggregate a =
        map_->aggregate(metric_, rows_, cell->firstRow, cell->endRow, cell->step);
    emit cellClicked(a.cells ? a.maxRank : rows_[cell->firstRow], cell->step);
}

void JobHeatMapView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().window());
    p.setPen(uiColor(UiColor::Text));
    if (!map_ || rows_.empty() || map_->stepCount() == 0) {
        p.drawText(rect(), Qt::AlignCenter,
                   !map_ || map_->stepCount() ? tr("No rank matches the filter.")
                                              : tr("No ProfilerStep#N in these ranks."));
        return;
    }
    const QRect area = cellArea();
    const size_t bands = bandCount(), steps = map_->stepCount();
    const int64_t low = map_->minValue(metric_), high = map_->maxValue(metric_);
    const QColor missing = uiColor(UiColor::RowOdd);
    for (size_t s = 0; s < steps; ++s) {
        const int left = area.left() + int(s) * area.width() / int(steps);
        const int right = area.left() + int(s + 1) * area.width() / int(steps);
        for (size_t b = 0; b < bands; ++b) {
            const auto [first, end] = bandRows(b);
            const CellAggregate a = map_->aggregate(metric_, rows_, first, end, s);
            const QRect r(QPoint(left, bandTop(b)), QPoint(right - 1, bandTop(b + 1) - 1));
            if (a.cells) {
                p.fillRect(r, scaleColor(double(a.max - low) / double(high - low)));
            } else {
                p.fillRect(r, missing);
                p.fillRect(r, QBrush(uiColor(UiColor::Line), Qt::BDiagPattern));
            }
        }
    }
    // Column and (when a rank has its own row) row separators.
    p.setPen(palette().color(QPalette::Window));
    for (size_t s = 1; s < steps; ++s) {
        const int x = area.left() + int(s) * area.width() / int(steps);
        p.drawLine(x, area.top(), x, area.bottom());
    }
    const int bandPx = area.height() / int(bands);
    if (bandPx >= 6)
        for (size_t b = 1; b < bands; ++b)
            p.drawLine(area.left(), bandTop(b), area.right(), bandTop(b));

    // Step numbers, as many as fit.
    p.setPen(uiColor(UiColor::Text));
    const QFontMetrics fm = fontMetrics();
    const int stepPx = std::max(1, area.width() / int(steps));
    const size_t stepEvery =
        size_t(std::max(1, (fm.horizontalAdvance(QStringLiteral("00000")) + stepPx - 1) / stepPx));
    for (size_t s = 0; s < steps; s += stepEvery) {
        const int left = area.left() + int(s) * area.width() / int(steps);
        p.drawText(QRect(left, 0, stepPx * int(stepEvery), kHeader), Qt::AlignCenter,
                   QString::number(map_->job().steps[s].step));
    }
    // Rank labels: every band's when they fit, else one every few lines of text.
    const int linePx = fm.height();
    int lastBottom = -1;
    for (size_t b = 0; b < bands; ++b) {
        const int top = bandTop(b);
        if (top < lastBottom) continue;
        const QString text = QString::number(map_->rankNumber(rows_[bandRows(b).first]));
        const int h = std::max(bandPx, linePx);
        p.drawText(QRect(0, top, kGutter - 6, h), Qt::AlignRight | Qt::AlignVCenter, text);
        lastBottom = top + h + (bandPx >= linePx ? 0 : linePx);
    }
    p.drawText(QRect(0, 0, kGutter - 6, kHeader), Qt::AlignRight | Qt::AlignVCenter,
               tr("rank \\ step"));

    // The scale: from the smallest cell of the metric to the largest.
    const QRect legend(area.left(), area.bottom() + 8, std::min(150, area.width() / 3), 12);
    for (int x = 0; x < legend.width(); ++x)
        p.fillRect(QRect(legend.left() + x, legend.top(), 1, legend.height()),
                   scaleColor(double(x) / std::max(1, legend.width() - 1)));
    const QString name = metricText(metric_);
    p.drawText(
        QRect(legend.right() + 8, legend.top() - 4, width() - legend.right() - 12, 20),
        Qt::AlignLeft | Qt::AlignVCenter,
        tr("%1: %2 to %3%4")
            .arg(name, formatDuration(low), formatDuration(high),
                 (bands < rows_.size() ? tr("; %1 ranks a pixel row (their max)")
                                             .arg(double(rows_.size()) / double(bands), 0, 'f', 1)
                                       : QString()) +
                     tr("; hatched: no step")));
}
