#include "widgets/elided_label.h"

#include <QPainter>

ElidedLabel::ElidedLabel(Qt::TextElideMode mode, QWidget* parent) : QFrame(parent), mode_(mode) {
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
}

void ElidedLabel::setText(const QString& text) {
    if (text == text_) return;
    text_ = text;
    setToolTip(text);
    updateGeometry();
    update();
}

QString ElidedLabel::shownText() const {
    return fontMetrics().elidedText(text_, mode_, contentsRect().width());
}

QSize ElidedLabel::sizeHint() const {
    const QFontMetrics fm = fontMetrics();
    return {fm.horizontalAdvance(text_) + 4, fm.height()};
}

QSize ElidedLabel::minimumSizeHint() const {
    // Room for an ellipsis and a few characters.
    const QFontMetrics fm = fontMetrics();
    return {text_.isEmpty() ? 0 : fm.horizontalAdvance(QStringLiteral("…0000")), fm.height()};
}

void ElidedLabel::paintEvent(QPaintEvent* e) {
    QFrame::paintEvent(e);
    QPainter p(this);
    p.drawText(contentsRect(), Qt::AlignLeft | Qt::AlignVCenter, shownText());
}
