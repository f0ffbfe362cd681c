// The filter and sort proxy of a TablePanel. A row passes the filter when the text of any of its
// cells contains the filter string, ignoring case. Refiltering 40k rows on a keystroke must not
// hold up the keyboard, so each row's text is folded once per model reset, a filter string that
// keeps the same rows changes nothing, and rows sort by a rank computed once per sort column
// instead of comparing the model's sort keys again on every refilter.
#pragma once

#include <QSortFilterProxyModel>
#include <QStringList>
#include <vector>

class TableFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit TableFilterProxy(QObject* parent = nullptr);

    // Shows only the rows containing text (empty: all).
    void setFilterText(const QString& text);
    QString filterText() const { return needle_; }
    // Folds each row's text now (the first refilter does it otherwise): when the filter field is
    // entered, before the first keystroke.
    void prepare() const;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    void forgetRows();
    // Which rows contain needle_.
    std::vector<char> matching() const;

    QString needle_;                      // case-folded
    mutable QStringList haystacks_;       // per source row: its cells' text, case-folded
    mutable std::vector<char> accepted_;  // per source row: passes the filter (empty: not known)
    mutable std::vector<int> rank_;       // per source row: its place by the sort column's key
    mutable int rankColumn_ = -1;
};
