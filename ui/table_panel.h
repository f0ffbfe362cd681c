// A filterable, sortable table: a filter field over a QTableView on a QSortFilterProxyModel.
// Rows sort by the model's TableModel::kSortRole. Clicking or activating a row reports its
// source-model row; a panel that follows the viewer's selection marks the row showing it.
#pragma once

#include <QWidget>

class QLineEdit;
class QSortFilterProxyModel;
class QTableView;
class TableModel;

class TablePanel : public QWidget {
    Q_OBJECT
public:
    // Takes ownership of a model that has no parent.
    TablePanel(TableModel* model, const QString& filterHint, QWidget* parent = nullptr);

    QTableView* view() const { return view_; }
    QSortFilterProxyModel* proxy() const { return proxy_; }
    QLineEdit* filter() const { return filter_; }
    // Rows in the model, shown or filtered out.
    int count() const;
    // Clicks the row showing source row `row` (for tests and keyboard navigation).
    void activateSourceRow(int row);
    // Marks the row showing source row `row` as the current one, scrolled into view, without
    // activating it (a panel following the selection); -1 clears the mark.
    void markSourceRow(int row);
    // The source row of the marked (current) row, or -1.
    int markedSourceRow() const;

signals:
    void rowActivated(int sourceRow);

private:
    QLineEdit* filter_;
    QSortFilterProxyModel* proxy_;
    QTableView* view_;
};
