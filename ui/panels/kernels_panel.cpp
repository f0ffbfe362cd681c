#include "panels/kernels_panel.h"

#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <algorithm>

#include "panels/instance_stepper.h"
#include "panels/range_toggle.h"
#include "state/viewer_state.h"
#include "widgets/kernel_name_text.h"
#include "widgets/palette.h"

using namespace stackline;

namespace {

QStringList headers(const std::vector<std::shared_ptr<const ViewedTrace>>& docs) {
    if (docs.size() <= 1)
        return {KernelsModel::tr("Kernel"), KernelsModel::tr("Count"), KernelsModel::tr("Total"),
                KernelsModel::tr("Mean"), KernelsModel::tr("Status")};
    QStringList h{KernelsModel::tr("Kernel"), KernelsModel::tr("Count (sum)"),
                  KernelsModel::tr("Total (sum)"), KernelsModel::tr("Mean"),
                  KernelsModel::tr("Status")};
    for (const auto& d : docs) h << QString::fromStdString(d->rank.label);
    return h;
}

}  // namespace

KernelsModel::KernelsModel() : TableModel(headers({})) {}

void KernelsModel::show(std::shared_ptr<const ViewedTrace> doc,
                        std::optional<RangeSelection> range) {
    showRanks({}, std::move(doc), {}, std::move(range));
}

void KernelsModel::showRanks(std::vector<std::shared_ptr<const ViewedTrace>> docs,
                             std::shared_ptr<const ViewedTrace> current,
                             std::vector<int64_t> shifts, std::optional<RangeSelection> range) {
    docs_ = docs.size() > 1 ? std::move(docs) : std::vector<std::shared_ptr<const ViewedTrace>>{};
    shifts_ = std::move(shifts);
    shifts_.resize(docs_.size(), 0);
    range_ = std::move(range);
    setDocument(std::move(current));
}

int KernelsModel::rebuild() {
    entries_.clear();
    byName_.clear();
    setHeaders(headers(docs_));
    std::unordered_map<std::string, size_t> byText;  // several documents: name -> entry
    if (docs_.empty() && doc_) add(0, byText);
    for (size_t i = 0; i < docs_.size(); ++i) add(i, byText);
    if (doc_) {
        const EventTable& ev = doc_->events();
        for (Entry& e : entries_)
            std::stable_sort(e.instances.begin(), e.instances.end(),
                             [&](uint32_t a, uint32_t b) { return ev.tsNs(a) < ev.tsNs(b); });
    }
    return int(entries_.size());
}

void KernelsModel::add(size_t i, std::unordered_map<std::string, size_t>& byText) {
    const ViewedTrace& doc = docs_.empty() ? *doc_ : *docs_[i];
    const bool current = &doc == doc_.get();
    const EventTable& ev = doc.events();
    std::optional<TimeRange> range;
    if (range_) {
        const int64_t shift = docs_.empty() ? 0 : shifts_[i];
        range = TimeRange{range_->range.start + shift, range_->range.end + shift};
    }
    // The range's tracks (all when it names none), as summarizeRange counts slices; they are
    // the current document's.
    std::vector<bool> onTrack;
    if (current && range_ && !range_->tracks.empty()) {
        onTrack.assign(doc.tracks.tracks().size(), false);
        for (uint32_t t : range_->tracks)
            if (t < onTrack.size()) onTrack[t] = true;
    }
    auto inRange = [&](uint32_t row) {
        if (!range) return true;
        if (!range->overlaps(ev.tsNs(row), ev.durNs(row))) return false;
        if (onTrack.empty()) return true;
        const uint32_t t = doc.tracks.trackOf(row);
        return t < onTrack.size() && onTrack[t];
    };
    for (uint32_t row = 0; row < ev.size(); ++row) {
        if (ev.phase[row] != 'X' || !doc.isKernel(row) || !inRange(row)) continue;
        const uint32_t name = ev.kinds[row].name == ValueKind::String ? ev.name[row] : 0;
        size_t at;
        if (docs_.empty()) {
            at = byName_.try_emplace(name, entries_.size()).first->second;
        } else {
            // Name ids are per trace: the name itself matches kernels across documents.
            at = byText.try_emplace(std::string(ev.nameOf(row)), entries_.size()).first->second;
            if (current) byName_.try_emplace(name, at);
        }
        if (at == entries_.size()) {
            entries_.emplace_back();
            entries_.back().name = displayName(ev.nameOf(row));
            entries_.back().rankTotals.assign(docs_.size(), 0);
        }
        Entry& e = entries_[at];
        const int64_t ns = range ? range->clip(ev.tsNs(row), ev.durNs(row)) : ev.durNs(row);
        e.total += ns;
        ++e.count;
        if (!docs_.empty()) e.rankTotals[i] += ns;
        if (current) e.instances.push_back(row);
        switch (doc.status(row)) {
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
    return e.count == 0 ? 0 : e.total / int64_t(e.count);
}

}  // namespace

QVariant KernelsModel::text(int row, int column) const {
    const Entry& e = entries_[size_t(row)];
    if (column >= FirstRank) return formatDuration(e.rankTotals[size_t(column - FirstRank)]);
    switch (column) {
        case Name:
            return e.name;
        case Count:
            return qint64(e.count);
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
        if (column >= FirstRank) return qint64(e.rankTotals[size_t(column - FirstRank)]);
        if (column == Total) return qint64(e.total);
        if (column == Mean) return qint64(meanNs(e));
        if (column == Status) return qint64(e.unresolved) * 1000000 + qint64(e.outside);
    }
    if (role == Qt::TextAlignmentRole && column != Name && column != Status)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && column >= FirstRank)
        return tr("Time on %1")
            .arg(QString::fromStdString(docs_[size_t(column - FirstRank)]->rank.label));
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
    // The current document's instances are the ones stepped through.
    for (auto changed : {&ViewerState::documentsChanged, &ViewerState::currentChanged})
        connect(state_, changed, this, [this] {
            doc_ = state_->current();
            gate_.run();
        });
    connect(rangeOnly_, &RangeToggle::activeChanged, &gate_, &ShowGate::invalidate);
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
    std::vector<int64_t> shifts;
    for (const auto& d : state_->documents())
        shifts.push_back(state_->offsetNs(doc_.get()) - state_->offsetNs(d.get()));
    model_->showRanks(state_->documents(), doc_, std::move(shifts), rangeOnly_->active());
    stepped_ = -1;
    stepper_->setInstances(nullptr, {});
    markSourceRow(model_->rowOf(state_->selectedRow(doc_.get())));
}
