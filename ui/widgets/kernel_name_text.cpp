#include "widgets/kernel_name_text.h"

#include <QObject>

#include "model/kernel_name.h"

namespace {

// Zero-width spaces after separators and inside long runs: rich-text tooltips wrap only at
// break opportunities.
QString wrappable(const QString& text) {
    constexpr int kRun = 60;
    QString out;
    out.reserve(text.size() + text.size() / 8);
    int run = 0;
    for (const QChar c : text) {
        out += c;
        ++run;
        if (c == u',' || c == u':' || c == u'<' || c == u'_' || run >= kRun) {
            out += QChar(0x200B);
            run = 0;
        }
        if (c.isSpace()) run = 0;
    }
    return out.toHtmlEscaped();
}

}  // namespace

QString displayName(std::string_view name) {
    const std::string shown = stackline::demangledKernelName(name);
    return QString::fromUtf8(shown.data(), qsizetype(shown.size()));
}

QString elideMiddle(const QString& text, int maxChars) {
    if (text.size() <= maxChars) return text;
    const int head = (maxChars - 1) / 2;
    const int tail = maxChars - 1 - head;
    return text.left(head) + QChar(0x2026) + text.right(tail);
}

QString nameToolTip(std::string_view name) {
    const QString shown = displayName(name);
    const QString recorded = QString::fromUtf8(name.data(), qsizetype(name.size()));
    QString tip = QStringLiteral("<p>%1</p>").arg(wrappable(shown));
    if (shown != recorded) tip += QObject::tr("<p><i>Mangled:</i> %1</p>").arg(wrappable(recorded));
    return tip;
}
