#include "panels/table_model.h"

int TableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : rowCount_;
}

int TableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(headers_.size());
}

QVariant TableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount_) return {};
    if (role == Qt::DisplayRole) return text(index.row(), index.column());
    QVariant value = extra(index.row(), index.column(), role);
    if (value.isValid() || (role != kSortRole && role != Qt::ToolTipRole)) return value;
    return text(index.row(), index.column());
}

void TableModel::setDocument(std::shared_ptr<const ViewedTrace> doc) {
    beginResetModel();
    doc_ = std::move(doc);
    rowCount_ = rebuild();
    endResetModel();
}

QVariant TableModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= headers_.size())
        return {};
    return headers_[section];
}
