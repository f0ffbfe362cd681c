// The Kernel code tab: a selected Triton kernel shows its source numbered as in its
// module, the config the trace says it ran with (marked among the configs tried), occupancy, GPU
// time and nodes; a kernel without code says which input would provide it and still shows the
// launch; a Python line of its stack opens the Source tab; the Hotspots kernel list and the
// Source tab's "Kernels of line" menu open a kernel's code; --tab code shows the tab. With a real
// TORCH_TRACE log as kernel information, a Triton kernel shows the log's source, config and nodes
// and a cuBLAS kernel its graph's extern_kernels.* calls.
#include <QListWidget>
#include <QMenu>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QToolButton>
#include <QtTest>

#include "panels/hotspots_panel.h"
#include "panels/kernel_code_panel.h"
#include "panels/source_view.h"
#include "shell/main_window.h"
#include "state/viewer_state.h"
#include "viewer_test_support.h"
#include "widgets/code_editor.h"

using namespace stackline;
using namespace ui_test;

namespace {

const QString kExample = QStringLiteral(STACKLINE_EXAMPLE_DIR "/example.pt.trace.json");
const char* kSoftmax = "triton_red_fused__softmax_4";
const char* kForwardKey = "('Torch-Compiled Region: 0/0', False)";
const QString kJitLog =
    QStringLiteral(STACKLINE_DATA "/torch_trace/inductor_provenance_jit_debug_handle_log.txt");

// A compiled region of the jit_debug_handle log's graph that launches its first Triton kernel (with
// the launcher cpu_op's config) and a cuBLAS kernel, each through a runtime call and an ac2g flow.
QByteArray jitTrace() {
    return R"({"traceEvents": [
  {"ph": "X", "cat": "cpu_op", "name": "Torch-Compiled Region: 0/0", "pid": 1, "tid": 1,
   "ts": 100, "dur": 100, "args": {}},
  {"ph": "X", "cat": "cpu_op",
   "name": "triton_poi_fused_addmm_relu_sigmoid_threshold_backward_0", "pid": 1, "tid": 1,
   "ts": 110, "dur": 20, "args": {"kernel_backend": "triton", "num_warps": 4, "num_stages": 1,
   "kernel_kwargs": "XBLOCK=128", "kernel_hash": "abc", "kernel_file": "KERNEL_FILE"}},
  {"ph": "X", "cat": "cuda_driver", "name": "cuLaunchKernel", "pid": 1, "tid": 1, "ts": 112,
   "dur": 5, "args": {"correlation": 7}},
  {"ph": "s", "id": 7, "pid": 1, "tid": 1, "ts": 112, "cat": "ac2g", "name": "ac2g"},
  {"ph": "X", "cat": "kernel",
   "name": "triton_poi_fused_addmm_relu_sigmoid_threshold_backward_0", "pid": 0, "tid": 7,
   "ts": 150, "dur": 10, "args": {"correlation": 7, "registers per thread": 16}},
  {"ph": "f", "id": 7, "pid": 0, "tid": 7, "ts": 150, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 140,
   "dur": 5, "args": {"correlation": 8}},
  {"ph": "s", "id": 8, "pid": 1, "tid": 1, "ts": 140, "cat": "ac2g", "name": "ac2g"},
  {"ph": "X", "cat": "kernel", "name": "ampere_sgemm_32x32_sliced1x4_tn", "pid": 0, "tid": 7,
   "ts": 170, "dur": 10, "args": {"correlation": 8}},
  {"ph": "f", "id": 8, "pid": 0, "tid": 7, "ts": 170, "cat": "ac2g", "name": "ac2g", "bp": "e"}
]})";
}

KernelCode softmaxRecord() {
    KernelCode k;
    k.name = kSoftmax;
    k.graphKey = kForwardKey;
    k.compileId = "0/0";
    k.source =
        "@triton_heuristics.reduction(size_hints={'x': 4096, 'r0_': 2048})\n"
        "@triton.jit\n"
        "def triton_red_fused__softmax_4(in_ptr0, out_ptr2, xnumel, r0_numel, XBLOCK: "
        "tl.constexpr, R0_BLOCK: tl.constexpr):\n"
        "    xoffset = tl.program_id(0) * XBLOCK\n";
    k.firstLine = 120;
    k.lastLine = 123;
    k.launchSites = {{310, "        triton_red_fused__softmax_4.run(buf5, buf8, 4096, 2048)"}};
    k.autotuneCacheState = "miss";
    k.configs = {"XBLOCK: 1, R0_BLOCK: 1024, num_warps: 8, num_stages: 1",
                 "XBLOCK: 1, R0_BLOCK: 2048, num_warps: 8, num_stages: 1"};
    k.compileTimeUs = 1500.0;
    k.postGradNodes = {"amax", "sub", "exp", "sum_1", "div"};
    k.preGradNodes = {"softmax"};
    return k;
}

}  // namespace

class TstKernelCodePanel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        isolateSettings();
        window_.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window_));
        QVERIFY(openTrace(window_, kExample));
        softmax_ = rowNamed(*window_.document(), kSoftmax, "kernel");
        QVERIFY(softmax_ != kNoRow);
    }

    void selectedKernelShowsSourceAndConfig() {
        const KernelCodeIndex index({softmaxRecord()}, {});
        KernelCodePanel panel(nullptr);
        panel.showKernel(*window_.document(), index, softmax_);
        QVERIFY(panel.headingText().contains(QLatin1String(kSoftmax)));
        QVERIFY(panel.messageText().isEmpty());
        QCOMPARE(panel.editor()->toPlainText() + QLatin1Char('\n'),
                 QString::fromStdString(softmaxRecord().source));
        QCOMPARE(panel.editor()->firstLineNumber(), 120);
        const QString details = panel.detailsText();
        QVERIFY2(details.contains(QStringLiteral("XBLOCK=1, R0_BLOCK=2048")), qPrintable(details));
        QVERIFY(details.contains(QStringLiteral("num_warps 8")));
        QVERIFY(details.contains(QStringLiteral("num_stages 1")));
        // The config that ran is marked among those tried; the other one is listed.
        QVERIFY(details.contains(
            QStringLiteral("XBLOCK: 1, R0_BLOCK: 2048, num_warps: 8, num_stages: 1 (ran)")));
        QVERIFY(details.contains(QStringLiteral("R0_BLOCK: 1024")));
        QVERIFY(
            !details.contains(QStringLiteral("R0_BLOCK: 1024, num_warps: 8, num_stages: 1 (ran)")));
        QVERIFY(details.contains(QStringLiteral("cache miss")));
        QVERIFY(details.contains(QStringLiteral("46 registers/thread")));
        // Two steps, one launch each, in the same compiled region.
        QVERIFY2(details.contains(QStringLiteral("2 launches in Torch-Compiled Region: 0/0")),
                 qPrintable(details));
        QVERIFY(
            details.contains(QStringLiteral("pre-grad softmax → post-grad amax, sub, exp, "
                                            "sum_1, div → this kernel")));
        QVERIFY(details.contains(QStringLiteral("module line 310")));
    }

    void kernelWithoutCodeNamesTheMissingInput() {
        KernelCodePanel panel(nullptr);
        panel.showKernel(*window_.document(), KernelCodeIndex(), softmax_);
        const QString why = panel.messageText();
        QVERIFY2(why.contains(QStringLiteral("TORCH_TRACE")), qPrintable(why));
        QVERIFY(why.contains(QStringLiteral("Add Kernel Information")));
        QVERIFY(why.contains(
            QStringLiteral("/tmp/torchinductor_alice/lz/"
                           "clzmeqxqplkpeesvxdhrubywp6mr7wcsylhcgbu4vshp4rdetjtz.py")));
        QVERIFY(panel.editor()->toPlainText().isEmpty());
        // The launch the trace recorded is still shown.
        QVERIFY(panel.detailsText().contains(QStringLiteral("XBLOCK=1, R0_BLOCK=2048")));

        // An eager kernel (the optimizer's) has no generated code to look for.
        const ViewedTrace& doc = *window_.document();
        uint32_t eager = kNoRow;
        for (uint32_t r = 0; r < doc.events().size() && eager == kNoRow; ++r)
            if (doc.isKernel(r) && doc.compiledRegionFor(r) == kNoRow) eager = r;
        QVERIFY(eager != kNoRow);
        panel.showKernel(doc, KernelCodeIndex({softmaxRecord()}, {}), eager);
        QVERIFY2(panel.messageText().contains(QStringLiteral("outside compiled regions")),
                 qPrintable(panel.messageText()));
        QVERIFY(!panel.messageText().contains(QStringLiteral("TORCH_TRACE")));
    }

    void launcherShowsItsKernel() {
        KernelCodePanel panel(nullptr);
        const uint32_t launcher = rowNamed(*window_.document(), kSoftmax, "cpu_op");
        QVERIFY(launcher != kNoRow);
        panel.showKernel(*window_.document(), KernelCodeIndex({softmaxRecord()}, {}), launcher);
        QVERIFY(panel.headingText().contains(QLatin1String(kSoftmax)));
        QVERIFY(panel.editor()->toPlainText().contains(QStringLiteral("def triton_red")));
        // A slice that launched several kernels (the compiled region) is not one kernel's.
        panel.showKernel(*window_.document(), KernelCodeIndex({softmaxRecord()}, {}),
                         window_.document()->compiledRegionFor(softmax_));
        QVERIFY(panel.editor()->toPlainText().isEmpty());
        QVERIFY(panel.headingText().startsWith(QStringLiteral("Select a GPU kernel")));
    }

    // The real reader: a TORCH_TRACE log given as kernel information.
    void logGivesSourceConfigsAndNodes() {
        QTemporaryDir dir;
        const QString trace = dir.filePath(QStringLiteral("jit.pt.trace.json"));
        QFile f(trace);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(jitTrace());
        f.close();
        MainWindow w;
        QSignalSpy loaded(&w, &MainWindow::documentLoaded);
        w.openTrace(trace, kJitLog);
        QVERIFY(loaded.wait(60000));
        const ViewedTrace& doc = *w.document();
        const uint32_t triton =
            rowNamed(doc, "triton_poi_fused_addmm_relu_sigmoid_threshold_backward_0", "kernel");
        QVERIFY(triton != kNoRow);
        w.state()->select(triton);
        KernelCodePanel* panel = w.panel<KernelCodePanel>();
        QVERIFY2(panel->messageText().isEmpty(), qPrintable(panel->messageText()));
        QVERIFY(panel->headingText().contains(QLatin1String(kForwardKey)));
        QCOMPARE(panel->editor()->firstLineNumber(), 61);
        QVERIFY(panel->editor()->toPlainText().startsWith(
            QStringLiteral("@triton_heuristics.pointwise(")));
        QVERIFY(panel->editor()->toPlainText().contains(QStringLiteral(
            "def triton_poi_fused_addmm_relu_sigmoid_threshold_backward_0(in_ptr0, in_ptr1")));
        const QString details = panel->detailsText();
        QVERIFY2(details.contains(QStringLiteral("XBLOCK: 128, num_warps: 4, num_stages: 1 (ran)")),
                 qPrintable(details));
        QVERIFY(details.contains(QStringLiteral(
            "pre-grad x_2, x_1, x → post-grad sigmoid, relu, add_tensor_1, le → this kernel")));
        QVERIFY(details.contains(QStringLiteral("module line 204")));
        QVERIFY(details.contains(QStringLiteral("16 registers/thread")));

        // cuBLAS: the wrapper's extern_kernels.* calls of the graph, marked in its module.
        w.state()->select(rowNamed(doc, "ampere_sgemm_32x32_sliced1x4_tn", "kernel"));
        QVERIFY(panel->messageText().contains(QStringLiteral("extern kernel")));
        const QList<QTextEdit::ExtraSelection> marked = panel->editor()->extraSelections();
        QCOMPARE(marked.size(), 2);
        for (const QTextEdit::ExtraSelection& m : marked)
            QVERIFY2(m.cursor.block().text().contains(QStringLiteral("extern_kernels.mm(")),
                     qPrintable(m.cursor.block().text()));
    }

    // The bundled example with its TORCH_TRACE log (made by make_example.py).
    void exampleLogGivesSource() {
        MainWindow w;
        QSignalSpy loaded(&w, &MainWindow::documentLoaded);
        w.openTrace(kExample, QStringLiteral(STACKLINE_EXAMPLE_DIR "/example.torch_trace.log"));
        QVERIFY(loaded.wait(60000));
        const ViewedTrace& doc = *w.document();
        w.state()->select(rowNamed(doc, kSoftmax, "kernel"));
        KernelCodePanel* panel = w.panel<KernelCodePanel>();
        QVERIFY2(panel->messageText().isEmpty(), qPrintable(panel->messageText()));
        QVERIFY(panel->editor()->firstLineNumber() > 1);
        QVERIFY(panel->editor()->toPlainText().contains(
            QStringLiteral("def triton_red_fused__softmax_4(")));
        QVERIFY(panel->detailsText().contains(QStringLiteral("XBLOCK=1, R0_BLOCK=2048")));
        QVERIFY(panel->pythonLines()->count() >= 2);
        // A cuBLAS kernel of the backward graph: the extern_kernels.* call that launched it, by
        // its place in the region, in the backward graph's own module.
        w.state()->select(rowNamed(doc, "ampere_sgemm_128x64_nn", "kernel"));
        QVERIFY2(panel->messageText().contains(QStringLiteral("extern kernel")),
                 qPrintable(panel->messageText()));
        QVERIFY(panel->headingText().contains(QStringLiteral("0/0', True)")));
        const QRegularExpressionMatch at =
            QRegularExpression(QStringLiteral("call at line (\\d+) launched it"))
                .match(panel->messageText());
        QVERIFY2(at.hasMatch(), qPrintable(panel->messageText()));
        const QStringList module = panel->editor()->toPlainText().split(QLatin1Char('\n'));
        QCOMPARE(panel->editor()->firstLineNumber(), 1);
        const int line = at.captured(1).toInt();
        QVERIFY(line >= 1 && line <= module.size());
        QVERIFY2(module[line - 1].trimmed().startsWith(QStringLiteral("extern_kernels.")),
                 qPrintable(module[line - 1]));
        QVERIFY(module.join(QLatin1Char('\n')).contains(QStringLiteral("def call(")));
    }

    // Without a log, the kernel_file the trace names is read when it is here.
    void kernelFileGivesSource() {
        QTemporaryDir dir;
        const QString module = dir.filePath(QStringLiteral("cabc.py"));
        QFile m(module);
        QVERIFY(m.open(QIODevice::WriteOnly));
        m.write(
            "import triton\n\n@triton.jit\n"
            "def triton_poi_fused_addmm_relu_sigmoid_threshold_backward_0(in_ptr0):\n"
            "    pass\n");
        m.close();
        const QString trace = dir.filePath(QStringLiteral("jit.pt.trace.json"));
        QFile f(trace);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(jitTrace().replace("KERNEL_FILE", module.toUtf8()));
        f.close();
        MainWindow w;
        QVERIFY(openTrace(w, trace));
        w.state()->select(rowNamed(
            *w.document(), "triton_poi_fused_addmm_relu_sigmoid_threshold_backward_0", "kernel"));
        KernelCodePanel* panel = w.panel<KernelCodePanel>();
        QVERIFY2(panel->messageText().contains(QStringLiteral("Shown from kernel_file")),
                 qPrintable(panel->messageText()));
        QVERIFY(panel->editor()->toPlainText().startsWith(QStringLiteral("import triton")));
        QCOMPARE(panel->editor()->textCursor().blockNumber() + 1, 4);  // the def, marked
        QFile::remove(module);
        w.state()->select(kNoRow);
        w.state()->select(rowNamed(
            *w.document(), "triton_poi_fused_addmm_relu_sigmoid_threshold_backward_0", "kernel"));
        QVERIFY(panel->messageText().contains(QStringLiteral("Or make its kernel_file")));
        QVERIFY(panel->messageText().contains(module));
    }

    void pythonLineOpensSource() {
        window_.state()->select(softmax_);
        QListWidget* lines = window_.panel<KernelCodePanel>()->pythonLines();
        QVERIFY(lines->count() >= 2);
        QListWidgetItem* attention = nullptr;
        for (int i = 0; i < lines->count(); ++i)
            if (lines->item(i)->text().startsWith(QStringLiteral("model.py:51")))
                attention = lines->item(i);
        QVERIFY(attention);
        window_.showTab(QStringLiteral("code"));
        QCOMPARE(window_.tabs()->currentWidget(), window_.panel<KernelCodePanel>());
        window_.panel<SourceView>()->showSource(QStringLiteral("/home/alice/proj/model.py"), 57);
        emit lines->itemClicked(attention);
        QCOMPARE(window_.tabs()->currentWidget(), window_.panel<SourceView>());
        QCOMPARE(window_.panel<SourceView>()->line(), 51);
    }

    void hotspotKernelOpensItsCode() {
        window_.state()->select(kNoRow);
        window_.showTab(QStringLiteral("hotspots"));
        window_.panel<HotspotsPanel>()->selectVisualRow(0);  // model.py:51
        QListWidget* kernels = window_.panel<HotspotsPanel>()->kernelList();
        QVERIFY(kernels->count() > 0);
        QListWidgetItem* item = kernels->item(0);
        emit kernels->itemDoubleClicked(item);
        QCOMPARE(window_.tabs()->currentWidget(), window_.panel<KernelCodePanel>());
        const EventRef selected = window_.state()->selected();
        QVERIFY(selected.isValid());
        const QString name = QString::fromUtf8(selected.doc->events().nameOf(selected.row));
        QVERIFY(item->text().contains(name));
        QVERIFY(window_.panel<KernelCodePanel>()->headingText().contains(name));
    }

    void sourceLineListsItsKernels() {
        window_.showTab(QStringLiteral("source"));
        window_.state()->showSource(QStringLiteral("/home/alice/proj/model.py"), 51);
        QToolButton* button = window_.panel<SourceView>()->kernelsButton();
        QVERIFY(!button->isHidden());
        QVERIFY2(button->text().startsWith(QStringLiteral("Kernels of line 51")),
                 qPrintable(button->text()));
        emit button->menu()->aboutToShow();  // the menu is filled as it opens
        const QList<QAction*> actions = button->menu()->actions();
        QVERIFY(actions.size() >= 2);  // the softmax forward and backward
        QVERIFY(actions.front()->text().contains(QStringLiteral("softmax")));
        actions.front()->trigger();
        QCOMPARE(window_.tabs()->currentWidget(), window_.panel<KernelCodePanel>());
        QVERIFY(
            window_.panel<KernelCodePanel>()->headingText().contains(QStringLiteral("softmax")));
        // A line that launched nothing lists nothing.
        window_.state()->showSource(QStringLiteral("/home/alice/proj/model.py"), 1);
        QVERIFY(button->isHidden());
    }

private:
    MainWindow window_;
    uint32_t softmax_ = kNoRow;
};

QTEST_MAIN(TstKernelCodePanel)
#include "tst_kernel_code_panel.moc"
