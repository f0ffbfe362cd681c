// Every GPU kernel name with its count, total and mean time and provenance status. Activating a
// row selects the next instance of that kernel after the current selection.
#pragma once

#include <QAbstractTableModel>
#include <memory>
#include <vector>

#include "document.h"
#include "table_panel.h"

class KernelsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Count, Total, Mean, Status, ColumnCount };
    struct Entry {
        QString name;
        int64_t total = 0;
        uint32_t annotated = 0, unresolved = 0, outside = 0;
        std::vector<uint32_t> instances;  // event rows by start time
    };

    void setDocument(const Document* doc);
    const Entry& entry(int row) const { return entries_[size_t(row)]; }
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    std::vector<Entry> entries_;
};

class KernelsPanel : public TablePanel {
    Q_OBJECT
public:
    explicit KernelsPanel(QWidget* parent = nullptr);
    void setDocument(std::shared_ptr<const Document> doc);
    KernelsModel* model() const { return model_; }

public slots:
    void setSelectedEvent(uint32_t row) { selected_ = row; }

signals:
    void eventActivated(uint32_t row);

private:
    KernelsModel* model_;
    std::shared_ptr<const Document> doc_;
    uint32_t selected_ = stackline::kNoRow;
};
