#include "kernels_panel.h"

#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <algorithm>

#include "instance_stepper.h"
#include "kernel_name_text.h"
#include "palette.h"
#include "range_toggle.h"
#include "viewer_state.h"

using namespace stackline;

KernelsModel::KernelsModel()
    : TableModel({tr("Kernel"), tr("Count"), tr("Total"), tr("Mean"), tr("Status")}) {}

void KernelsModel::show(std::shared_ptr<const Document> doc, std::optional<RangeSelection> range) {
    range_ = std::move(range);
    setDocument(std::move(doc));
}

int KernelsModel::rebuild() {
    entries_.clear();
    byName_.clear();
    if (doc_) {
        const EventTable& ev = doc_->events();
        // The range's tracks (all when it names none), as summarizeRange counts slices.
        std::vector<bool> onTrack;
        if (range_ && !range_->tracks.empty()) {
            onTrack.assign(doc_->tracks.tracks().size(), false);
            for (uint32_t t : range_->tracks)
                if (t < onTrack.size()) onTrack[t] = true;
        }
        auto inRange = [&](uint32_t row) {
            if (!range_) return true;
            if (!range_->range.overlaps(ev.tsNs[row], ev.durNs[row])) return false;
            if (onTrack.empty()) return true;
            const uint32_t t = doc_->tracks.trackOf(row);
            return t < onTrack.size() && onTrack[t];
        };
        for (uint32_t row = 0; row < ev.size(); ++row) {
            if (ev.phase[row] != 'X' || !doc_->isKernel(row) || !inRange(row)) continue;
            const uint32_t name = ev.kinds[row].name == ValueKind::String ? ev.name[row] : 0;
            auto [it, inserted] = byName_.try_emplace(name, entries_.size());
            if (inserted) {
                entries_.emplace_back();
                entries_.back().name = displayName(ev.nameOf(row));
            }
            Entry& e = entries_[it->second];
            e.total += range_ ? range_->range.clip(ev.tsNs[row], ev.durNs[row]) : ev.durNs[row];
            e.instances.push_back(row);
            switch (doc_->status(row)) {
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
    return int(entries_.size());
}

int KernelsModel::rowOf(uint32_t event) const {
    if (!doc_ || event >= doc_->events().size()) return -1;
    const EventTable& ev = doc_->events();
    if (ev.phase[event] != 'X' || !doc_->isKernel(event)) return -1;
    auto it = byName_.find(ev.kinds[event].name == ValueKind::String ? ev.name[event] : 0);
    return it == byName_.end() ? -1 : int(it->second);
}

namespace {

int64_t meanNs(const KernelsModel::Entry& e) {
    return e.instances.empty() ? 0 : e.total / int64_t(e.instances.size());
}

}  // namespace

QVariant KernelsModel::text(int row, int column) const {
    const Entry& e = entries_[size_t(row)];
    switch (column) {
        case Name:
            return e.name;
        case Count:
            return qint64(e.instances.size());
        case Total:
            return formatDuration(e.total);
        case Mean:
            return formatDuration(meanNs(e));
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

QVariant KernelsModel::extra(int row, int column, int role) const {
    const Entry& e = entries_[size_t(row)];
    if (role == kSortRole) {
        if (column == Total) return qint64(e.total);
        if (column == Mean) return qint64(meanNs(e));
        if (column == Status) return qint64(e.unresolved) * 1000000 + qint64(e.outside);
    }
    if (role == Qt::TextAlignmentRole && column != Name && column != Status)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::DecorationRole && column == Status) {
        return sliceColor(e.unresolved ? SliceStyle::KernelUnresolved
                          : e.outside  ? SliceStyle::KernelOutside
                                       : SliceStyle::KernelAnnotated);
    }
    return {};
}

KernelsPanel::KernelsPanel(ViewerState* state, QWidget* parent)
    : TablePanel(new KernelsModel, tr("Filter kernels by name…"), parent),
      state_(state),
      model_(static_cast<KernelsModel*>(proxy()->sourceModel())),
      stepper_(new InstanceStepper(state)),
      rangeOnly_(new RangeToggle(state)) {
    addBesideFilter(rangeOnly_);
    addBesideFilter(stepper_);
    view()->sortByColumn(KernelsModel::Total, Qt::DescendingOrder);
    view()->horizontalHeader()->resizeSection(KernelsModel::Name, 420);
    connect(this, &TablePanel::rowActivated, this, [this](int row) {
        stepThrough(row);
        const auto& inst = model_->entry(row).instances;
        if (inst.empty()) return;
        // The instance after the selected one when it is one of them, else the first.
        auto it = std::find(inst.begin(), inst.end(), state_->selectedRow(doc_.get()));
        const uint32_t next = it == inst.end() || it + 1 == inst.end() ? inst.front() : *(it + 1);
        state_->select(next, true);
    });
    // Another document shown: reloaded, or another one of the window made current.
    for (auto shown : {&ViewerState::documentsChanged, &ViewerState::currentChanged})
        connect(state_, shown, this, [this] {
            doc_ = state_->current();
            refill();
        });
    connect(rangeOnly_, &RangeToggle::activeChanged, this, [this] {
        stale_ = true;
        if (isVisible()) refill();
    });
    connect(state_, &ViewerState::selectionChanged, this, [this] {
        const int row = model_->rowOf(state_->selectedRow(doc_.get()));
        markSourceRow(row);
        // Another kernel: step through its instances; anything else: stay with the last one.
        if (row >= 0) stepThrough(row);
    });
}

void KernelsPanel::stepThrough(int row) {
    if (row == stepped_) return;
    stepped_ = row;
    stepper_->setInstances(doc_, model_->entry(row).instances);
}

void KernelsPanel::refill() {
    stale_ = false;
    model_->show(doc_, rangeOnly_->active());
    stepped_ = -1;
    stepper_->setInstances(nullptr, {});
    markSourceRow(model_->rowOf(state_->selectedRow(doc_.get())));
}

void KernelsPanel::showEvent(QShowEvent* e) {
    TablePanel::showEvent(e);
    if (stale_) refill();
}
