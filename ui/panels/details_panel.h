// The selected event of the viewer state: name, category, times, track, provenance status, links
// to the launching runtime call / launched kernels / compiled region / fwd-bwd partner (following
// one selects it), the Python stack as a list of frames (clicking one shows its source) and the
// arguments (parsed from the event's raw bytes only now).
#pragma once

#include <QList>
#include <QWidget>
#include <memory>
#include <vector>

#include "state/stack_frames.h"
#include "state/viewed_trace.h"

class ElidedLabel;
class QAction;
class QLabel;
class QListWidget;
class QTreeWidget;
class QFormLayout;
class ViewerState;

class DetailsPanel : public QWidget {
    Q_OBJECT
public:
    explicit DetailsPanel(ViewerState* state, QWidget* parent = nullptr);

    // The event shown (kNoRow: nothing selected).
    uint32_t shownEvent() const { return row_; }

    const QList<StackFrame>& frames() const { return frames_; }
    QListWidget* stackList() const { return stack_; }
    QLabel* linksLabel() const { return links_; }
    QString statusLabelText() const;
    QString linksText() const;
    // Where the stack came from (kernel-information entry and its graph, the single-stack guess,
    // the trace, none) and, for an entry, its post/pre grad nodes.
    QString provenanceText() const;
    // The name as shown (demangled, elided to the width) and in full.
    ElidedLabel* titleLabel() const { return title_; }
    // Copies the event's name as recorded (mangled, if it is) to the clipboard (Ctrl+C).
    QAction* copyNameAction() const { return copyName_; }

signals:
    // A stack frame was clicked (its source is requested from the state).
    void frameActivated();

private:
    void setDocument(std::shared_ptr<const ViewedTrace> doc);
    void setEvent(uint32_t row);
    void showLinks(uint32_t row);
    void showProvenance(uint32_t row);
    void showStack(uint32_t row);
    void showArgs(uint32_t row);

    ViewerState* state_;
    std::shared_ptr<const ViewedTrace> doc_;
    uint32_t row_;
    QList<StackFrame> frames_;
    std::vector<uint32_t> diagnosticsOf_;  // indexes of the diagnostics about an event, by row
    ElidedLabel* title_;
    QAction* copyName_;
    QLabel* category_;
    QLabel* start_;
    QLabel* duration_;
    QLabel* track_;
    QLabel* uid_;
    QLabel* status_;
    QLabel* links_;
    QLabel* provenance_;
    QLabel* stackHeading_;
    QListWidget* stack_;
    QTreeWidget* args_;
    QWidget* form_;
};
