// The Selection tab: the range summary (core/analysis/range_summary.h) of the viewer's selected
// range: slices per name and process in the table, GPU streams' busy, idle and
// communication-overlap time in the text above it, and the GPU time charged to Python lines in the
// table below it (the Hotspots tab's columns; choosing a line highlights its kernels and shows its
// source).
#pragma once

#include <memory>
#include <optional>

#include "analysis/range_summary.h"
#include "panels/table_model.h"
#include "panels/table_panel.h"
#include "state/viewer_state.h"

class HotspotsModel;
class QLabel;

class SelectionModel : public TableModel {
    Q_OBJECT
public:
    enum Column { Name, Process, Count, Wall, Average, Self, Share };
    SelectionModel();
    // Summarises range in doc (no rows without either).
    void show(std::shared_ptr<const ViewedTrace> doc, std::optional<RangeSelection> range);
    // Null when no range is summarised.
    const std::shared_ptr<const stackline::RangeSummary>& summary() const { return summary_; }

private:
    int rebuild() override;
    QVariant text(int row, int column) const override;
    QVariant extra(int row, int column, int role) const override;
    std::optional<RangeSelection> range_;
    std::shared_ptr<const stackline::RangeSummary> summary_;
};

class SelectionPanel : public TablePanel {
    Q_OBJECT
public:
    explicit SelectionPanel(ViewerState* state, QWidget* parent = nullptr);
    SelectionModel* model() const { return model_; }
    // The range's GPU time by Python line.
    TablePanel* lines() const { return lines_; }
    HotspotsModel* linesModel() const { return linesModel_; }
    // The streams and Python-line figures, as shown.
    QString streamsText() const;

private:
    void refresh();
    ViewerState* state_;
    SelectionModel* model_;
    QLabel* streams_;
    TablePanel* lines_;
    HotspotsModel* linesModel_;
};
