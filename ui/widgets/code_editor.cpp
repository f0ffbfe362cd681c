#include "widgets/code_editor.h"

#include <QFontDatabase>
#include <QPaintEvent>
#include <QPainter>
#include <QTextBlock>

#include "widgets/palette.h"

class CodeEditor::Gutter : public QWidget {
public:
    explicit Gutter(CodeEditor* e) : QWidget(e), editor_(e) {}
    QSize sizeHint() const override { return {editor_->gutterWidth(), 0}; }

protected:
    void paintEvent(QPaintEvent* e) override { editor_->paintGutter(e); }

private:
    CodeEditor* editor_;
};

CodeEditor::CodeEditor() : gutter_(new Gutter(this)) {
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    connect(this, &QPlainTextEdit::blockCountChanged, this, [this] { updateMargin(); });
    connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect& r, int dy) {
        if (dy)
            gutter_->scroll(0, dy);
        else
            gutter_->update(0, r.y(), gutter_->width(), r.height());
    });
    updateMargin();
}

void CodeEditor::setFirstLineNumber(int line) {
    first_ = line;
    updateMargin();
    gutter_->update();
}

void CodeEditor::resizeEvent(QResizeEvent* e) {
    QPlainTextEdit::resizeEvent(e);
    const QRect cr = contentsRect();
    gutter_->setGeometry(QRect(cr.left(), cr.top(), gutterWidth(), cr.height()));
}

int CodeEditor::gutterWidth() const {
    const int last = first_ + std::max(1, blockCount()) - 1;
    const int digits = int(QString::number(last).size());
    return 10 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * std::max(3, digits);
}

void CodeEditor::updateMargin() {
    setViewportMargins(gutterWidth(), 0, 0, 0);
}

void CodeEditor::paintGutter(QPaintEvent* e) {
    QPainter p(gutter_);
    p.fillRect(e->rect(), uiColor(UiColor::SourceGutter));
    p.setPen(uiColor(UiColor::SourceLineNumber));
    p.setFont(font());
    QTextBlock block = firstVisibleBlock();
    int top = int(blockBoundingGeometry(block).translated(contentOffset()).top());
    while (block.isValid() && top <= e->rect().bottom()) {
        const int height = int(blockBoundingRect(block).height());
        if (block.isVisible() && top + height >= e->rect().top())
            p.drawText(0, top, gutter_->width() - 5, height, Qt::AlignRight | Qt::AlignVCenter,
                       QString::number(block.blockNumber() + first_));
        block = block.next();
        top += height;
    }
}
