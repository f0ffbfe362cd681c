#include "panels/details_panel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <nlohmann/json.hpp>

#include "analysis/eager_stacks.h"
#include "annotate/diagnostic.h"
#include "annotate/summary_report.h"
#include "model/kineto.h"
#include "state/viewer_state.h"
#include "widgets/elided_label.h"
#include "widgets/kernel_name_text.h"
#include "widgets/palette.h"

using namespace stackline;

namespace {

constexpr int kFileRole = Qt::UserRole;
const QString kSourceLink = QStringLiteral("source:");
constexpr int kLineRole = Qt::UserRole + 1;
constexpr int kCodeRole = Qt::UserRole + 2;
// Names and messages inside a line of text, shortened to this many characters (the title shows
// the selected event's name in full width).
constexpr int kNameChars = 80;
constexpr int kMessageChars = 400;

// Wrapped, and never asking for more width than it is given: a long name without a space would
// otherwise widen the panel, and with it the window.
QLabel* valueLabel() {
    auto* l = new QLabel;
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->setWordWrap(true);
    l->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    return l;
}

QString shortName(std::string_view name) {
    return elideMiddle(displayName(name), kNameChars).toHtmlEscaped();
}

// An eager stack's frames, outermost first as args.stack is listed; a frame
// without a line (a built-in) is shown by its name.
QList<StackFrame> eagerFrames(const ViewedTrace& doc, uint32_t stack) {
    QList<StackFrame> frames;
    const std::span<const uint32_t> names = doc.eager.frames(stack);
    for (auto it = names.rbegin(); it != names.rend(); ++it) {
        const std::string_view name = doc.events().strings.at(*it);
        const SourceFrame f = pythonFunctionFrame(name);
        frames.push_back({QString::fromStdString(f.file), f.line,
                          QString::fromStdString(f.function), QString(),
                          QString::fromUtf8(name.data(), qsizetype(name.size()))});
    }
    return frames;
}

QString link(const ViewedTrace& doc, uint32_t row) {
    return QStringLiteral("<a href=\"%1\">%2</a>")
        .arg(row)
        .arg(shortName(doc.events().nameOf(row)));
}

QString scalarText(const nlohmann::ordered_json& v) {
    if (v.is_string()) return QString::fromStdString(v.get<std::string>());
    return QString::fromStdString(v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

void addValue(QTreeWidgetItem* parent, QTreeWidget* tree, const QString& key,
              const nlohmann::ordered_json& v) {
    auto* item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(tree);
    item->setText(0, key);
    const bool container = v.is_object() || v.is_array();
    const QString inline_ = scalarText(v);
    // Short containers read best inline; long ones expand.
    if (!container || inline_.size() <= 80) {
        item->setText(1, inline_);
        item->setToolTip(1, inline_.left(2000));
        return;
    }
    item->setText(1, v.is_array() ? QStringLiteral("[%1 items]").arg(v.size())
                                  : QStringLiteral("{%1 keys}").arg(v.size()));
    if (v.is_object()) {
        for (auto it = v.begin(); it != v.end(); ++it)
            addValue(item, tree, QString::fromStdString(it.key()), it.value());
    } else {
        int i = 0;
        for (const auto& e : v) addValue(item, tree, QString::number(i++), e);
    }
}

}  // namespace

DetailsPanel::DetailsPanel(ViewerState* state, QWidget* parent)
    : QWidget(parent), state_(state), row_(kNoRow) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    title_ = new ElidedLabel;
    QFont tf = title_->font();
    tf.setBold(true);
    tf.setPointSizeF(tf.pointSizeF() * 1.1);
    title_->setFont(tf);
    layout->addWidget(title_);
    copyName_ = new QAction(tr("Copy name"), this);
    copyName_->setShortcut(QKeySequence::Copy);
    copyName_->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(copyName_, &QAction::triggered, this, [this] {
        if (!doc_ || row_ == kNoRow) return;
        const std::string_view name = doc_->events().nameOf(row_);
        QApplication::clipboard()->setText(QString::fromUtf8(name.data(), qsizetype(name.size())));
    });
    addAction(copyName_);
    title_->addAction(copyName_);
    title_->setContextMenuPolicy(Qt::ActionsContextMenu);

    form_ = new QWidget;
    auto* form = new QFormLayout(form_);
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    category_ = valueLabel();
    start_ = valueLabel();
    duration_ = valueLabel();
    track_ = valueLabel();
    uid_ = valueLabel();
    status_ = valueLabel();
    form->addRow(tr("Category"), category_);
    form->addRow(tr("Start"), start_);
    form->addRow(tr("Duration"), duration_);
    form->addRow(tr("Track"), track_);
    form->addRow(tr("uid"), uid_);
    form->addRow(tr("Status"), status_);
    layout->addWidget(form_);

    links_ = new QLabel;
    links_->setWordWrap(true);
    links_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    links_->setTextFormat(Qt::RichText);
    links_->setTextInteractionFlags(Qt::TextBrowserInteraction);
    connect(links_, &QLabel::linkActivated, this, [this](const QString& href) {
        if (!href.startsWith(kSourceLink)) {
            state_->select(href.toUInt(), true);
            return;
        }
        // "source:<line>:<file>", from a python_function slice
        const QString rest = href.mid(kSourceLink.size());
        const qsizetype colon = rest.indexOf(QLatin1Char(':'));
        state_->showSource(rest.mid(colon + 1), rest.left(colon).toInt());
        emit frameActivated();
    });
    layout->addWidget(links_);
    provenance_ = valueLabel();
    provenance_->setTextFormat(Qt::RichText);
    layout->addWidget(provenance_);

    stackHeading_ = new QLabel(tr("<b>Python stack</b>"));
    layout->addWidget(stackHeading_);
    auto* split = new QSplitter(Qt::Vertical);
    stack_ = new QListWidget;
    stack_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    stack_->setWordWrap(false);
    stack_->setAlternatingRowColors(true);
    auto activate = [this](QListWidgetItem* item) {
        if (!item || item->data(kLineRole).toInt() <= 0) return;
        state_->showSource(item->data(kFileRole).toString(), item->data(kLineRole).toInt(),
                           item->data(kCodeRole).toString());
        emit frameActivated();
    };
    connect(stack_, &QListWidget::itemClicked, this, activate);
    connect(stack_, &QListWidget::itemActivated, this, activate);
    split->addWidget(stack_);

    args_ = new QTreeWidget;
    args_->setHeaderLabels({tr("Argument"), tr("Value")});
    args_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    args_->setUniformRowHeights(true);
    split->addWidget(args_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
    // Another document shown: reloaded, or another one of the window made current.
    for (auto shown : {&ViewerState::documentsChanged, &ViewerState::currentChanged})
        connect(state_, shown, this, [this] { setDocument(state_->current()); });
    connect(state_, &ViewerState::selectionChanged, this,
            [this] { setEvent(state_->selectedRow(doc_.get())); });
    setDocument(state_->current());
}

void DetailsPanel::setDocument(std::shared_ptr<const ViewedTrace> doc) {
    doc_ = std::move(doc);
    diagnosticsOf_.clear();
    if (doc_) {
        const Diagnostics& diags = doc_->provenance.diagnostics;
        for (uint32_t i = 0; i < diags.size(); ++i)
            if (diags[i].row != kNoRow) diagnosticsOf_.push_back(i);
        std::stable_sort(diagnosticsOf_.begin(), diagnosticsOf_.end(),
                         [&](uint32_t a, uint32_t b) { return diags[a].row < diags[b].row; });
    }
    setEvent(kNoRow);
}

QString DetailsPanel::statusLabelText() const {
    return status_->text();
}
QString DetailsPanel::linksText() const {
    return links_->text();
}
QString DetailsPanel::provenanceText() const {
    return provenance_->text();
}

void DetailsPanel::setEvent(uint32_t row) {
    row_ = doc_ && row < doc_->events().size() ? row : kNoRow;
    frames_.clear();
    stack_->clear();
    args_->clear();
    const bool has = row_ != kNoRow;
    form_->setVisible(has);
    links_->setVisible(has);
    provenance_->clear();
    provenance_->setVisible(false);
    copyName_->setEnabled(has);
    if (!has) {
        title_->setText(doc_ ? tr("Nothing selected: click a slice") : QString());
        title_->setToolTip(QString());
        stackHeading_->setVisible(false);
        stack_->setVisible(false);
        args_->setVisible(false);
        return;
    }
    const ViewedTrace& doc = *doc_;
    const EventTable& ev = doc.events();
    title_->setText(displayName(ev.nameOf(row_)));
    title_->setToolTip(nameToolTip(ev.nameOf(row_)) + tr("<p>Right-click or Ctrl+C: copy</p>"));
    category_->setText(QString::fromUtf8(ev.catOf(row_).data(), qsizetype(ev.catOf(row_).size())));
    const int64_t origin = doc.originNs;
    start_->setText(tr("+%1 (ts %2 µs)")
                        .arg(formatDuration(ev.tsNs(row_) - origin),
                             QString::fromStdString(formatMicros(ev.tsNs(row_)))));
    duration_->setText(ev.phase[row_] == 'X' ? formatDuration(ev.durNs(row_)) : tr("instant"));
    const uint32_t t = doc.tracks.trackOf(row_);
    if (t != kNoTrack) {
        const Track& tr_ = doc.tracks.tracks()[t];
        track_->setText(
            QString::fromStdString(doc.tracks.processes()[tr_.process].label() + " · " + tr_.name));
    } else {
        track_->setText(QStringLiteral("pid %1, tid %2")
                            .arg(QString::fromStdString(ev.keys.describe(ev.pid[row_])),
                                 QString::fromStdString(ev.keys.describe(ev.tid[row_]))));
    }
    uid_->setText(QString::number(row_));
    if (doc.isKernel(row_)) {
        const KernelStatus s = doc.status(row_);
        const SliceStyle style = s == KernelStatus::Annotated    ? SliceStyle::KernelAnnotated
                                 : s == KernelStatus::Unresolved ? SliceStyle::KernelUnresolved
                                                                 : SliceStyle::KernelOutside;
        status_->setText(QStringLiteral("<span style=\"color:%1\">■</span> <b>%2</b>")
                             .arg(sliceColor(style).name(), statusText(s)));
    } else {
        status_->setText(doc.provenance.stackOf(row_) ? tr("carries a Python stack")
                                                      : tr("not a GPU kernel"));
    }
    showLinks(row_);
    showProvenance(row_);
    showStack(row_);
    showArgs(row_);
}

void DetailsPanel::showLinks(uint32_t row) {
    const ViewedTrace& doc = *doc_;
    const EventTable& ev = doc.events();
    QStringList lines;
    for (uint32_t l : doc.flows.linksOf(row)) {
        const FlowLink& f = doc.flows.links()[l];
        // A launch, a forward op's backward (fwdbwd), or another writer's flow.
        const bool launch = f.isLaunch();
        const bool backward = f.category == kineto::Category::ForwardBackwardFlow;
        if (f.to == row) {
            const QString gap = formatDuration(ev.tsNs(row) - ev.tsNs(f.from));
            lines << (launch     ? tr("Launched by %1 (%2 earlier)")
                      : backward ? tr("Forward: %1 (%2 earlier)")
                                 : tr("Flow from %1 (%2 earlier)"))
                         .arg(link(doc, f.from), gap);
        } else {
            lines << (launch     ? tr("Launches %1")
                      : backward ? tr("Backward: %1")
                                 : tr("Flow to %1"))
                         .arg(link(doc, f.to));
        }
    }
    if (kineto::categoryOf(ev.catOf(row)) == kineto::Category::PythonFunction) {
        const SourceFrame frame = pythonFunctionFrame(ev.nameOf(row));
        if (frame.line > 0) {
            const QString file = QString::fromStdString(frame.file);
            lines << tr("Source: <a href=\"%1%2:%3\">%4:%2</a>")
                         .arg(kSourceLink)
                         .arg(frame.line)
                         .arg(file.toHtmlEscaped(), QFileInfo(file).fileName().toHtmlEscaped());
        }
    }
    const uint32_t region = doc.compiledRegionFor(row);
    if (region != kNoRow && region != row)
        lines << tr("Compiled region: %1").arg(link(doc, region));
    const Diagnostics& diags = doc.provenance.diagnostics;
    const auto b = std::lower_bound(diagnosticsOf_.begin(), diagnosticsOf_.end(), row,
                                    [&](uint32_t i, uint32_t r) { return diags[i].row < r; });
    const auto e = std::upper_bound(b, diagnosticsOf_.end(), row,
                                    [&](uint32_t r, uint32_t i) { return r < diags[i].row; });
    // The processor can report one thing twice (as the reference does): once here. The latest
    // first, as this panel has always listed them.
    std::vector<Diagnostic> shown;
    for (auto it = e; it != b;) {
        const Diagnostic& d = diags[*--it];
        if (std::any_of(shown.begin(), shown.end(),
                        [&](const Diagnostic& s) { return s.sameText(d); }))
            continue;
        shown.push_back(d);
        lines << QStringLiteral("<span style=\"color:%1\">%2 (%3): %4</span>")
                     .arg(uiColor(d.severity() == Severity::Error ? UiColor::Error
                                                                  : UiColor::Warning)
                              .name(),
                          d.severity() == Severity::Error ? tr("Error") : tr("Warning"),
                          QString::fromUtf8(d.kindName().data(), qsizetype(d.kindName().size())),
                          elideMiddle(QString::fromStdString(diags.message(d, ev)), kMessageChars)
                              .toHtmlEscaped());
    }
    links_->setText(lines.join(QStringLiteral("<br>")));
    links_->setVisible(!lines.isEmpty());
}

void DetailsPanel::showProvenance(uint32_t row) {
    const ViewedTrace& doc = *doc_;
    const StackOrigins& origins = doc.provenance.origins;
    const StackSource* source = origins.sourceOf(row);
    QStringList lines;
    switch (origins.of(row)) {
        case StackOrigin::None:
            if (!doc.isKernel(row)) return;
            lines << (doc.status(row) == KernelStatus::Unresolved
                          ? tr("<b>No stack</b>: launched inside a compiled region, but the kernel "
                               "information has no source for this kernel.")
                      : !doc.eager.stackOf(row)
                          ? tr("<b>No stack</b>: launched outside compiled regions.")
                      : doc.trace->launchStacks.empty()
                          ? tr("<b>No stack</b> from the processor: launched outside compiled "
                               "regions. Its Python stack below is read from the trace's "
                               "<code>python_function</code> slices.")
                          : tr("<b>No stack</b> from the processor: launched outside compiled "
                               "regions. Its Python stack below is the Python backtrace recorded "
                               "with its launch."));
            break;
        case StackOrigin::InTrace:
            lines << tr("<b>Stack</b> recorded in the trace (<code>args.stack</code>)");
            break;
        case StackOrigin::Matched:
            lines << tr("<b>Stack from kernel information</b>: entry <code>%1</code> of graph "
                        "<code>%2</code>")
                         .arg(shortName(source->kernel),
                              QString::fromStdString(source->graphKey).toHtmlEscaped());
            break;
        case StackOrigin::SingleStack:
            lines << tr("<span style=\"color:%1\"><b>Stack guessed</b>: the only stack of graph "
                        "<code>%2</code>; the kernel information has no entry for this kernel "
                        "(the reference's single-stack rule)</span>")
                         .arg(uiColor(UiColor::Warning).name(),
                              QString::fromStdString(source->graphKey).toHtmlEscaped());
            break;
        case StackOrigin::MatchedByName:
            lines << tr("<span style=\"color:%1\"><b>Stack matched by name</b>: entry "
                        "<code>%2</code> of graph <code>%3</code>, the only graph of the kernel "
                        "information that names this kernel, not the reference's rule (the trace "
                        "has no compiled region; Export does not write this stack)</span>")
                         .arg(uiColor(UiColor::Warning).name(), shortName(source->kernel),
                              QString::fromStdString(source->graphKey).toHtmlEscaped());
            break;
    }
    const OrderedJson* e = source && !source->kernel.empty()
                               ? doc.kernelInfo.kernelEntry(source->graphKey, source->kernel)
                               : nullptr;
    auto nodes = [&](const char* field) {
        if (!e || !e->is_object()) return;
        auto it = e->find(field);
        if (it == e->end()) return;
        QStringList names;
        if (it->is_array()) {
            for (const auto& v : *it) names << scalarText(v).toHtmlEscaped();
        } else {
            names << scalarText(*it).toHtmlEscaped();
        }
        lines << QStringLiteral("%1: <code>%2</code>")
                     .arg(QString::fromLatin1(field),
                          names.isEmpty() ? tr("(none)") : names.join(QStringLiteral(", ")));
    };
    nodes("post_grad_nodes");
    nodes("pre_grad_nodes");
    provenance_->setText(lines.join(QStringLiteral("<br>")));
    provenance_->setVisible(true);
}

void DetailsPanel::showStack(uint32_t row) {
    const ViewedTrace& doc = *doc_;
    const uint32_t id = doc.provenance.stackOf(row);
    // Kernels outside compiled regions may have a stack of the trace's own (EagerStacks).
    const uint32_t eager = id == 0 ? doc.eager.stackOf(row) : 0;
    stackHeading_->setText(
        eager == 0 ? tr("<b>Python stack</b>")
        : doc.eager.origin(row) == EagerOrigin::Forward
            ? tr("<b>Python stack</b> (from the trace's Python stack, via its forward op)")
            : tr("<b>Python stack</b> (from the trace's Python stack)"));
    stackHeading_->setVisible(id != 0 || eager != 0);
    stack_->setVisible(id != 0 || eager != 0);
    if (id == 0 && eager == 0) return;  // the provenance line says why
    frames_ = id != 0 ? stackOf(doc, row) : eagerFrames(doc, eager);
    for (const StackFrame& f : frames_) {
        auto* item = new QListWidgetItem(stack_);
        if (!f.isFrame()) {
            item->setText(f.text);
            item->setToolTip(f.text.left(4000));
            continue;
        }
        QString text = QStringLiteral("%1:%2  in %3")
                           .arg(QFileInfo(f.file).fileName())
                           .arg(f.line)
                           .arg(f.function);
        if (!f.code.isEmpty()) text += QStringLiteral("\n    ") + f.code;
        item->setText(text);
        item->setToolTip(QStringLiteral("%1, line %2").arg(f.file).arg(f.line));
        item->setData(kFileRole, f.file);
        item->setData(kLineRole, f.line);
        item->setData(kCodeRole, f.code);
    }
}

void DetailsPanel::showArgs(uint32_t row) {
    const ViewedTrace& doc = *doc_;
    const EventArgs eventArgs = doc.trace->args(row);
    args_->setVisible(eventArgs.present());
    if (!eventArgs.present()) return;
    // Args are read from the file only now: not from one rewritten since it was opened, whose
    // bytes at these offsets belong to another trace (and are checked again after reading).
    auto changed = [&] {
        const std::string why = doc.trace->changedOnDisk();
        if (!why.empty())
            addValue(nullptr, args_, tr("args"),
                     nlohmann::ordered_json(tr("not shown: %1; reload the trace to see them")
                                                .arg(QString::fromStdString(why))
                                                .toStdString()));
        return !why.empty();
    };
    if (changed()) return;
    const nlohmann::ordered_json args = eventArgs.value();
    if (changed()) return;
    if (args.is_object()) {
        for (auto it = args.begin(); it != args.end(); ++it)
            addValue(nullptr, args_, QString::fromStdString(it.key()), it.value());
    } else if (!args.is_discarded()) {
        addValue(nullptr, args_, tr("args"), args);
    }
}
