// A read-only code editor with line numbers in a gutter, as the Source pane and the Kernel code
// tab show code. The numbers may start at any line: a kernel's source is numbered as in the
// module it was cut from.
#pragma once

#include <QPlainTextEdit>

class CodeEditor : public QPlainTextEdit {
public:
    CodeEditor();

    // The number shown on the first line (1 unless set).
    void setFirstLineNumber(int line);
    int firstLineNumber() const { return first_; }

protected:
    void resizeEvent(QResizeEvent* e) override;

private:
    class Gutter;

    int gutterWidth() const;
    void updateMargin();
    void paintGutter(QPaintEvent* e);

    Gutter* gutter_;
    int first_ = 1;
};
