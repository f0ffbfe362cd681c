#include "panels/unresolved_panel.h"

#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <algorithm>

#include "panels/instance_stepper.h"
#include "state/viewer_state.h"
#include "widgets/kernel_name_text.h"

using namespace stackline;

UnresolvedModel::UnresolvedModel()
    : TableModel({tr("Kernel"), tr("Start"), tr("Duration"), tr("uid"), tr("Compiled region")}) {}

int UnresolvedModel::rebuild() {
    rows_.clear();
    if (doc_) {
        const EventTable& ev = doc_->events();
        for (uint32_t row = 0; row < ev.size(); ++row)
            if (ev.phase[row] == 'X' && doc_->isKernel(row) &&
                doc_->status(row) == KernelStatus::Unresolved)
                rows_.push_back(row);
        std::stable_sort(rows_.begin(), rows_.end(),
                         [&](uint32_t a, uint32_t b) { return ev.tsNs(a) < ev.tsNs(b); });
    }
    return int(rows_.size());
}

int UnresolvedModel::rowOf(uint32_t event) const {
    auto it = std::find(rows_.begin(), rows_.end(), event);
    return it == rows_.end() ? -1 : int(it - rows_.begin());
}

std::vector<uint32_t> UnresolvedModel::sameKernel(uint32_t event) const {
    std::vector<uint32_t> same;
    const EventTable& ev = doc_->events();
    for (uint32_t r : rows_)
        if (ev.nameOf(r) == ev.nameOf(event)) same.push_back(r);
    return same;
}

int64_t UnresolvedModel::startOf(uint32_t row) const {
    return doc_->events().tsNs(row) - doc_->originNs;
}

QVariant UnresolvedModel::text(int row, int column) const {
    const uint32_t event = rows_[size_t(row)];
    switch (column) {
        case Name:
            return displayName(doc_->events().nameOf(event));
        case Start:
            return QStringLiteral("+") + formatDuration(startOf(event));
        case Duration:
            return formatDuration(doc_->events().durNs(event));
        case Uid:
            return qint64(event);
        case Region: {
            const uint32_t region = doc_->compiledRegionFor(event);
            return region == kNoRow ? QString() : doc_->name(region);
        }
    }
    return {};
}

QVariant UnresolvedModel::extra(int row, int column, int role) const {
    const uint32_t event = rows_[size_t(row)];
    if (role != kSortRole) return {};
    if (column == Start) return qint64(startOf(event));
    if (column == Duration) return qint64(doc_->events().durNs(event));
    return {};  // the uid sorts as the number it shows
}

UnresolvedPanel::UnresolvedPanel(ViewerState* state, QWidget* parent)
    : TablePanel(new UnresolvedModel, tr("Filter unresolved kernels…"), parent),
      state_(state),
      model_(static_cast<UnresolvedModel*>(proxy()->sourceModel())),
      stepper_(new InstanceStepper(state)) {
    addBesideFilter(stepper_);
    view()->horizontalHeader()->resizeSection(UnresolvedModel::Name, 420);
    connect(this, &TablePanel::rowActivated, this,
            [this](int row) { state_->select(model_->eventAt(row), true); });
    // Another document shown: reloaded, or another one of the window made current.
    for (auto shown : {&ViewerState::documentsChanged, &ViewerState::currentChanged})
        connect(state_, shown, this, [this] {
            model_->setDocument(state_->current());
            stepper_->setInstances(nullptr, {});
        });
    connect(state_, &ViewerState::selectionChanged, this, [this] {
        const auto doc = state_->current();
        const int row = model_->rowOf(state_->selectedRow(doc.get()));
        markSourceRow(row);
        // Another unresolved kernel: step through its instances; else stay with the last one.
        if (row >= 0 && stepper_->position() < 0)
            stepper_->setInstances(doc, model_->sameKernel(model_->eventAt(row)));
    });
}
