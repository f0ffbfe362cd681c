#include "hotspots_panel.h"

#include <QCheckBox>
#include <QFileInfo>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <map>
#include <set>

#include "instance_stepper.h"
#include "kernel_name_text.h"
#include "palette.h"
#include "range_toggle.h"
#include "stack_frames.h"
#include "table_panel.h"
#include "viewer_state.h"

using namespace stackline;

namespace {

constexpr int kNameRole = Qt::UserRole;

// Events by start time.
std::vector<uint32_t> byStart(const EventTable& ev, std::vector<uint32_t> rows) {
    std::stable_sort(rows.begin(), rows.end(),
                     [&](uint32_t a, uint32_t b) { return ev.tsNs[a] < ev.tsNs[b]; });
    return rows;
}

}  // namespace

HotspotsModel::HotspotsModel()
    : TableModel({tr("File"), tr("Line"), tr("Function"), tr("Code"), tr("Self"), tr("Total"),
                  tr("Launches"), tr("Kernels")}) {}

void HotspotsModel::show(std::shared_ptr<const Document> doc,
                         std::shared_ptr<const Hotspots> hotspots) {
    hotspots_ = doc ? std::move(hotspots) : nullptr;
    setDocument(std::move(doc));
}

int HotspotsModel::rebuild() {
    return doc_ && hotspots_ ? int(hotspots_->lines.size()) : 0;
}

QVariant HotspotsModel::text(int row, int column) const {
    const SourceLine& l = line(row);
    switch (column) {
        case File: {
            const QString file = QString::fromStdString(l.file);
            return l.line > 0 ? QFileInfo(file).fileName() : file;
        }
        case Line:
            return l.line > 0 ? QVariant(l.line) : QVariant();
        case Function:
            return QString::fromStdString(l.function);
        case Code:
            return QString::fromStdString(l.code).trimmed();
        case Self:
            return formatMicroseconds(l.selfUs);
        case Total:
            return formatMicroseconds(l.totalUs);
        case Launches:
            return qulonglong(l.launches);
        case Kernels:
            return qulonglong(l.kernels.size());
    }
    return {};
}

QVariant HotspotsModel::extra(int row, int column, int role) const {
    const SourceLine& l = line(row);
    if (role == kSortRole) {
        switch (column) {
            case File:
                return QString::fromStdString(l.file);
            case Line:
                return l.line;
            case Code:
                return QString::fromStdString(l.code);
            case Self:
                return l.selfUs;
            case Total:
                return l.totalUs;
        }
    }
    if (role == Qt::TextAlignmentRole && column >= Self)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    // Stacks from the single-stack rule are guesses: say how many this line's figures hold.
    if (l.guessedLaunches && column == Launches && role == Qt::ForegroundRole)
        return uiColor(UiColor::Warning);
    if (l.guessedLaunches && column == Launches && role == Qt::ToolTipRole)
        return tr("%1 of these launches have a guessed stack: the only stack of their graph, "
                  "the kernel information has no entry for the kernel")
            .arg(l.guessedLaunches);
    if (role == Qt::ToolTipRole && column <= Code) {
        const QString where = QString::fromStdString(l.file) +
                              (l.line > 0 ? QStringLiteral(":%1").arg(l.line) : QString());
        return l.function.empty() ? where
                                  : tr("%1\nin %2").arg(where, QString::fromStdString(l.function));
    }
    if (role == Qt::ToolTipRole && column == Kernels)
        return QString::fromStdString([&] {
            std::string s;
            for (const auto& k : l.kernels) s += (s.empty() ? "" : "\n") + k;
            return s;
        }());
    return {};
}

HotspotsPanel::HotspotsPanel(ViewerState* state, QWidget* parent) : QWidget(parent), state_(state) {
    model_ = new HotspotsModel;
    table_ = new TablePanel(model_, tr("Filter source lines by file, function or code…"));
    QTableView* view = table_->view();
    view->sortByColumn(HotspotsModel::Self, Qt::DescendingOrder);
    view->horizontalHeader()->resizeSection(HotspotsModel::File, 110);
    view->horizontalHeader()->resizeSection(HotspotsModel::Line, 50);
    view->horizontalHeader()->resizeSection(HotspotsModel::Function, 110);
    view->horizontalHeader()->resizeSection(HotspotsModel::Code, 380);
    view->horizontalHeader()->setStretchLastSection(false);
    connect(table_, &TablePanel::rowActivated, this, &HotspotsPanel::chooseLine);
    connect(view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (current.isValid() && !following_)
                    chooseLine(table_->proxy()->mapToSource(current).row());
            });

    auto* right = new QWidget;
    auto* rl = new QVBoxLayout(right);
    rl->setContentsMargins(2, 2, 2, 2);
    rangeOnly_ = new RangeToggle(state_);
    allKernels_ = newAllKernelsToggle();
    table_->addBesideFilter(rangeOnly_);
    table_->addBesideFilter(allKernels_);
    connect(rangeOnly_, &RangeToggle::activeChanged, this, &HotspotsPanel::invalidate);
    connect(allKernels_, &QCheckBox::toggled, this, &HotspotsPanel::invalidate);
    connect(&watcher_, &QFutureWatcherBase::finished, this, [this] {
        const Computed c = watcher_.result();
        if (c.generation == generation_) showHotspots(c.hotspots, c.options);
    });
    summary_ = new QLabel;
    summary_->setWordWrap(true);
    rl->addWidget(summary_);
    stepper_ = new InstanceStepper(state_);
    rl->addWidget(stepper_);
    kernels_ = new QListWidget;
    kernels_->setToolTip(
        tr("Kernels launched from the selected line; click to select one, double-click to see "
           "its code"));
    auto activate = [this](QListWidgetItem* item) {
        if (item) chooseKernel(item->data(kNameRole).toString());
    };
    connect(kernels_, &QListWidget::itemClicked, this, activate);
    connect(kernels_, &QListWidget::itemActivated, this, activate);
    auto showCode = [this](QListWidgetItem* item) {
        if (!item) return;
        chooseKernel(item->data(kNameRole).toString());
        emit kernelCodeRequested();
    };
    connect(kernels_, &QListWidget::itemDoubleClicked, this, showCode);
    kernels_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(kernels_, &QWidget::customContextMenuRequested, this,
            [this, showCode](const QPoint& at) {
                QListWidgetItem* item = kernels_->itemAt(at);
                if (!item) return;
                QMenu menu;
                menu.addAction(tr("Show Kernel Code"), this, [item, showCode] { showCode(item); });
                menu.exec(kernels_->viewport()->mapToGlobal(at));
            });
    rl->addWidget(kernels_, 1);

    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(table_);
    split->addWidget(right);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
    // Another document shown: reloaded, or another one of the window made current.
    for (auto shown : {&ViewerState::documentsChanged, &ViewerState::currentChanged})
        connect(state_, shown, this, [this] { setDocument(state_->current()); });
    connect(state_, &ViewerState::selectionChanged, this, &HotspotsPanel::followSelection);
    setDocument(state_->current());
}

void HotspotsPanel::setDocument(std::shared_ptr<const Document> doc) {
    doc_ = std::move(doc);
    ++generation_;  // drops a result for the previous document
    // The document's own figures at once; recomputed when a toggle asks for others.
    showHotspots(doc_ ? std::shared_ptr<const Hotspots>(doc_, &doc_->hotspots) : nullptr, {});
    if (allKernels_->isChecked()) invalidate();
}

void HotspotsPanel::showEvent(QShowEvent* e) {
    QWidget::showEvent(e);
    if (stale_) recompute();
}

void HotspotsPanel::invalidate() {
    stale_ = true;
    if (isVisible()) recompute();
}

void HotspotsPanel::recompute() {
    stale_ = false;
    if (!doc_) return;
    KernelStacksOptions options;
    if (const auto range = rangeOnly_->active()) options.range = range->range;
    if (allKernels_->isChecked()) options.eager = &doc_->eager;
    ++generation_;
    if (options.range.isAll() && !options.eager) {
        showHotspots(std::shared_ptr<const Hotspots>(doc_, &doc_->hotspots), options);
        return;
    }
    // A big trace takes a while: off the GUI thread; a newer request supersedes this one.
    computing_ = true;
    summary_->setText(tr("Computing…"));
    watcher_.setFuture(
        QtConcurrent::run([doc = doc_, options, generation = generation_]() -> Computed {
            return {generation, options,
                    std::make_shared<const Hotspots>(
                        computeHotspots(*doc->trace, doc->provenance, options))};
        }));
}

void HotspotsPanel::showHotspots(std::shared_ptr<const Hotspots> hotspots,
                                 KernelStacksOptions options) {
    computing_ = false;
    shownOptions_ = options;
    model_->show(doc_, std::move(hotspots));
    selected_ = -1;
    kernels_->clear();
    stepper_->setInstances(nullptr, {});
    const Hotspots* h = model_->hotspots();
    if (!h) {
        summary_->clear();
    } else {
        const QString scope =
            (options.range.isAll()
                 ? tr("whole trace")
                 : tr("selected range (%1)").arg(formatDuration(options.range.length()))) +
            (options.eager ? tr(", all kernels") : tr(", compiled kernels"));
        // An eager-only trace would show nothing: say what to tick.
        if (h->lines.empty() && !options.eager && doc_->eager.count() > 0)
            summary_->setText(tr("%1: no compiled kernels. Tick \"%2\" to see eager kernels by "
                                 "their Python stack.")
                                  .arg(scope, allKernels_->text()));
        else
            summary_->setText(tr("%1: charged GPU time %2; unresolved %3. Select a line to "
                                 "highlight its kernels on the timeline.")
                                  .arg(scope, formatMicroseconds(h->annotatedGpuUs),
                                       formatMicroseconds(h->unresolvedGpuUs)));
    }
    emit linesChanged();
}

int HotspotsPanel::count() const {
    return model_->rowCount();
}

void HotspotsPanel::selectVisualRow(int row) {
    if (row < 0 || row >= table_->proxy()->rowCount()) {
        chooseLine(-1);
        return;
    }
    table_->activateSourceRow(table_->proxy()->mapToSource(table_->proxy()->index(row, 0)).row());
}

void HotspotsPanel::chooseLine(int sourceRow) {
    if (!doc_ || sourceRow < 0 || sourceRow >= model_->rowCount()) {
        if (selected_ != -1) {
            selected_ = -1;
            kernels_->clear();
            stepper_->setInstances(nullptr, {});
            state_->setHighlighted({});
        }
        return;
    }
    const SourceLine& l = model_->line(sourceRow);
    // A click both activates the row and makes it current: choose once.
    if (sourceRow == selected_ && state_->highlighted() == l.rows) return;
    showLine(sourceRow);
    state_->setHighlighted(l.rows);
    if (l.line > 0)
        state_->showSource(QString::fromStdString(l.file), l.line, QString::fromStdString(l.code));
}

int HotspotsPanel::lineOf(uint32_t event) const {
    const auto frame = innermostFrame(*doc_, event);
    if (!frame) return -1;
    const std::string file = frame->file.toStdString();
    for (int r = 0; r < model_->rowCount(); ++r)
        if (model_->line(r).line == frame->line && model_->line(r).file == file) return r;
    return -1;
}

void HotspotsPanel::followSelection() {
    const uint32_t event = state_->selectedRow(doc_.get());
    if (event == kNoRow || !doc_->isKernel(event)) return;
    // The line shown launched it too (the user chose one of its kernels): keep it.
    if (selected_ >= 0) {
        const auto& rows = model_->line(selected_).rows;
        if (std::find(rows.begin(), rows.end(), event) != rows.end()) return;
    }
    const int line = lineOf(event);
    if (line < 0) return;
    following_ = true;
    table_->markSourceRow(line);
    following_ = false;
    showLine(line);
}

void HotspotsPanel::showLine(int sourceRow) {
    selected_ = sourceRow;
    const SourceLine& l = model_->line(sourceRow);
    const EventTable& ev = doc_->events();
    // Per kernel name: instances and time.
    struct Agg {
        uint64_t count = 0;
        int64_t ns = 0;
    };
    std::map<std::string, Agg> byName;
    std::set<std::string> guessed;  // kernels whose stack here is a single-stack guess
    for (uint32_t r : l.rows) {
        Agg& a = byName[std::string(ev.nameOf(r))];
        if (doc_->provenance.origins.of(r) == StackOrigin::SingleStack)
            guessed.insert(std::string(ev.nameOf(r)));
        ++a.count;
        a.ns += std::max<int64_t>(0, ev.durNs[r]);
    }
    std::vector<std::pair<std::string, Agg>> sorted(byName.begin(), byName.end());
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const auto& a, const auto& b) { return a.second.ns > b.second.ns; });
    kernels_->clear();
    for (const auto& [name, a] : sorted) {
        const bool guess = guessed.count(name) != 0;
        auto* item =
            new QListWidgetItem(tr("%1%2  ×%3  %4")
                                    .arg(guess ? tr("(guess) ") : QString(), displayName(name))
                                    .arg(a.count)
                                    .arg(formatDuration(a.ns)),
                                kernels_);
        item->setData(kNameRole, QString::fromStdString(name));
        item->setToolTip(
            nameToolTip(name) +
            (guess ? tr("<p>Stack guessed: the only stack of its graph</p>") : QString()));
    }
    stepper_->setInstances(doc_, byStart(ev, l.rows));
    const QString file = QString::fromStdString(l.file);
    summary_->setText(tr("<b>%1:%2</b> in %3 — %4 launches of %5 kernels, self %6, total %7")
                          .arg(QFileInfo(file).fileName().toHtmlEscaped())
                          .arg(l.line)
                          .arg(QString::fromStdString(l.function).toHtmlEscaped())
                          .arg(l.launches)
                          .arg(l.kernels.size())
                          .arg(formatMicroseconds(l.selfUs), formatMicroseconds(l.totalUs)));
    summary_->setToolTip(file);
}

void HotspotsPanel::chooseKernel(const QString& name) {
    if (selected_ < 0) return;
    const EventTable& ev = doc_->events();
    const QByteArray utf8 = name.toUtf8();
    const std::string_view wanted(utf8.constData(), size_t(utf8.size()));
    std::vector<uint32_t> rows;
    for (uint32_t r : model_->line(selected_).rows)
        if (ev.nameOf(r) == wanted) rows.push_back(r);
    if (rows.empty()) return;
    rows = byStart(ev, std::move(rows));
    stepper_->setInstances(doc_, rows);
    state_->select(rows.front(), true);
}
