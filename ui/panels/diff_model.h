// The Diff tab's two tables over one RunDiff (core diffRuns): source lines and kernel names, base
// run against new run, in the diff's compared times (per profiler step when the runs have
// different numbers of steps, else for the whole run). Rows are tinted by their delta (palette's
// deltaColor: slower red, faster green, stronger the larger the change); deltas sort signed, so
// that descending puts what got slower first.
#pragma once

#include <memory>

#include "analysis/run_diff.h"
#include "panels/table_model.h"
#include "state/viewed_trace.h"

// Shared by both tables: the diff shown, the tint of a row, the ratio's text.
class DiffTableModel : public TableModel {
    Q_OBJECT
public:
    using TableModel::TableModel;
    // Shows this diff of base (null: none).
    void show(std::shared_ptr<const ViewedTrace> base,
              std::shared_ptr<const stackline::RunDiff> diff);
    const stackline::RunDiff* shown() const { return diff_.get(); }
    // The base run's document shown (null: none).
    const std::shared_ptr<const ViewedTrace>& document() const { return doc_; }

protected:
    int rebuild() override;
    virtual int size() const = 0;
    // A row's shown delta, for its tint.
    virtual int64_t deltaOf(int row) const = 0;
    // The background of a row, or invalid for none.
    QVariant tint(int row) const;
    // "×1.25"; "new" when only the new run has it, "gone" when only the base one does.
    static QString ratioText(int64_t baseNs, int64_t nextNs);
    // The ratio's sort key: gone rows first, new ones last.
    static double ratioKey(int64_t baseNs, int64_t nextNs);

    std::shared_ptr<const stackline::RunDiff> diff_;
    int64_t largestDelta_ = 0;  // |delta| of the row that changed most
};

class DiffLinesModel : public DiffTableModel {
    Q_OBJECT
public:
    enum Column { Where, Function, Code, Base, New, Delta, Ratio, Launches };
    DiffLinesModel();
    const stackline::DiffLine& line(int row) const { return diff_->lines[size_t(row)]; }
    // A row's compared self times.
    int64_t baseNs(int row) const;
    int64_t nextNs(int row) const;

private:
    int size() const override;
    int64_t deltaOf(int row) const override { return diff_->delta(line(row)); }
    QVariant text(int row, int column) const override;
    QVariant extra(int row, int column, int role) const override;
};

class DiffKernelsModel : public DiffTableModel {
    Q_OBJECT
public:
    enum Column { Kernel, BaseCount, NewCount, Base, New, Delta, Ratio };
    DiffKernelsModel();
    const stackline::DiffKernel& kernel(int row) const { return diff_->kernels[size_t(row)]; }
    // A row's compared times.
    int64_t baseNs(int row) const;
    int64_t nextNs(int row) const;

private:
    int size() const override;
    int64_t deltaOf(int row) const override { return diff_->delta(kernel(row)); }
    QVariant text(int row, int column) const override;
    QVariant extra(int row, int column, int role) const override;
};
