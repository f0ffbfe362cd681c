#include "unresolved_panel.h"

#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <algorithm>

#include "viewer_state.h"

using namespace stackline;

void UnresolvedModel::setDocument(std::shared_ptr<const Document> doc) {
    beginResetModel();
    doc_ = std::move(doc);
    rows_.clear();
    if (doc_) {
        const EventTable& ev = doc_->events();
        for (uint32_t row = 0; row < ev.size(); ++row)
            if (ev.phase[row] == 'X' && doc_->isKernel(row) &&
                doc_->status(row) == KernelStatus::Unresolved)
                rows_.push_back(row);
        std::stable_sort(rows_.begin(), rows_.end(),
                         [&](uint32_t a, uint32_t b) { return ev.tsNs[a] < ev.tsNs[b]; });
    }
    endResetModel();
}

int UnresolvedModel::rowOf(uint32_t event) const {
    auto it = std::find(rows_.begin(), rows_.end(), event);
    return it == rows_.end() ? -1 : int(it - rows_.begin());
}

int UnresolvedModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(rows_.size());
}

int UnresolvedModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant UnresolvedModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) return {};
    const uint32_t row = rows_[size_t(index.row())];
    const EventTable& ev = doc_->events();
    const int64_t start = ev.tsNs[row] - doc_->tracks.startNs();
    if (role == TablePanel::kSortRole) {
        switch (index.column()) {
            case Start:
                return qint64(start);
            case Duration:
                return qint64(ev.durNs[row]);
            case Uid:
                return qint64(row);
            default:
                break;
        }
    }
    if (role != Qt::DisplayRole && role != TablePanel::kSortRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
        case Name:
            return doc_->name(row);
        case Start:
            return QStringLiteral("+") + formatDuration(start);
        case Duration:
            return formatDuration(ev.durNs[row]);
        case Uid:
            return qint64(row);
        case Region: {
            const uint32_t region = doc_->compiledRegionFor(row);
            return region == kNoRow ? QString() : doc_->name(region);
        }
    }
    return {};
}

QVariant UnresolvedModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case Name:
            return tr("Kernel");
        case Start:
            return tr("Start");
        case Duration:
            return tr("Duration");
        case Uid:
            return tr("uid");
        case Region:
            return tr("Compiled region");
    }
    return {};
}

UnresolvedPanel::UnresolvedPanel(ViewerState* state, QWidget* parent)
    : TablePanel(new UnresolvedModel, tr("Filter unresolved kernels…"), parent),
      state_(state),
      model_(static_cast<UnresolvedModel*>(proxy()->sourceModel())) {
    view()->horizontalHeader()->resizeSection(UnresolvedModel::Name, 420);
    connect(this, &TablePanel::rowActivated, this,
            [this](int row) { state_->select(model_->eventAt(row), true); });
    connect(state_, &ViewerState::documentsChanged, this,
            [this] { model_->setDocument(state_->current()); });
    connect(state_, &ViewerState::selectionChanged, this, [this] {
        const auto doc = state_->current();
        markSourceRow(model_->rowOf(state_->selectedRow(doc.get())));
    });
}
