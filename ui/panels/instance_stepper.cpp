#include "panels/instance_stepper.h"

#include <QHBoxLayout>
#include <QToolButton>
#include <algorithm>

#include "state/viewer_state.h"
#include "widgets/elided_label.h"

using namespace stackline;

namespace {

QToolButton* button(const QString& text, const QString& tip, QWidget* parent) {
    auto* b = new QToolButton(parent);
    b->setText(text);
    b->setToolTip(tip);
    b->setAutoRaise(true);
    return b;
}

}  // namespace

InstanceStepper::InstanceStepper(ViewerState* state, QWidget* parent)
    : QWidget(parent), state_(state) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    previous_ = button(tr("◀ Previous"), tr("Select the previous instance (P)"), this);
    next_ = button(tr("Next ▶"), tr("Select the next instance (N)"), this);
    slowest_ = button(tr("Slowest"), tr("Select the longest instance (L)"), this);
    label_ = new ElidedLabel(Qt::ElideRight, this);
    layout->addWidget(previous_);
    layout->addWidget(next_);
    layout->addWidget(slowest_);
    layout->addWidget(label_, 1);
    connect(previous_, &QToolButton::clicked, this, &InstanceStepper::previous);
    connect(next_, &QToolButton::clicked, this, &InstanceStepper::next);
    connect(slowest_, &QToolButton::clicked, this, &InstanceStepper::slowest);
    connect(state_, &ViewerState::selectionChanged, this, &InstanceStepper::update);
    update();
}

void InstanceStepper::setInstances(std::shared_ptr<const ViewedTrace> doc,
                                   std::vector<uint32_t> rows) {
    doc_ = std::move(doc);
    rows_ = doc_ ? std::move(rows) : std::vector<uint32_t>();
    update();
}

int InstanceStepper::position() const {
    const uint32_t sel = state_->selectedRow(doc_.get());
    if (sel == kNoRow) return -1;
    auto it = std::find(rows_.begin(), rows_.end(), sel);
    return it == rows_.end() ? -1 : int(it - rows_.begin());
}

QString InstanceStepper::labelText() const {
    return label_->text();
}

void InstanceStepper::next() {
    step(+1);
}

void InstanceStepper::previous() {
    step(-1);
}

void InstanceStepper::step(int direction) {
    if (rows_.empty()) return;
    const size_t n = rows_.size();
    size_t i = direction > 0 ? 0 : n - 1;
    if (const int pos = position(); pos >= 0) {
        i = (size_t(pos) + n + size_t(direction)) % n;
    } else if (const uint32_t sel = state_->selectedRow(doc_.get()); sel != kNoRow) {
        const EventTable& ev = doc_->events();
        auto after = std::upper_bound(rows_.begin(), rows_.end(), ev.tsNs(sel),
                                      [&](int64_t t, uint32_t r) { return t < ev.tsNs(r); });
        if (direction > 0 && after != rows_.end()) i = size_t(after - rows_.begin());
        if (direction < 0 && after != rows_.begin()) i = size_t(after - rows_.begin()) - 1;
    }
    state_->select(rows_[i], true);
}

void InstanceStepper::slowest() {
    if (rows_.empty()) return;
    const EventTable& ev = doc_->events();
    state_->select(
        *std::max_element(rows_.begin(), rows_.end(),
                          [&](uint32_t a, uint32_t b) { return ev.durNs(a) < ev.durNs(b); }),
        true);
}

void InstanceStepper::update() {
    const bool any = !rows_.empty();
    for (QToolButton* b : {previous_, next_, slowest_}) b->setEnabled(any);
    if (!any) {
        label_->setText({});
        return;
    }
    const int pos = position();
    const size_t n = rows_.size();
    label_->setText(pos >= 0 ? tr("instance %1 of %2").arg(pos + 1).arg(n)
                    : n == 1 ? tr("1 instance")
                             : tr("%1 instances").arg(n));
}
