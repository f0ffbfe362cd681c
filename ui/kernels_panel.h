// Every GPU kernel name with its count, total and mean time and provenance status. Activating a
// row selects the next instance of that kernel after the current selection; the row of the
// selected kernel is marked, and the stepper beside the filter steps through its instances.
// "Range only" lists the kernels overlapping the selected range (on its tracks when it names
// some, as the Selection tab counts slices), with their time inside it.
#pragma once

#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "document.h"
#include "table_model.h"
#include "table_panel.h"
#include "viewer_state.h"

class InstanceStepper;
class RangeToggle;

class KernelsModel : public TableModel {
    Q_OBJECT
public:
    enum Column { Name, Count, Total, Mean, Status };
    struct Entry {
        QString name;
        int64_t total = 0;
        uint32_t annotated = 0, unresolved = 0, outside = 0;
        std::vector<uint32_t> instances;  // event rows by start time
    };

    KernelsModel();

    // Lists doc's kernels, those of range only when given (null doc: none).
    void show(std::shared_ptr<const Document> doc, std::optional<RangeSelection> range);

    const Entry& entry(int row) const { return entries_[size_t(row)]; }
    // The row of a kernel event's name; -1 when the event is not a kernel listed here.
    int rowOf(uint32_t event) const;

private:
    int rebuild() override;
    QVariant text(int row, int column) const override;
    QVariant extra(int row, int column, int role) const override;

    std::optional<RangeSelection> range_;  // none: the whole trace
    std::vector<Entry> entries_;
    std::unordered_map<uint32_t, size_t> byName_;  // name id -> entry
};

class KernelsPanel : public TablePanel {
    Q_OBJECT
public:
    explicit KernelsPanel(ViewerState* state, QWidget* parent = nullptr);
    KernelsModel* model() const { return model_; }
    // Steps through the instances of the marked kernel.
    InstanceStepper* stepper() const { return stepper_; }
    RangeToggle* rangeOnly() const { return rangeOnly_; }

protected:
    void showEvent(QShowEvent* e) override;

private:
    // The stepper goes through this row's kernel.
    void stepThrough(int row);
    // Lists the current document's kernels (of the range when the toggle says so).
    void refill();

    ViewerState* state_;
    KernelsModel* model_;
    InstanceStepper* stepper_;
    RangeToggle* rangeOnly_;
    bool stale_ = false;  // the range changed while the tab was hidden
    int stepped_ = -1;    // the row the stepper goes through
    std::shared_ptr<const Document> doc_;
};
