#include "widgets/python_highlighter.h"

#include "widgets/palette.h"

namespace {

QTextCharFormat makeFormat(const QColor& color, bool bold = false, bool italic = false) {
    QTextCharFormat f;
    f.setForeground(color);
    if (bold) f.setFontWeight(QFont::Bold);
    f.setFontItalic(italic);
    return f;
}

// Block states: 0 normal, 1 inside ''' , 2 inside """.
constexpr int kInSingle = 1;
constexpr int kInDouble = 2;

}  // namespace

PythonHighlighter::PythonHighlighter(QTextDocument* parent) : QSyntaxHighlighter(parent) {
    const QStringList keywords = {
        QStringLiteral("and"),    QStringLiteral("as"),       QStringLiteral("assert"),
        QStringLiteral("async"),  QStringLiteral("await"),    QStringLiteral("break"),
        QStringLiteral("class"),  QStringLiteral("continue"), QStringLiteral("def"),
        QStringLiteral("del"),    QStringLiteral("elif"),     QStringLiteral("else"),
        QStringLiteral("except"), QStringLiteral("finally"),  QStringLiteral("for"),
        QStringLiteral("from"),   QStringLiteral("global"),   QStringLiteral("if"),
        QStringLiteral("import"), QStringLiteral("in"),       QStringLiteral("is"),
        QStringLiteral("lambda"), QStringLiteral("nonlocal"), QStringLiteral("not"),
        QStringLiteral("or"),     QStringLiteral("pass"),     QStringLiteral("raise"),
        QStringLiteral("return"), QStringLiteral("try"),      QStringLiteral("while"),
        QStringLiteral("with"),   QStringLiteral("yield"),    QStringLiteral("None"),
        QStringLiteral("True"),   QStringLiteral("False")};
    const QStringList builtins = {
        QStringLiteral("self"),  QStringLiteral("print"),      QStringLiteral("len"),
        QStringLiteral("range"), QStringLiteral("super"),      QStringLiteral("int"),
        QStringLiteral("float"), QStringLiteral("str"),        QStringLiteral("list"),
        QStringLiteral("dict"),  QStringLiteral("isinstance"), QStringLiteral("enumerate"),
        QStringLiteral("zip"),   QStringLiteral("tuple"),      QStringLiteral("set")};
    const QTextCharFormat kw = makeFormat(uiColor(UiColor::PyKeyword), true);
    const QTextCharFormat bi = makeFormat(uiColor(UiColor::PyBuiltin));
    rules_.push_back({QRegularExpression(QStringLiteral("\\b(") + keywords.join(QLatin1Char('|')) +
                                         QStringLiteral(")\\b")),
                      kw});
    rules_.push_back({QRegularExpression(QStringLiteral("\\b(") + builtins.join(QLatin1Char('|')) +
                                         QStringLiteral(")\\b")),
                      bi});
    rules_.push_back({QRegularExpression(QStringLiteral("\\b(?:def|class)\\s+(\\w+)")),
                      makeFormat(uiColor(UiColor::PyDefinition), true), 1});
    rules_.push_back({QRegularExpression(QStringLiteral("^\\s*@[\\w.]+")),
                      makeFormat(uiColor(UiColor::PyDecorator))});
    rules_.push_back({QRegularExpression(QStringLiteral(
                          "\\b(?:0[xX][0-9a-fA-F_]+|\\d[\\d_]*\\.?\\d*(?:[eE][+-]?\\d+)?j?)\\b")),
                      makeFormat(uiColor(UiColor::PyNumber))});
    string_ = makeFormat(uiColor(UiColor::PyString));
    comment_ = makeFormat(uiColor(UiColor::PyComment), false, true);
}

void PythonHighlighter::highlightBlock(const QString& text) {
    for (const Rule& r : rules_) {
        auto it = r.pattern.globalMatch(text);
        while (it.hasNext()) {
            const auto m = it.next();
            setFormat(int(m.capturedStart(r.group)), int(m.capturedLength(r.group)), r.format);
        }
    }
    // Strings and comments, scanned left to right so that quotes inside comments (and '#'
    // inside strings) do not count.
    setCurrentBlockState(0);
    int i = 0;
    const int n = int(text.size());
    int state = previousBlockState() > 0 ? previousBlockState() : 0;
    if (state) {
        const QString close = state == kInDouble ? QStringLiteral("\"\"\"") : QStringLiteral("'''");
        const int end = int(text.indexOf(close));
        if (end < 0) {
            setFormat(0, n, string_);
            setCurrentBlockState(state);
            return;
        }
        setFormat(0, end + 3, string_);
        i = end + 3;
    }
    while (i < n) {
        const QChar c = text[i];
        if (c == QLatin1Char('#')) {
            setFormat(i, n - i, comment_);
            return;
        }
        if (c == QLatin1Char('"') || c == QLatin1Char('\'')) {
            const QString triple(3, c);
            if (text.mid(i, 3) == triple) {
                const int end = int(text.indexOf(triple, i + 3));
                if (end < 0) {
                    setFormat(i, n - i, string_);
                    setCurrentBlockState(c == QLatin1Char('"') ? kInDouble : kInSingle);
                    return;
                }
                setFormat(i, end + 3 - i, string_);
                i = end + 3;
                continue;
            }
            int j = i + 1;
            while (j < n && text[j] != c) j += text[j] == QLatin1Char('\\') ? 2 : 1;
            const int end = std::min(j + 1, n);
            setFormat(i, end - i, string_);
            i = end;
            continue;
        }
        ++i;
    }
}
