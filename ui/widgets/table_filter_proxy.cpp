#include "widgets/table_filter_proxy.h"

#include <algorithm>
#include <numeric>

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
    connect(this, &QSortFilterProxyModel::sortRoleChanged, this, [this] { rankColumn_ = -1; });
}

void TableFilterProxy::forgetRows() {
    haystacks_.clear();
    accepted_.clear();
    rank_.clear();
    rankColumn_ = -1;
}

void TableFilterProxy::prepare() const {
    const QAbstractItemModel* model = sourceModel();
    const int rows = model ? model->rowCount() : 0;
    if (haystacks_.size() == rows) return;
    haystacks_.clear();
    haystacks_.reserve(rows);
    const int columns = model->columnCount();
    for (int r = 0; r < rows; ++r) {
        QString text;
        for (int c = 0; c < columns; ++c)
            text += model->index(r, c).data().toString() + QLatin1Char('\n');
        haystacks_.append(text.toCaseFolded());
    }
}

std::vector<char> TableFilterProxy::matching() const {
    const QAbstractItemModel* model = sourceModel();
    const int rows = model ? model->rowCount() : 0;
    if (needle_.isEmpty()) return std::vector<char>(size_t(rows), 1);
    prepare();
    std::vector<char> match(static_cast<size_t>(rows));
    for (int r = 0; r < rows; ++r) match[size_t(r)] = haystacks_[r].contains(needle_);
    return match;
}

void TableFilterProxy::setFilterText(const QString& text) {
    const QString needle = text.toCaseFolded();
    if (needle == needle_) return;
    needle_ = needle;
    std::vector<char> match = matching();
    if (match == accepted_) return;  // the same rows: nothing to redo
    accepted_ = std::move(match);
    // A full remap: removing the rows that went one range at a time costs far more when sorted.
    invalidate();
}

bool TableFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex&) const {
    if (accepted_.empty()) accepted_ = matching();
    return size_t(sourceRow) < accepted_.size() && accepted_[size_t(sourceRow)];
}

bool TableFilterProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const {
    if (rankColumn_ != left.column()) {
        // Rank the rows once by the column's sort keys, as QSortFilterProxyModel compares them:
        // empty cells last, equal keys equal.
        const QAbstractItemModel* model = sourceModel();
        const int rows = model->rowCount();
        std::vector<QVariant> keys(static_cast<size_t>(rows));
        for (int r = 0; r < rows; ++r)
            keys[size_t(r)] = model->index(r, left.column()).data(sortRole());
        auto less = [&](int a, int b) {
            const QVariant& x = keys[size_t(a)];
            const QVariant& y = keys[size_t(b)];
            if (!x.isValid() || !y.isValid()) return y.isValid() < x.isValid();
            return QVariant::compare(x, y) == QPartialOrdering::Less;
        };
        std::vector<int> order(static_cast<size_t>(rows));
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), less);
        rank_.assign(size_t(rows), 0);
        for (size_t i = 1; i < order.size(); ++i)
            rank_[size_t(order[i])] =
                rank_[size_t(order[i - 1])] + (less(order[i - 1], order[i]) ? 1 : 0);
        rankColumn_ = left.column();
    }
    return rank_[size_t(left.row())] < rank_[size_t(right.row())];
}
