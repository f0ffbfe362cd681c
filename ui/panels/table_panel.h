// A filterable, sortable table: a filter field over a QTableView on a TableFilterProxy. Rows sort
// by the model's TableModel::kSortRole. Typing in the filter refilters once the typing pauses, so
// that a long table never holds up the keyboard. Clicking or activating a row reports its
// source-model row; a panel that follows the viewer's selection marks the row showing it.
#pragma once

#include <QTimer>
#include <QWidget>

class QHBoxLayout;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;
class TableFilterProxy;
class TableModel;

class TablePanel : public QWidget {
    Q_OBJECT
public:
    // Takes ownership of a model that has no parent.
    TablePanel(TableModel* model, const QString& filterHint, QWidget* parent = nullptr);

    QTableView* view() const { return view_; }
    QSortFilterProxyModel* proxy() const;
    QLineEdit* filter() const { return filter_; }
    // Puts a widget right of the filter field (the panel's buttons).
    void addBesideFilter(QWidget* widget);
    // Applies the filter field's text now rather than when the typing pauses.
    void applyFilter();
    // Rows in the model, shown or filtered out.
    int count() const;
    // Clicks the row showing source row `row` (for tests and keyboard navigation).
    void activateSourceRow(int row);
    // Marks the row showing source row `row` as the current one, scrolled into view, without
    // activating it (a panel following the selection); -1 clears the mark.
    void markSourceRow(int row);
    // The source row of the marked (current) row, or -1.
    int markedSourceRow() const;

    // A table whose last refilter took at most kInstantFilterMs refilters at each keystroke; a
    // slower one once the typing pauses for kFilterDelayMs, so that a burst costs one refilter.
    static constexpr int kInstantFilterMs = 20;
    static constexpr int kFilterDelayMs = 200;

signals:
    void rowActivated(int sourceRow);
    // The table was refiltered.
    void filterApplied();

protected:
    // Entering the filter field prepares the first refilter.
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QHBoxLayout* filterRow_;
    QLineEdit* filter_;
    QTimer filterDelay_;
    qint64 lastFilterMs_ = 0;
    TableFilterProxy* proxy_;
    QTableView* view_;
};
