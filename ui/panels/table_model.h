// The read-only table of one document behind a TablePanel: fixed column headers, rows derived
// from the document, the text of each cell. A cell's tooltip and sort key are the text it shows
// unless the model gives other ones, so a model names only what differs (numbers to sort by,
// colours, alignment).
#pragma once

#include <QAbstractTableModel>
#include <QStringList>
#include <memory>

#include "state/viewed_trace.h"

class TableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // Sort keys: numbers where the shown text would sort wrongly.
    static constexpr int kSortRole = Qt::UserRole + 10;

    // One header per column, in column order.
    explicit TableModel(QStringList headers) : headers_(std::move(headers)) {}

    int rowCount(const QModelIndex& parent = {}) const final;
    int columnCount(const QModelIndex& parent = {}) const final;
    QVariant data(const QModelIndex& index, int role) const final;
    QVariant headerData(int section, Qt::Orientation o, int role) const final;
    // Shows another document (null: none).
    void setDocument(std::shared_ptr<const ViewedTrace> doc);

protected:
    // Derives the rows from the new doc_ (null: none) and says how many there are.
    virtual int rebuild() = 0;
    // Replaces the column headers; from rebuild() only, where the columns may change with the
    // rows (one per rank of a job).
    void setHeaders(QStringList headers) { headers_ = std::move(headers); }
    // What a cell shows (Qt::DisplayRole).
    virtual QVariant text(int row, int column) const = 0;
    // Any other role of a cell; an invalid value means the default (for kSortRole and
    // Qt::ToolTipRole: the cell's text).
    virtual QVariant extra(int, int, int) const { return {}; }

    std::shared_ptr<const ViewedTrace> doc_;

private:
    QStringList headers_;
    int rowCount_ = 0;
};
