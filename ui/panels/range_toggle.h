// The check boxes that scope what a tab counts. "Range only" (Kernels, Hotspots) follows the
// selected range: enabled only while a range is selected, it says which range the tab is
// restricted to. "All kernels" (Hotspots, Flame) counts eager kernels by their trace stacks too.
#pragma once

#include <QCheckBox>
#include <optional>

#include "state/viewer_state.h"

class RangeToggle : public QCheckBox {
    Q_OBJECT
public:
    explicit RangeToggle(ViewerState* state, QWidget* parent = nullptr);
    // The range to restrict to: the selected one when ticked, else none (the whole trace).
    std::optional<RangeSelection> active() const;

signals:
    // What active() gives changed: ticked or unticked, or another range while ticked.
    void activeChanged();

private:
    ViewerState* state_;
};

// "All kernels (eager too)", unticked.
QCheckBox* newAllKernelsToggle();
