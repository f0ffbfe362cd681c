// Python syntax highlighting for the source pane: keywords, builtins, decorators, numbers,
// strings (also triple-quoted over several lines) and comments.
#pragma once

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>
#include <vector>

class PythonHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
public:
    explicit PythonHighlighter(QTextDocument* parent);

protected:
    void highlightBlock(const QString& text) override;

private:
    struct Rule {
        QRegularExpression pattern;
        QTextCharFormat format;
        int group = 0;
    };
    std::vector<Rule> rules_;
    QTextCharFormat string_;
    QTextCharFormat comment_;
};
