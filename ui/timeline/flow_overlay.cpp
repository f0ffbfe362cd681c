#include "timeline/flow_overlay.h"

#include <QPainterPath>
#include <algorithm>
#include <cmath>

#include "widgets/palette.h"

using namespace stackline;

FlowOverlay::FlowOverlay(const EventTable& events, const FlowIndex& flows) : flows_(flows) {
    const auto& links = flows.links();
    spans_.reserve(links.size());
    for (uint32_t l = 0; l < links.size(); ++l)
        spans_.push_back({events.tsNs(links[l].from), events.tsNs(links[l].to), l});
    std::sort(spans_.begin(), spans_.end(),
              [](const Span& a, const Span& b) { return a.from < b.from; });
}

size_t FlowOverlay::paint(QPainter& p, int64_t t0, int64_t t1,
                          const std::function<QRect(uint32_t)>& rectOf) const {
    const auto first = std::lower_bound(spans_.begin(), spans_.end(), t0,
                                        [](const Span& s, int64_t t) { return s.from < t; });
    std::vector<uint32_t> inView;
    for (auto s = first; s != spans_.end() && s->from <= t1; ++s)
        if (s->to >= t0 && s->to <= t1) inView.push_back(s->link);
    const size_t stride = (inView.size() + kMaxArrows - 1) / kMaxArrows;
    const bool curved = inView.size() <= kMaxCurves;
    p.save();
    p.setRenderHint(QPainter::Antialiasing, curved);
    for (size_t i = 0; i < inView.size(); i += std::max<size_t>(1, stride)) {
        const FlowLink& link = flows_.links()[inView[i]];
        const QRect from = rectOf(link.from), to = rectOf(link.to);
        if (!from.isEmpty() && !to.isEmpty()) paintArrow(p, from, to, link.isLaunch(), curved);
    }
    p.restore();
    return inView.size();
}

void FlowOverlay::paintArrow(QPainter& p, const QRect& from, const QRect& to, bool launch,
                             bool curved) {
    const QColor color = uiColor(launch ? UiColor::LaunchFlow : UiColor::OtherFlow);
    // From the launch's start to the kernel's start, curving vertically between the rows.
    const QPointF a(from.left(), from.center().y()), b(to.left(), to.center().y());
    const qreal dir = b.y() >= a.y() ? 1 : -1;
    p.setPen(QPen(color, curved ? 1.6 : 1));
    p.setBrush(Qt::NoBrush);
    if (curved) {
        const qreal bend = std::max<qreal>(24, std::abs(b.y() - a.y()) / 2);
        QPainterPath path(a);
        path.cubicTo(a + QPointF(0, dir * bend), b - QPointF(0, dir * bend), b);
        p.drawPath(path);
    } else {
        p.drawLine(a, b);
    }
    // Arrowhead pointing into the finish.
    QPolygonF head;
    head << b << b + QPointF(-4, -dir * 8) << b + QPointF(4, -dir * 8);
    p.setBrush(color);
    p.drawPolygon(head);
}
