// An icicle of a core FlameGraph: the outermost frames on top, each bar as wide as its share of
// the root's time, labels elided to fit. Hovering a bar tells its time and share; clicking a bar
// of a source frame asks for its source line.
#pragma once

#include <QRectF>
#include <QWidget>
#include <vector>

#include "analysis/flame_graph.h"

class FlameGraphView : public QWidget {
    Q_OBJECT
public:
    explicit FlameGraphView(QWidget* parent = nullptr);

    void setGraph(stackline::FlameGraph graph);
    // What an empty graph shows instead of bars (a default when empty).
    void setEmptyText(const QString& text);
    QString emptyText() const { return emptyText_; }
    const stackline::FlameGraph& graph() const { return graph_; }
    int64_t totalNs() const { return graph_.root().valueNs; }
    // Where a node's bar is drawn (empty when it is too narrow to draw or not laid out).
    QRectF barRect(uint32_t node) const;
    // The node whose bar is at pos, or 0 (the root) for none.
    uint32_t nodeAt(QPointF pos) const;

    QSize sizeHint() const override;

signals:
    void sourceRequested(const QString& file, int line);

protected:
    bool event(QEvent* e) override;
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    void mousePressEvent(QMouseEvent* e) override;

private:
    struct Bar {
        QRectF rect;
        uint32_t node;
    };
    void layoutBars();

    stackline::FlameGraph graph_;
    std::vector<Bar> bars_;  // parents before children
    int depth_ = 0;
    QString emptyText_;
};
