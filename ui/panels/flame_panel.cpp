#include "panels/flame_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

#include "panels/flame_graph_view.h"
#include "panels/range_toggle.h"
#include "state/viewer_state.h"

using namespace stackline;

FlamePanel::FlamePanel(ViewerState* state, QWidget* parent)
    : QWidget(parent), state_(state), view_(new FlameGraphView) {
    mode_ = new QComboBox;
    mode_->addItem(tr("GPU time by Python call path"));
    mode_->addItem(tr("CPU: thread of the selected slice"));
    allKernels_ = newAllKernelsToggle();
    summary_ = new QLabel;
    auto* controls = new QHBoxLayout;
    controls->addWidget(mode_);
    controls->addWidget(allKernels_);
    controls->addWidget(summary_, 1);
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setWidget(view_);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(scroll, 1);

    connect(mode_, &QComboBox::currentIndexChanged, &gate_, &ShowGate::invalidate);
    connect(allKernels_, &QCheckBox::toggled, &gate_, &ShowGate::invalidate);
    // Another document shown: reloaded, or another one of the window made current.
    for (auto shown : {&ViewerState::documentsChanged, &ViewerState::currentChanged})
        connect(state_, shown, &gate_, &ShowGate::invalidate);
    connect(state_, &ViewerState::rangeChanged, &gate_, &ShowGate::invalidate);
    connect(state_, &ViewerState::selectionChanged, this, [this] {
        if (mode_->currentIndex() == CpuThread) gate_.invalidate();
    });
    connect(view_, &FlameGraphView::sourceRequested, state_,
            [this](const QString& file, int line) { state_->showSource(file, line); });
    gate_.invalidate();
}

void FlamePanel::setMode(Mode mode) {
    mode_->setCurrentIndex(mode);
}

void FlamePanel::setAllKernels(bool on) {
    allKernels_->setChecked(on);
}

void FlamePanel::rebuild() {
    allKernels_->setEnabled(mode_->currentIndex() == GpuByPythonPath);
    const std::shared_ptr<const ViewedTrace> doc = state_->current();
    const TimeRange range = state_->selectedRange() ? state_->selectedRange()->range : TimeRange{};
    const QString where = range.isAll()
                              ? tr("whole trace")
                              : tr("selected range (%1)").arg(formatDuration(range.length()));
    FlameGraph graph;
    graph.nodes.emplace_back();
    QString what;
    if (doc && mode_->currentIndex() == GpuByPythonPath) {
        KernelStacksOptions options;
        options.range = range;
        if (allKernels_->isChecked()) options.eager = &doc->eager;
        graph = gpuFlameGraph(*doc->trace, doc->provenance, options);
        what = tr("GPU time of kernels with a stack");
    } else if (doc) {
        const uint32_t row = state_->selectedRow(doc.get());
        const uint32_t track = row == kNoRow ? kNoTrack : doc->tracks.trackOf(row);
        if (track == kNoTrack) {
            what = tr("Select a slice to see its thread");
        } else {
            const Track& t = doc->tracks.tracks()[track];
            graph = cpuFlameGraph(doc->events(), t, range);
            what = tr("CPU time of %1").arg(QString::fromStdString(t.name));
        }
    }
    // An empty GPU graph says why: eager kernels hidden by the check box, or no stack at all.
    QString empty;
    if (doc && mode_->currentIndex() == GpuByPythonPath && graph.root().valueNs == 0) {
        if (!allKernels_->isChecked() && doc->eager.count() > 0)
            empty = tr("No time to show: no compiled kernels here. Tick \"%1\" to see eager "
                       "kernels by their Python stack.")
                        .arg(allKernels_->text());
        else if (doc->eager.count() == 0 && doc->summary.annotatedKernels == 0)
            empty =
                tr("No kernel here has a Python stack: add the kernel information of its "
                   "compiled kernels (File → Add Kernel Information), or record the trace with "
                   "with_stack=True "
                   "for eager kernels. The CPU mode shows a thread's slices.");
    }
    view_->setEmptyText(empty);
    view_->setGraph(std::move(graph));
    summary_->setText(doc ? tr("%1, %2: %3").arg(what, where, formatDuration(view_->totalNs()))
                          : QString());
}
