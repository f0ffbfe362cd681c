#include "timeline/timeline_view.h"

#include <QScrollBar>
#include <algorithm>
#include <cmath>
#include <utility>

#include "state/viewer_state.h"
#include "state/zoom_control.h"
#include "timeline/marker_ruler.h"
#include "widgets/palette.h"
#include "widgets/time_text.h"

using G = TimelineGeometry;

namespace {

constexpr double kZoomStep = 0.7;
constexpr double kPanStep = 0.15;
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

TimelineLane* TimelineView::lane(const ViewedTrace* doc) const {
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

int64_t TimelineView::offsetOf(const ViewedTrace* doc) const {
    return state_->offsetNs(doc);
}

TrackModel* TimelineView::model() const {
    return model(state_->current().get());
}

TrackModel* TimelineView::model(const ViewedTrace* doc) const {
    const TimelineLane* l = lane(doc);
    return l ? l->model.get() : nullptr;
}

const TimelineGeometry& TimelineView::geometry() const {
    const TimelineLane* l = lane(state_->current().get());
    return l ? l->geom : axis_;
}

QRect TimelineView::traceHeaderRect(const ViewedTrace* doc) const {
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
            const ViewedTrace* doc = l->doc.get();
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

std::optional<stackline::TimeRange> TimelineView::shownRange() const {
    if (range_) return range_;
    if (const auto& selection = state_->selectedRange()) {
        const int64_t offset = offsetOf(state_->current().get());
        return stackline::TimeRange{selection->range.start + offset, selection->range.end + offset};
    }
    return std::nullopt;
}
