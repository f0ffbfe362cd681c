// Every GPU kernel name with its count, total and mean time and provenance status. Activating a
// row selects the next instance of that kernel after the current selection; the row of the
// selected kernel is marked, and the stepper beside the filter steps through its instances.
// "Range only" lists the kernels overlapping the selected range (on its tracks when it names
// some, as the Selection tab counts slices), with their time inside it. With several documents
// (the ranks of a job) a row is a kernel name over all of them: Count and Total are sums, a column
// per rank gives its total time, and the stepper goes through the current document's instances.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "panels/lazy_result.h"
#include "panels/table_model.h"
#include "panels/table_panel.h"
#include "state/viewed_trace.h"
#include "state/viewer_state.h"

class InstanceStepper;
class RangeToggle;

class KernelsModel : public TableModel {
    Q_OBJECT
public:
    // With several documents, a total-time column per document follows Status.
    enum Column { Name, Count, Total, Mean, Status, FirstRank };
    struct Entry {
        QString name;
        int64_t total = 0;
        uint64_t count = 0;
        uint32_t annotated = 0, unresolved = 0, outside = 0;
        std::vector<uint32_t> instances;  // the current document's event rows by start time
        std::vector<int64_t> rankTotals;  // per document, with several
    };

    KernelsModel();

    // Lists doc's kernels, those of range only when given (null doc: none).
    void show(std::shared_ptr<const ViewedTrace> doc, std::optional<RangeSelection> range);
    // Lists the kernels of several documents by name; instances are current's. The range is
    // current's; shifts[i] moves it onto docs[i]'s own time (the same span of the shared axis).
    void showRanks(std::vector<std::shared_ptr<const ViewedTrace>> docs,
                   std::shared_ptr<const ViewedTrace> current, std::vector<int64_t> shifts,
                   std::optional<RangeSelection> range);
    // Documents with a column of their own (0 with one document).
    int rankCount() const { return docs_.size() > 1 ? int(docs_.size()) : 0; }

    const Entry& entry(int row) const { return entries_[size_t(row)]; }
    // The row of a kernel event's name; -1 when the event is not a kernel listed here.
    int rowOf(uint32_t event) const;

private:
    int rebuild() override;
    // Adds one document's kernels (the i-th of docs_).
    void add(size_t i, std::unordered_map<std::string, size_t>& byText);
    QVariant text(int row, int column) const override;
    QVariant extra(int row, int column, int role) const override;

    std::optional<RangeSelection> range_;                   // none: the whole trace
    std::vector<std::shared_ptr<const ViewedTrace>> docs_;  // with several: all of them
    std::vector<int64_t> shifts_;                           // parallel to docs_
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

private:
    // The stepper goes through this row's kernel.
    void stepThrough(int row);
    // Lists the documents' kernels (of the range when the toggle says so).
    void refill();

    ViewerState* state_;
    KernelsModel* model_;
    InstanceStepper* stepper_;
    RangeToggle* rangeOnly_;
    int stepped_ = -1;  // the row the stepper goes through
    std::shared_ptr<const ViewedTrace> doc_;
    ShowGate gate_{this, [this] { refill(); }};  // the range toggle waits for the tab to be shown
};
