#include "panels/table_panel.h"

#include <QElapsedTimer>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include "panels/table_model.h"
#include "widgets/table_filter_proxy.h"

TablePanel::TablePanel(TableModel* model, const QString& filterHint, QWidget* parent)
    : QWidget(parent) {
    if (!model->parent()) model->setParent(this);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    filter_ = new QLineEdit;
    filter_->setPlaceholderText(filterHint);
    filter_->setClearButtonEnabled(true);
    filterRow_ = new QHBoxLayout;
    filterRow_->addWidget(filter_, 1);
    layout->addLayout(filterRow_);

    proxy_ = new TableFilterProxy(this);
    proxy_->setSourceModel(model);
    proxy_->setSortRole(TableModel::kSortRole);
    filterDelay_.setSingleShot(true);
    filterDelay_.setInterval(kFilterDelayMs);
    filter_->installEventFilter(this);
    connect(filter_, &QLineEdit::textChanged, this, [this] {
        if (lastFilterMs_ <= kInstantFilterMs)
            applyFilter();
        else
            filterDelay_.start();
    });
    connect(&filterDelay_, &QTimer::timeout, this, &TablePanel::applyFilter);

    view_ = new QTableView;
    view_->setModel(proxy_);
    view_->setSortingEnabled(true);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::SingleSelection);
    view_->setAlternatingRowColors(true);
    view_->setTextElideMode(Qt::ElideMiddle);  // kernel names differ in their middle
    view_->setWordWrap(false);
    view_->verticalHeader()->hide();
    view_->verticalHeader()->setDefaultSectionSize(view_->fontMetrics().height() + 6);
    view_->horizontalHeader()->setStretchLastSection(true);
    view_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    auto activate = [this](const QModelIndex& index) {
        if (index.isValid()) emit rowActivated(proxy_->mapToSource(index).row());
    };
    connect(view_, &QTableView::clicked, this, activate);
    connect(view_, &QTableView::activated, this, activate);
    layout->addWidget(view_);
}

QSortFilterProxyModel* TablePanel::proxy() const {
    return proxy_;
}

void TablePanel::addBesideFilter(QWidget* widget) {
    filterRow_->addWidget(widget);
}

bool TablePanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == filter_ && event->type() == QEvent::FocusIn) proxy_->prepare();
    return QWidget::eventFilter(watched, event);
}

void TablePanel::applyFilter() {
    filterDelay_.stop();
    proxy_->prepare();  // once per model: not what decides whether refiltering is quick
    QElapsedTimer timer;
    timer.start();
    proxy_->setFilterText(filter_->text());
    lastFilterMs_ = timer.elapsed();
    emit filterApplied();
}

int TablePanel::count() const {
    return proxy_->sourceModel()->rowCount();
}

void TablePanel::activateSourceRow(int row) {
    const QModelIndex index = proxy_->mapFromSource(proxy_->sourceModel()->index(row, 0));
    if (!index.isValid()) return;
    view_->setCurrentIndex(index);
    emit rowActivated(row);
}

void TablePanel::markSourceRow(int row) {
    const QModelIndex index =
        row < 0 ? QModelIndex() : proxy_->mapFromSource(proxy_->sourceModel()->index(row, 0));
    if (!index.isValid()) {
        view_->selectionModel()->clear();
        return;
    }
    view_->selectionModel()->setCurrentIndex(
        index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    view_->scrollTo(index);
}

int TablePanel::markedSourceRow() const {
    const QModelIndex index = view_->selectionModel()->currentIndex();
    return index.isValid() && view_->selectionModel()->isSelected(index)
               ? proxy_->mapToSource(index).row()
               : -1;
}
