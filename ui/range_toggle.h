// The "Range only" check box of the tabs that can follow the selected range (Kernels, Hotspots):
// enabled only while a range is selected, it says which range the tab is restricted to.
#pragma once

#include <QCheckBox>
#include <optional>

#include "viewer_state.h"

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
