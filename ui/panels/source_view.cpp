#include "panels/source_view.h"

#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTextBlock>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

#include "analysis/name_totals.h"
#include "state/path_map.h"
#include "state/stack_frames.h"
#include "state/viewer_state.h"
#include "widgets/code_editor.h"
#include "widgets/kernel_name_text.h"
#include "widgets/palette.h"
#include "widgets/python_highlighter.h"

namespace {

// Source files larger than this are not shown (a stack pointing into a generated blob).
constexpr qint64 kMaxSourceBytes = 16 * 1024 * 1024;

}  // namespace

SourceView::SourceView(ViewerState* state, QWidget* parent) : QWidget(parent), state_(state) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* top = new QHBoxLayout;
    heading_ = new QLabel;
    heading_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    heading_->setWordWrap(true);
    mapButton_ = new QPushButton(tr("Map Folder…"));
    mapButton_->setToolTip(
        tr("Tell Stackline where the recorded folder is on this machine (remembered for traces "
           "in this folder)"));
    connect(mapButton_, &QPushButton::clicked, this, &SourceView::chooseMapping);
    kernelsButton_ = new QToolButton;
    kernelsButton_->setPopupMode(QToolButton::InstantPopup);
    kernelsButton_->setMenu(new QMenu(kernelsButton_));
    connect(kernelsButton_->menu(), &QMenu::aboutToShow, this, &SourceView::fillKernelMenu);
    kernelsButton_->setToolTip(tr("Kernels launched from this line: choose one to see its code"));
    top->addWidget(heading_, 1);
    top->addWidget(kernelsButton_);
    top->addWidget(mapButton_);
    layout->addLayout(top);
    message_ = new QLabel;
    message_->setWordWrap(true);
    message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    message_->setStyleSheet(QStringLiteral("color: %1").arg(uiColor(UiColor::Warning).name()));
    layout->addWidget(message_);
    editor_ = new CodeEditor;
    highlighter_ = new PythonHighlighter(editor_->document());
    layout->addWidget(editor_, 1);
    connect(editor_, &QPlainTextEdit::cursorPositionChanged, this, &SourceView::listKernels);
    clear();
    if (!state) return;
    // Another document shown: reloaded, or another one of the window made current.
    for (auto shown : {&ViewerState::documentsChanged, &ViewerState::currentChanged})
        connect(state, shown, this, [this, state] {
            const auto doc = state->current();
            setTraceFolder(doc ? QFileInfo(doc->tracePath()).absolutePath() : QString());
        });
    connect(state, &ViewerState::selectionChanged, this, [this, state] {
        const EventRef e = state->selected();
        if (!e.isValid()) return;
        if (const auto frame = innermostFrame(*e.doc, e.row))
            showSource(frame->file, frame->line, frame->code);
    });
    connect(state, &ViewerState::sourceRequested, this, &SourceView::showSource);
}

void SourceView::setTraceFolder(const QString& folder) {
    traceFolder_ = folder;
    clear();
}

void SourceView::clear() {
    recorded_.clear();
    resolved_.clear();
    code_.clear();
    line_ = 0;
    heading_->setText(tr("Click a frame of a Python stack to see its source."));
    message_->hide();
    mapButton_->hide();
    editor_->clear();
    editor_->setExtraSelections({});
    listKernels();
}

void SourceView::showSource(const QString& recordedFile, int line, const QString& code) {
    recorded_ = recordedFile;
    line_ = line;
    code_ = code;
    reload();
}

void SourceView::addMapping(const QString& from, const QString& to) {
    addPathMapping(traceFolder_, {from, to});
    if (!recorded_.isEmpty()) reload();
}

QString SourceView::messageText() const {
    return message_->isVisible() || !message_->text().isEmpty() ? message_->text() : QString();
}

int SourceView::markedLine() const {
    return editor_->textCursor().blockNumber() + 1;
}

void SourceView::reload() {
    const QList<PathMapping> maps = pathMappings(traceFolder_);
    resolved_ = resolveSourcePath(recorded_, maps);
    QString text;
    if (!resolved_.isEmpty()) {
        QFile f(resolved_);
        if (f.size() <= kMaxSourceBytes && f.open(QIODevice::ReadOnly))
            text = QString::fromUtf8(f.readAll());
        else
            resolved_.clear();
    }
    heading_->setText(QStringLiteral("<b>%1</b>:%2").arg(recorded_.toHtmlEscaped()).arg(line_));
    if (!resolved_.isEmpty()) {
        heading_->setToolTip(resolved_);
        if (resolved_ != recorded_)
            heading_->setText(heading_->text() +
                              tr(" <span style=\"color:%1\">→ %2</span>")
                                  .arg(uiColor(UiColor::Remark).name(), resolved_.toHtmlEscaped()));
        message_->clear();
        message_->hide();
        mapButton_->setVisible(resolved_ != recorded_);
        mapButton_->setText(tr("Change Mapping…"));
        editor_->setPlainText(text);
        markLine(line_);
        listKernels();
        return;
    }
    QStringList looked = candidatePaths(recorded_, maps);
    looked.prepend(recorded_);
    message_->setText(
        tr("File not found. Looked for: %1.\nThe trace was probably recorded on another "
           "machine: click \"Map Folder…\" and choose the local folder that holds %2 (its "
           "recorded folder %3 is then mapped to it for traces in this folder).")
            .arg(looked.join(QStringLiteral(", ")), QFileInfo(recorded_).fileName(),
                 QFileInfo(recorded_).path()));
    message_->show();
    mapButton_->setText(tr("Map Folder…"));
    mapButton_->show();
    if (code_.isEmpty()) {
        editor_->clear();
        editor_->setExtraSelections({});
        listKernels();
        return;
    }
    // The stack carried the line itself: show it alone, numbered.
    editor_->setPlainText(QStringLiteral("# %1, line %2 (from the stack)\n%3")
                              .arg(QFileInfo(recorded_).fileName())
                              .arg(line_)
                              .arg(code_));
    markBlock(1);
}

void SourceView::showEvent(QShowEvent* e) {
    QWidget::showEvent(e);
    centreWhenLaidOut();
}

void SourceView::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    centreWhenLaidOut();
}

// Centring needs the final geometry: a hidden tab has none yet.
void SourceView::centreWhenLaidOut() {
    QTimer::singleShot(0, this, [this] {
        if (line_ > 0) editor_->centerCursor();
    });
}

void SourceView::markLine(int line) {
    markBlock(std::max(0, line - 1));
    editor_->centerCursor();
}

void SourceView::markBlock(int block) {
    QTextCursor c(editor_->document()->findBlockByNumber(block));
    editor_->setTextCursor(c);
    QTextEdit::ExtraSelection sel;
    sel.format.setBackground(uiColor(UiColor::MarkedLine));
    sel.format.setProperty(QTextFormat::FullWidthSelection, true);
    sel.cursor = c;
    editor_->setExtraSelections({sel});
}

void SourceView::chooseMapping() {
    if (recorded_.isEmpty()) return;
    const QString recordedDir = QFileInfo(recorded_).path();
    const QString dir = QFileDialog::getExistingDirectory(
        this, tr("Local folder for %1").arg(recordedDir),
        resolved_.isEmpty() ? traceFolder_ : QFileInfo(resolved_).path());
    if (!dir.isEmpty()) addMapping(recordedDir, dir);
}

void SourceView::listKernels() {
    kernelsButton_->menu()->clear();
    const auto doc = state_ ? state_->current() : nullptr;
    kernelsDoc_ = doc;
    kernelsLine_ = nullptr;
    // Without the file, the one line shown is the recorded one.
    const int line = resolved_.isEmpty() ? line_ : markedLine();
    if (doc && !recorded_.isEmpty())
        for (const stackline::SourceLine& l : doc->hotspots.lines)
            if (l.line == line && QString::fromStdString(l.file) == recorded_) kernelsLine_ = &l;
    kernelsButton_->setVisible(kernelsLine_ != nullptr);
    if (!kernelsLine_) return;
    kernelsButton_->setText(
        tr("Kernels of line %1 (%2)").arg(line).arg(kernelsLine_->kernels.size()));
}

void SourceView::fillKernelMenu() {
    QMenu* menu = kernelsButton_->menu();
    const auto doc = kernelsDoc_.lock();
    if (!doc || !kernelsLine_ || !menu->isEmpty()) return;
    for (const stackline::NameTotal& k :
         stackline::totalsByName(doc->events(), kernelsLine_->rows)) {
        const uint32_t row = k.first;
        menu->addAction(
            tr("%1  ×%2  %3").arg(displayName(k.name)).arg(k.count).arg(formatDuration(k.ns)), this,
            [this, row] {
                state_->select(row, true);
                emit kernelCodeRequested();
            });
    }
}
