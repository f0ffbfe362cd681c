#include "timeline_view.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <utility>

#include "format.h"
#include "marker_ruler.h"
#include "palette.h"
#include "track_menu.h"
#include "viewer_state.h"
#include "zoom_control.h"

using G = TimelineGeometry;

namespace {

constexpr double kZoomStep = 0.7;
constexpr double kPanStep = 0.15;
constexpr int kDragThresholdPx = 4;
constexpr uint32_t kNoEvent = TrackModel::kNoEvent;

}  // namespace

TimelineView::TimelineView(ViewerState* state, QWidget* parent)
    : QAbstractScrollArea(parent), state_(state), zoom_(state->zoom()) {
    viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
    setFocusPolicy(Qt::StrongFocus);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    verticalScrollBar()->setSingleStep(G::kSliceHeight);
    auto windowMoved = [this] {
        updateGeometryFromZoom();
        cacheValid_ = false;
        viewport()->update();
    };
    connect(zoom_, &ZoomControl::windowChanged, this, windowMoved);
    connect(state_, &ViewerState::offsetsChanged, this, windowMoved);
    connect(state_, &ViewerState::documentsChanged, this, &TimelineView::setDocuments);
    connect(state_, &ViewerState::currentChanged, viewport(), qOverload<>(&QWidget::update));
    connect(state_, &ViewerState::selectionChanged, viewport(), qOverload<>(&QWidget::update));
    connect(state_, &ViewerState::highlightChanged, viewport(), qOverload<>(&QWidget::update));
    connect(state_, &ViewerState::rangeChanged, viewport(), qOverload<>(&QWidget::update));
    connect(state_, &ViewerState::markersChanged, viewport(), qOverload<>(&QWidget::update));
    connect(state_, &ViewerState::revealRequested, this,
            [this] { revealEvent(state_->selected()); });
    setDocuments();
}

ZoomControl* TimelineView::zoom() const {
    return zoom_;
}

void TimelineView::setDocuments() {
    lanes_.clear();
    const auto& docs = state_->documents();
    for (const auto& doc : docs)
        lanes_.push_back(std::make_unique<TimelineLane>(doc, docs.size() > 1));
    range_.reset();
    dragLane_ = nullptr;
    verticalScrollBar()->setValue(0);
    relayout();
}

TimelineLane* TimelineView::lane(const Document* doc) const {
    for (const auto& l : lanes_)
        if (l->doc.get() == doc) return l.get();
    return nullptr;
}

TimelineLane* TimelineView::laneAt(int viewportY) const {
    if (viewportY < G::kRulerHeight) return nullptr;
    const int y = viewportY - G::kRulerHeight + axis_.scrollY;
    for (const auto& l : lanes_)
        if (l->containsContentY(y)) return l.get();
    return nullptr;
}

int64_t TimelineView::offsetOf(const Document* doc) const {
    return state_->offsetNs(doc);
}

TrackModel* TimelineView::model() const {
    return model(state_->current().get());
}

TrackModel* TimelineView::model(const Document* doc) const {
    const TimelineLane* l = lane(doc);
    return l ? l->model.get() : nullptr;
}

const TimelineGeometry& TimelineView::geometry() const {
    const TimelineLane* l = lane(state_->current().get());
    return l ? l->geom : axis_;
}

QRect TimelineView::traceHeaderRect(const Document* doc) const {
    const TimelineLane* l = lanes_.size() > 1 ? lane(doc) : nullptr;
    if (!l) return {};
    return QRect(0, G::kRulerHeight + l->top - axis_.scrollY, viewport()->width(),
                 G::kHeaderHeight);
}

void TimelineView::setPlaceholder(const QString& text) {
    placeholder_ = text;
    viewport()->update();
}

void TimelineView::relayout() {
    // One document looks as it always did; several get a header each, naming the trace.
    const int header = lanes_.size() > 1 ? G::kHeaderHeight : 0;
    int y = 0;
    for (const auto& l : lanes_) {
        l->layout(y, header);
        y = l->bottom;
    }
    contentHeight_ = y;
    const int page = std::max(0, viewport()->height() - G::kRulerHeight);
    verticalScrollBar()->setPageStep(page);
    verticalScrollBar()->setRange(0, std::max(0, contentHeight_ - page));
    updateGeometryFromZoom();
    cacheValid_ = false;
    viewport()->update();
}

void TimelineView::layoutChanged(TimelineLane* l) {
    relayout();
    if (!l->layoutFolder.isEmpty()) l->model->trackLayout().save(l->layoutFolder);
}

void TimelineView::updateGeometryFromZoom() {
    axis_.t0 = zoom_->windowStart();
    axis_.t1 = zoom_->windowEnd();
    axis_.left = G::kGutterWidth;
    axis_.right = std::max(axis_.left + 1, viewport()->width());
    axis_.scrollY = verticalScrollBar()->value();
    for (const auto& l : lanes_) {
        const int64_t offset = offsetOf(l->doc.get());
        l->geom.t0 = axis_.t0 - offset;
        l->geom.t1 = axis_.t1 - offset;
        l->geom.left = axis_.left;
        l->geom.right = axis_.right;
        l->geom.scrollY = axis_.scrollY;
    }
}

void TimelineView::resizeEvent(QResizeEvent* e) {
    QAbstractScrollArea::resizeEvent(e);
    relayout();
}

void TimelineView::scrollContentsBy(int, int) {
    updateGeometryFromZoom();
    cacheValid_ = false;
    viewport()->update();
}

void TimelineView::renderTracks(QPainter& p, QSize size) {
    for (const auto& l : lanes_) {
        TimelineGeometry g = l->geom;
        g.right = std::max(g.left + 1, size.width());
        l->painter->paintTracks(p, g, size.width(), size.height());
    }
}

void TimelineView::paintEvent(QPaintEvent*) {
    QPainter p(viewport());
    if (lanes_.empty()) {
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
        if (lanes_.size() == 1) {
            lanes_[0]->painter->paintTracks(cp, lanes_[0]->geom, size.width(), size.height());
        } else {
            cp.fillRect(QRect(QPoint(0, 0), size), uiColor(UiColor::Gutter));
            for (const auto& l : lanes_) {
                const int top = G::kRulerHeight + l->top - axis_.scrollY;
                const int bottom = G::kRulerHeight + l->bottom - axis_.scrollY;
                if (bottom <= G::kRulerHeight || top >= size.height()) continue;
                cp.setClipRect(QRect(0, top, size.width(), bottom - top));
                l->painter->paintTracks(cp, l->geom, size.width(), size.height());
            }
            cp.setClipping(false);
        }
        cacheValid_ = true;
    }
    p.drawImage(0, 0, cache_);
    paintTraceHeaders(p);
    paintOverlay(p);
    lanes_.front()->painter->paintRuler(p, axis_, size.width(), zoom_->traceStart());
    paintMarkers(p, axis_, state_->markers(), size.height());
    paintDrags(p);
    emit framePainted();
}

void TimelineView::paintTraceHeaders(QPainter& p) {
    if (lanes_.size() < 2) return;
    for (const auto& l : lanes_) {
        const QRect r = traceHeaderRect(l->doc.get());
        if (r.bottom() >= G::kRulerHeight && r.top() < viewport()->height())
            l->paintHeader(p, r, l->doc == state_->current());
    }
}

void TimelineView::paintDrags(QPainter& p) {
    const auto range = shownRange();
    if (!range && drag_ != Drag::Header) return;
    if (drag_ == Drag::Header && dragLane_ && dropRow_ >= 0 && dropRow_ != dragRow_) {
        // Where the dragged header lands: above the row it is dropped on when moving up, below
        // when moving down.
        const TimelineGeometry& g = dragLane_->geom;
        const int y =
            g.rowY(dropRow_) +
            (dropRow_ > dragRow_ ? G::rowHeight(dragLane_->model->rows()[size_t(dropRow_)].kind) - 1
                                 : 0);
        p.fillRect(QRect(0, y - 1, viewport()->width(), 3), selectionColor());
    }
    if (!range) return;
    // The range's length, in the ruler.
    const int a = int(axis_.xOf(range->start)), b = int(axis_.xOf(range->end));
    const QRect band(std::max(a, axis_.left), 0, std::max(1, b - std::max(a, axis_.left)),
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
    p.setClipRect(QRect(axis_.left, G::kRulerHeight, axis_.right - axis_.left,
                        viewport()->height() - G::kRulerHeight));
    if (const auto range = shownRange()) {
        const int a = int(axis_.xOf(range->start)), b = int(axis_.xOf(range->end));
        const auto& selection = state_->selectedRange();
        const TimelineLane* current = lane(state_->current().get());
        if (range_ || !selection || selection->tracks.empty() || !current) {
            p.fillRect(QRect(a, G::kRulerHeight, std::max(1, b - a), viewport()->height()),
                       uiColor(UiColor::RangeShade));
        } else {
            // Only the rows of the tracks the range covers, in the current document.
            const auto& rows = current->model->rows();
            for (size_t r = 0; r < rows.size(); ++r) {
                if (std::find(selection->tracks.begin(), selection->tracks.end(), rows[r].track) ==
                    selection->tracks.end())
                    continue;
                p.fillRect(QRect(a, current->geom.rowY(int(r)), std::max(1, b - a),
                                 G::rowHeight(rows[r].kind)),
                           uiColor(UiColor::RangeShade));
            }
        }
    }
    std::vector<QRect> highlighted;
    const QRect plot(axis_.left, G::kRulerHeight, axis_.right - axis_.left,
                     viewport()->height() - G::kRulerHeight);
    for (const auto& l : lanes_) {
        for (uint32_t row : state_->highlighted(l->doc.get())) {
            QRect r = l->eventRect(row);
            if (r.isEmpty() || !r.intersects(plot)) continue;
            if (r.width() < 3) r.adjust(-1, 0, 1, 0);  // thin kernels stay visible
            highlighted.push_back(r.adjusted(-2, -2, 1, 1));
        }
    }
    TimelinePainter::paintOutlined(p, std::move(highlighted), uiColor(UiColor::HighlightFill),
                                   uiColor(UiColor::HighlightOutline), 2);
    if (showAllFlows_) {
        for (const auto& l : lanes_) {
            const Document* doc = l->doc.get();
            if (!l->allFlows)
                l->allFlows = std::make_unique<FlowOverlay>(doc->events(), doc->flows);
            l->allFlows->paint(p, l->geom.t0, l->geom.t1,
                               [&l](uint32_t row) { return l->eventRect(row); });
        }
    }
    const EventRef selected = state_->selected();
    if (const TimelineLane* l = selected.isValid() ? lane(selected.doc) : nullptr) {
        // The compiled region around the launch: dashed, so it reads as context, not selection.
        const uint32_t region = l->model->compiledRegionOf(selected.row);
        if (region != kNoEvent && region != selected.row) {
            const QRect r = l->eventRect(region);
            if (!r.isEmpty()) {
                p.setBrush(Qt::NoBrush);
                p.setPen(QPen(sliceColor(SliceStyle::CompiledRegion).darker(170), 2, Qt::DashLine));
                p.drawRect(r.adjusted(0, 0, -1, -1));
            }
        }
        paintFlows(p, selected);
        const QRect r = l->eventRect(selected.row);
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

void TimelineView::paintFlows(QPainter& p, EventRef event) {
    const TimelineLane* l = lane(event.doc);
    p.setRenderHint(QPainter::Antialiasing, true);
    for (const TrackModel::Flow& flow : l->model->flowsOf(event.row)) {
        const QRect from = l->eventRect(flow.from), to = l->eventRect(flow.to);
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
    if (lanes_.empty()) return;
    const EventRef selected = state_->selected();
    const TrackModel* m = selected.isValid() ? model(selected.doc) : nullptr;
    state_->addMarker(m ? m->startOf(selected.row) + offsetOf(selected.doc) : anchorTime());
}

EventRef TimelineView::hitTest(QPoint pos) const {
    const TimelineLane* l = laneAt(pos.y());
    if (!l) return {};
    const uint32_t row = l->eventAt(pos);
    return row == kNoEvent ? EventRef{} : EventRef{l->doc.get(), row};
}

QRect TimelineView::eventRect(EventRef event) const {
    const TimelineLane* l = lane(event.doc);
    return l ? l->eventRect(event.row) : QRect();
}

QRect TimelineView::eventRect(uint32_t row) const {
    return eventRect(EventRef{state_->current().get(), row});
}

void TimelineView::revealEvent(uint32_t row) {
    revealEvent(EventRef{state_->current().get(), row});
}

void TimelineView::revealEvent(EventRef event) {
    TimelineLane* l = lane(event.doc);
    if (!l || event.row == kNoEvent || l->model->processOf(event.row) < 0) return;
    // Navigation, not arrangement: not remembered (until the user arranges something).
    if (l->model->showEvent(event.row)) relayout();
    const int64_t offset = offsetOf(event.doc);
    const int64_t s = l->model->startOf(event.row) + offset,
                  e = l->model->endOf(event.row) + offset;
    if (e - s > zoom_->windowDuration()) {
        const int64_t pad = (e - s) / 10 + 1;
        zoom_->setWindow(s - pad, e + pad);
    } else if (s < zoom_->windowStart() || e > zoom_->windowEnd()) {
        zoom_->centreOn(s + (e - s) / 2);
    }
    const int r = l->model->rowOf(event.row);
    const int top = l->geom.rowTop[size_t(r)];
    const int page = viewport()->height() - G::kRulerHeight;
    if (top < axis_.scrollY || top + G::kSliceHeight > axis_.scrollY + page)
        verticalScrollBar()->setValue(top - page / 2);
}

int64_t TimelineView::anchorTime() const {
    const QPoint pos = viewport()->mapFromGlobal(QCursor::pos());
    if (viewport()->rect().contains(pos) && pos.x() >= axis_.left) return axis_.timeAt(pos.x());
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
        const int64_t offset = offsetOf(state_->current().get());
        zoom_->setWindow(range->range.start + offset, range->range.end + offset);
        return;
    }
    const EventRef selected = state_->selected();
    const TrackModel* m = selected.isValid() ? model(selected.doc) : nullptr;
    if (!m) return;
    const int64_t s = m->startOf(selected.row) + offsetOf(selected.doc);
    const int64_t d = std::max<int64_t>(m->durationOf(selected.row), 100);
    zoom_->setWindow(s - d / 10, s + d + d / 10);
    revealEvent(selected);
}

void TimelineView::mousePressEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton) return;
    pressPos_ = e->position().toPoint();
    pressWindowStart_ = zoom_->windowStart();
    pressScroll_ = verticalScrollBar()->value();
    const bool rangeDrag = (e->modifiers() & Qt::ShiftModifier) || pressPos_.y() < G::kRulerHeight;
    drag_ = rangeDrag && pressPos_.x() >= axis_.left ? Drag::Range : Drag::Pending;
    rangeAnchor_ = axis_.timeAt(pressPos_.x());
    dragLane_ = pressPos_.x() < axis_.left ? laneAt(pressPos_.y()) : nullptr;
    dragRow_ = dragLane_ ? dragLane_->geom.rowAt(*dragLane_->model, pressPos_.y()) : -1;
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
        dropRow_ = dragLane_->geom.rowAt(*dragLane_->model, pos.y());
        viewport()->update();
    } else if (drag_ == Drag::Pan) {
        const int64_t dt = int64_t(double(pos.x() - pressPos_.x()) * axis_.nsPerPixel());
        zoom_->setWindow(pressWindowStart_ - dt, pressWindowStart_ - dt + zoom_->windowDuration());
        verticalScrollBar()->setValue(pressScroll_ - (pos.y() - pressPos_.y()));
    } else if (drag_ == Drag::Range) {
        const int64_t t = axis_.timeAt(std::max(pos.x(), axis_.left));
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
    if (lanes_.empty()) return;
    if (drag == Drag::Header) {
        const int target = dragLane_->geom.rowAt(*dragLane_->model, e->position().toPoint().y());
        dropRow_ = -1;
        if (target >= 0 && dragLane_->model->dropRow(size_t(dragRow_), size_t(target)))
            layoutChanged(dragLane_);
        viewport()->update();
        return;
    }
    if (drag == Drag::Pending || drag == Drag::PendingHeader) click(e->position().toPoint());
}

std::optional<stackline::TimeRange> TimelineView::shownRange() const {
    if (range_) return range_;
    if (const auto& selection = state_->selectedRange()) {
        const int64_t offset = offsetOf(state_->current().get());
        return stackline::TimeRange{selection->range.start + offset, selection->range.end + offset};
    }
    return std::nullopt;
}

void TimelineView::commitRange(QPoint releasePos) {
    std::optional<stackline::TimeRange> range = std::exchange(range_, std::nullopt);
    if (!range || axis_.xOf(range->end) - axis_.xOf(range->start) < 2) {
        viewport()->update();
        return;
    }
    // The state's range is in the current document's time; Shift+drag over tracks covers the
    // tracks between the press and the release, in the document pressed on (which becomes
    // current); a drag on the ruler covers them all.
    const TimelineLane* l = laneAt(pressPos_.y());
    if (l) state_->setCurrent(l->doc.get());
    const int64_t offset = offsetOf(state_->current().get());
    RangeSelection selection{{range->start - offset, range->end - offset}, {}};
    if (l) {
        const auto& rows = l->model->rows();
        int a = l->geom.rowAt(*l->model, std::min(pressPos_.y(), releasePos.y()));
        int b = l->geom.rowAt(*l->model, std::max(pressPos_.y(), releasePos.y()));
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
    TimelineLane* l = laneAt(pos.y());
    if (!l) {
        state_->setSelectedRange(std::nullopt);
        state_->select(EventRef{});
        return;
    }
    if (traceHeaderRect(l->doc.get()).contains(pos)) {
        state_->setCurrent(l->doc.get());
        return;
    }
    const int r = l->geom.rowAt(*l->model, pos.y());
    const TrackModel::Row* row = r >= 0 ? &l->model->rows()[size_t(r)] : nullptr;
    if (row && row->kind == TrackModel::RowKind::ProcessHeader) {
        l->model->setCollapsed(row->process, !l->model->isCollapsed(row->process));
        layoutChanged(l);
        return;
    }
    if (row && row->kind == TrackModel::RowKind::Folded && pos.x() < axis_.left) {
        l->model->setDepth(row->track, TrackLayout::kAllLevels);
        layoutChanged(l);
        return;
    }
    state_->setSelectedRange(std::nullopt);
    state_->select(hitTest(pos));
}

QMenu* TimelineView::headerMenu(QPoint pos) {
    TimelineLane* l = laneAt(pos.y());
    if (!l) return nullptr;
    const int r = l->geom.rowAt(*l->model, pos.y());
    if (r < 0) return nullptr;
    const bool header = l->model->rows()[size_t(r)].isHeader();
    if (!header && pos.x() >= axis_.left) return nullptr;
    auto* menu = new QMenu(this);
    addHeaderActions(
        *menu, *l->model, size_t(r), [this, l] { layoutChanged(l); }, this);
    return menu;
}

void TimelineView::contextMenuEvent(QContextMenuEvent* e) {
    std::unique_ptr<QMenu> menu(headerMenu(e->pos()));
    if (menu) menu->exec(e->globalPos());
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* e) {
    const EventRef hit = hitTest(e->position().toPoint());
    if (!hit.isValid()) return;
    const TrackModel* m = model(hit.doc);
    // A training step is a range to summarise rather than a slice to look at.
    if (m->name(hit.row).startsWith(QLatin1String("ProfilerStep#"))) {
        state_->setCurrent(hit.doc);
        state_->setSelectedRange(RangeSelection{{m->startOf(hit.row), m->endOf(hit.row)}, {}});
        return;
    }
    state_->select(hit);
    zoomToSelection();
}

void TimelineView::wheelEvent(QWheelEvent* e) {
    const QPoint delta = e->angleDelta();
    if (e->modifiers() & Qt::ControlModifier) {
        const int64_t anchor = axis_.timeAt(std::max<qreal>(e->position().x(), axis_.left));
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
    if (e->type() != QEvent::ToolTip) return QAbstractScrollArea::viewportEvent(e);
    auto* help = static_cast<QHelpEvent*>(e);
    const TimelineLane* l = laneAt(help->pos().y());
    if (!l) return QAbstractScrollArea::viewportEvent(e);
    const QString text = l->toolTip(help->pos(), lanes_.size() > 1);
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(help->globalPos(), text, viewport());
    return true;
}
