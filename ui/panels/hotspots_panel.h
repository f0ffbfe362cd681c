// Source hotspots: GPU kernel time by Python source line (core computeHotspots), sorted by self
// time, in the unit that suits each; a row's tooltip names its full path. Over the whole trace
// and compiled kernels by default; "Range only" restricts it to the selected range and "All
// kernels" counts eager kernels too (both recomputed off the GUI thread while the tab is shown).
// Choosing a line highlights the kernel events it launched (through the viewer state), shows its
// source and lists its kernels; the stepper goes through the line's kernel events, or through the
// instances of the kernel chosen in the list (choosing one selects its first instance;
// double-clicking it or "Show Kernel Code" also asks for the Kernel code tab). When
// another kernel is selected, the line that launched it is marked and listed (the highlight stays
// what the user chose). With several documents (the ranks of a job) lines are matched across them
// by file, line and function (core rankHotspots), a column per rank gives its self time, the
// Self, Total and Launches columns their sums; a line's kernels are highlighted on every rank, the
// list and stepper go through the current document's.
#pragma once

#include <QWidget>
#include <memory>
#include <vector>

#include "analysis/rank_hotspots.h"
#include "panels/lazy_result.h"
#include "panels/table_model.h"
#include "state/viewed_trace.h"

class InstanceStepper;
class QCheckBox;
class QLabel;
class RangeToggle;
class QListWidget;
class TablePanel;
class ViewerState;

class HotspotsModel : public TableModel {
    Q_OBJECT
public:
    // With several documents, a self-time column per document follows Kernels.
    enum Column { File, Line, Function, Code, Self, Total, Launches, Kernels, FirstRank };

    HotspotsModel();

    // Shows these lines of doc (null: none).
    void show(std::shared_ptr<const ViewedTrace> doc,
              std::shared_ptr<const stackline::Hotspots> hotspots);
    // Shows the lines of several documents, side by side (null ranked: none).
    void showRanks(std::vector<std::shared_ptr<const ViewedTrace>> docs,
                   std::shared_ptr<const stackline::RankedHotspots> ranked);
    // A line's figures (with several documents: their sums, without rows).
    const stackline::SourceLine& line(int row) const;
    // The line's kernel events in doc (empty when doc is not shown).
    const std::vector<uint32_t>& rowsIn(int row, const ViewedTrace* doc) const;
    // The figures shown with one document (null when none, or several documents).
    const stackline::Hotspots* hotspots() const { return hotspots_.get(); }
    // The figures shown with several documents (null when one or none).
    const stackline::RankedHotspots* ranked() const { return ranked_.get(); }
    // Documents with a column of their own (0 with one document).
    int rankCount() const { return ranked_ ? int(docs_.size()) : 0; }

private:
    // The column headers for these documents (one: none of their own).
    static QStringList headers(const std::vector<std::shared_ptr<const ViewedTrace>>& docs);
    int rebuild() override;
    QVariant text(int row, int column) const override;
    QVariant extra(int row, int column, int role) const override;

    std::shared_ptr<const stackline::Hotspots> hotspots_;
    std::shared_ptr<const stackline::RankedHotspots> ranked_;
    std::vector<std::shared_ptr<const ViewedTrace>> docs_;  // with ranked_
};

class HotspotsPanel : public QWidget {
    Q_OBJECT
public:
    explicit HotspotsPanel(ViewerState* state, QWidget* parent = nullptr);

    HotspotsModel* model() const { return model_; }
    TablePanel* table() const { return table_; }
    QListWidget* kernelList() const { return kernels_; }
    InstanceStepper* stepper() const { return stepper_; }
    RangeToggle* rangeOnly() const { return rangeOnly_; }
    QCheckBox* allKernels() const { return allKernels_; }
    // The options the shown lines were computed with; true while a recomputation runs.
    const stackline::KernelStacksOptions& options() const { return shownOptions_; }
    bool isComputing() const { return computed_.isComputing(); }
    // Chooses the line shown at this (sorted) position of the table; -1 clears.
    void selectVisualRow(int row);
    // The source-model row shown, or -1.
    int selectedLine() const { return selected_; }
    int count() const;

signals:
    // The lines shown were replaced (another document, range or kernel set).
    void linesChanged();
    // A kernel of the list was double-clicked or its "Show Kernel Code" chosen: it is selected,
    // the Kernel code tab may show it.
    void kernelCodeRequested();

private:
    struct Computed {
        stackline::KernelStacksOptions options;
        std::shared_ptr<const stackline::Hotspots> hotspots;      // one document
        std::shared_ptr<const stackline::RankedHotspots> ranked;  // several
    };
    // The viewer's documents were replaced.
    void setDocuments();
    bool ranks() const { return docs_.size() > 1; }
    // The lines for the toggles and the range: at once when they are the document's own, else
    // off the GUI thread (behind gate_: when the toggles or the range change, recomputed now when
    // shown, else when next shown).
    void recompute();
    void showHotspots(const Computed& computed);
    // The user chose a line: highlight its kernels, show its source.
    void chooseLine(int sourceRow);
    // Lists a line's kernels and sums it up; the stepper goes through its kernel events.
    void showLine(int sourceRow);
    // A kernel of the shown line was chosen: select its first instance there, step through them.
    void chooseKernel(const QString& name);
    // Marks and lists the line that launched the selected kernel.
    void followSelection();
    // The source-model row of an event's innermost frame, or -1.
    int lineOf(const ViewedTrace& doc, uint32_t event) const;

    ViewerState* state_;
    std::vector<std::shared_ptr<const ViewedTrace>> docs_;
    std::shared_ptr<const ViewedTrace> doc_;  // the current one: its kernels are listed
    HotspotsModel* model_;
    TablePanel* table_;
    QLabel* summary_;
    QListWidget* kernels_;
    InstanceStepper* stepper_;
    RangeToggle* rangeOnly_;
    QCheckBox* allKernels_;
    stackline::KernelStacksOptions shownOptions_;
    ShowGate gate_{this, [this] { recompute(); }};
    // The lines asked for, computed in the background; a newer request drops an older one.
    LazyResult<Computed> computed_{[this](const Computed& c) { showHotspots(c); }};
    int selected_ = -1;
    bool following_ = false;  // marking a row is not choosing it
};
