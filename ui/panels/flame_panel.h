// The Flame tab: GPU time by Python call path (every kernel with a stack, eager kernels too when
// asked), or the CPU icicle of the selected slice's thread; over the selected range when there is
// one, else the whole trace. Built when the tab is shown, not while it is hidden.
#pragma once

#include <QWidget>

#include "panels/lazy_result.h"

class FlameGraphView;
class QCheckBox;
class QComboBox;
class QLabel;
class ViewerState;

class FlamePanel : public QWidget {
    Q_OBJECT
public:
    enum Mode { GpuByPythonPath, CpuThread };

    explicit FlamePanel(ViewerState* state, QWidget* parent = nullptr);

    FlameGraphView* view() const { return view_; }
    void setMode(Mode mode);
    void setAllKernels(bool on);

private:
    void rebuild();

    ViewerState* state_;
    QComboBox* mode_;
    QCheckBox* allKernels_;
    QLabel* summary_;
    FlameGraphView* view_;
    ShowGate gate_{this, [this] { rebuild(); }};
};
