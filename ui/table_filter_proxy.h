// The filter and sort proxy of a TablePanel. A row passes the filter when the text of any of its
// cells contains the filter string, ignoring case. Each row's text is folded once per model reset
// and sort keys are read once per sort, so that refiltering 40k rows on a keystroke checks
// strings instead of asking the model for every cell.
#pragma once

#include <QSortFilterProxyModel>
#include <QStringList>
#include <QVariantList>

class TableFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit TableFilterProxy(QObject* parent = nullptr);

    // Shows only the rows containing text (empty: all).
    void setFilterText(const QString& text);
    QString filterText() const { return needle_; }
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    void forgetRows();

    QString needle_;                 // case-folded
    mutable QStringList haystacks_;  // per source row: its cells' text, case-folded
    mutable QVariantList sortKeys_;  // per source row: the sort column's key
    mutable int sortKeysColumn_ = -1;
};
