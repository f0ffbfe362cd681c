// Every warning and error of the provenance processor, in the order it reported them. Activating
// one selects its event; the first one about the selected event is marked.
#pragma once

#include <QAbstractTableModel>
#include <memory>

#include "document.h"
#include "table_panel.h"

class ViewerState;

class DiagnosticsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Severity, Kind, Event, Uid, Message, ColumnCount };

    void setDocument(std::shared_ptr<const Document> doc);
    uint32_t eventAt(int row) const;
    // The first row about an event, or -1.
    int rowOf(uint32_t event) const;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    std::shared_ptr<const Document> doc_;
};

class DiagnosticsPanel : public TablePanel {
    Q_OBJECT
public:
    explicit DiagnosticsPanel(ViewerState* state, QWidget* parent = nullptr);
    int count() const { return model_->rowCount(); }

private:
    ViewerState* state_;
    DiagnosticsModel* model_;
};
