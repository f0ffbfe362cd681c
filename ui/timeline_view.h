// The timeline: one viewport widget paints every track (TimelinePainter); the vertical scroll bar
// moves through the tracks, ZoomControl owns the time window. The tracks are rendered into a
// cached image keyed by window, size and scroll, so selection, flow arrows and range selection
// repaint as overlays without walking any slices.
#pragma once

#include <QAbstractScrollArea>
#include <QImage>
#include <memory>
#include <optional>
#include <vector>

#include "timeline_painter.h"
#include "track_model.h"
#include "zoom_control.h"

class TimelineView : public QAbstractScrollArea {
    Q_OBJECT
public:
    explicit TimelineView(ZoomControl* zoom, QWidget* parent = nullptr);

    void setModel(std::shared_ptr<TrackModel> model);
    // What the view says while it has no model.
    void setPlaceholder(const QString& text);
    ZoomControl* zoom() const { return zoom_; }

    uint32_t selectedEvent() const { return selected_; }
    // Selects an event (kNoRow clears) and emits selectionChanged when it changes.
    void selectEvent(uint32_t row);
    // Makes an event visible: expands its process, scrolls to its row and, when it is outside
    // the window, centres it (widening the window when it is longer).
    void revealEvent(uint32_t row);
    // Events drawn with a highlight outline (e.g. the kernels of a source hotspot); empty clears.
    void setHighlightedEvents(std::vector<uint32_t> rows);
    const std::vector<uint32_t>& highlightedEvents() const { return highlighted_; }

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
    // The dragged time range when there is one, else the selected slice.
    void zoomToSelection();
    void resetZoom();

signals:
    void selectionChanged(uint32_t row);

protected:
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    void scrollContentsBy(int dx, int dy) override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mouseReleaseEvent(QMouseEvent*) override;
    void mouseDoubleClickEvent(QMouseEvent*) override;
    void wheelEvent(QWheelEvent*) override;
    bool viewportEvent(QEvent*) override;

private:
    enum class Drag { None, Pending, Pan, Range };
    void relayout();
    void updateGeometryFromZoom();
    void paintOverlay(QPainter& p);
    void paintFlows(QPainter& p);
    int64_t anchorTime() const;
    void zoomAround(double factor);

    ZoomControl* zoom_;
    std::shared_ptr<TrackModel> model_;
    std::unique_ptr<TimelinePainter> painter_;
    TimelineGeometry geom_;
    QString placeholder_;
    uint32_t selected_ = stackline::kNoRow;
    std::vector<uint32_t> highlighted_;
    std::optional<std::pair<int64_t, int64_t>> range_;  // dragged time range

    QImage cache_;
    bool cacheValid_ = false;

    Drag drag_ = Drag::None;
    QPoint pressPos_;
    int64_t pressWindowStart_ = 0;
    int pressScroll_ = 0;
    int64_t rangeAnchor_ = 0;
};
