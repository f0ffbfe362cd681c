// The Diff tab: what got slower between two runs (the window's first document is the base run,
// its second the new one; File → Compare With… opens them so). Source lines or kernel names,
// base time against new time, computed by core diffRuns off the GUI thread whenever the window
// holds two documents and the tab is shown; a header line says whether times are per profiler step.
// Choosing a row outlines its kernels in both timelines (ViewerState::setHighlights), zooms to the
// first kernel of each run and selects the base run's.
#pragma once

#include <QWidget>
#include <memory>
#include <vector>

#include "panels/diff_model.h"
#include "panels/lazy_result.h"

class QAbstractButton;
class QCheckBox;
class ElidedLabel;
class QStackedWidget;
class TablePanel;
class ViewerState;

class DiffPanel : public QWidget {
    Q_OBJECT
public:
    explicit DiffPanel(ViewerState* state, QWidget* parent = nullptr);

    // The window holds two runs to compare.
    bool isComparing() const;
    // A diff is being computed; the tables show the previous one (or none).
    bool isComputing() const { return computed_.isComputing(); }
    DiffLinesModel* lines() const { return lines_; }
    DiffKernelsModel* kernels() const { return kernels_; }
    TablePanel* lineTable() const { return lineTable_; }
    TablePanel* kernelTable() const { return kernelTable_; }
    // "Kernels" shows the kernel table instead of the source lines.
    QAbstractButton* kernelsToggle() const { return kernelsButton_; }
    // Counts eager kernels too, by their Python stack (on by default: compared runs are often
    // eager).
    QCheckBox* allKernels() const { return allKernels_; }
    // The line over the tables: the two runs, and whether times are per step.
    ElidedLabel* header() const { return header_; }

    // Chooses a line (a kernel) by its source-model row, as clicking its row does.
    void chooseLine(int sourceRow);
    void chooseKernel(int sourceRow);

signals:
    // Another diff is shown (or none).
    void diffChanged();

private:
    // The documents or options changed: recompute now when shown (or when there is nothing to
    // compare), else when next shown.
    void invalidate();
    void recompute();
    void showDiff(std::shared_ptr<const stackline::RunDiff> diff);
    // Outlines these kernel events of the base and the new run and brings the first ones into
    // view.
    void highlight(const std::vector<uint32_t>& base, const std::vector<uint32_t>& next);

    ViewerState* state_;
    ElidedLabel* header_;
    QAbstractButton* linesButton_;
    QAbstractButton* kernelsButton_;
    QCheckBox* allKernels_;
    QStackedWidget* stack_;
    DiffLinesModel* lines_;
    DiffKernelsModel* kernels_;
    TablePanel* lineTable_;
    TablePanel* kernelTable_;
    ShowGate gate_{this, [this] { recompute(); }};
    // The diff asked for; a newer request (other documents or options) drops an older one.
    LazyResult<std::shared_ptr<const stackline::RunDiff>> computed_{
        [this](std::shared_ptr<const stackline::RunDiff> diff) { showDiff(std::move(diff)); }};
};
