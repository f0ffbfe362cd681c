// Every flow arrow whose two ends lie in the time window ("Show All Flows in View"). The links are
// sorted by their start's time once, so a repaint walks only the links starting in the window;
// when more than kMaxArrows are in view they are thinned evenly and drawn as straight lines
// (curves and antialiasing cost too much by the thousand), so a repaint stays fast.
#pragma once

#include <QPainter>
#include <QRect>
#include <cstdint>
#include <functional>
#include <vector>

#include "model/flow_index.h"

class FlowOverlay {
public:
    static constexpr size_t kMaxCurves = 400;
    static constexpr size_t kMaxArrows = 3000;

    FlowOverlay(const stackline::EventTable& events, const stackline::FlowIndex& flows);

    // rectOf: an event's rectangle in the viewport, empty when it is not shown. Returns how many
    // links lie in [t0, t1] (drawn or thinned out).
    size_t paint(QPainter& p, int64_t t0, int64_t t1,
                 const std::function<QRect(uint32_t)>& rectOf) const;

    // One arrow from the start of from to the start of to.
    static void paintArrow(QPainter& p, const QRect& from, const QRect& to, bool launch,
                           bool curved);

private:
    struct Span {
        int64_t from, to;  // the ends' start times
        uint32_t link;
    };
    std::vector<Span> spans_;  // by from
    const stackline::FlowIndex& flows_;
};
