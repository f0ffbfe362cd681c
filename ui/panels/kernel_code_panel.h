// The Kernel code tab: what Inductor generated for the selected GPU kernel. The Triton source
// (numbered as in its module, Python-highlighted) or, for an extern kernel (cuBLAS, ...), the
// wrapper lines of its graph that call extern_kernels.*; the config the trace says it ran with
// and the configs autotuning tried; occupancy; its GPU time over the launches of the same name in
// the same compiled region; the pre-grad → post-grad nodes it came from; and the Python lines of
// its stack (clicking one shows it in the Source tab). Without code it says which input would
// provide it and still shows the launch the trace recorded.
#pragma once

#include <QWidget>

#include "kernel_info/kernel_code.h"
#include "panels/lazy_result.h"
#include "state/viewed_trace.h"

class CodeEditor;
class PythonHighlighter;
class QLabel;
class QListWidget;
class ViewerState;

class KernelCodePanel : public QWidget {
    Q_OBJECT
public:
    explicit KernelCodePanel(ViewerState* state, QWidget* parent = nullptr);

    // Shows a GPU kernel of doc with this code index (the document's kernel information's, or a
    // test's); for a CPU slice, the kernel it launched (a Triton launcher cpu_op's); else clears.
    void showKernel(const ViewedTrace& doc, const stackline::KernelCodeIndex& code, uint32_t row);
    void clear();

    // What is shown, for the selection: the kernel's name and graph, why there is no code (empty
    // when there is), the launch, autotuning, occupancy, time and nodes (plain text), the code.
    // Hidden, the panel follows the selection only when read or shown: its time figures scan
    // every launch of the kernel's name.
    QString headingText();
    QString messageText();
    QString detailsText();
    CodeEditor* editor();
    QListWidget* pythonLines();

signals:
    // A Python line was clicked and given to ViewerState::showSource.
    void sourceOpened();

private:
    // Shows the selected kernel (behind gate_: when visible, else when shown or read).
    void followSelection();
    void showCode(const ViewedTrace& doc, const stackline::KernelCodeIndex& code,
                  const stackline::KernelCode* record, const stackline::TritonLaunch& launch,
                  const std::vector<const stackline::KernelCode*>& externs, uint32_t row);
    // Shows text numbered from firstLine, these (module) lines marked, the first one centred.
    void setCode(const QString& text, int firstLine, const std::vector<int>& marked);
    void showPythonLines(const ViewedTrace& doc, uint32_t row);

    ViewerState* state_;
    QLabel* heading_;
    QLabel* message_;
    QLabel* details_;
    CodeEditor* editor_;
    PythonHighlighter* highlighter_;
    QListWidget* lines_;
    ShowGate gate_{this, [this] { followSelection(); }};
};
