// The Diagnostics tab as a person reads it: warnings grouped by kind and message with counts, a
// warning the reference logs twice for a kernel shown once with count 2, expandable to the events
// (activating one selects it; the selected event's details say it once), what each kind means in
// words; and, on a trace whose Triton kernels a graph replay launched outside any compiled region,
// why kernel information cannot apply.
#include <QLineEdit>
#include <QMessageBox>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTreeView>

#include "panels/details_panel.h"
#include "panels/diagnostics_panel.h"
#include "state/viewer_state.h"
#include "viewer_test_support.h"

using namespace stackline;
using namespace ui_test;

namespace {

// A compiled region launching kernels that have kernel information but are no Triton kernels:
// the reference warns about each instance twice (reached from the op by External id, and from
// the launch by flow). fused_rms_norm runs
// twice, other_kernel once.
std::string unrecognizedKernels() {
    std::string events =
        R"({"ph":"X","cat":"cpu_op","name":"Torch-Compiled Region: 0/0","pid":1,"tid":1,"ts":0,"dur":100})";
    int ts = 10;
    for (auto [id, name] : {std::pair{5, "fused_rms_norm_kernel"}, std::pair{6, "other_kernel"},
                            std::pair{7, "fused_rms_norm_kernel"}}) {
        const std::string i = std::to_string(id), t = std::to_string(ts);
        events += R"(,{"ph":"X","cat":"cpu_op","name":"mylib::op","pid":1,"tid":1,"ts":)" + t +
                  R"(,"dur":8,"args":{"External id":)" + i + "}}";
        events +=
            R"(,{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":)" +
            t + R"(,"dur":5,"args":{"External id":)" + i + R"(,"correlation":)" + i + "}}";
        events += R"(,{"ph":"s","id":)" + i + R"(,"pid":1,"tid":1,"ts":)" + t +
                  R"(,"cat":"ac2g","name":"ac2g"})";
        const std::string k = std::to_string(200 + ts);
        events += R"(,{"ph":"X","cat":"kernel","name":")" + std::string(name) +
                  R"(","pid":0,"tid":7,"ts":)" + k + R"(,"dur":3,"args":{"External id":)" + i +
                  R"(,"correlation":)" + i + "}}";
        events += R"(,{"ph":"f","id":)" + i + R"(,"pid":0,"tid":7,"ts":)" + k +
                  R"(,"cat":"ac2g","name":"ac2g","bp":"e"})";
        ts += 20;
    }
    return R"({"traceEvents":[)" + events + "]}";
}

// Entries for both kernels, with stacks of their own: no single stack to fall back on.
const char* kKernelInfo = R"J({"('Torch-Compiled Region: 0/0', False)": {
    "fused_rms_norm_kernel": {"stack_traces": ["model.py:7 in forward"]},
    "other_kernel": {"stack_traces": ["model.py:9 in forward"]}}})J";

QString write(const QTemporaryDir& dir, const QString& name, const std::string& text) {
    QFile f(dir.filePath(name));
    if (!f.open(QIODevice::WriteOnly)) return {};
    f.write(text.data(), qint64(text.size()));
    return f.fileName();
}

}  // namespace

class TstDiagnosticsPanel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { isolateSettings(); }

    void init() {
        window_ = std::make_unique<MainWindow>();
        window_->resize(1200, 800);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    }
    void cleanup() { window_.reset(); }

    void groupsWarningsByKindAndMessage() {
        QTemporaryDir dir;
        const QString trace = write(dir, "t.pt.trace.json", unrecognizedKernels());
        const QString info = write(dir, "other.json", kKernelInfo);
        QVERIFY(open(trace, info));
        DiagnosticsPanel* panel = window_->panel<DiagnosticsPanel>();
        DiagnosticsModel* model = panel->model();
        QCOMPARE(panel->count(), 6);  // every occurrence, as the report keeps them

        // One kind, two messages: each kernel's warning once, with its count.
        QCOMPARE(model->rowCount(), 1);
        const QModelIndex kind = model->index(0, DiagnosticsModel::Text);
        QCOMPARE(kind.data().toString(), QStringLiteral("warning: unrecognized_kernel"));
        QCOMPARE(model->index(0, DiagnosticsModel::Count).data().toInt(), 6);
        QCOMPARE(model->rowCount(kind), 2);
        const QModelIndex rms = model->index(0, DiagnosticsModel::Text, kind);
        QVERIFY(rms.data().toString().startsWith(QStringLiteral("Kernel fused_rms_norm_kernel")));
        QCOMPARE(model->index(0, DiagnosticsModel::Count, kind).data().toString(),
                 QStringLiteral("4 on 2 events"));
        const QModelIndex other = model->index(1, DiagnosticsModel::Text, kind);
        QCOMPARE(model->index(1, DiagnosticsModel::Count, kind).data().toString(),
                 QStringLiteral("2 on 1 event"));
        QVERIFY(other.data(Qt::ToolTipRole).toString().contains(QStringLiteral("other_kernel")));

        // Expanded: the events, each logged twice and listed once.
        QCOMPARE(model->rowCount(rms), 2);
        QCOMPARE(model->rowCount(other), 1);
        const QModelIndex first = model->index(0, DiagnosticsModel::Text, rms);
        QCOMPARE(first.data().toString(), QStringLiteral("fused_rms_norm_kernel"));
        QCOMPARE(model->index(0, DiagnosticsModel::Count, rms).data().toInt(), 2);
        const ViewedTrace& doc = *window_->document();
        const uint32_t firstKernel = rowNamed(doc, "fused_rms_norm_kernel", "kernel");
        QCOMPARE(model->index(0, DiagnosticsModel::Uid, rms).data().toLongLong(),
                 qint64(firstKernel));
        QCOMPARE(model->parent(first), rms);
        QCOMPARE(model->parent(rms), kind);

        // What the kind means and what to do, in words, before anything is chosen.
        const QString unrecognizedText =
            QString::fromUtf8(diagnosticKindInfo(DiagnosticKind::UnrecognizedKernel).text.data());
        QVERIFY(
            panel->explanation()->toPlainText().contains(QStringLiteral("unrecognized_kernel")));
        QVERIFY(panel->explanation()->toPlainText().contains(unrecognizedText.left(40)));

        // Activating an event selects it in the viewer; the message is shown in full.
        panel->activate(first);
        QCOMPARE(window_->state()->selectedRow(&doc), firstKernel);
        QVERIFY(panel->explanation()->toPlainText().contains(
            QStringLiteral("Kernel fused_rms_norm_kernel cannot be recognized")));
        QVERIFY(panel->explanation()->toPlainText().contains(
            QStringLiteral("uid %1").arg(firstKernel)));

        // Selecting another kernel elsewhere marks its row, expanded.
        const uint32_t otherKernel = rowNamed(doc, "other_kernel", "kernel");
        window_->state()->select(otherKernel);
        const int marked = panel->markedDiagnostic();
        QVERIFY(marked >= 0);
        QCOMPARE(doc.provenance.diagnostics[size_t(marked)].row, otherKernel);
        QVERIFY(panel->view()->isExpanded(
            static_cast<QSortFilterProxyModel*>(panel->view()->model())->mapFromSource(other)));
        // The details say it too, once though it was logged twice.
        const QString links = window_->details()->linksText();
        QVERIFY2(links.contains(QStringLiteral("Warning (unrecognized_kernel): Kernel other_kernel "
                                               "cannot be recognized")),
                 qPrintable(links));
        QCOMPARE(links.count(QStringLiteral("unrecognized_kernel")), 1);
        window_->state()->select(kNoRow);
        QCOMPARE(panel->markedDiagnostic(), -1);

        // The filter keeps the matching message with its events, once typing pauses.
        panel->filter()->setText(QStringLiteral("other_k"));
        QAbstractItemModel* shown = panel->view()->model();
        QTRY_COMPARE(shown->rowCount(shown->index(0, 0)), 1);
        QCOMPARE(shown->rowCount(shown->index(0, 0, shown->index(0, 0))), 1);
    }

    // vLLM's full-graph decode (tests/data/corpus, AMD-AGI/TraceLens): 48 Triton kernels replayed
    // by one hipGraphLaunch, no compiled region. With kernel information (which names 47 of them
    // in both its graphs, one in one) the viewer says why 47 get no stack, in a message box and
    // the Diagnostics tab, at the launch, after what was matched by name.
    void graphReplayWithoutCompiledRegion() {
        const QString dir =
            QStringLiteral(STACKLINE_CORPUS_DIR "/vllm_decode_full_graph_execution/");
        QVERIFY(open(dir + "trace.json.gz", dir + "kernel_info.json"));
        DiagnosticsPanel* panel = window_->panel<DiagnosticsPanel>();
        QCOMPARE(window_->tabs()->currentWidget(), panel);
        // 1 matched by name, 47 named by several graphs, the replay.
        QVERIFY(window_->tabs()->tabText(window_->tabs()->currentIndex()).contains("(3)"));
        auto* box = window_->findChild<QMessageBox*>(QStringLiteral("warningBox"));
        QVERIFY(box);
        QCOMPARE(box->windowTitle(), QStringLiteral("Kernel information applies by name only"));
        QVERIFY2(box->text().startsWith(QStringLiteral("hipGraphLaunch replays 47 Triton kernels")),
                 qPrintable(box->text()));
        box->close();

        DiagnosticsModel* model = panel->model();
        QCOMPARE(model->index(0, DiagnosticsModel::Text).data().toString(),
                 QStringLiteral("warning: matched_by_name"));
        const QModelIndex kind = model->index(1, DiagnosticsModel::Text);
        QCOMPARE(kind.data().toString(), QStringLiteral("warning: no_compiled_region"));
        const QModelIndex message = model->index(0, DiagnosticsModel::Text, kind);
        QVERIFY(message.data().toString().contains(QStringLiteral("reduce-overhead")));
        // Its one message in full below the tree, where the row elides it.
        QVERIFY(panel->explanation()->toPlainText().contains(QStringLiteral("no_compiled_region")));
        QVERIFY(panel->explanation()->toPlainText().contains(QStringLiteral("with_stack=True")));
        const QModelIndex launch = model->index(0, DiagnosticsModel::Text, message);
        QCOMPARE(launch.data().toString(), QStringLiteral("hipGraphLaunch"));
        panel->activate(launch);
        const ViewedTrace& doc = *window_->document();
        QCOMPARE(window_->state()->selectedRow(&doc),
                 rowNamed(doc, "hipGraphLaunch", "cuda_runtime"));
    }

private:
    bool open(const QString& trace, const QString& kernelInfo) {
        QSignalSpy loaded(window_.get(), &MainWindow::documentLoaded);
        window_->openTrace(trace, kernelInfo);
        return loaded.wait(30000) && window_->document();
    }

    std::unique_ptr<MainWindow> window_;
};

QTEST_MAIN(TstDiagnosticsPanel)
#include "tst_diagnostics_panel.moc"
