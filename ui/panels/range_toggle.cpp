#include "panels/range_toggle.h"

RangeToggle::RangeToggle(ViewerState* state, QWidget* parent)
    : QCheckBox(tr("Range only"), parent), state_(state) {
    setToolTip(
        tr("Only what overlaps the selected time range (drag on the ruler, or Shift+drag "
           "over tracks); disabled while no range is selected"));
    auto follow = [this] { setEnabled(state_->selectedRange().has_value()); };
    connect(state_, &ViewerState::rangeChanged, this, [this, follow] {
        follow();
        if (isChecked()) emit activeChanged();
    });
    // Another document shown: reloaded, or another one of the window made current.
    for (auto shown : {&ViewerState::documentsChanged, &ViewerState::currentChanged})
        connect(state_, shown, this, follow);
    connect(this, &QCheckBox::toggled, this, [this] {
        if (state_->selectedRange()) emit activeChanged();
    });
    follow();
}

std::optional<RangeSelection> RangeToggle::active() const {
    return isChecked() ? state_->selectedRange() : std::nullopt;
}

QCheckBox* newAllKernelsToggle() {
    auto* box = new QCheckBox(QObject::tr("All kernels (eager too)"));
    box->setToolTip(
        QObject::tr("Also count kernels outside compiled regions, by their Python stack in the "
                    "trace"));
    return box;
}
