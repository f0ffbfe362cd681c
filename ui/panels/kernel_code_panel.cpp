#include "panels/kernel_code_panel.h"

#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QScrollArea>
#include <QSplitter>
#include <QTextBlock>
#include <QTextDocument>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>

#include "python/python_values.h"
#include "state/path_map.h"
#include "state/stack_frames.h"
#include "state/viewer_state.h"
#include "widgets/code_editor.h"
#include "widgets/kernel_name_text.h"
#include "widgets/palette.h"
#include "widgets/python_highlighter.h"

using namespace stackline;

namespace {

constexpr int kFileRole = Qt::UserRole;
constexpr int kLineRole = Qt::UserRole + 1;
constexpr int kCodeRole = Qt::UserRole + 2;

QString qs(std::string_view s) {
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

QString codeHtml(const QString& s) {
    return QStringLiteral("<code>%1</code>").arg(s.toHtmlEscaped());
}

// The graph keys a kernel may be recorded under, most certain first: the kernel-information
// entry its stack came from, then its compiled region's forward and backward keys.
std::vector<std::string> graphKeysOf(const ViewedTrace& doc, uint32_t row) {
    std::vector<std::string> keys;
    if (const StackSource* s = doc.provenance.origins.sourceOf(row); s && !s->graphKey.empty())
        keys.push_back(s->graphKey);
    const uint32_t region = doc.compiledRegionFor(row);
    if (region != kNoRow) {
        const std::string_view name = doc.events().nameOf(region);
        for (bool backward : {false, true}) keys.push_back(pyGraphKey(name, backward));
    }
    return keys;
}

// The kernel a CPU slice launched (a Triton launcher cpu_op, its runtime call): the only launch
// flow that starts inside it on its track; the kernel itself for a kernel; else kNoRow (a slice
// that launched several, a compiled region, is not one kernel's). Only the slices nested in it
// are read, not every flow of the trace.
uint32_t kernelOf(const ViewedTrace& doc, uint32_t row) {
    if (doc.isKernel(row)) return row;
    const uint32_t track = doc.tracks.trackOf(row);
    if (track == kNoTrack || doc.tracks.isInstant(row)) return kNoRow;
    const EventTable& ev = doc.events();
    const int64_t start = ev.tsNs(row), end = start + std::max<int64_t>(0, ev.durNs(row));
    const Track& t = doc.tracks.tracks()[track];
    uint32_t found = kNoRow;
    for (size_t l = doc.tracks.levelOf(row); l < t.levels.size(); ++l) {
        const TrackLevel& lv = t.levels[l];
        for (size_t i = lv.firstEndingAtOrAfter(start); i < lv.size() && lv.start[i] <= end; ++i) {
            if (lv.start[i] < start) continue;
            for (uint32_t k : doc.flows.linksOf(lv.row[i])) {
                const FlowLink& link = doc.flows.links()[k];
                if (link.from != lv.row[i] || !link.isLaunch() || !doc.isKernel(link.to)) continue;
                if (found != kNoRow) return kNoRow;
                found = link.to;
            }
        }
    }
    return found;
}

// "XBLOCK=2,R0_BLOCK=2048" against "XBLOCK: 2, R0_BLOCK: 2048, num_warps: 4": every pair there.
bool configMatches(const std::string& config, const std::string& kwargs) {
    if (kwargs.empty()) return false;
    const QString c = QString::fromStdString(config);
    for (const QString& pair : QString::fromStdString(kwargs).split(QLatin1Char(','))) {
        const QStringList kv = pair.split(QLatin1Char('='));
        if (kv.size() != 2) return false;
        const QString want = kv[0].trimmed() + QStringLiteral(": ") + kv[1].trimmed();
        const qsizetype at = c.indexOf(want);
        const qsizetype end = at + want.size();
        if (at < 0 || (end < c.size() && c[end] != QLatin1Char(','))) return false;
    }
    return true;
}

QString launchText(const TritonLaunch& l) {
    QStringList parts;
    if (!l.kernelKwargs.empty())
        parts << codeHtml(QString::fromStdString(l.kernelKwargs))
                     .replace(QLatin1Char(','), QStringLiteral(", "));
    if (l.numWarps) parts << QObject::tr("num_warps %1").arg(*l.numWarps);
    if (l.numStages) parts << QObject::tr("num_stages %1").arg(*l.numStages);
    return parts.join(QStringLiteral(" · "));
}

QString occupancyText(const TritonLaunch& l) {
    QStringList parts;
    if (l.registersPerThread)
        parts << QObject::tr("%1 registers/thread").arg(*l.registersPerThread);
    if (l.sharedMemory) parts << QObject::tr("%1 B shared memory").arg(*l.sharedMemory);
    if (l.blocksPerSm) parts << QObject::tr("%1 blocks/SM").arg(*l.blocksPerSm, 0, 'g', 4);
    if (l.warpsPerSm) parts << QObject::tr("%1 warps/SM").arg(*l.warpsPerSm, 0, 'g', 4);
    if (l.occupancy) parts << QObject::tr("est. achieved occupancy %1%").arg(*l.occupancy);
    return parts.join(QStringLiteral(" · "));
}

// The launches of this kernel's name in compiled regions of the same name (the same graph),
// or anywhere when it has no region: count, total, mean, min, max.
QString gpuTimeText(const ViewedTrace& doc, uint32_t row) {
    const EventTable& ev = doc.events();
    const uint32_t region = doc.compiledRegionFor(row);
    const std::string_view regionName = region != kNoRow ? ev.nameOf(region) : std::string_view();
    if (ev.kinds[row].name != ValueKind::String) return {};
    // By interned name id: a string compare per event would cost tens of ms on a big trace.
    const uint32_t name = ev.name[row];
    uint64_t count = 0;
    int64_t total = 0, lo = INT64_MAX, hi = 0;
    for (uint32_t r = 0; r < ev.size(); ++r) {
        if (ev.name[r] != name || ev.kinds[r].name != ValueKind::String || !doc.isKernel(r))
            continue;
        const uint32_t g = doc.compiledRegionFor(r);
        if ((g != kNoRow ? ev.nameOf(g) : std::string_view()) != regionName) continue;
        const int64_t d = std::max<int64_t>(0, ev.durNs(r));
        ++count;
        total += d;
        lo = std::min(lo, d);
        hi = std::max(hi, d);
    }
    if (count == 0) return {};
    const QString where = regionName.empty() ? QObject::tr("outside compiled regions")
                                             : QObject::tr("in %1").arg(codeHtml(qs(regionName)));
    return QObject::tr("%1 %2: total %3, mean %4, min %5, max %6")
        .arg(count == 1 ? QObject::tr("1 launch") : QObject::tr("%1 launches").arg(count))
        .arg(where, formatDuration(total), formatDuration(total / int64_t(count)),
             formatDuration(lo), formatDuration(hi));
}

QString namesText(const std::vector<std::string>& names) {
    QStringList list;
    for (const std::string& n : names) list << codeHtml(QString::fromStdString(n));
    return list.isEmpty() ? QObject::tr("(none recorded)") : list.join(QStringLiteral(", "));
}

// The 1-based line of `def name(` in a module's text, or 0.
int defLine(const QString& text, std::string_view name) {
    const QString def = QStringLiteral("def ") + qs(name) + QLatin1Char('(');
    const qsizetype at = text.indexOf(def);
    return at < 0 ? 0 : int(text.left(at).count(QLatin1Char('\n'))) + 1;
}

}  // namespace

KernelCodePanel::KernelCodePanel(ViewerState* state, QWidget* parent)
    : QWidget(parent), state_(state) {
    heading_ = new QLabel;
    heading_->setWordWrap(true);
    heading_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    message_ = new QLabel;
    message_->setWordWrap(true);
    message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    message_->setStyleSheet(QStringLiteral("color: %1").arg(uiColor(UiColor::Warning).name()));
    // Kernel names and paths run to thousands of characters without a space: they must not widen
    // the window.
    for (QLabel* l : {heading_, message_})
        l->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    editor_ = new CodeEditor;
    editor_->setPlaceholderText(tr("No generated code to show."));
    highlighter_ = new PythonHighlighter(editor_->document());
    details_ = new QLabel;
    details_->setWordWrap(true);
    details_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    details_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* scroll = new QScrollArea;
    scroll->setWidget(details_);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    lines_ = new QListWidget;
    lines_->setToolTip(tr("The kernel's Python stack; click a line to see it in the Source tab"));
    auto open = [this](QListWidgetItem* item) {
        if (!item || !state_ || item->data(kLineRole).toInt() <= 0) return;
        state_->showSource(item->data(kFileRole).toString(), item->data(kLineRole).toInt(),
                           item->data(kCodeRole).toString());
        emit sourceOpened();
    };
    connect(lines_, &QListWidget::itemClicked, this, open);
    connect(lines_, &QListWidget::itemActivated, this, open);
    auto* side = new QSplitter(Qt::Vertical);
    side->addWidget(scroll);
    side->addWidget(lines_);
    side->setStretchFactor(0, 3);
    side->setStretchFactor(1, 1);
    side->setSizes({300, 100});
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(editor_);
    split->addWidget(side);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({900, 600});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(heading_);
    layout->addWidget(message_);
    layout->addWidget(split, 1);
    clear();
    if (!state_) return;
    // Another document shown: reloaded, or another one of the window made current.
    for (auto shown : {&ViewerState::documentsChanged, &ViewerState::currentChanged})
        connect(state_, shown, this, &KernelCodePanel::clear);
    connect(state_, &ViewerState::selectionChanged, &gate_, &ShowGate::invalidate);
}

void KernelCodePanel::followSelection() {
    const EventRef e = state_->selected();
    if (e.isValid()) showKernel(*e.doc, e.doc->kernelInfo.code(), e.row);
}

QString KernelCodePanel::headingText() {
    gate_.catchUp();
    return heading_->text();
}

QString KernelCodePanel::messageText() {
    gate_.catchUp();
    return message_->isHidden() ? QString() : message_->text();
}

CodeEditor* KernelCodePanel::editor() {
    gate_.catchUp();
    return editor_;
}

QListWidget* KernelCodePanel::pythonLines() {
    gate_.catchUp();
    return lines_;
}

QString KernelCodePanel::detailsText() {
    gate_.catchUp();
    QTextDocument d;
    d.setHtml(details_->text());
    return d.toPlainText();
}

void KernelCodePanel::clear() {
    heading_->setText(tr("Select a GPU kernel to see the code Inductor generated for it."));
    message_->clear();
    message_->hide();
    details_->clear();
    editor_->clear();
    editor_->setExtraSelections({});
    editor_->setFirstLineNumber(1);
    lines_->clear();
}

void KernelCodePanel::showKernel(const ViewedTrace& doc, const KernelCodeIndex& code,
                                 uint32_t row) {
    if (row >= doc.events().size() || (row = kernelOf(doc, row)) == kNoRow) {
        clear();
        return;
    }
    const std::string_view name = doc.events().nameOf(row);
    const std::vector<std::string> keys = graphKeysOf(doc, row);
    const TritonLaunch launch = tritonLaunchOf(*doc.trace, doc.tracks, doc.flows, row);
    // The launch's kernel_file or kernel_hash names one kernel across graphs; else by graph.
    const KernelCode* record = nullptr;
    for (const std::string& file : {launch.kernelFile, launch.kernelHash})
        if (!record && !file.empty()) record = code.findByKernelFile(file);
    for (const std::string& key : keys)
        if (!record) record = code.find(key, name);
    if (!record) record = code.find({}, name);  // a name only one graph has
    // Not Triton by name or by launch: an extern kernel; list its graph's extern calls.
    std::vector<const KernelCode*> externs;
    if (!record && launch.kernelKwargs.empty() && !name.starts_with("triton_"))
        for (const std::string& key : keys) {
            for (const KernelCode& k : code.kernels())
                if (!k.triton && k.graphKey == key) externs.push_back(&k);
            if (!externs.empty()) break;
        }
    std::string graph;
    if (record)
        graph = record->graphKey;
    else if (!externs.empty())
        graph = externs.front()->graphKey;
    else if (const StackSource* s = doc.provenance.origins.sourceOf(row))
        graph = s->graphKey;
    QString heading =
        QStringLiteral("<b>%1</b>").arg(elideMiddle(displayName(name), 160).toHtmlEscaped());
    if (!graph.empty()) heading += tr(" in graph %1").arg(codeHtml(QString::fromStdString(graph)));
    heading_->setText(heading);
    heading_->setToolTip(nameToolTip(name));
    showCode(doc, code, record, launch, externs, row);
    showPythonLines(doc, row);
}

void KernelCodePanel::showCode(const ViewedTrace& doc, const KernelCodeIndex& index,
                               const KernelCode* record, const TritonLaunch& launch,
                               const std::vector<const KernelCode*>& externs, uint32_t row) {
    QStringList why;  // the explanation when there is no code
    QStringList html;
    const QString ran = launchText(launch);
    html
        << tr("<b>Ran with</b> (from the trace): %1").arg(ran.isEmpty() ? tr("not recorded") : ran);
    if (!launch.kernelHash.empty())
        html << tr("kernel_hash %1").arg(codeHtml(QString::fromStdString(launch.kernelHash)));
    const std::string_view name = doc.events().nameOf(row);
    if (record && !record->source.empty()) {
        setCode(QString::fromStdString(record->source), record->firstLine, {});
    } else if (!externs.empty()) {
        // The module around the calls, or the calls alone when it is absent.
        const QStringList module = qs(index.moduleOf(*externs[0])).split(QLatin1Char('\n'));
        std::vector<int> marked;
        QStringList calls;
        bool inModule = true;
        // This launch's own call, when its place among the region's calls of one extern kernel
        // tells it (the counts agree); else every call of the graph is a candidate.
        const CodeLine* own = nullptr;
        for (const KernelCode* k : externs)
            if (const auto order =
                    externCallOrderOf(*doc.trace, doc.tracks, doc.flows, row, k->name);
                order && !own)
                own = externCallSite(*k, *order);
        for (const KernelCode* k : externs)
            for (const CodeLine& l : k->launchSites) {
                if (own && &l != own) continue;
                marked.push_back(l.line);
                calls << QString::fromStdString(l.text);
                inModule = inModule && l.line >= 1 && l.line <= module.size() &&
                           module[l.line - 1] == calls.back();
            }
        std::sort(marked.begin(), marked.end());
        if (inModule)
            setCode(module.join(QLatin1Char('\n')), 1, marked);
        else  // numbered as in the module when it is one line
            setCode(calls.join(QLatin1Char('\n')), calls.size() == 1 ? marked.front() : 1, {});
        if (own)
            why << tr("An extern kernel: the wrapper's call at line %1 launched it (its place "
                      "among its compiled region's calls of that extern kernel).")
                       .arg(own->line);
        else
            why << tr("An extern kernel: its name does not say which call launched it. Marked: "
                      "the graph's %1 extern_kernels.* calls.")
                       .arg(marked.size());
    } else {
        // The generated module the trace names, when it is on this machine.
        const QString recorded = QString::fromStdString(launch.kernelFile);
        const QString file =
            recorded.isEmpty()
                ? QString()
                : resolveSourcePath(recorded, pathMappings(QFileInfo(doc.tracePath()).path()));
        QFile f(file);
        const QString text = !file.isEmpty() && f.open(QIODevice::ReadOnly)
                                 ? QString::fromUtf8(f.readAll())
                                 : QString();
        const bool triton = name.starts_with("triton_") || !launch.kernelKwargs.empty();
        if (!triton && doc.compiledRegionFor(row) == kNoRow) {
            setCode({}, 1, {});
            why << tr(
                "Launched outside compiled regions (eager PyTorch): Inductor generated no "
                "code for it.");
        } else if (const int def = defLine(text, name); def > 0) {
            setCode(text, 1, {def});
            why << tr("Shown from kernel_file %1 (no compile log holds this kernel).")
                       .arg(codeHtml(file));
        } else {
            setCode({}, 1, {});
            if (!triton)
                why << tr(
                    "No generated code: not a Triton kernel, and the compile log holds no "
                    "extern_kernels.* call of its graph.");
            else
                why << tr("No generated code for this kernel.");
            why << (index.empty()
                        ? tr("Run the model with TORCH_TRACE=/tmp/torch_trace and add the log as "
                             "kernel information (File → Add Kernel Information…): its "
                             "inductor_output_code holds the Triton source.")
                        : tr("The kernel information's compile logs do not define it: add the "
                             "TORCH_TRACE log of the run that compiled it."));
            if (!recorded.isEmpty())
                why << tr("Or make its kernel_file %1 readable on this machine (File not found "
                          "here%2).")
                           .arg(codeHtml(recorded), file.isEmpty() || file == recorded
                                                        ? QString()
                                                        : tr("; looked at %1").arg(codeHtml(file)));
        }
    }
    if (record) {
        QString tune = tr("<b>Autotuning</b>:");
        // "hit" and "miss" are the cache's; other states ("only 1 config") say themselves.
        const QString state = QString::fromStdString(record->autotuneCacheState);
        if (state == QLatin1String("hit") || state == QLatin1String("miss"))
            tune += tr(" cache %1").arg(state);
        else if (!state.isEmpty())
            tune += QLatin1Char(' ') + state.toHtmlEscaped();
        if (record->compileTimeUs)
            tune += tr(", compiled in %1").arg(formatMicroseconds(*record->compileTimeUs));
        if (record->numConfigs && *record->numConfigs > 1)
            tune += tr(", %1 configs tried").arg(*record->numConfigs);
        if (record->configs.empty())
            tune += record->numConfigs ? tr(" (the log lists none)") : tr(", no configs recorded");
        html << tune;
        for (const std::string& c : record->configs)
            html << (configMatches(c, launch.kernelKwargs)
                         ? tr("&nbsp;&nbsp;▸ <b>%1</b> (ran)")
                               .arg(codeHtml(QString::fromStdString(c)))
                         : QStringLiteral("&nbsp;&nbsp;&nbsp;&nbsp;%1")
                               .arg(codeHtml(QString::fromStdString(c))));
        if (!record->launchSites.empty())
            html << tr("<b>Launched</b> at module line %1: %2")
                        .arg(record->launchSites.front().line)
                        .arg(codeHtml(
                            QString::fromStdString(record->launchSites.front().text).trimmed()));
    }
    if (const QString occ = occupancyText(launch); !occ.isEmpty())
        html << tr("<b>Occupancy</b>: %1").arg(occ);
    if (const QString t = gpuTimeText(doc, row); !t.isEmpty())
        html << tr("<b>GPU time</b>: %1").arg(t);
    if (record)
        html << tr("<b>Nodes</b>: pre-grad %1 → post-grad %2 → this kernel")
                    .arg(namesText(record->preGradNodes), namesText(record->postGradNodes));
    details_->setText(html.join(QStringLiteral("<br>")));
    message_->setText(why.join(QLatin1Char(' ')));
    message_->setVisible(!why.isEmpty());
}

void KernelCodePanel::setCode(const QString& text, int firstLine, const std::vector<int>& marked) {
    // A final newline would show as one more, empty, numbered line.
    editor_->setPlainText(text.endsWith(QLatin1Char('\n')) ? text.chopped(1) : text);
    editor_->setFirstLineNumber(std::max(1, firstLine));
    QList<QTextEdit::ExtraSelection> selections;
    for (int line : marked) {
        QTextEdit::ExtraSelection sel;
        sel.format.setBackground(uiColor(UiColor::MarkedLine));
        sel.format.setProperty(QTextFormat::FullWidthSelection, true);
        sel.cursor = QTextCursor(editor_->document()->findBlockByNumber(line - firstLine));
        selections << sel;
    }
    editor_->setExtraSelections(selections);
    if (marked.empty()) return;
    editor_->setTextCursor(selections.front().cursor);
    // Centring needs the editor's final geometry.
    QTimer::singleShot(0, editor_, [e = editor_] { e->centerCursor(); });
}

void KernelCodePanel::showPythonLines(const ViewedTrace& doc, uint32_t row) {
    lines_->clear();
    for (const StackFrame& f : stackOf(doc, row)) {
        if (!f.isFrame()) continue;
        auto* item = new QListWidgetItem(
            QStringLiteral("%1:%2  in %3%4")
                .arg(QFileInfo(f.file).fileName())
                .arg(f.line)
                .arg(f.function,
                     f.code.isEmpty() ? QString() : QStringLiteral("\n    ") + f.code.trimmed()),
            lines_);
        item->setToolTip(
            tr("%1, line %2: click to see it in the Source tab").arg(f.file).arg(f.line));
        item->setData(kFileRole, f.file);
        item->setData(kLineRole, f.line);
        item->setData(kCodeRole, f.code);
    }
    if (lines_->count() == 0)
        new QListWidgetItem(tr("(no Python stack: see the Details panel for why)"), lines_);
}
