// The Steps tab: each profiler step of the window's traces (the ranks of a job), per rank its
// duration, GPU compute time and time in collectives, and the step's straggler (core
// computeJobSteps, off the GUI thread), whose cells are marked. Clicking a cell zooms every rank
// to that step; a rank's cell also selects that rank's ProfilerStep slice.
#pragma once

#include <QAbstractTableModel>
#include <QWidget>
#include <memory>

#include "analysis/job_steps.h"
#include "panels/lazy_result.h"

class QLabel;
class QTableView;
class ViewerState;

class StepsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Step, Straggler, FirstRank };
    // The figures each rank has a column for, in column order.
    enum Figure { Duration, Compute, Collective, FigureCount };

    void show(std::shared_ptr<const stackline::JobSteps> steps);
    const stackline::JobSteps* steps() const { return steps_.get(); }
    static int columnOf(int rank, Figure figure) { return FirstRank + rank * FigureCount + figure; }
    // The rank a column shows, or -1 (the Step and Straggler columns).
    static int rankOf(int column) {
        return column < FirstRank ? -1 : (column - FirstRank) / FigureCount;
    }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    std::shared_ptr<const stackline::JobSteps> steps_;
};

class StepsPanel : public QWidget {
    Q_OBJECT
public:
    explicit StepsPanel(ViewerState* state, QWidget* parent = nullptr);

    StepsModel* model() const { return model_; }
    QTableView* view() const { return view_; }
    bool isComputing() const { return computed_.isComputing(); }
    // Steps were found (the tab has something to show).
    bool hasSteps() const;
    // What clicking this cell does: zooms every rank to the row's step (and selects the rank's
    // step slice for a rank's cell).
    void chooseCell(int row, int column);

signals:
    // The steps shown were replaced (other documents, or their computation finished).
    void stepsChanged();

private:
    void recompute();
    void showSteps(std::shared_ptr<const stackline::JobSteps> steps);

    ViewerState* state_;
    StepsModel* model_;
    QTableView* view_;
    QLabel* summary_;
    // The steps of the latest documents (computed whether shown or not: the tab is greyed
    // without steps); newer documents drop an older request.
    LazyResult<std::shared_ptr<const stackline::JobSteps>> computed_{
        [this](std::shared_ptr<const stackline::JobSteps> steps) { showSteps(std::move(steps)); }};
};
