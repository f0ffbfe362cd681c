#include "table_filter_proxy.h"

TableFilterProxy::TableFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {
    // The cached rows go as soon as the model is about to change.
    connect(this, &QSortFilterProxyModel::sourceModelChanged, this, [this] {
        forgetRows();
        const QAbstractItemModel* model = sourceModel();
        connect(model, &QAbstractItemModel::modelAboutToBeReset, this,
                &TableFilterProxy::forgetRows);
        connect(model, &QAbstractItemModel::layoutAboutToBeChanged, this,
                &TableFilterProxy::forgetRows);
        connect(model, &QAbstractItemModel::dataChanged, this, &TableFilterProxy::forgetRows);
    });
}

void TableFilterProxy::forgetRows() {
    haystacks_.clear();
    sortKeys_.clear();
    sortKeysColumn_ = -1;
}

void TableFilterProxy::setFilterText(const QString& text) {
    const QString needle = text.toCaseFolded();
    if (needle == needle_) return;
    needle_ = needle;
    invalidateRowsFilter();
}

void TableFilterProxy::sort(int column, Qt::SortOrder order) {
    sortKeys_.clear();
    sortKeysColumn_ = -1;
    QSortFilterProxyModel::sort(column, order);
}

bool TableFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex&) const {
    if (needle_.isEmpty()) return true;
    const QAbstractItemModel* model = sourceModel();
    if (haystacks_.isEmpty()) {
        const int rows = model->rowCount(), columns = model->columnCount();
        haystacks_.reserve(rows);
        for (int r = 0; r < rows; ++r) {
            QString text;
            for (int c = 0; c < columns; ++c)
                text += model->index(r, c).data().toString() + QLatin1Char('\n');
            haystacks_.append(text.toCaseFolded());
        }
    }
    return haystacks_.value(sourceRow).contains(needle_);
}

bool TableFilterProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const {
    if (sortKeysColumn_ != left.column()) {
        const QAbstractItemModel* model = sourceModel();
        sortKeys_.clear();
        sortKeys_.reserve(model->rowCount());
        for (int r = 0; r < model->rowCount(); ++r)
            sortKeys_.append(model->index(r, left.column()).data(sortRole()));
        sortKeysColumn_ = left.column();
    }
    const QVariant& a = sortKeys_.at(left.row());
    const QVariant& b = sortKeys_.at(right.row());
    // Empty cells last, as QSortFilterProxyModel sorts them.
    if (!a.isValid() || !b.isValid()) return b.isValid() < a.isValid();
    return QVariant::compare(a, b) == QPartialOrdering::Less;
}
