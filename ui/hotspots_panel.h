// Source hotspots: GPU kernel time by Python source line (core computeHotspots), sorted by self
// time. Selecting a line reports the kernel events it launched (the timeline highlights them)
// and lists its kernels; activating a kernel there selects its first instance.
#pragma once

#include <QAbstractTableModel>
#include <QWidget>
#include <memory>
#include <vector>

#include "document.h"

class QLabel;
class QListWidget;
class TablePanel;

class HotspotsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { File, Line, Function, Code, Self, Total, Launches, Kernels, ColumnCount };

    void setDocument(const Document* doc);
    const stackline::SourceLine& line(int row) const { return doc_->hotspots.lines[size_t(row)]; }
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    const Document* doc_ = nullptr;
};

class HotspotsPanel : public QWidget {
    Q_OBJECT
public:
    explicit HotspotsPanel(QWidget* parent = nullptr);
    void setDocument(std::shared_ptr<const Document> doc);

    HotspotsModel* model() const { return model_; }
    TablePanel* table() const { return table_; }
    QListWidget* kernelList() const { return kernels_; }
    // Selects the line shown at this (sorted) position of the table; -1 clears.
    void selectVisualRow(int row);
    // The source-model row selected, or -1.
    int selectedLine() const { return selected_; }
    int count() const;

signals:
    // The kernel events of the selected line (empty: none selected).
    void kernelsHighlighted(const std::vector<uint32_t>& rows);
    void eventActivated(uint32_t row);
    void sourceRequested(const QString& file, int line, const QString& code);

private:
    void selectLine(int sourceRow);

    std::shared_ptr<const Document> doc_;
    HotspotsModel* model_;
    TablePanel* table_;
    QLabel* summary_;
    QListWidget* kernels_;
    int selected_ = -1;
};
