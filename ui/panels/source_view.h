// The Source pane: the file of a stack frame, read-only, with Python highlighting, the frame's
// line marked and scrolled into view. Recorded paths are mapped with the trace folder's path map
// (path_map.h); a missing file shows where it looked and a "Map Folder…" button, and the frame's
// code line when the stack string carried it. Given the viewer state, it shows the innermost frame
// of each selected event and every source line the state is asked to show. The kernels launched
// from the cursor's line (the document's hotspots) are listed in a menu; choosing one selects it
// and asks for the Kernel code tab.
#pragma once

#include <QString>
#include <QWidget>
#include <memory>

struct ViewedTrace;
class PythonHighlighter;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QToolButton;
class ViewerState;
namespace stackline {
struct SourceLine;
}

class SourceView : public QWidget {
    Q_OBJECT
public:
    explicit SourceView(ViewerState* state = nullptr, QWidget* parent = nullptr);

    // The folder of the open trace: whose path map applies (empty: none open).
    void setTraceFolder(const QString& folder);
    // Shows the recorded file at this line; code: the line's text from the stack, if any.
    void showSource(const QString& recordedFile, int line, const QString& code = {});
    void clear();
    // Adds a path-map entry for the trace folder (remembered) and shows the source again.
    void addMapping(const QString& from, const QString& to);

    QString recordedFile() const { return recorded_; }
    QString resolvedFile() const { return resolved_; }  // empty when missing
    int line() const { return line_; }
    bool isMissing() const { return !recorded_.isEmpty() && resolved_.isEmpty(); }
    QString messageText() const;
    QPlainTextEdit* editor() const { return editor_; }
    // The 1-based line the cursor (the marked line) is on.
    int markedLine() const;
    // "Kernels of line N" and its menu: one action per kernel name, by GPU time.
    QToolButton* kernelsButton() const { return kernelsButton_; }

signals:
    // A kernel of the cursor's line was chosen: it is selected, the Kernel code tab may show it.
    void kernelCodeRequested();

protected:
    void showEvent(QShowEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;

private:
    void reload();
    // Puts the cursor on a 1-based line, marked, and centres it.
    void markLine(int line);
    // Puts the cursor on a 0-based block, marked, where it is.
    void markBlock(int block);
    void centreWhenLaidOut();
    void chooseMapping();
    // Shows the button of the kernels launched from the cursor's line of the recorded file;
    // their menu is filled when it opens (summing them reads every launch of the line).
    void listKernels();
    void fillKernelMenu();

    QString traceFolder_;
    QString recorded_;
    QString resolved_;
    QString code_;
    int line_ = 0;
    QLabel* heading_;
    QLabel* message_;
    QPushButton* mapButton_;
    QToolButton* kernelsButton_;
    std::weak_ptr<const ViewedTrace> kernelsDoc_;  // whose line kernelsLine_ is (not kept open)
    const stackline::SourceLine* kernelsLine_ = nullptr;
    ViewerState* state_;
    QPlainTextEdit* editor_;
    PythonHighlighter* highlighter_;
};
