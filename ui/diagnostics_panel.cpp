#include "diagnostics_panel.h"

#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QTableView>

#include "diagnostic.h"
#include "palette.h"
#include "viewer_state.h"

using namespace stackline;

DiagnosticsModel::DiagnosticsModel()
    : TableModel({tr("Severity"), tr("Kind"), tr("Event"), tr("uid"), tr("Message")}) {}

uint32_t DiagnosticsModel::eventAt(int row) const {
    return doc_->provenance.diagnostics[size_t(row)].row;
}

int DiagnosticsModel::rowOf(uint32_t event) const {
    if (!doc_ || event == kNoRow) return -1;
    const auto& diags = doc_->provenance.diagnostics;
    for (size_t i = 0; i < diags.size(); ++i)
        if (diags[i].row == event) return int(i);
    return -1;
}

int DiagnosticsModel::rebuild() {
    return doc_ ? int(doc_->provenance.diagnostics.size()) : 0;
}

QVariant DiagnosticsModel::text(int row, int column) const {
    const Diagnostic& d = doc_->provenance.diagnostics[size_t(row)];
    switch (column) {
        case Severity:
            return d.severity() == Severity::Error ? tr("error") : tr("warning");
        case Kind:
            return QString::fromUtf8(d.kindName().data(), qsizetype(d.kindName().size()));
        case Event:
            return QString::fromStdString(d.name);
        case Uid:
            return d.row == kNoRow ? QVariant() : QVariant(qint64(d.row));
        case Message:
            return QString::fromStdString(d.message);
    }
    return {};
}

QVariant DiagnosticsModel::extra(int row, int column, int role) const {
    const Diagnostic& d = doc_->provenance.diagnostics[size_t(row)];
    const bool error = d.severity() == Severity::Error;
    if (role == kSortRole) {
        if (column == Uid) return d.row == kNoRow ? qint64(-1) : qint64(d.row);
        if (column == Severity) return error ? 0 : 1;
    }
    if (role == Qt::ForegroundRole && column == Severity)
        return uiColor(error ? UiColor::Error : UiColor::Warning);
    return {};
}

DiagnosticsPanel::DiagnosticsPanel(ViewerState* state, QWidget* parent)
    : TablePanel(new DiagnosticsModel, tr("Filter diagnostics…"), parent),
      state_(state),
      model_(static_cast<DiagnosticsModel*>(proxy()->sourceModel())) {
    view()->horizontalHeader()->resizeSection(DiagnosticsModel::Kind, 200);
    view()->horizontalHeader()->resizeSection(DiagnosticsModel::Event, 260);
    connect(this, &TablePanel::rowActivated, this, [this](int row) {
        const uint32_t event = model_->eventAt(row);
        if (event != kNoRow) state_->select(event, true);
    });
    connect(state_, &ViewerState::documentsChanged, this,
            [this] { model_->setDocument(state_->current()); });
    connect(state_, &ViewerState::selectionChanged, this, [this] {
        const auto doc = state_->current();
        const uint32_t event = state_->selectedRow(doc.get());
        // Several diagnostics can be about one event: keep the one the user clicked.
        const int marked = markedSourceRow();
        if (marked >= 0 && event != kNoRow && model_->eventAt(marked) == event) return;
        markSourceRow(model_->rowOf(event));
    });
}
