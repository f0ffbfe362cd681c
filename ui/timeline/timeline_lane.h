// One document's part of the timeline: its rows (TrackModel), their painter and their geometry.
// The view stacks the lanes of all loaded documents one below the other; each lane's geometry
// places its rows below the lanes above it and shows the window in the document's own time (the
// window on the shared axis minus the document's offset), so that painting, hit testing and
// rectangles work in each document's own rows and times.
#pragma once

#include <QPoint>
#include <QRect>
#include <QString>
#include <memory>

#include "timeline/flow_overlay.h"
#include "timeline/timeline_painter.h"
#include "timeline/track_model.h"

struct TimelineLane {
    std::shared_ptr<const ViewedTrace> doc;
    std::unique_ptr<TrackModel> model;
    std::unique_ptr<TimelinePainter> painter;
    std::unique_ptr<FlowOverlay> allFlows;  // built on first use
    TimelineGeometry geom;  // rowTop in the view's content y; t0, t1 in the document's time
    QString layoutFolder;   // where its layout is remembered; empty for traces without a file
    int top = 0;            // content y of its trace header (of its first row with one lane)
    int bottom = 0;         // content y past its last row

    // A lane over doc with the layout remembered for its folder. `compact`, for one of several
    // traces: without a remembered layout its CPU processes start collapsed, so that every
    // trace's GPU streams fit in the first view.
    TimelineLane(std::shared_ptr<const ViewedTrace> document, bool compact);

    // Lays its rows out from content y `top`, below a trace header of height `header` (0: none).
    void layout(int top, int header);
    bool containsContentY(int y) const { return y >= top && y < bottom; }

    // The event at viewport pos, in the document; kNoEvent when none.
    uint32_t eventAt(QPoint pos) const;
    // Where an event is painted, in viewport coordinates; empty when it has no row.
    QRect eventRect(uint32_t row) const;
    // The tooltip at viewport pos (a counter's value, an event's name, duration, status and
    // launch site; `named`: and the trace's label); empty over nothing.
    QString toolTip(QPoint pos, bool named) const;
    // Its trace header: the rank's label and the file name, on the current trace's colour when
    // `current`.
    void paintHeader(QPainter& p, const QRect& r, bool current) const;
};
