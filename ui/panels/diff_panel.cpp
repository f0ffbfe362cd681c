#include "panels/diff_panel.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <limits>

#include "panels/range_toggle.h"
#include "panels/table_panel.h"
#include "state/viewer_state.h"
#include "state/zoom_control.h"
#include "widgets/elided_label.h"
#include "widgets/time_text.h"

using namespace stackline;

namespace {

// The earliest of these events, or kNoRow.
uint32_t firstOf(const ViewedTrace& doc, const std::vector<uint32_t>& rows) {
    const EventTable& ev = doc.events();
    uint32_t first = kNoRow;
    for (uint32_t r : rows)
        if (r < ev.size() && (first == kNoRow || ev.tsNs(r) < ev.tsNs(first))) first = r;
    return first;
}

QString fileName(const ViewedTrace& doc) {
    return QFileInfo(doc.tracePath()).fileName();
}

// A table of the tab, sorted by delta, slower first.
TablePanel* newTable(TableModel* model, const QString& hint, int deltaColumn,
                     std::initializer_list<std::pair<int, int>> widths) {
    auto* table = new TablePanel(model, hint);
    QTableView* view = table->view();
    view->sortByColumn(deltaColumn, Qt::DescendingOrder);
    view->horizontalHeader()->setStretchLastSection(false);
    for (const auto& [column, width] : widths)
        view->horizontalHeader()->resizeSection(column, width);
    // Tinted rows carry the meaning; alternating grey would muddle it.
    view->setAlternatingRowColors(false);
    return table;
}

QAbstractButton* newToggle(const QString& text) {
    auto* button = new QToolButton;
    button->setText(text);
    button->setCheckable(true);
    button->setAutoRaise(true);
    return button;
}

}  // namespace

DiffPanel::DiffPanel(ViewerState* state, QWidget* parent) : QWidget(parent), state_(state) {
    lines_ = new DiffLinesModel;
    kernels_ = new DiffKernelsModel;
    lineTable_ = newTable(lines_, tr("Filter source lines by file, function or code…"),
                          DiffLinesModel::Delta,
                          {{DiffLinesModel::Where, 170},
                           {DiffLinesModel::Function, 140},
                           {DiffLinesModel::Code, 360}});
    kernelTable_ = newTable(kernels_, tr("Filter kernels by name…"), DiffKernelsModel::Delta,
                            {{DiffKernelsModel::Kernel, 520}});
    stack_ = new QStackedWidget;
    stack_->addWidget(lineTable_);
    stack_->addWidget(kernelTable_);

    header_ = new ElidedLabel(Qt::ElideMiddle);
    linesButton_ = newToggle(tr("Source lines"));
    kernelsButton_ = newToggle(tr("Kernels"));
    linesButton_->setChecked(true);
    auto* group = new QButtonGroup(this);
    group->addButton(linesButton_);
    group->addButton(kernelsButton_);
    connect(kernelsButton_, &QAbstractButton::toggled, this,
            [this](bool on) { stack_->setCurrentWidget(on ? kernelTable_ : lineTable_); });
    allKernels_ = newAllKernelsToggle();
    allKernels_->setChecked(true);
    connect(allKernels_, &QCheckBox::toggled, this, &DiffPanel::invalidate);

    auto* top = new QHBoxLayout;
    top->setContentsMargins(4, 2, 4, 0);
    top->addWidget(header_, 1);
    top->addWidget(linesButton_);
    top->addWidget(kernelsButton_);
    top->addWidget(allKernels_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(top);
    layout->addWidget(stack_, 1);

    connect(lineTable_, &TablePanel::rowActivated, this, &DiffPanel::chooseLine);
    connect(kernelTable_, &TablePanel::rowActivated, this, &DiffPanel::chooseKernel);
    // The keyboard moves through the rows as clicks do.
    for (const auto& entry : {std::pair{lineTable_, &DiffPanel::chooseLine},
                              std::pair{kernelTable_, &DiffPanel::chooseKernel}})
        connect(entry.first->view()->selectionModel(), &QItemSelectionModel::currentRowChanged,
                this,
                [this, table = entry.first, choose = entry.second](const QModelIndex& current) {
                    if (current.isValid())
                        (this->*choose)(table->proxy()->mapToSource(current).row());
                });
    connect(state_, &ViewerState::documentsChanged, this, &DiffPanel::invalidate);
    invalidate();
}

void DiffPanel::invalidate() {
    if (isComparing())
        gate_.invalidate();
    else
        gate_.run();
}

bool DiffPanel::isComparing() const {
    return state_->documents().size() == 2;
}

void DiffPanel::recompute() {
    if (!isComparing()) {
        computed_.drop();  // a result for other documents
        showDiff(nullptr);
        return;
    }
    const auto& docs = state_->documents();
    // Rows of other documents must not be chosen meanwhile.
    if (lines_->shown() && lines_->document() != docs[0]) {
        lines_->show(nullptr, nullptr);
        kernels_->show(nullptr, nullptr);
    }
    header_->setText(tr("Comparing %1 with %2…").arg(fileName(*docs[0]), fileName(*docs[1])));
    computed_.start([base = docs[0], next = docs[1], eager = allKernels_->isChecked()] {
        auto input = [eager](const ViewedTrace& doc) {
            RunInput in{doc.trace.get(), &doc.provenance, {}, &doc.kernelInfo};
            if (eager) in.options.eager = &doc.eager;
            return in;
        };
        return std::make_shared<const RunDiff>(diffRuns(input(*base), input(*next)));
    });
}

void DiffPanel::showDiff(std::shared_ptr<const RunDiff> diff) {
    const auto base = diff && isComparing() ? state_->documents()[0] : nullptr;
    lines_->show(base, diff);
    kernels_->show(base, diff);
    // Eager stacks name no code: no empty column then.
    bool code = false;
    if (diff)
        for (const DiffLine& l : diff->lines) code = code || !l.code.empty();
    lineTable_->view()->setColumnHidden(DiffLinesModel::Code, !code);
    linesButton_->setText(tr("Source lines (%1)").arg(lines_->rowCount()));
    kernelsButton_->setText(tr("Kernels (%1)").arg(kernels_->rowCount()));
    if (!base) {
        header_->setText(tr("Compare two runs: File → Compare With… opens a second trace."));
    } else {
        const RunDiff& d = *diff;
        int64_t baseNs = 0, nextNs = 0;
        for (const DiffKernel& k : d.kernels) {
            baseNs += k.base.totalNs;
            nextNs += k.next.totalNs;
        }
        baseNs = d.compared(baseNs, false);
        nextNs = d.compared(nextNs, true);
        const QString unit =
            d.perStep()
                ? tr("times per profiler step (base %1 steps, new %2)")
                      .arg(d.baseSteps)
                      .arg(d.nextSteps)
                : tr("times for the whole run%1")
                      .arg(d.baseSteps ? tr(" (%1 steps each)").arg(d.baseSteps) : QString());
        const int64_t delta = nextNs - baseNs;
        header_->setText(tr("base: %1 → new: %2 · %3 · GPU kernel time %4 → %5 (%6%7)")
                             .arg(fileName(*base), fileName(*state_->documents()[1]), unit,
                                  formatDuration(baseNs), formatDuration(nextNs),
                                  delta > 0 ? QStringLiteral("+") : QString(),
                                  formatDuration(delta)));
    }
    emit diffChanged();
}

void DiffPanel::chooseLine(int sourceRow) {
    if (sourceRow < 0 || sourceRow >= lines_->rowCount()) return;
    const DiffLine& l = lines_->line(sourceRow);
    highlight(l.base.rows, l.next.rows);
    const int line = l.next.count ? l.next.line : l.base.line;
    if (line > 0)
        state_->showSource(QString::fromStdString(l.file), line, QString::fromStdString(l.code));
}

void DiffPanel::chooseKernel(int sourceRow) {
    if (sourceRow < 0 || sourceRow >= kernels_->rowCount()) return;
    const DiffKernel& k = kernels_->kernel(sourceRow);
    highlight(k.base.rows, k.next.rows);
}

void DiffPanel::highlight(const std::vector<uint32_t>& base, const std::vector<uint32_t>& next) {
    if (!isComparing()) return;
    const auto docs = state_->documents();  // a copy: selecting may make another one current
    state_->setHighlights({base, next});
    const uint32_t first[2] = {firstOf(*docs[0], base), firstOf(*docs[1], next)};
    // Both first kernels on the window's time axis, with room around them.
    int64_t lo = std::numeric_limits<int64_t>::max(), hi = std::numeric_limits<int64_t>::min();
    for (size_t i = 0; i < 2; ++i) {
        if (first[i] == kNoRow) continue;
        const EventTable& ev = docs[i]->events();
        const int64_t start = ev.tsNs(first[i]) + state_->offsetNs(docs[i].get());
        lo = std::min(lo, start);
        hi = std::max(hi, start + std::max<int64_t>(0, ev.durNs(first[i])));
    }
    if (lo > hi) return;
    const int64_t pad = std::max<int64_t>((hi - lo) / 4, 2000);
    state_->zoom()->setWindow(lo - pad, hi + pad);
    const size_t shown = first[0] != kNoRow ? 0 : 1;
    state_->select(EventRef{docs[shown].get(), first[shown]}, true);
}
