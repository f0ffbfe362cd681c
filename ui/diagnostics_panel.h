// Every warning and error of the provenance processor, in the order it reported them. Activating
// one selects its event; the first one about the selected event is marked.
#pragma once

#include <memory>

#include "document.h"
#include "table_model.h"
#include "table_panel.h"

class ViewerState;

class DiagnosticsModel : public TableModel {
    Q_OBJECT
public:
    enum Column { Severity, Kind, Event, Uid, Message };

    DiagnosticsModel();

    uint32_t eventAt(int row) const;
    // The first row about an event, or -1.
    int rowOf(uint32_t event) const;

private:
    int rebuild() override;
    QVariant text(int row, int column) const override;
    QVariant extra(int row, int column, int role) const override;
};

class DiagnosticsPanel : public TablePanel {
    Q_OBJECT
public:
    explicit DiagnosticsPanel(ViewerState* state, QWidget* parent = nullptr);

private:
    ViewerState* state_;
    DiagnosticsModel* model_;
};
