// Steps through the instances of one kernel (or the kernels of one source line): previous, next
// and the slowest, each selected and revealed through the viewer state, with "instance 3 of 120"
// saying where the selection is among them. The panel that owns it says which instances.
#pragma once

#include <QWidget>
#include <memory>
#include <vector>

#include "state/viewed_trace.h"

class ElidedLabel;
class QToolButton;
class ViewerState;

class InstanceStepper : public QWidget {
    Q_OBJECT
public:
    explicit InstanceStepper(ViewerState* state, QWidget* parent = nullptr);

    // The events to step through, by start time (empty: none).
    void setInstances(std::shared_ptr<const ViewedTrace> doc, std::vector<uint32_t> rows);
    const std::vector<uint32_t>& instances() const { return rows_; }
    // The selection's position among the instances, or -1.
    int position() const;
    QString labelText() const;

public slots:
    // The instance after (before) the selection, wrapping around; the first after (last before)
    // the selection's start when it is none of them.
    void next();
    void previous();
    // The longest instance (the first of equals).
    void slowest();

private:
    void step(int direction);
    void update();

    ViewerState* state_;
    std::shared_ptr<const ViewedTrace> doc_;
    std::vector<uint32_t> rows_;
    QToolButton* previous_;
    QToolButton* next_;
    QToolButton* slowest_;
    ElidedLabel* label_;  // gives up width rather than widen the panel
};
