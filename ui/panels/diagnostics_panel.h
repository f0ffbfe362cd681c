// The processor's warnings and errors, grouped for reading: kind → message (with its count) → the
// events it is about. The reference logs some warnings twice per kernel and a big trace has
// hundreds of thousands; grouped (once per document, in core, from the records) they are a few
// lines, and only the rows shown render their text. Below the tree, what each kind means and what
// to do, and the whole text of the current message. Activating an event selects it; the first
// diagnostic about the selected event is marked.
#pragma once

#include <QAbstractItemModel>
#include <QWidget>
#include <memory>

#include "annotate/diagnostic_groups.h"
#include "state/viewed_trace.h"

class QLineEdit;
class QSortFilterProxyModel;
class QTextBrowser;
class QTimer;
class QTreeView;
class ViewerState;

class DiagnosticsModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { Text, Count, Uid };

    void setDocument(std::shared_ptr<const ViewedTrace> doc);
    const ViewedTrace* document() const { return doc_.get(); }
    const stackline::DiagnosticGroups& groups() const { return groups_; }
    // Diagnostics in the run (every occurrence).
    int diagnosticCount() const;

    // The diagnostic an index stands for: a message's or an event's first one; -1 for a kind.
    int diagnosticAt(const QModelIndex& index) const;
    // The event of an event row, else kNoRow.
    uint32_t eventAt(const QModelIndex& index) const;
    // The kind of any row.
    stackline::DiagnosticKind kindAt(const QModelIndex& index) const;
    // The row of the first diagnostic about an event (invalid if none).
    QModelIndex indexOfEvent(uint32_t event) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& index) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    // A row's place: kind, message (-1 on a kind row), event (-1 unless an event row).
    struct Place {
        int kind = -1, message = -1, event = -1;
    };
    Place placeOf(const QModelIndex& index) const;
    QString text(const Place& at) const;
    QString toolTip(const Place& at) const;

    std::shared_ptr<const ViewedTrace> doc_;
    stackline::DiagnosticGroups groups_;
};

class DiagnosticsPanel : public QWidget {
    Q_OBJECT
public:
    explicit DiagnosticsPanel(ViewerState* state, QWidget* parent = nullptr);

    DiagnosticsModel* model() const { return model_; }
    QTreeView* view() const { return view_; }
    QLineEdit* filter() const { return filter_; }
    // What each kind means, and the current message in full.
    QTextBrowser* explanation() const { return explanation_; }
    // Diagnostics in the run (every occurrence), shown or filtered out.
    int count() const;
    // The diagnostic the marked (current) row stands for, or -1.
    int markedDiagnostic() const;
    // Activates the row showing a model index (as a click does).
    void activate(const QModelIndex& modelIndex);

private:
    void markEvent(uint32_t event);
    void explain(const QModelIndex& modelIndex);

    ViewerState* state_;
    DiagnosticsModel* model_;
    QSortFilterProxyModel* proxy_;
    QLineEdit* filter_;
    QTimer* filterDelay_;
    QTreeView* view_;
    QTextBrowser* explanation_;
};
