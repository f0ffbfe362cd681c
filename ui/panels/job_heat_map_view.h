// Paints a core JobHeatMap: one column per step, the shown ranks from top to bottom. When there
// are more ranks than rows of pixels, each band of pixels stands for a range of ranks and takes
// the colour of their largest value, so one slow rank among 1,024 stays visible; the tooltip gives
// the band's max (and whose), mean and the step's median.
#pragma once

#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

#include "analysis/job_heat_map.h"

class JobHeatMapView : public QWidget {
    Q_OBJECT
public:
    explicit JobHeatMapView(QWidget* parent = nullptr);

    void setMap(std::shared_ptr<const stackline::JobHeatMap> map);
    void setMetric(stackline::JobMetric metric);
    stackline::JobMetric shownMetric() const { return metric_; }
    // The ranks shown, in order (JobHeatMap::rows).
    void setRows(std::vector<size_t> rows);
    const std::vector<size_t>& rows() const { return rows_; }

    // A band of shown ranks in one step's column.
    struct Cell {
        size_t firstRow = 0, endRow = 0;  // into rows()
        size_t step = 0;
    };
    std::optional<Cell> cellAt(QPoint pos) const;
    // Where the cell of rows()[row] in this step is drawn (its band's rectangle).
    QRect cellRect(size_t row, size_t step) const;
    // The tooltip's text at pos; empty off the cells.
    QString toolTipAt(QPoint pos) const;
    // The bands drawn: min(rows, pixel rows of the cell area).
    size_t bandCount() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    // A cell clicked: the rank (index into the result's ranks) whose value its band shows.
    void cellClicked(size_t rank, size_t step);

protected:
    bool event(QEvent* e) override;
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent* e) override;

private:
    QRect cellArea() const;
    // The band's range of rows().
    std::pair<size_t, size_t> bandRows(size_t band) const;
    int bandTop(size_t band) const;

    std::shared_ptr<const stackline::JobHeatMap> map_;
    stackline::JobMetric metric_ = stackline::JobMetric::StepTime;
    std::vector<size_t> rows_;
};
