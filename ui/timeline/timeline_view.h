// The timeline: one viewport widget paints every track (TimelinePainter) of every document of the
// viewer state, one lane per document (TimelineLane) under a header naming its trace (its rank)
// when there are several, each shifted by the document's offset onto the one time axis; the
// vertical scroll bar moves through the tracks, the state's ZoomControl owns the time window. The
// tracks are rendered into a cached image keyed by window, size and scroll, so selection,
// highlight, flow arrows and range selection repaint as overlays without walking any slices.
// Clicking selects through the state; the view follows the state's selection. The gutter's headers
// arrange the tracks (context menu, drag); the arrangement is remembered per trace folder.
#pragma once

#include <QAbstractScrollArea>
#include <QImage>
#include <QMenu>
#include <memory>
#include <optional>
#include <vector>

#include "state/viewer_state.h"
#include "timeline/timeline_lane.h"

class ZoomControl;

class TimelineView : public QAbstractScrollArea {
    Q_OBJECT
public:
    explicit TimelineView(ViewerState* state, QWidget* parent = nullptr);

    // The rows of the current document; null while none is loaded.
    TrackModel* model() const;
    // The rows of one loaded document; null when it is not loaded.
    TrackModel* model(const ViewedTrace* doc) const;
    // What the view says while it has no model.
    void setPlaceholder(const QString& text);
    ZoomControl* zoom() const;

    // Makes an event visible: expands its process (and its track's depth, and unhides it),
    // scrolls to its row and, when it is outside the window, centres it (widening the window when
    // it is longer).
    void revealEvent(EventRef event);
    void revealEvent(uint32_t row);  // of the current document
    // The context menu of the header at pos (a gutter label or a process header), or null; the
    // caller owns it.
    QMenu* headerMenu(QPoint pos);

    // Hit testing and geometry in viewport coordinates (also for tests): the event at pos, in
    // whichever document's lane pos is; its row alone; where an event is painted (a row of the
    // current document); the current document's geometry.
    EventRef hitTest(QPoint pos) const;
    uint32_t eventAt(QPoint pos) const { return hitTest(pos).row; }
    QRect eventRect(EventRef event) const;
    QRect eventRect(uint32_t row) const;
    const TimelineGeometry& geometry() const;
    // With several documents, the header above a document's tracks naming its trace (clicking it
    // makes the document current); empty with one document.
    QRect traceHeaderRect(const ViewedTrace* doc) const;

    // Renders the tracks as the viewport would show them, without the cache: the paint benchmark.
    void renderTracks(QPainter& p, QSize size);

public slots:
    void zoomIn();
    void zoomOut();
    void panLeft();
    void panRight();
    // The selected time range when there is one, else the selected slice.
    void zoomToSelection();
    void resetZoom();
    // Drops a marker at the selected slice's start, else at the cursor's time (the window's
    // centre when the cursor is elsewhere).
    void dropMarker();
    // Draws every flow whose ends are in the window, not only the selected event's.
    void setShowAllFlows(bool on);

signals:
    // A frame with the loaded traces on it was painted (the benchmark's "first frame").
    void framePainted();

protected:
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    void scrollContentsBy(int dx, int dy) override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mouseReleaseEvent(QMouseEvent*) override;
    void mouseDoubleClickEvent(QMouseEvent*) override;
    void wheelEvent(QWheelEvent*) override;
    void contextMenuEvent(QContextMenuEvent*) override;
    bool viewportEvent(QEvent*) override;

private:
    // Header: a gutter label or process header pressed, dragged once it moves.
    enum class Drag { None, Pending, Pan, Range, PendingHeader, Header };
    void setDocuments();
    TimelineLane* lane(const ViewedTrace* doc) const;
    TimelineLane* laneAt(int viewportY) const;
    int64_t offsetOf(const ViewedTrace* doc) const;
    void relayout();
    // After a lane's arrangement changed: relayout and remember it for the trace's folder.
    void layoutChanged(TimelineLane* lane);
    void paintTraceHeaders(QPainter& p);
    // A click (no drag) at pos: toggles a process, expands a folded track, or selects.
    void click(QPoint pos);
    void updateGeometryFromZoom();
    void paintOverlay(QPainter& p);
    void paintFlows(QPainter& p, EventRef event);
    // Over everything: a dragged header's drop line and the dragged time range.
    void paintDrags(QPainter& p);
    int64_t anchorTime() const;
    // The range being dragged, else the state's selected range, on the shared time axis.
    std::optional<stackline::TimeRange> shownRange() const;
    // Ends a range drag: a range wider than 2 px becomes the state's selected range.
    void commitRange(QPoint releasePos);
    void zoomAround(double factor);

    ViewerState* state_;
    ZoomControl* zoom_;
    std::vector<std::unique_ptr<TimelineLane>> lanes_;  // parallel to the state's documents
    TimelineGeometry axis_;  // the window on the shared axis: ruler, markers and drags
    int contentHeight_ = 0;
    QString placeholder_;
    std::optional<stackline::TimeRange> range_;  // a range being dragged (then the state's)

    bool showAllFlows_ = false;

    QImage cache_;
    bool cacheValid_ = false;

    Drag drag_ = Drag::None;
    QPoint pressPos_;
    int64_t pressWindowStart_ = 0;
    int pressScroll_ = 0;
    int64_t rangeAnchor_ = 0;
    // Header drag: the lane and row pressed and the row under it.
    TimelineLane* dragLane_ = nullptr;
    int dragRow_ = -1, dropRow_ = -1;
};
