// GPU kernels launched from a compiled region that ended up without a stack: the ones to fix.
// Activating one selects it; the selected one is marked, and the stepper beside the filter steps
// through the unresolved instances of its kernel.
#pragma once

#include <memory>
#include <vector>

#include "panels/table_model.h"
#include "panels/table_panel.h"
#include "state/viewed_trace.h"

class InstanceStepper;
class ViewerState;

class UnresolvedModel : public TableModel {
    Q_OBJECT
public:
    enum Column { Name, Start, Duration, Uid, Region };

    UnresolvedModel();

    uint32_t eventAt(int row) const { return rows_[size_t(row)]; }
    // The row listing an event, or -1.
    int rowOf(uint32_t event) const;
    // The listed events with the same kernel name as this one, by start time.
    std::vector<uint32_t> sameKernel(uint32_t event) const;

private:
    int rebuild() override;
    QVariant text(int row, int column) const override;
    QVariant extra(int row, int column, int role) const override;
    // An event's start from the start of the trace.
    int64_t startOf(uint32_t row) const;

    std::vector<uint32_t> rows_;  // by start time
};

class UnresolvedPanel : public TablePanel {
    Q_OBJECT
public:
    explicit UnresolvedPanel(ViewerState* state, QWidget* parent = nullptr);
    UnresolvedModel* model() const { return model_; }
    InstanceStepper* stepper() const { return stepper_; }

private:
    ViewerState* state_;
    UnresolvedModel* model_;
    InstanceStepper* stepper_;
};
