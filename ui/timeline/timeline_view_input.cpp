// How the timeline answers the mouse: click to select, drag to pan or to select a time range,
// double-click to zoom to a slice, the wheel to zoom or scroll, the context menu of headers and
// tooltips. TimelineView's members declared in timeline/timeline_view.h, in a file of their own.
#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "state/viewer_state.h"
#include "state/zoom_control.h"
#include "timeline/timeline_view.h"
#include "timeline/track_menu.h"

using G = TimelineGeometry;

namespace {

constexpr int kDragThresholdPx = 4;

}  // namespace

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
