#include "panels/flame_graph_view.h"

#include <QEvent>
#include <QFileInfo>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <functional>

#include "widgets/time_text.h"

using namespace stackline;

namespace {

constexpr qreal kRowHeight = 18;
constexpr qreal kMinBarWidth = 0.5;  // narrower bars are not drawn (nor their children)

// A warm colour per label, stable across repaints and graphs.
QColor barColor(const std::string& label) {
    const size_t h = std::hash<std::string>{}(label);
    return QColor::fromHsv(int(h % 50), 110 + int((h >> 8) % 80), 230);
}

// A bar names its file without the folder, which the tooltip shows: the line and function fit.
QString shortLabel(const FlameNode& n) {
    const QString label = QString::fromStdString(n.label);
    if (n.file.empty() || !n.label.starts_with(n.file)) return label;
    return QFileInfo(QString::fromStdString(n.file)).fileName() +
           label.mid(QString::fromStdString(n.file).size());
}

}  // namespace

FlameGraphView::FlameGraphView(QWidget* parent) : QWidget(parent) {
    graph_.nodes.emplace_back();
    setMouseTracking(true);
}

void FlameGraphView::setGraph(FlameGraph graph) {
    graph_ = std::move(graph);
    // Tall enough for every level, so that the scroll area around reaches the deepest frames.
    int levels = 0;
    std::function<void(uint32_t, int)> deepest = [&](uint32_t node, int depth) {
        levels = std::max(levels, depth);
        for (uint32_t c : graph_.nodes[node].children) deepest(c, depth + 1);
    };
    deepest(0, 0);
    setMinimumHeight(int(kRowHeight * levels));
    layoutBars();
    updateGeometry();
    update();
}

QRectF FlameGraphView::barRect(uint32_t node) const {
    for (const Bar& b : bars_)
        if (b.node == node) return b.rect;
    return {};
}

uint32_t FlameGraphView::nodeAt(QPointF pos) const {
    for (const Bar& b : bars_)
        if (b.rect.contains(pos)) return b.node;
    return 0;
}

QSize FlameGraphView::sizeHint() const {
    return {600, int(kRowHeight * std::max(depth_, 4))};
}

void FlameGraphView::layoutBars() {
    bars_.clear();
    depth_ = 0;
    const int64_t total = totalNs();
    if (total <= 0) return;
    const qreal scale = qreal(width()) / qreal(total);
    // Children start at their parent's left edge, in the graph's order (largest first).
    std::function<void(uint32_t, qreal, int)> place = [&](uint32_t node, qreal x, int depth) {
        for (uint32_t c : graph_.nodes[node].children) {
            const qreal w = qreal(graph_.nodes[c].valueNs) * scale;
            if (w >= kMinBarWidth) {
                bars_.push_back({QRectF(x, depth * kRowHeight, w, kRowHeight), c});
                depth_ = std::max(depth_, depth + 1);
                place(c, x, depth + 1);
            }
            x += w;
        }
    };
    place(0, 0, 0);
}

void FlameGraphView::setEmptyText(const QString& text) {
    emptyText_ = text;
    update();
}

void FlameGraphView::resizeEvent(QResizeEvent*) {
    layoutBars();
}

void FlameGraphView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (bars_.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
                   emptyText_.isEmpty() ? tr("No time to show") : emptyText_);
        return;
    }
    const QFontMetrics fm(font());
    for (const Bar& b : bars_) {
        const FlameNode& n = graph_.nodes[b.node];
        const QRectF r = b.rect.adjusted(0, 0, -1, -1);
        p.fillRect(r, barColor(n.label));
        if (r.width() < 3 * fm.averageCharWidth()) continue;
        p.setPen(Qt::black);
        const QRectF text = r.adjusted(3, 0, -3, 0);
        p.drawText(text, Qt::AlignVCenter | Qt::AlignLeft,
                   fm.elidedText(shortLabel(n), Qt::ElideRight, int(text.width())));
    }
}

bool FlameGraphView::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        if (uint32_t node = nodeAt(help->pos())) {
            const FlameNode& n = graph_.nodes[node];
            const double share = 100.0 * double(n.valueNs) / double(totalNs());
            QToolTip::showText(help->globalPos(),
                               tr("%1\n%2 (%3% of %4)")
                                   .arg(QString::fromStdString(n.label), formatDuration(n.valueNs))
                                   .arg(share, 0, 'f', 1)
                                   .arg(formatDuration(totalNs())),
                               this);
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QWidget::event(e);
}

void FlameGraphView::mousePressEvent(QMouseEvent* e) {
    const uint32_t node = nodeAt(e->position());
    if (node && !graph_.nodes[node].file.empty())
        emit sourceRequested(QString::fromStdString(graph_.nodes[node].file),
                             graph_.nodes[node].line);
}
