#include "timeline/marker_ruler.h"

#include <QPolygon>

#include "timeline/timeline_painter.h"
#include "widgets/palette.h"
#include "widgets/time_text.h"

using G = TimelineGeometry;

std::vector<MarkerGap> markerGaps(const std::vector<int64_t>& markers) {
    std::vector<MarkerGap> gaps;
    for (size_t i = 1; i < markers.size(); ++i)
        gaps.push_back({markers[i - 1], markers[i], formatDuration(markers[i] - markers[i - 1])});
    return gaps;
}

void paintMarkers(QPainter& p, const TimelineGeometry& g, const std::vector<int64_t>& markers,
                  int height) {
    if (markers.empty()) return;
    p.save();
    p.setClipRect(QRect(g.left, 0, g.right - g.left, height));
    const QColor color = uiColor(UiColor::Marker);
    for (int64_t t : markers) {
        if (t < g.t0 || t > g.t1) continue;
        const int x = int(g.xOf(t));
        p.setPen(QPen(color, 1, Qt::DashLine));
        p.drawLine(x, G::kRulerHeight, x, height);
        p.setPen(Qt::NoPen);
        p.setBrush(color);
        p.drawPolygon(QPolygon({QPoint(x, 2), QPoint(x + 9, 6), QPoint(x, 10)}));
        p.fillRect(QRect(x, 2, 1, G::kRulerHeight - 2), color);
    }
    // The gap's length in the bottom half of the ruler, where it fits between its markers.
    p.setPen(color);
    const QFontMetrics fm = p.fontMetrics();
    for (const MarkerGap& gap : markerGaps(markers)) {
        if (gap.to < g.t0 || gap.from > g.t1) continue;
        const int a = int(g.xOf(gap.from)), b = int(g.xOf(gap.to));
        const int y = G::kRulerHeight - 5;
        p.drawLine(a, y, b, y);
        const QString text = QStringLiteral("Δ ") + gap.label;
        const int w = fm.horizontalAdvance(text) + 6;
        if (b - a < w + 4) continue;
        const QRect plate((a + b - w) / 2, y - fm.height() + 2, w, fm.height());
        p.fillRect(plate, uiColor(UiColor::Ruler));
        p.drawText(plate, Qt::AlignCenter, text);
    }
    p.restore();
}
