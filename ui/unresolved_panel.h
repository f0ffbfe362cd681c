// GPU kernels launched from a compiled region that ended up without a stack: the ones to fix.
// Activating one selects it; the selected one is marked.
#pragma once

#include <QAbstractTableModel>
#include <memory>
#include <vector>

#include "document.h"
#include "table_panel.h"

class ViewerState;

class UnresolvedModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Start, Duration, Uid, Region, ColumnCount };

    void setDocument(std::shared_ptr<const Document> doc);
    uint32_t eventAt(int row) const { return rows_[size_t(row)]; }
    // The row listing an event, or -1.
    int rowOf(uint32_t event) const;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    std::shared_ptr<const Document> doc_;
    std::vector<uint32_t> rows_;  // by start time
};

class UnresolvedPanel : public TablePanel {
    Q_OBJECT
public:
    explicit UnresolvedPanel(ViewerState* state, QWidget* parent = nullptr);
    int count() const { return model_->rowCount(); }

private:
    ViewerState* state_;
    UnresolvedModel* model_;
};
