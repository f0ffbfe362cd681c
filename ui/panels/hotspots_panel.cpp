#include "panels/hotspots_panel.h"

#include <QCheckBox>
#include <QFileInfo>
#include <QFont>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <unordered_set>

#include "analysis/name_totals.h"
#include "panels/instance_stepper.h"
#include "panels/range_toggle.h"
#include "panels/table_panel.h"
#include "state/stack_frames.h"
#include "state/viewer_state.h"
#include "widgets/kernel_name_text.h"
#include "widgets/palette.h"

using namespace stackline;

namespace {

constexpr int kNameRole = Qt::UserRole;

}  // namespace

HotspotsModel::HotspotsModel() : TableModel(headers({})) {}

void HotspotsModel::show(std::shared_ptr<const ViewedTrace> doc,
                         std::shared_ptr<const Hotspots> hotspots) {
    hotspots_ = doc ? std::move(hotspots) : nullptr;
    ranked_ = nullptr;
    docs_.clear();
    setDocument(std::move(doc));
}

void HotspotsModel::showRanks(std::vector<std::shared_ptr<const ViewedTrace>> docs,
                              std::shared_ptr<const RankedHotspots> ranked) {
    hotspots_ = nullptr;
    ranked_ = std::move(ranked);
    docs_ = std::move(docs);
    setDocument(docs_.empty() ? nullptr : docs_.front());
}

QStringList HotspotsModel::headers(const std::vector<std::shared_ptr<const ViewedTrace>>& docs) {
    if (docs.size() <= 1)
        return {tr("File"), tr("Line"),  tr("Function"), tr("Code"),
                tr("Self"), tr("Total"), tr("Launches"), tr("Kernels")};
    QStringList h{tr("File"),       tr("Line"),        tr("Function"),       tr("Code"),
                  tr("Self (sum)"), tr("Total (sum)"), tr("Launches (sum)"), tr("Kernels")};
    for (const auto& d : docs) h << QString::fromStdString(d->rank.label);
    return h;
}

int HotspotsModel::rebuild() {
    setHeaders(headers(ranked_ ? docs_ : std::vector<std::shared_ptr<const ViewedTrace>>{}));
    if (ranked_) return int(ranked_->lines.size());
    return doc_ && hotspots_ ? int(hotspots_->lines.size()) : 0;
}

const SourceLine& HotspotsModel::line(int row) const {
    return ranked_ ? ranked_->lines[size_t(row)].sum : hotspots_->lines[size_t(row)];
}

const std::vector<uint32_t>& HotspotsModel::rowsIn(int row, const ViewedTrace* doc) const {
    static const std::vector<uint32_t> none;
    if (!ranked_) return doc && doc == doc_.get() ? line(row).rows : none;
    for (size_t i = 0; i < docs_.size(); ++i)
        if (docs_[i].get() == doc) return ranked_->lines[size_t(row)].rows[i];
    return none;
}

QVariant HotspotsModel::text(int row, int column) const {
    const SourceLine& l = line(row);
    if (column >= FirstRank)
        return formatMicroseconds(ranked_->lines[size_t(row)].selfUs[size_t(column - FirstRank)]);
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
        if (column >= FirstRank)
            return ranked_->lines[size_t(row)].selfUs[size_t(column - FirstRank)];
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
    if (role == Qt::ToolTipRole && column >= FirstRank)
        return tr("Self time on %1")
            .arg(QString::fromStdString(docs_[size_t(column - FirstRank)]->rank.label));
    // Stacks from the single-stack rule are guesses: say how many this line's figures hold.
    if (l.guessedLaunches && column == Launches && role == Qt::ForegroundRole)
        return uiColor(UiColor::Warning);
    if (l.guessedLaunches && column == Launches && role == Qt::ToolTipRole)
        return tr("%1 of these launches have a guessed stack: the only stack of their graph, "
                  "the kernel information has no entry for the kernel")
            .arg(l.guessedLaunches);
    // Stacks of Stackline's rule by name (a trace without compiled regions): not the reference's.
    if (l.byNameLaunches && column == Launches && role == Qt::FontRole) {
        QFont italic;
        italic.setItalic(true);
        return italic;
    }
    if (l.byNameLaunches && column == Launches && role == Qt::ToolTipRole)
        return tr("%1 of these launches have a stack matched by name: the only graph of the "
                  "kernel information that names the kernel, not the reference's rule (the trace "
                  "has no compiled region)")
            .arg(l.byNameLaunches);
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
    connect(rangeOnly_, &RangeToggle::activeChanged, &gate_, &ShowGate::invalidate);
    connect(allKernels_, &QCheckBox::toggled, &gate_, &ShowGate::invalidate);
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
    connect(state_, &ViewerState::documentsChanged, this, &HotspotsPanel::setDocuments);
    connect(state_, &ViewerState::currentChanged, this, [this] {
        doc_ = state_->current();
        // The range is the current document's: the other ranks' spans move with it.
        if (ranks() && rangeOnly_->active()) gate_.invalidate();
        if (selected_ >= 0) showLine(selected_);
    });
    // Another alignment moves the range over the other ranks' own times.
    connect(state_, &ViewerState::offsetsChanged, this, [this] {
        if (ranks() && rangeOnly_->active()) gate_.invalidate();
    });
    connect(state_, &ViewerState::selectionChanged, this, &HotspotsPanel::followSelection);
    setDocuments();
}

void HotspotsPanel::setDocuments() {
    docs_ = state_->documents();
    doc_ = state_->current();
    computed_.drop();  // a result for the previous documents
    // One document's own figures at once; recomputed when a toggle asks for others. Several
    // documents' lines are matched up off the GUI thread.
    showHotspots(
        {{},
         doc_ && !ranks() ? std::shared_ptr<const Hotspots>(doc_, &doc_->hotspots) : nullptr,
         nullptr});
    // Several documents: their lines now, whether shown or not, for the tab's count.
    if (ranks())
        gate_.run();
    else if (allKernels_->isChecked())
        gate_.invalidate();
}

void HotspotsPanel::recompute() {
    if (!doc_) return;
    KernelStacksOptions options;
    if (const auto range = rangeOnly_->active()) options.range = range->range;
    options.eager = allKernels_->isChecked() ? &doc_->eager : nullptr;
    if (!ranks() && options.range.isAll() && !options.eager) {
        computed_.drop();
        showHotspots({options, std::shared_ptr<const Hotspots>(doc_, &doc_->hotspots), nullptr});
        return;
    }
    // A big trace takes a while: off the GUI thread; a newer request supersedes this one.
    summary_->setText(tr("Computing…"));
    if (!ranks()) {
        computed_.start([doc = doc_, options]() -> Computed {
            return {options,
                    std::make_shared<const Hotspots>(
                        computeHotspots(*doc->trace, doc->provenance, options)),
                    nullptr};
        });
        return;
    }
    // The range is the current document's: each rank gets the same span of the shared time axis.
    std::vector<int64_t> shifts;
    for (const auto& d : docs_)
        shifts.push_back(state_->offsetNs(doc_.get()) - state_->offsetNs(d.get()));
    const bool eager = options.eager != nullptr;
    computed_.start([docs = docs_, options, shifts, eager]() -> Computed {
        std::vector<Hotspots> computed(docs.size());
        std::vector<const Hotspots*> perDoc;
        for (size_t i = 0; i < docs.size(); ++i) {
            const ViewedTrace& d = *docs[i];
            KernelStacksOptions own;
            if (!options.range.isAll())
                own.range = {options.range.start + shifts[i], options.range.end + shifts[i]};
            own.eager = eager ? &d.eager : nullptr;
            if (own.range.isAll() && !own.eager) {
                perDoc.push_back(&d.hotspots);
                continue;
            }
            computed[i] = computeHotspots(*d.trace, d.provenance, own);
            perDoc.push_back(&computed[i]);
        }
        return {options, nullptr, std::make_shared<const RankedHotspots>(rankHotspots(perDoc))};
    });
}

void HotspotsPanel::showHotspots(const Computed& c) {
    shownOptions_ = c.options;
    if (c.ranked)
        model_->showRanks(docs_, c.ranked);
    else
        model_->show(doc_, c.hotspots);
    selected_ = -1;
    kernels_->clear();
    stepper_->setInstances(nullptr, {});
    const Hotspots* h = model_->hotspots();
    const RankedHotspots* r = model_->ranked();
    const KernelStacksOptions& options = c.options;
    if (r) {
        summary_->setText(
            tr("%1 traces, %2: charged GPU time %3; unresolved %4. Self time per "
               "trace in the last columns. Select a line to highlight its kernels "
               "on every trace.")
                .arg(docs_.size())
                .arg(options.range.isAll()
                         ? tr("whole traces")
                         : tr("selected range (%1)").arg(formatDuration(options.range.length())))
                .arg(formatMicroseconds(r->annotatedGpuUs),
                     formatMicroseconds(r->unresolvedGpuUs)));
    } else if (!h) {
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
            summary_->setText(
                tr("%1: charged GPU time %2%3; unresolved %4. Select a line to highlight its "
                   "kernels on the timeline.")
                    .arg(scope, formatMicroseconds(h->annotatedGpuUs),
                         h->byNameGpuNs ? tr(" (%1 of it matched by name, Stackline's rule: "
                                             "launches in italics)")
                                              .arg(formatMicroseconds(double(h->byNameGpuNs) / 1e3))
                                        : QString(),
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
    // On every document shown: the line's kernel events there.
    std::vector<std::vector<uint32_t>> rows;
    for (const auto& d : state_->documents()) rows.push_back(model_->rowsIn(sourceRow, d.get()));
    // A click both activates the row and makes it current: choose once.
    bool same = sourceRow == selected_;
    for (size_t i = 0; same && i < rows.size(); ++i)
        same = state_->highlighted(state_->documents()[i].get()) == rows[i];
    if (same) return;
    showLine(sourceRow);
    state_->setHighlights(std::move(rows));
    if (l.line > 0)
        state_->showSource(QString::fromStdString(l.file), l.line, QString::fromStdString(l.code));
}

int HotspotsPanel::lineOf(const ViewedTrace& doc, uint32_t event) const {
    const auto frame = innermostFrame(doc, event);
    if (!frame) return -1;
    const std::string file = frame->file.toStdString();
    for (int r = 0; r < model_->rowCount(); ++r)
        if (model_->line(r).line == frame->line && model_->line(r).file == file) return r;
    return -1;
}

void HotspotsPanel::followSelection() {
    const EventRef selected = state_->selected();
    if (!selected.isValid() || !model_->rowCount() || !selected.doc->isKernel(selected.row)) return;
    const uint32_t event = selected.row;
    // The line shown launched it too (the user chose one of its kernels): keep it.
    if (selected_ >= 0) {
        const auto& rows = model_->rowsIn(selected_, selected.doc);
        if (std::find(rows.begin(), rows.end(), event) != rows.end()) return;
    }
    const int line = lineOf(*selected.doc, event);
    if (line < 0) return;
    following_ = true;
    table_->markSourceRow(line);
    following_ = false;
    showLine(line);
}

void HotspotsPanel::showLine(int sourceRow) {
    selected_ = sourceRow;
    const SourceLine& l = model_->line(sourceRow);
    const std::vector<uint32_t>& rows = model_->rowsIn(sourceRow, doc_.get());
    const EventTable& ev = doc_->events();
    // Per kernel name: instances and time; "guess" when a stack here is a single-stack guess,
    // "by name" when Stackline's rule by name gave it.
    std::unordered_set<std::string_view> guessed, byName;
    if (l.guessedLaunches > 0 || l.byNameLaunches > 0)
        for (uint32_t r : rows) {
            const StackOrigin o = doc_->provenance.origins.of(r);
            if (o == StackOrigin::SingleStack) guessed.insert(ev.nameOf(r));
            if (o == StackOrigin::MatchedByName) byName.insert(ev.nameOf(r));
        }
    kernels_->clear();
    for (const NameTotal& k : totalsByName(ev, rows)) {
        const bool guess = guessed.count(k.name) != 0, named = byName.count(k.name) != 0;
        const std::string name(k.name);
        auto* item = new QListWidgetItem(tr("%1%2  ×%3  %4")
                                             .arg(guess   ? tr("(guess) ")
                                                  : named ? tr("(by name) ")
                                                          : QString(),
                                                  displayName(name))
                                             .arg(k.count)
                                             .arg(formatDuration(k.ns)),
                                         kernels_);
        item->setData(kNameRole, QString::fromStdString(name));
        item->setToolTip(
            nameToolTip(name) +
            (guess   ? tr("<p>Stack guessed: the only stack of its graph</p>")
             : named ? tr("<p>Stack matched by name: the only graph of the kernel information "
                          "that names this kernel, not the reference's rule</p>")
                     : QString()));
    }
    stepper_->setInstances(doc_, byStart(ev, rows));
    const QString file = QString::fromStdString(l.file);
    summary_->setText(tr("<b>%1:%2</b> in %3 — %4 launches of %5 kernels, self %6, total %7")
                          .arg(QFileInfo(file).fileName().toHtmlEscaped())
                          .arg(l.line)
                          .arg(QString::fromStdString(l.function).toHtmlEscaped())
                          .arg(l.launches)
                          .arg(l.kernels.size())
                          .arg(formatMicroseconds(l.selfUs), formatMicroseconds(l.totalUs)));
    if (ranks())
        summary_->setText(summary_->text() +
                          tr("; listed: the kernels on %1")
                              .arg(QString::fromStdString(doc_->rank.label).toHtmlEscaped()));
    summary_->setToolTip(file);
}

void HotspotsPanel::chooseKernel(const QString& name) {
    if (selected_ < 0) return;
    const EventTable& ev = doc_->events();
    const QByteArray utf8 = name.toUtf8();
    const std::string_view wanted(utf8.constData(), size_t(utf8.size()));
    std::vector<uint32_t> rows;
    for (uint32_t r : model_->rowsIn(selected_, doc_.get()))
        if (ev.nameOf(r) == wanted) rows.push_back(r);
    if (rows.empty()) return;
    rows = byStart(ev, rows);
    stepper_->setInstances(doc_, rows);
    state_->select(rows.front(), true);
}
