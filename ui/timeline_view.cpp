#include "timeline_view.h"

#include <QContextMenuEvent>
#include <QFileInfo>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <utility>

#include "format.h"
#include "kernel_name_text.h"
#include "marker_ruler.h"
#include "palette.h"
#include "track_menu.h"
#include "viewer_state.h"
#include "zoom_control.h"

using G = TimelineGeometry;

namespace {

constexpr double kZoomStep = 0.7;
constexpr double kPanStep = 0.15;
constexpr int kHitTolerancePx = 3;
constexpr int kDragThresholdPx = 4;
constexpr uint32_t kNoEvent = TrackModel::kNoEvent;

}  // namespace

TimelineView::TimelineView(ViewerState* state, QWidget* parent)
    : QAbstractScrollArea(parent), state_(state), zoom_(state->zoom()) {
    viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
    setFocusPolicy(Qt::StrongFocus);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    verticalScrollBar()->setSingleStep(G::kSliceHeight);
    connect(zoom_, &ZoomControl::windowChanged, this, [this] {
        updateGeometryFromZoom();
        cacheValid_ = false;
        viewport()->update();
    });
    connect(state_, &ViewerState::documentsChanged, this, &TimelineView::setDocument);
    connect(state_, &ViewerState::selectionChanged, viewport(), qOverload<>(&QWidget::update));
    connect(state_, &ViewerState::highlightChanged, viewport(), qOverload<>(&QWidget::update));
    connect(state_, &ViewerState::rangeChanged, viewport(), qOverload<>(&QWidget::update));
    connect(state_, &ViewerState::markersChanged, viewport(), qOverload<>(&QWidget::update));
    connect(state_, &ViewerState::revealRequested, this, [this] { revealEvent(selected()); });
    setDocument();
}

ZoomControl* TimelineView::zoom() const {
    return zoom_;
}

void TimelineView::setDocument() {
    const auto doc = state_->current();
    painter_.reset();
    allFlows_.reset();
    const QFileInfo file(doc ? doc->tracePath() : QString());
    layoutFolder_ = file.exists() ? file.absolutePath() : QString();
    model_ =
        doc ? std::make_unique<TrackModel>(
                  doc, layoutFolder_.isEmpty() ? TrackLayout{} : TrackLayout::load(layoutFolder_))
            : nullptr;
    painter_ = model_ ? std::make_unique<TimelinePainter>(*model_) : nullptr;
    range_.reset();
    verticalScrollBar()->setValue(0);
    relayout();
}

uint32_t TimelineView::selected() const {
    return model_ ? state_->selectedRow(model_->document()) : kNoEvent;
}

void TimelineView::setPlaceholder(const QString& text) {
    placeholder_ = text;
    viewport()->update();
}

void TimelineView::relayout() {
    if (model_)
        geom_.layoutRows(*model_);
    else
        geom_ = TimelineGeometry{};
    const int page = std::max(0, viewport()->height() - G::kRulerHeight);
    verticalScrollBar()->setPageStep(page);
    verticalScrollBar()->setRange(0, std::max(0, geom_.contentHeight - page));
    geom_.scrollY = verticalScrollBar()->value();
    updateGeometryFromZoom();
    cacheValid_ = false;
    viewport()->update();
}

void TimelineView::layoutChanged() {
    relayout();
    if (model_ && !layoutFolder_.isEmpty()) model_->trackLayout().save(layoutFolder_);
}

void TimelineView::updateGeometryFromZoom() {
    geom_.t0 = zoom_->windowStart();
    geom_.t1 = zoom_->windowEnd();
    geom_.left = G::kGutterWidth;
    geom_.right = std::max(geom_.left + 1, viewport()->width());
}

void TimelineView::resizeEvent(QResizeEvent* e) {
    QAbstractScrollArea::resizeEvent(e);
    relayout();
}

void TimelineView::scrollContentsBy(int, int) {
    geom_.scrollY = verticalScrollBar()->value();
    cacheValid_ = false;
    viewport()->update();
}

void TimelineView::renderTracks(QPainter& p, QSize size) {
    if (!painter_) return;
    TimelineGeometry g = geom_;
    g.right = std::max(g.left + 1, size.width());
    painter_->paintTracks(p, g, size.width(), size.height());
}

void TimelineView::paintEvent(QPaintEvent*) {
    QPainter p(viewport());
    if (!model_) {
        p.fillRect(viewport()->rect(), palette().window());
        p.setPen(palette().text().color());
        p.drawText(viewport()->rect(), Qt::AlignCenter, placeholder_);
        return;
    }
    const qreal dpr = viewport()->devicePixelRatioF();
    const QSize size = viewport()->size();
    if (!cacheValid_ || cache_.size() != size * dpr) {
        cache_ = QImage(size * dpr, QImage::Format_RGB32);
        cache_.setDevicePixelRatio(dpr);
        QPainter cp(&cache_);
        painter_->paintTracks(cp, geom_, size.width(), size.height());
        cacheValid_ = true;
    }
    p.drawImage(0, 0, cache_);
    paintOverlay(p);
    painter_->paintRuler(p, geom_, size.width(), zoom_->traceStart());
    paintMarkers(p, geom_, state_->markers(), size.height());
    paintDrags(p);
}

void TimelineView::paintDrags(QPainter& p) {
    const auto range = shownRange();
    if (!range && drag_ != Drag::Header) return;
    if (drag_ == Drag::Header && dropRow_ >= 0 && dropRow_ != dragRow_) {
        // Where the dragged header lands: above the row it is dropped on when moving up, below
        // when moving down.
        const int y =
            geom_.rowY(dropRow_) +
            (dropRow_ > dragRow_ ? G::rowHeight(model_->rows()[size_t(dropRow_)].kind) - 1 : 0);
        p.fillRect(QRect(0, y - 1, viewport()->width(), 3), selectionColor());
    }
    if (!range) return;
    // The range's length, in the ruler.
    const int a = int(geom_.xOf(range->start)), b = int(geom_.xOf(range->end));
    const QRect band(std::max(a, geom_.left), 0, std::max(1, b - std::max(a, geom_.left)),
                     G::kRulerHeight);
    p.fillRect(band, uiColor(UiColor::RangeBand));
    // On a plate of its own just below the ruler, so that it neither covers the ruler's tick
    // labels nor is garbled by them.
    const QString text = formatDuration(range->length());
    QRect plate = p.fontMetrics().boundingRect(text).adjusted(-4, -1, 4, 1);
    plate.moveCenter(QPoint(band.center().x(), 0));
    plate.moveTop(G::kRulerHeight + 2);
    p.fillRect(plate, uiColor(UiColor::RangePlate));
    p.setPen(uiColor(UiColor::RangeText));
    p.drawRect(plate.adjusted(0, 0, -1, -1));
    p.drawText(plate, Qt::AlignCenter, text);
}

void TimelineView::paintOverlay(QPainter& p) {
    p.save();
    p.setClipRect(QRect(geom_.left, G::kRulerHeight, geom_.right - geom_.left,
                        viewport()->height() - G::kRulerHeight));
    if (const auto range = shownRange()) {
        const int a = int(geom_.xOf(range->start)), b = int(geom_.xOf(range->end));
        const auto& selection = state_->selectedRange();
        if (range_ || !selection || selection->tracks.empty()) {
            p.fillRect(QRect(a, G::kRulerHeight, std::max(1, b - a), viewport()->height()),
                       uiColor(UiColor::RangeShade));
        } else {
            // Only the rows of the tracks the range covers.
            const auto& rows = model_->rows();
            for (size_t r = 0; r < rows.size(); ++r) {
                if (std::find(selection->tracks.begin(), selection->tracks.end(), rows[r].track) ==
                    selection->tracks.end())
                    continue;
                p.fillRect(
                    QRect(a, geom_.rowY(int(r)), std::max(1, b - a), G::rowHeight(rows[r].kind)),
                    uiColor(UiColor::RangeShade));
            }
        }
    }
    // The highlight names rows of the current document, which this view shows.
    if (!state_->highlighted().empty()) {
        p.setBrush(uiColor(UiColor::HighlightFill));
        p.setPen(QPen(uiColor(UiColor::HighlightOutline), 2));
        for (uint32_t row : state_->highlighted()) {
            QRect r = eventRect(row);
            if (r.isEmpty()) continue;
            if (r.width() < 3) r.adjust(-1, 0, 1, 0);  // thin kernels stay visible
            p.drawRect(r.adjusted(-1, -1, 0, 0));
        }
    }
    if (showAllFlows_) {
        const Document* doc = model_->document();
        if (!allFlows_) allFlows_ = std::make_unique<FlowOverlay>(doc->events(), doc->flows);
        allFlows_->paint(p, geom_.t0, geom_.t1, [this](uint32_t row) { return eventRect(row); });
    }
    const uint32_t selected = this->selected();
    if (selected != kNoEvent) {
        // The compiled region around the launch: dashed, so it reads as context, not selection.
        const uint32_t region = model_->compiledRegionOf(selected);
        if (region != kNoEvent && region != selected) {
            const QRect r = eventRect(region);
            if (!r.isEmpty()) {
                p.setBrush(Qt::NoBrush);
                p.setPen(QPen(sliceColor(SliceStyle::CompiledRegion).darker(170), 2, Qt::DashLine));
                p.drawRect(r.adjusted(0, 0, -1, -1));
            }
        }
        paintFlows(p, selected);
        const QRect r = eventRect(selected);
        if (!r.isEmpty()) {
            p.setBrush(Qt::NoBrush);
            p.setPen(QPen(uiColor(UiColor::SelectionHalo), 1));
            p.drawRect(r.adjusted(-1, -1, 0, 0));
            p.setPen(QPen(selectionColor(), 2));
            p.drawRect(r.adjusted(-2, -2, 1, 1));
        }
    }
    p.restore();
}

void TimelineView::paintFlows(QPainter& p, uint32_t event) {
    p.setRenderHint(QPainter::Antialiasing, true);
    for (const TrackModel::Flow& flow : model_->flowsOf(event)) {
        const QRect from = eventRect(flow.from), to = eventRect(flow.to);
        if (!from.isEmpty() && !to.isEmpty())
            FlowOverlay::paintArrow(p, from, to, flow.launch, true);
    }
    p.setRenderHint(QPainter::Antialiasing, false);
}

void TimelineView::setShowAllFlows(bool on) {
    showAllFlows_ = on;
    viewport()->update();
}

void TimelineView::dropMarker() {
    if (!model_) return;
    const uint32_t selected = this->selected();
    state_->addMarker(selected != kNoEvent ? model_->startOf(selected) : anchorTime());
}

uint32_t TimelineView::eventAt(QPoint pos) const {
    if (!model_ || pos.x() < geom_.left) return kNoEvent;
    const int r = geom_.rowAt(*model_, pos.y());
    if (r < 0) return kNoEvent;
    const TrackModel::Row& row = model_->rows()[size_t(r)];
    const int64_t t = geom_.timeAt(pos.x() + 0.5);
    const int64_t tol = int64_t(std::ceil(geom_.nsPerPixel() * kHitTolerancePx));
    // The nearest of two candidates within the tolerance: what ends (or is) before t and what
    // starts after it.
    auto nearest = [&](int64_t before, uint32_t rowBefore, int64_t after, uint32_t rowAfter) {
        const int64_t db = rowBefore == kNoEvent ? INT64_MAX : t - before;
        const int64_t da = rowAfter == kNoEvent ? INT64_MAX : after - t;
        if (std::min(db, da) > tol) return kNoEvent;
        return db <= da ? rowBefore : rowAfter;
    };
    if (row.kind == TrackModel::RowKind::Instants) {
        const auto& ts = model_->instantTimes(row);
        const size_t i = size_t(std::lower_bound(ts.begin(), ts.end(), t) - ts.begin());
        return nearest(i > 0 ? ts[i - 1] : 0, i > 0 ? model_->instantEvent(row, i - 1) : kNoEvent,
                       i < ts.size() ? ts[i] : 0,
                       i < ts.size() ? model_->instantEvent(row, i) : kNoEvent);
    }
    if (row.kind == TrackModel::RowKind::Folded)
        return model_->deepestAt(row.track, row.level, t, tol);
    if (row.kind != TrackModel::RowKind::Slices) return kNoEvent;
    const auto& lv = model_->level(row);
    // Unresolved kernels are painted wider than they are; what is painted is what is hit.
    const TrackModel::Highlights& hl = model_->highlights(row);
    for (size_t h = hl.firstEndingAtOrAfter(t - 2 * tol);
         h < hl.index.size() && hl.start[h] <= t + 2 * tol; ++h) {
        auto [a, b] = geom_.columns(hl.start[h], hl.end[h], G::kUnresolvedMinWidth);
        if (pos.x() >= a && pos.x() < b) return lv.row[hl.index[h]];
    }
    // Slices on one level do not overlap: the one containing t, else the nearest neighbour.
    const size_t i = lv.firstEndingAtOrAfter(t);
    if (i < lv.size() && lv.start[i] <= t) return lv.row[i];
    return nearest(i > 0 ? lv.end[i - 1] : 0, i > 0 ? lv.row[i - 1] : kNoEvent,
                   i < lv.size() ? lv.start[i] : 0, i < lv.size() ? lv.row[i] : kNoEvent);
}

QRect TimelineView::eventRect(uint32_t row) const {
    if (!model_ || row == kNoEvent) return {};
    const int r = model_->rowOf(row);
    if (r < 0) return {};
    const int y = geom_.rowY(r);
    const int64_t ts = model_->startOf(row);
    if (model_->isInstant(row)) {
        const int x = int(std::floor(geom_.xOf(ts)));
        return QRect(x - 1, y + 2, 3, G::kInstantHeight - 4);
    }
    const int minWidth =
        model_->styleOf(row) == SliceStyle::KernelUnresolved ? G::kUnresolvedMinWidth : 1;
    auto [a, b] = geom_.columns(ts, model_->endOf(row), minWidth);
    return QRect(a, y + 1, b - a, G::kSliceHeight - 2);
}

void TimelineView::revealEvent(uint32_t row) {
    if (!model_ || row == kNoEvent) return;
    if (model_->processOf(row) < 0) return;
    // Navigation, not arrangement: not remembered (until the user arranges something).
    if (model_->showEvent(row)) relayout();
    const int64_t s = model_->startOf(row), e = model_->endOf(row);
    if (e - s > zoom_->windowDuration()) {
        const int64_t pad = (e - s) / 10 + 1;
        zoom_->setWindow(s - pad, e + pad);
    } else if (s < zoom_->windowStart() || e > zoom_->windowEnd()) {
        zoom_->centreOn(s + (e - s) / 2);
    }
    const int r = model_->rowOf(row);
    const int top = geom_.rowTop[size_t(r)];
    const int page = viewport()->height() - G::kRulerHeight;
    if (top < geom_.scrollY || top + G::kSliceHeight > geom_.scrollY + page)
        verticalScrollBar()->setValue(top - page / 2);
}

int64_t TimelineView::anchorTime() const {
    const QPoint pos = viewport()->mapFromGlobal(QCursor::pos());
    if (viewport()->rect().contains(pos) && pos.x() >= geom_.left) return geom_.timeAt(pos.x());
    return zoom_->windowStart() + zoom_->windowDuration() / 2;
}

void TimelineView::zoomAround(double factor) {
    zoom_->zoomAt(anchorTime(), factor);
}
void TimelineView::zoomIn() {
    zoomAround(kZoomStep);
}
void TimelineView::zoomOut() {
    zoomAround(1 / kZoomStep);
}
void TimelineView::panLeft() {
    zoom_->panBy(-int64_t(double(zoom_->windowDuration()) * kPanStep));
}
void TimelineView::panRight() {
    zoom_->panBy(int64_t(double(zoom_->windowDuration()) * kPanStep));
}
void TimelineView::resetZoom() {
    zoom_->reset();
}

void TimelineView::zoomToSelection() {
    if (const auto& range = state_->selectedRange()) {
        zoom_->setWindow(range->range.start, range->range.end);
        return;
    }
    const uint32_t selected = this->selected();
    if (selected == kNoEvent) return;
    const int64_t s = model_->startOf(selected);
    const int64_t d = std::max<int64_t>(model_->durationOf(selected), 100);
    zoom_->setWindow(s - d / 10, s + d + d / 10);
    revealEvent(selected);
}

void TimelineView::mousePressEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton) return;
    pressPos_ = e->position().toPoint();
    pressWindowStart_ = zoom_->windowStart();
    pressScroll_ = verticalScrollBar()->value();
    const bool rangeDrag = (e->modifiers() & Qt::ShiftModifier) || pressPos_.y() < G::kRulerHeight;
    drag_ = rangeDrag && pressPos_.x() >= geom_.left ? Drag::Range : Drag::Pending;
    rangeAnchor_ = geom_.timeAt(pressPos_.x());
    dragRow_ = model_ && pressPos_.x() < geom_.left ? geom_.rowAt(*model_, pressPos_.y()) : -1;
    if (dragRow_ >= 0) drag_ = Drag::PendingHeader;
}

void TimelineView::mouseMoveEvent(QMouseEvent* e) {
    const QPoint pos = e->position().toPoint();
    const bool moved = (pos - pressPos_).manhattanLength() >= kDragThresholdPx;
    if (drag_ == Drag::Pending && moved) {
        drag_ = Drag::Pan;
        viewport()->setCursor(Qt::ClosedHandCursor);
    }
    if (drag_ == Drag::PendingHeader && moved) {
        drag_ = Drag::Header;
        viewport()->setCursor(Qt::DragMoveCursor);
    }
    if (drag_ == Drag::Header) {
        dropRow_ = geom_.rowAt(*model_, pos.y());
        viewport()->update();
    } else if (drag_ == Drag::Pan) {
        const int64_t dt = int64_t(double(pos.x() - pressPos_.x()) * geom_.nsPerPixel());
        zoom_->setWindow(pressWindowStart_ - dt, pressWindowStart_ - dt + zoom_->windowDuration());
        verticalScrollBar()->setValue(pressScroll_ - (pos.y() - pressPos_.y()));
    } else if (drag_ == Drag::Range) {
        const int64_t t = geom_.timeAt(std::max(pos.x(), geom_.left));
        range_ = stackline::TimeRange{std::min(t, rangeAnchor_), std::max(t, rangeAnchor_)};
        viewport()->update();
    }
}

void TimelineView::mouseReleaseEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton) return;
    const Drag drag = drag_;
    drag_ = Drag::None;
    viewport()->unsetCursor();
    if (drag == Drag::Range) {
        commitRange(e->position().toPoint());
        return;
    }
    if (!model_) return;
    if (drag == Drag::Header) {
        const int target = geom_.rowAt(*model_, e->position().toPoint().y());
        dropRow_ = -1;
        if (target >= 0 && model_->dropRow(size_t(dragRow_), size_t(target))) layoutChanged();
        viewport()->update();
        return;
    }
    if (drag == Drag::Pending || drag == Drag::PendingHeader) click(e->position().toPoint());
}

std::optional<stackline::TimeRange> TimelineView::shownRange() const {
    if (range_) return range_;
    if (const auto& selection = state_->selectedRange()) return selection->range;
    return std::nullopt;
}

void TimelineView::commitRange(QPoint releasePos) {
    std::optional<stackline::TimeRange> range = std::exchange(range_, std::nullopt);
    if (!range || geom_.xOf(range->end) - geom_.xOf(range->start) < 2) {
        viewport()->update();
        return;
    }
    RangeSelection selection{*range, {}};
    // Shift+drag over tracks covers the tracks between the press and the release; a drag on the
    // ruler covers them all.
    if (pressPos_.y() >= G::kRulerHeight && model_) {
        const auto& rows = model_->rows();
        int a = geom_.rowAt(*model_, std::min(pressPos_.y(), releasePos.y()));
        int b = geom_.rowAt(*model_, std::max(pressPos_.y(), releasePos.y()));
        if (a < 0) a = 0;
        if (b < 0) b = int(rows.size()) - 1;
        for (int r = a; r <= b; ++r) {
            const uint32_t track = rows[size_t(r)].track;
            if (track != stackline::kNoTrack &&
                std::find(selection.tracks.begin(), selection.tracks.end(), track) ==
                    selection.tracks.end())
                selection.tracks.push_back(track);
        }
    }
    state_->setSelectedRange(std::move(selection));
    viewport()->update();
}

void TimelineView::click(QPoint pos) {
    const int r = geom_.rowAt(*model_, pos.y());
    const TrackModel::Row* row = r >= 0 ? &model_->rows()[size_t(r)] : nullptr;
    if (row && row->kind == TrackModel::RowKind::ProcessHeader) {
        model_->setCollapsed(row->process, !model_->isCollapsed(row->process));
        layoutChanged();
        return;
    }
    if (row && row->kind == TrackModel::RowKind::Folded && pos.x() < geom_.left) {
        model_->setDepth(row->track, TrackLayout::kAllLevels);
        layoutChanged();
        return;
    }
    state_->setSelectedRange(std::nullopt);
    state_->select(eventAt(pos));
}

QMenu* TimelineView::headerMenu(QPoint pos) {
    if (!model_) return nullptr;
    const int r = geom_.rowAt(*model_, pos.y());
    if (r < 0) return nullptr;
    const bool header = model_->rows()[size_t(r)].isHeader();
    if (!header && pos.x() >= geom_.left) return nullptr;
    auto* menu = new QMenu(this);
    addHeaderActions(
        *menu, *model_, size_t(r), [this] { layoutChanged(); }, this);
    return menu;
}

void TimelineView::contextMenuEvent(QContextMenuEvent* e) {
    std::unique_ptr<QMenu> menu(headerMenu(e->pos()));
    if (menu) menu->exec(e->globalPos());
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* e) {
    const uint32_t row = eventAt(e->position().toPoint());
    if (row == kNoEvent) return;
    // A training step is a range to summarise rather than a slice to look at.
    if (model_->name(row).startsWith(QLatin1String("ProfilerStep#"))) {
        state_->setSelectedRange(RangeSelection{{model_->startOf(row), model_->endOf(row)}, {}});
        return;
    }
    state_->select(row);
    zoomToSelection();
}

void TimelineView::wheelEvent(QWheelEvent* e) {
    const QPoint delta = e->angleDelta();
    if (e->modifiers() & Qt::ControlModifier) {
        const int64_t anchor = geom_.timeAt(std::max<qreal>(e->position().x(), geom_.left));
        zoom_->zoomAt(anchor, std::pow(0.85, delta.y() / 120.0));
    } else if ((e->modifiers() & Qt::ShiftModifier) || delta.x() != 0) {
        const int d = delta.x() != 0 ? delta.x() : delta.y();
        zoom_->panBy(-int64_t(double(zoom_->windowDuration()) * 0.1 * d / 120.0));
    } else {
        QAbstractScrollArea::wheelEvent(e);
        return;
    }
    e->accept();
}

bool TimelineView::viewportEvent(QEvent* e) {
    if (e->type() == QEvent::ToolTip && model_) {
        auto* help = static_cast<QHelpEvent*>(e);
        const int r = geom_.rowAt(*model_, help->pos().y());
        if (r >= 0 && model_->rows()[size_t(r)].kind == TrackModel::RowKind::Counter &&
            help->pos().x() >= geom_.left) {
            QToolTip::showText(
                help->globalPos(),
                model_->counterTip(model_->rows()[size_t(r)], geom_.timeAt(help->pos().x() + 0.5)),
                viewport());
            return true;
        }
        const uint32_t row = eventAt(help->pos());
        if (row == kNoEvent) {
            QToolTip::hideText();
        } else {
            // A name can be thousands of characters: its middle gives way.
            QString text = elideMiddle(model_->name(row), 160).toHtmlEscaped() +
                           QStringLiteral("<br>") + model_->category(row);
            if (!model_->isInstant(row))
                text += QStringLiteral(" · ") + formatDuration(model_->durationOf(row));
            const QString status = model_->kernelStatus(row);
            if (!status.isEmpty()) text += QStringLiteral(" · ") + status;
            const QString frame = model_->launchedAt(row);
            if (!frame.isEmpty()) text += QStringLiteral("<br>") + frame.toHtmlEscaped();
            QToolTip::showText(help->globalPos(), text, viewport());
        }
        return true;
    }
    return QAbstractScrollArea::viewportEvent(e);
}
