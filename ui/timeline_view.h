// The timeline: one viewport widget paints every track (TimelinePainter) of the viewer state's
// current document; the vertical scroll bar moves through the tracks, the state's ZoomControl owns
// the time window. The tracks are rendered into a cached image keyed by window, size and scroll,
// so selection, highlight, flow arrows and range selection repaint as overlays without walking any
// slices. Clicking selects through the state; the view follows the state's selection. The gutter's
// headers arrange the tracks (context menu, drag); the arrangement is remembered per trace folder.
#pragma once

#include <QAbstractScrollArea>
#include <QImage>
#include <QMenu>
#include <memory>
#include <optional>
#include <vector>

#include "flow_overlay.h"
#include "timeline_painter.h"
#include "track_model.h"

class ViewerState;
class ZoomControl;

class TimelineView : public QAbstractScrollArea {
    Q_OBJECT
public:
    explicit TimelineView(ViewerState* state, QWidget* parent = nullptr);

    // The rows of the current document; null while none is loaded.
    TrackModel* model() const { return model_.get(); }
    // What the view says while it has no model.
    void setPlaceholder(const QString& text);
    ZoomControl* zoom() const;

    // Makes an event visible: expands its process (and its track's depth, and unhides it),
    // scrolls to its row and, when it is outside the window, centres it (widening the window when
    // it is longer).
    void revealEvent(uint32_t row);
    // The context menu of the header at pos (a gutter label or a process header), or null; the
    // caller owns it.
    QMenu* headerMenu(QPoint pos);

    // Hit testing and geometry in viewport coordinates (also for tests).
    uint32_t eventAt(QPoint pos) const;
    QRect eventRect(uint32_t row) const;
    const TimelineGeometry& geometry() const { return geom_; }

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
    void setDocument();
    uint32_t selected() const;
    void relayout();
    // After the model's arrangement changed: relayout and remember it for the trace's folder.
    void layoutChanged();
    // A click (no drag) at pos: toggles a process, expands a folded track, or selects.
    void click(QPoint pos);
    void updateGeometryFromZoom();
    void paintOverlay(QPainter& p);
    void paintFlows(QPainter& p, uint32_t event);
    // Over everything: a dragged header's drop line and the dragged time range.
    void paintDrags(QPainter& p);
    int64_t anchorTime() const;
    // The range being dragged, else the state's selected range.
    std::optional<stackline::TimeRange> shownRange() const;
    // Ends a range drag: a range wider than 2 px becomes the state's selected range.
    void commitRange(QPoint releasePos);
    void zoomAround(double factor);

    ViewerState* state_;
    ZoomControl* zoom_;
    std::unique_ptr<TrackModel> model_;
    std::unique_ptr<TimelinePainter> painter_;
    TimelineGeometry geom_;
    QString placeholder_;
    QString layoutFolder_;  // where the layout is remembered; empty for traces without a file
    std::optional<stackline::TimeRange> range_;  // a range being dragged (then the state's)

    bool showAllFlows_ = false;
    std::unique_ptr<FlowOverlay> allFlows_;  // built on first use, per document

    QImage cache_;
    bool cacheValid_ = false;

    Drag drag_ = Drag::None;
    QPoint pressPos_;
    int64_t pressWindowStart_ = 0;
    int pressScroll_ = 0;
    int64_t rangeAnchor_ = 0;
    int dragRow_ = -1, dropRow_ = -1;  // header drag: the row pressed and the row under it
};
