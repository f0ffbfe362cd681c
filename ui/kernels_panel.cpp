#include "kernels_panel.h"

#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <algorithm>

#include "palette.h"
#include "viewer_state.h"

using namespace stackline;

void KernelsModel::setDocument(const Document* doc) {
    beginResetModel();
    doc_ = doc;
    entries_.clear();
    byName_.clear();
    if (doc) {
        const EventTable& ev = doc->events();
        for (uint32_t row = 0; row < ev.size(); ++row) {
            if (ev.phase[row] != 'X' || !doc->isKernel(row)) continue;
            const uint32_t name = ev.kinds[row].name == ValueKind::String ? ev.name[row] : 0;
            auto [it, inserted] = byName_.try_emplace(name, entries_.size());
            if (inserted) {
                entries_.emplace_back();
                entries_.back().name = doc->name(row);
            }
            Entry& e = entries_[it->second];
            e.total += ev.durNs[row];
            e.instances.push_back(row);
            switch (doc->status(row)) {
                case KernelStatus::Annotated:
                    ++e.annotated;
                    break;
                case KernelStatus::Unresolved:
                    ++e.unresolved;
                    break;
                case KernelStatus::Outside:
                    ++e.outside;
                    break;
            }
        }
        for (Entry& e : entries_)
            std::stable_sort(e.instances.begin(), e.instances.end(),
                             [&](uint32_t a, uint32_t b) { return ev.tsNs[a] < ev.tsNs[b]; });
    }
    endResetModel();
}

int KernelsModel::rowOf(uint32_t event) const {
    if (!doc_ || event >= doc_->events().size()) return -1;
    const EventTable& ev = doc_->events();
    if (ev.phase[event] != 'X' || !doc_->isKernel(event)) return -1;
    auto it = byName_.find(ev.kinds[event].name == ValueKind::String ? ev.name[event] : 0);
    return it == byName_.end() ? -1 : int(it->second);
}

int KernelsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(entries_.size());
}

int KernelsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant KernelsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) return {};
    const Entry& e = entries_[size_t(index.row())];
    const qint64 count = qint64(e.instances.size());
    const qint64 mean = count ? e.total / count : 0;
    if (role == TablePanel::kSortRole) {
        switch (index.column()) {
            case Name:
                return e.name;
            case Count:
                return count;
            case Total:
                return qint64(e.total);
            case Mean:
                return mean;
            case Status:
                return qint64(e.unresolved) * 1000000 + qint64(e.outside);
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() != Name && index.column() != Status)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::DecorationRole && index.column() == Status) {
        return sliceColor(e.unresolved ? SliceStyle::KernelUnresolved
                          : e.outside  ? SliceStyle::KernelOutside
                                       : SliceStyle::KernelAnnotated);
    }
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
    switch (index.column()) {
        case Name:
            return e.name;
        case Count:
            return count;
        case Total:
            return formatDuration(e.total);
        case Mean:
            return formatDuration(mean);
        case Status: {
            QStringList parts;
            const uint32_t kinds = (e.annotated > 0) + (e.unresolved > 0) + (e.outside > 0);
            auto part = [&](uint32_t n, KernelStatus s) {
                if (n)
                    parts << (kinds == 1 ? statusText(s)
                                         : QStringLiteral("%1 %2").arg(n).arg(statusText(s)));
            };
            part(e.unresolved, KernelStatus::Unresolved);
            part(e.annotated, KernelStatus::Annotated);
            part(e.outside, KernelStatus::Outside);
            return parts.join(QStringLiteral(" · "));
        }
    }
    return {};
}

QVariant KernelsModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case Name:
            return tr("Kernel");
        case Count:
            return tr("Count");
        case Total:
            return tr("Total");
        case Mean:
            return tr("Mean");
        case Status:
            return tr("Status");
    }
    return {};
}

KernelsPanel::KernelsPanel(ViewerState* state, QWidget* parent)
    : TablePanel(new KernelsModel, tr("Filter kernels by name…"), parent),
      state_(state),
      model_(static_cast<KernelsModel*>(proxy()->sourceModel())) {
    view()->sortByColumn(KernelsModel::Total, Qt::DescendingOrder);
    view()->horizontalHeader()->resizeSection(KernelsModel::Name, 420);
    connect(this, &TablePanel::rowActivated, this, [this](int row) {
        const auto& inst = model_->entry(row).instances;
        if (inst.empty()) return;
        // The instance after the selected one when it is one of them, else the first.
        auto it = std::find(inst.begin(), inst.end(), state_->selectedRow(doc_.get()));
        const uint32_t next = it == inst.end() || it + 1 == inst.end() ? inst.front() : *(it + 1);
        state_->select(next, true);
    });
    connect(state_, &ViewerState::documentsChanged, this, [this] {
        doc_ = state_->current();
        model_->setDocument(doc_.get());
    });
    connect(state_, &ViewerState::selectionChanged, this,
            [this] { markSourceRow(model_->rowOf(state_->selectedRow(doc_.get()))); });
}
